//! Board tests: make/undo exactness, win detection per rule, bad input, diagrams.

use super::*;
use crate::game::Rng;

fn board(rule: Rule, text: &str) -> Board {
    Board::from_diagram(text, rule).expect("diagram").0
}

type Snapshot = (
    Vec<Cell>,
    Vec<[u32; 4]>,
    Vec<u32>,
    Vec<[Threat; 2]>,
    Vec<u8>,
    u64,
    [[u16; 16]; 2],
    [[PointSet; 3]; 2],
);

/// A full snapshot of everything incremental, for round-trip comparisons.
/// Patterns and threats are compared on empty points only: those of stones
/// and walls are never read.
fn snapshot(b: &Board) -> Snapshot {
    let empty = |i: usize| b.cells[i] == Cell::Empty;
    (
        b.cells.to_vec(),
        b.keys.to_vec(),
        (0..CELLS)
            .map(|i| if empty(i) { b.pats[i] } else { 0 })
            .collect(),
        (0..CELLS)
            .map(|i| {
                if empty(i) {
                    b.threats[i]
                } else {
                    [Threat::None; 2]
                }
            })
            .collect(),
        b.near.to_vec(),
        b.hash,
        b.threat_counts,
        b.urgent.clone(),
    )
}

/// Rebuilds a board from scratch from the stones of `b`.
fn rebuilt(b: &Board) -> Board {
    let mut fresh = Board::new(b.width(), b.height(), b.rule()).unwrap();
    for &(p, c) in b.history() {
        fresh.put(p, c).unwrap();
    }
    fresh
}

fn assert_same_state(a: &Board, b: &Board) {
    for p in a.points() {
        assert_eq!(a.cell(p), b.cell(p), "cell {p:?}");
        for d in Direction::ALL {
            assert_eq!(a.line_key(p, d), b.line_key(p, d), "key {p:?} {d:?}");
        }
        if a.is_empty(p) {
            for c in Color::BOTH {
                assert_eq!(a.patterns(p, c), b.patterns(p, c), "patterns {p:?} {c:?}");
                assert_eq!(a.threat(p, c), b.threat(p, c), "threat {p:?} {c:?}");
            }
        }
        assert_eq!(a.is_near_stone(p), b.is_near_stone(p), "near {p:?}");
    }
    assert_eq!(a.hash(), b.hash());
    for c in Color::BOTH {
        assert_eq!(
            a.threat_counts(c),
            b.threat_counts(c),
            "threat counts {c:?}"
        );
        let mut counted = [0u16; 16];
        for p in a.points() {
            let t = if a.is_empty(p) {
                a.threat(p, c)
            } else {
                Threat::None
            };
            counted[t as usize] += 1;
        }
        assert_eq!(*a.threat_counts(c), counted, "threat counts by scan {c:?}");
        for level in URGENT_LEVELS {
            let kept: Vec<Pos> = a.urgent_set(c, level).unwrap().iter().collect();
            let scanned: Vec<Pos> = a
                .points()
                .filter(|&p| a.is_empty(p) && a.threat(p, c) >= level)
                .collect();
            assert_eq!(kept, scanned, "urgent set {c:?} {level:?}");
        }
    }
}

#[test]
fn make_undo_round_trips_exactly() {
    let mut rng = Rng::new(7);
    for &(w, h, rule) in &[
        (15, 15, Rule::Renju),
        (20, 20, Rule::Freestyle),
        (5, 5, Rule::Standard),
        (32, 32, Rule::Caro),
        (9, 17, Rule::CaroExact),
    ] {
        for _ in 0..20 {
            let mut b = Board::new(w, h, rule).unwrap();
            let empty = snapshot(&b);
            let mut states = vec![snapshot(&b)];
            let n = rng.below(w * h);
            for _ in 0..n {
                let empties: Vec<Pos> = b.points().filter(|&p| b.is_empty(p)).collect();
                let p = empties[rng.below(empties.len())];
                b.make(p);
                states.push(snapshot(&b));
            }
            assert_same_state(&b, &rebuilt(&b));
            while b.stone_count() > 0 {
                states.pop();
                b.undo().unwrap();
                assert!(
                    snapshot(&b) == *states.last().unwrap(),
                    "undo restores state"
                );
            }
            assert!(snapshot(&b) == empty);
            assert_eq!(b.undo(), Err(BoardError::NothingToUndo));
        }
    }
}

