//! The public Renju forbidden-point cases: `shared/testdata/renju-forbidden-public.tsv`.
//!
//! Format (from the file's `#` header): one case per line, TAB-separated
//! `id size black white query expected kind tags source`; stones as
//! `x,y;x,y;...` or `-`, x = column from the left, y = row from the top;
//! `expected` is FORBIDDEN or ALLOWED; `kind` is a `+`-joined list among
//! `overline`, `44`, `33` for FORBIDDEN, `five` or `none` for ALLOWED, and `?`
//! when the source gives no kind. (The file also uses `-` in the kind column,
//! undocumented in its header; it is read like `?`: no kind given.)

use super::reference::{Grid, RefKind, diagram, notation};

/// Relative to the crate root, where `cargo test` runs integration tests.
pub const CASES_PATH: &str = "../shared/testdata/renju-forbidden-public.tsv";
/// The number of cases the file is documented to hold.
pub const CASES_EXPECTED: usize = 2689;

/// What the `kind` column says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KindSpec {
    /// `?` or `-`: nothing to check.
    Unknown,
    /// FORBIDDEN for any of these reasons.
    Forbidden(Vec<RefKind>),
    /// ALLOWED because the move makes a five.
    Five,
    /// ALLOWED and no five: a plain legal move.
    None,
}

#[derive(Clone, Debug)]
pub struct Case {
    pub line: usize,
    pub id: String,
    pub size: usize,
    pub black: Vec<(usize, usize)>,
    pub white: Vec<(usize, usize)>,
    pub query: (usize, usize),
    pub forbidden: bool,
    pub kind: KindSpec,
    pub kind_text: String,
    pub tags: String,
    pub source: String,
}

impl Case {
    pub fn grid(&self) -> Grid {
        Grid::from_stones(self.size, self.size, &self.black, &self.white)
    }

    /// A failure report: the case, its query point and `problem`, then the
    /// position as a diagram with the query marked.
    pub fn failure(&self, problem: &str) -> String {
        let g = self.grid();
        let (qx, qy) = self.query;
        format!(
            "{} (line {}, {}): query {} = ({qx},{qy}): {problem}\n{}",
            self.id,
            self.line,
            self.source,
            notation(g.h, qx, qy),
            diagram(&g, Some((qx, qy)))
        )
    }
}

fn parse_point(s: &str, line: usize) -> (usize, usize) {
    let (x, y) = s
        .split_once(',')
        .unwrap_or_else(|| panic!("line {line}: bad point {s:?}"));
    let x = x
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("line {line}: bad x in {s:?}"));
    let y = y
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("line {line}: bad y in {s:?}"));
    (x, y)
}

fn parse_stones(s: &str, line: usize) -> Vec<(usize, usize)> {
    if s == "-" {
        return Vec::new();
    }
    s.split(';')
        .filter(|p| !p.is_empty())
        .map(|p| parse_point(p, line))
        .collect()
}

fn parse_kind(s: &str, forbidden: bool, line: usize) -> KindSpec {
    match s {
        "?" | "-" | "" => KindSpec::Unknown,
        "five" if !forbidden => KindSpec::Five,
        "none" if !forbidden => KindSpec::None,
        _ if forbidden => KindSpec::Forbidden(
            s.split('+')
                .map(|k| match k {
                    "overline" => RefKind::Overline,
                    "44" => RefKind::DoubleFour,
                    "33" => RefKind::DoubleThree,
                    other => panic!("line {line}: unknown forbidden kind {other:?}"),
                })
                .collect(),
        ),
        other => panic!("line {line}: kind {other:?} does not fit an ALLOWED case"),
    }
}

/// Parse the whole case file. Panics (with the line number) on anything malformed.
pub fn parse_cases(text: &str) -> Vec<Case> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        if raw.starts_with('#') || raw.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = raw.split('\t').collect();
        assert_eq!(
            f.len(),
            9,
            "line {line}: expected 9 TAB-separated fields, got {}",
            f.len()
        );
        let size: usize = f[1]
            .parse()
            .unwrap_or_else(|_| panic!("line {line}: bad size {:?}", f[1]));
        let forbidden = match f[5] {
            "FORBIDDEN" => true,
            "ALLOWED" => false,
            other => panic!("line {line}: bad expectation {other:?}"),
        };
        out.push(Case {
            line,
            id: f[0].to_string(),
            size,
            black: parse_stones(f[2], line),
            white: parse_stones(f[3], line),
            query: parse_point(f[4], line),
            forbidden,
            kind: parse_kind(f[6], forbidden, line),
            kind_text: f[6].to_string(),
            tags: f[7].to_string(),
            source: f[8].to_string(),
        });
    }
    out
}

/// Read and parse the case file.
pub fn load_cases() -> Vec<Case> {
    let text = std::fs::read_to_string(CASES_PATH)
        .unwrap_or_else(|e| panic!("cannot read {CASES_PATH} (run from the crate root): {e}"));
    parse_cases(&text)
}
