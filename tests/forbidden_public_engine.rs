//! The engine's forbidden-point checker against every public test case.

use tianyuan::game::{Board, Color, ForbiddenKind, Pos, Rule};

fn stones(field: &str) -> Vec<Pos> {
    if field == "-" {
        return Vec::new();
    }
    field
        .split(';')
        .map(|s| {
            let (x, y) = s.split_once(',').expect("x,y");
            Pos::new(x.parse().unwrap(), y.parse().unwrap())
        })
        .collect()
}

#[test]
fn all_public_cases() {
    let data = std::fs::read_to_string("../shared/testdata/renju-forbidden-public.tsv")
        .expect("read ../shared/testdata/renju-forbidden-public.tsv");
    let mut failures = Vec::new();
    let mut total = 0;
    for line in data
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        let (id, size, black, white, query, expected, kind) =
            (f[0], f[1], f[2], f[3], f[4], f[5], f[6]);
        let size: usize = size.parse().unwrap();
        let mut b = Board::new(size, size, Rule::Renju).unwrap();
        for p in stones(black) {
            b.put(p, Color::Black).unwrap();
        }
        for p in stones(white) {
            b.put(p, Color::White).unwrap();
        }
        let q = stones(query)[0];
        let got = b.forbidden_kind(q);
        let ok = match (expected, got) {
            ("ALLOWED", None) => true,
            ("FORBIDDEN", Some(k)) => {
                kind == "?"
                    || kind.split('+').any(|s| {
                        matches!(
                            (s, k),
                            ("overline", ForbiddenKind::Overline)
                                | ("44", ForbiddenKind::DoubleFour)
                                | ("33", ForbiddenKind::DoubleThree)
                        )
                    })
            }
            _ => false,
        };
        total += 1;
        if !ok {
            failures.push(format!(
                "{id}: expected {expected} ({kind}), got {got:?}\n{}",
                b.diagram_marked(&[(q, '?')])
            ));
        }
    }
    assert_eq!(total, 2689, "case count");
    assert!(
        failures.is_empty(),
        "{} of {total} cases fail:\n{}",
        failures.len(),
        failures
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