#[test]
fn remove_any_stone_matches_a_rebuild() {
    let mut rng = Rng::new(11);
    let mut b = Board::new(15, 15, Rule::Renju).unwrap();
    for _ in 0..60 {
        let empties: Vec<Pos> = b.points().filter(|&p| b.is_empty(p)).collect();
        b.make(empties[rng.below(empties.len())]);
    }
    for _ in 0..30 {
        let (p, _) = b.history()[rng.below(b.stone_count())];
        b.remove(p).unwrap();
        assert_same_state(&b, &rebuilt(&b));
        // Moves made after a removal undo exactly, and so do the older ones.
        let before = snapshot(&b);
        for _ in 0..3 {
            let empties: Vec<Pos> = b.points().filter(|&p| b.is_empty(p)).collect();
            b.make(empties[rng.below(empties.len())]);
        }
        for _ in 0..3 {
            b.undo().unwrap();
        }
        assert!(
            snapshot(&b) == before,
            "undo after a removal restores state"
        );
    }
    while b.stone_count() > 0 {
        b.undo().unwrap();
        assert_same_state(&b, &rebuilt(&b));
    }
    let empty = b.points().find(|&p| b.is_empty(p)).unwrap();
    assert!(matches!(b.remove(empty), Err(BoardError::NoStone { .. })));
}

#[test]
fn bad_input_is_an_error_and_changes_nothing() {
    assert!(Board::new(4, 15, Rule::Freestyle).is_err());
    assert!(Board::new(15, 33, Rule::Freestyle).is_err());
    assert!(Board::new(5, 32, Rule::Freestyle).is_ok());
    let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
    b.play(Pos::new(7, 7)).unwrap();
    let before = snapshot(&b);
    assert_eq!(
        b.play(Pos::new(7, 7)),
        Err(BoardError::Occupied { x: 7, y: 7 })
    );
    assert!(b.pos(15, 3).is_err());
    assert!(b.pos(-1, 3).is_err());
    assert!(b.pos(3, 15).is_err());
    assert!(b.put(Pos::new(20, 3), Color::White).is_err());
    assert!(b.put(Pos::new(3, 20), Color::White).is_err());
    assert!(snapshot(&b) == before);
    assert_eq!(b.stone_count(), 1);
}

#[test]
fn side_to_move_follows_counts() {
    let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
    assert_eq!(b.side_to_move(), Color::Black);
    b.make(Pos::new(7, 7));
    assert_eq!(b.side_to_move(), Color::White);
    b.make(Pos::new(8, 7));
    assert_eq!(b.side_to_move(), Color::Black);
    assert_eq!(b.history()[1], (Pos::new(8, 7), Color::White));
}

/// Checks win detection two ways: the five-point threat before the move and
/// the winning-stone test after it.
fn wins(rule: Rule, text: &str, color: Color) -> bool {
    let (mut b, marks) = Board::from_diagram(text, rule).unwrap();
    let p = marks.iter().find(|m| m.1 == '*').expect("a * mark").0;
    let before = b.is_five(p, color);
    b.put(p, color).unwrap();
    let after = b.is_win_stone(p);
    assert_eq!(
        before,
        after,
        "threat and stone test disagree:\n{}",
        b.diagram()
    );
    assert_eq!(b.last_move_wins() == Some(color), after);
    assert_eq!(b.winner() == Some(color), after);
    after
}

#[test]
fn five_and_overline_in_every_rule() {
    let five = "
        . . . . . . . . .
        . X X * X X . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .";
    let six = "
        . . . . . . . . .
        . X X * X X X . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .";
    for rule in Rule::ALL {
        assert!(wins(rule, five, Color::Black), "{rule} five");
        assert!(
            wins(rule, &five.replace('X', "O"), Color::White),
            "{rule} white five"
        );
    }
    assert!(wins(Rule::Freestyle, six, Color::Black));
    assert!(!wins(Rule::Standard, six, Color::Black));
    assert!(!wins(Rule::Renju, six, Color::Black));
    assert!(wins(Rule::Renju, &six.replace('X', "O"), Color::White));
    assert!(!wins(Rule::Standard, &six.replace('X', "O"), Color::White));
    assert!(wins(Rule::Caro, six, Color::Black));
    assert!(!wins(Rule::CaroExact, six, Color::Black));
}

#[test]
fn caro_blocked_five_does_not_win_but_edges_do_not_block() {
    let blocked = "
        . . . . . . . . .
        O X X * X X O . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .";
    let edge = "
        . . . . . . . . .
        X X * X X O . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .";
    for rule in [Rule::Caro, Rule::CaroExact] {
        assert!(!wins(rule, blocked, Color::Black), "{rule}");
        assert!(wins(rule, edge, Color::Black), "{rule}");
    }
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        assert!(wins(rule, blocked, Color::Black), "{rule}");
    }
}

#[test]
fn wins_along_every_direction_and_at_corners() {
    // Corner-to-corner diagonal on a 5x5 board, and an anti-diagonal on a
    // rectangular board touching two edges.
    let diag = "
        X . . . .
        . X . . .
        . . * . .
        . . . X .
        . . . . X";
    let anti = "
        . . . . . . X
        . . . . . X .
        . . . . * . .
        . . . X . . .
        . . X . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .";
    let vertical = "
        . O . . .
        . O . . .
        . * . . .
        . O . . .
        . O . . .
        . . . . .";
    for rule in Rule::ALL {
        assert!(wins(rule, diag, Color::Black), "{rule} diagonal");
        assert!(wins(rule, anti, Color::Black), "{rule} anti-diagonal");
        assert!(wins(rule, vertical, Color::White), "{rule} vertical");
        assert!(!wins(rule, anti, Color::White), "{rule} wrong colour");
    }
}

#[test]
fn renju_black_five_wins_even_with_double_four_or_three() {
    // The move at * makes an exact five horizontally and a four and a three elsewhere.
    let text = "
        . . . . . . . . . . .
        . . . . . X . . . . .
        . . . . . X . . . . .
        . . . . . X . . . . .
        . X X X X * . . . . .
        . . . . X . . . . . .
        . . . X . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .";
    let (mut b, marks) = Board::from_diagram(text, Rule::Renju).unwrap();
    let p = marks[0].0;
    assert_eq!(b.forbidden_kind(p), None);
    assert!(wins(Rule::Renju, text, Color::Black));
}

#[test]
fn renju_forbidden_shapes_as_diagrams() {
    // `*` forbidden, `!` allowed, each on its own board.
    let cases: &[(&str, Option<ForbiddenKind>)] = &[
        (
            "
            . . . . . . . . . . .
            . . . . . . . . . . .
            . X X * X X X . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .",
            Some(ForbiddenKind::Overline),
        ),
        (
            "
            . . . . . . . . . . .
            . X X X . * . X X X .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .",
            Some(ForbiddenKind::DoubleFour),
        ),
        (
            "
            . . . . . . . . . .
            . . . . . . . . . .
            . . . . X . . . . .
            . . . . X . . . . .
            . . X X * . . . . .
            . . . . . . . . . .
            . . . . . . . . . .",
            Some(ForbiddenKind::DoubleThree),
        ),
        (
            // The vertical three is blocked: 4-3 is legal.
            "
            . . . . O . . . . .
            . . . . X . . . . .
            . . . . X . . . . .
            . . . . X . . . . .
            . . X X * . . . . .
            . . . . . . . . . .
            . . . . . . . . . .",
            None,
        ),
        (
            // One three is false (下止): its four would meet a white stone.
            "
            . . . . . . . . . .
            . . . . O . . . . .
            . . . . . . . . . .
            . . . . X . . . . .
            . . . . X . . . . .
            . O . X * . . . . .
            . . . . . . . . . .
            . . . . O . . . . .
            . . . . . . . . . .",
            None,
        ),
    ];
    for (text, expected) in cases {
        let (mut b, marks) = Board::from_diagram(text, Rule::Renju).unwrap();
        let p = marks[0].0;
        assert_eq!(
            b.forbidden_kind(p),
            *expected,
            "\n{}",
            b.diagram_marked(&marks)
        );
        let listed: Vec<_> = b.forbidden_points();
        assert_eq!(listed.iter().any(|&(q, _)| q == p), expected.is_some());
        // Freestyle knows no forbidden points.
        let (mut f, _) = Board::from_diagram(text, Rule::Freestyle).unwrap();
        assert_eq!(f.forbidden_kind(p), None);
    }
}

#[test]
fn diagram_round_trip() {
    let text = "
        . . . . .
        . X O . .
        . . X . .
        . . . . .
        . . . . .";
    let b = board(Rule::Freestyle, text);
    let again = board(Rule::Freestyle, &b.diagram());
    assert_eq!(b.hash(), again.hash());
    assert!(b.diagram().starts_with("    a b c d e\n  5 . . . . ."));
}

#[test]
fn candidates_are_near_stones() {
    let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
    assert_eq!(b.candidates(), vec![Pos::new(7, 7)]);
    b.make(Pos::new(0, 0));
    let c = b.candidates();
    assert_eq!(c.len(), 8);
    assert!(c.iter().all(|p| p.x() <= 2 && p.y() <= 2));
}

#[test]
fn null_move_passes_the_turn_and_is_hashed() {
    let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
    b.make(Pos::new(7, 7));
    let (h0, side0) = (b.hash(), b.side_to_move());
    assert_eq!(side0, Color::White);
    b.make_null();
    assert_eq!(b.side_to_move(), Color::Black);
    assert_ne!(b.hash(), h0);
    // Moves after a pass alternate as usual and undo cleanly.
    b.make(Pos::new(8, 8));
    assert_eq!(b.cell(Pos::new(8, 8)), Cell::Black);
    assert_eq!(b.side_to_move(), Color::White);
    b.make(Pos::new(6, 6));
    assert_eq!(b.cell(Pos::new(6, 6)), Cell::White);
    b.undo().unwrap();
    b.undo().unwrap();
    b.undo_null();
    assert_eq!((b.hash(), b.side_to_move()), (h0, side0));
    // A pass by black too.
    b.make(Pos::new(6, 6));
    let h1 = b.hash();
    b.make_null();
    assert_eq!(b.side_to_move(), Color::White);
    b.undo_null();
    assert_eq!((b.hash(), b.side_to_move()), (h1, Color::Black));
}

#[test]
fn hash_after_is_the_hash_once_the_move_is_made() {
    let mut b = Board::new(15, 15, Rule::Renju).unwrap();
    for (i, (x, y)) in [(7, 7), (8, 8), (6, 8), (9, 9)].into_iter().enumerate() {
        if i == 2 {
            // After a pass too (the side to move is then hashed in).
            b.make_null();
        }
        let p = Pos::new(x, y);
        let want = b.hash_after(p);
        b.make(p);
        assert_eq!(b.hash(), want, "move {i}");
    }
}

#[test]
fn threat_with_stone_matches_making_the_move() {
    let mut rng = Rng::new(0x5749_5448);
    let mut compared = 0;
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro] {
        for _ in 0..30 {
            let mut b = Board::new(15, 15, rule).unwrap();
            for _ in 0..rng.below(60) {
                let near: Vec<Pos> = b
                    .candidates()
                    .into_iter()
                    .filter(|p| (p.x() as i32 - 7).abs() <= 4 && (p.y() as i32 - 7).abs() <= 4)
                    .collect();
                if near.is_empty() {
                    break;
                }
                b.make(near[rng.below(near.len())]);
            }
            let empties: Vec<Pos> = b.points().filter(|&p| b.is_empty(p)).collect();
            for _ in 0..200 {
                let p = empties[rng.below(empties.len())];
                let q = empties[rng.below(empties.len())];
                if p == q {
                    continue;
                }
                for color in [Color::Black, Color::White] {
                    for stone in [Color::Black, Color::White] {
                        let before = b.threat(p, color);
                        let predicted = b.threat_with_stone(p, color, q, stone);
                        b.make_color(q, stone);
                        let actual = b.threat(p, color);
                        b.undo().unwrap();
                        match predicted {
                            Some(t) => assert_eq!(t, actual, "{rule:?} {p:?} {q:?}\n{b:?}"),
                            None => assert_eq!(before, actual, "{rule:?} {p:?} {q:?} out of sight"),
                        }
                        compared += 1;
                    }
                }
            }
        }
    }
    assert!(compared > 10_000);
}

/// The shape sums of `b` summed afresh over its empty points.
fn shape_sums_afresh(b: &Board) -> [[i32; 2]; 2] {
    let mut s = [[0; 2]; 2];
    let t = b.shape_tables();
    for p in b.points().filter(|&p| b.is_empty(p)) {
        for c in [Color::Black, Color::White] {
            let v = t[c.index()][b.packed_patterns(p, c) as usize];
            s[c.index()][0] += v[0] as i32;
            s[c.index()][1] += v[1] as i32;
        }
    }
    s
}

#[test]
fn shape_sums_follow_make_undo_and_remove() {
    let mut rng = Rng::new(0x5a4e);
    let mut table: Box<ShapeTable> = vec![[0i16; 2]; 1 << 16]
        .into_boxed_slice()
        .try_into()
        .unwrap();
    for (i, v) in table.iter_mut().enumerate() {
        if i != 0 {
            *v = [rng.below(200) as i16 - 100, rng.below(200) as i16 - 100];
        }
    }
    let table: &'static ShapeTable = Box::leak(table);
    let mut other = table.to_vec();
    other.reverse();
    other[0] = [0, 0];
    let other: &'static ShapeTable = Box::leak(other.into_boxed_slice().try_into().unwrap());
    let sums =
        |b: &Board| [Color::Black, Color::White].map(|c| [b.shape_sum(c, 0), b.shape_sum(c, 1)]);
    for rule in [Rule::Renju, Rule::Freestyle, Rule::Caro] {
        let mut b = Board::new(15, 15, rule).unwrap();
        for _ in 0..10 {
            let empties: Vec<Pos> = b.points().filter(|&p| b.is_empty(p)).collect();
            b.make(empties[rng.below(empties.len())]);
        }
        // Tables set mid-game; the moves before it still undo correctly.
        b.set_shape_tables([table, other]);
        assert_eq!(sums(&b), shape_sums_afresh(&b));
        for _ in 0..80 {
            let empties: Vec<Pos> = b.points().filter(|&p| b.is_empty(p)).collect();
            match rng.below(5) {
                0 if b.stone_count() > 0 => {
                    b.undo().unwrap();
                }
                1 if b.stone_count() > 0 => {
                    let (p, _) = b.history()[rng.below(b.stone_count())];
                    b.remove(p).unwrap();
                }
                _ => b.make(empties[rng.below(empties.len())]),
            }
            // Renju's forbidden-point test puts and takes stones itself.
            b.forbidden_points();
            assert_eq!(sums(&b), shape_sums_afresh(&b), "{rule:?}");
        }
        while b.stone_count() > 0 {
            b.undo().unwrap();
            assert_eq!(sums(&b), shape_sums_afresh(&b));
        }
    }
}
