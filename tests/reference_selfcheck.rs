//! Checks of the reference Renju checker that need no engine:
//! - hand-made positions, one per definition subtlety, each with a control
//!   position that differs in one stone and flips the answer;
//! - the verdict does not change under the 8 symmetries of the board;
//! - the position generators produce plenty of forbidden points of every kind.
//!
//! `reference_random_timing` (ignored by default) runs the random-position
//! loop of `forbidden_reference_random` with the reference alone, to time it:
//! `cargo test --test reference_selfcheck -- --ignored --nocapture`.

mod common;

use std::time::Instant;

use common::reference::{
    GEN_KINDS, GenKind, Grid, RefKind, RefVerdict, Rng, diagram, generate, notation, position,
    position_and_points, positions_from_env, reference_all_kinds, reference_verdict, sample_points,
    seed_from_env, threes_ignoring_legality,
};

const FIVE: RefVerdict = RefVerdict::Five;
const LEGAL: RefVerdict = RefVerdict::Legal;
const OVERLINE: RefVerdict = RefVerdict::Forbidden(RefKind::Overline);
const DOUBLE_FOUR: RefVerdict = RefVerdict::Forbidden(RefKind::DoubleFour);
const DOUBLE_THREE: RefVerdict = RefVerdict::Forbidden(RefKind::DoubleThree);

/// The verdict on the `?` of a drawn board, checked to be the same under all
/// 8 symmetries and to leave the board as it was.
fn verdict_of(text: &str) -> RefVerdict {
    let (g, q) = Grid::parse_marked(text);
    let (qx, qy) = q.expect("board text needs a '?'");
    let mut answers = Vec::new();
    for t in 0..8 {
        let mut tg = g.transformed(t);
        let (tx, ty) = g.transform_point(t, qx, qy);
        let before = tg.clone();
        answers.push(reference_verdict(&mut tg, tx, ty));
        assert_eq!(tg, before, "board not restored");
    }
    assert!(
        answers.iter().all(|a| *a == answers[0]),
        "verdict depends on symmetry: {answers:?}\n{text}"
    );
    answers[0]
}

fn check(name: &str, text: &str, expected: RefVerdict) {
    let got = verdict_of(text);
    let (g, q) = Grid::parse_marked(text);
    assert_eq!(
        got,
        expected,
        "{name}: expected {expected:?}, got {got:?}\n{}",
        diagram(&g, q)
    );
}

#[test]
fn basic_shapes() {
    check("simple 3-3", SIMPLE_33, DOUBLE_THREE);
    check("4-3 is legal", FOUR_THREE, LEGAL);
    check("overline", OVERLINE_6, OVERLINE);
    check(
        "straight four + closed four",
        STRAIGHT_PLUS_CLOSED_44,
        DOUBLE_FOUR,
    );
}

/// Two fours on ONE line: `X X X . P . X X X`, `X X . X P . X X`, `X . X P X . X`.
/// A straight four (`. X X X X .`) has two five points too, but is one four.
#[test]
fn single_line_double_fours() {
    check("XXX.P.XXX", SINGLE_LINE_44_A, DOUBLE_FOUR);
    check("XX.XP.XX", SINGLE_LINE_44_B, DOUBLE_FOUR);
    check("X.XPX.X", SINGLE_LINE_44_C, DOUBLE_FOUR);
    // FOUR_THREE: a straight four with a three is a legal 4-3, not a 4-4.
    check("straight four + three", FOUR_THREE, LEGAL);
}

/// An exact five wins even if the same move makes a double four or an
/// overline on another line.
#[test]
fn five_beats_everything() {
    check("five + 4-4", FIVE_BEATS_44, FIVE);
    check("five + overline", FIVE_BEATS_OVERLINE, FIVE);
}

/// 六腐: a three whose straight fours would be overlines is no three.
#[test]
fn overline_skeleton_is_no_three() {
    check("X..PXX..X", OVERLINE_SKELETON_NO_THREE, LEGAL);
    check(
        "X..PXX... (control)",
        OVERLINE_SKELETON_CONTROL,
        DOUBLE_THREE,
    );
}

/// 下止: `O . X X P . O` cannot become a straight four; the edge blocks like a stone.
#[test]
fn blocked_threes_are_no_threes() {
    check("O.XXP.O", BLOCKED_FURTHER_NO_THREE, LEGAL);
    check("edge: |PXX..", EDGE_BLOCKS_THREE, LEGAL);
    check("edge: |.PXX.. (control)", EDGE_CONTROL, DOUBLE_THREE);
}

/// A three whose only straight-four point is itself forbidden (there: a 4-4)
/// is dead, so the move is no 3-3 (seed figure 1.12). The control removes one
/// stone of the 4-4 at that point: it becomes a legal 4-3, the three is alive.
#[test]
fn dead_three_through_forbidden_point() {
    check("dead three", DEAD_THREE_44_POINT, LEGAL);
    check("dead three (control)", DEAD_THREE_CONTROL, DOUBLE_THREE);
    // And the straight-four point really is a double four once P is played.
    let (mut g, q) = Grid::parse_marked(DEAD_THREE_44_POINT);
    let (qx, qy) = q.unwrap();
    g.set(qx, qy, common::reference::BLACK);
    assert_eq!(reference_verdict(&mut g, 7, 7), DOUBLE_FOUR);
}

/// The same one level deeper: the three's only straight-four point is a
/// 4-3-3 point (a double three), whose threes are themselves true threes only
/// because THEIR straight-four points are legal.
#[test]
fn dead_three_through_double_three_point() {
    check("dead three (4-3-3 point)", DEAD_THREE_33_POINT, LEGAL);
    check(
        "dead three (4-3-3 point), control",
        DEAD_THREE_33_CONTROL,
        DOUBLE_THREE,
    );
    let (mut g, q) = Grid::parse_marked(DEAD_THREE_33_POINT);
    let (qx, qy) = q.unwrap();
    g.set(qx, qy, common::reference::BLACK);
    assert_eq!(reference_verdict(&mut g, 7, 7), DOUBLE_THREE);
}

/// A straight-four point that at the same time makes a five is legal (a five
/// is never forbidden), even though it would be a double four without the
/// five: the three is a true three. (Piskvork and Rapfi call it fake.)
#[test]
fn straight_four_point_that_makes_five() {
    check(
        "five at the four point",
        FIVE_POINT_MAKES_TRUE_THREE,
        DOUBLE_THREE,
    );
    check("no five there (control)", FIVE_POINT_CONTROL, LEGAL);
}

/// The straight four a three leads to must contain the move: `P . . X X . X`
/// holds a three, but P did not make it.
#[test]
fn three_must_include_the_move() {
    check("P..XX.X", OLDER_THREE_NOT_OURS, LEGAL);
}

/// A reasonable number of sampled points per position.
const CAP: usize = 12;

#[test]
fn verdict_is_symmetric_on_random_positions() {
    let positions = positions_from_env(1_500).min(1_500);
    let seed = seed_from_env(0x5EED_0001);
    let mut checked = 0;
    for i in 0..positions {
        let pos = position(seed, i);
        let mut rng = Rng::new(seed ^ i.rotate_left(32) ^ 0xA5A5);
        let g = &pos.grid;
        for (x, y) in sample_points(&pos, &mut rng, CAP) {
            let base = reference_verdict(&mut g.clone(), x, y);
            for t in 1..8 {
                let mut tg = g.transformed(t);
                let (tx, ty) = g.transform_point(t, x, y);
                let v = reference_verdict(&mut tg, tx, ty);
                assert_eq!(
                    v,
                    base,
                    "position {i} (seed {seed:#x}), point {} ({x},{y}), symmetry {t}\n{}",
                    notation(g.h, x, y),
                    diagram(g, Some((x, y)))
                );
            }
            // The verdict's kind is among all the reasons, and there are reasons
            // exactly when the move is forbidden.
            let all = reference_all_kinds(&mut g.clone(), x, y);
            match base {
                RefVerdict::Forbidden(k) => assert!(all.contains(&k), "{base:?} not in {all:?}"),
                _ => assert!(all.is_empty(), "{base:?} but reasons {all:?}"),
            }
            checked += 1;
        }
    }
    eprintln!("symmetry: {checked} points in {positions} positions agree under all 8 symmetries");
}

#[derive(Default, Debug)]
struct GenStats {
    positions: u64,
    stones: u64,
    points: u64,
    overline: u64,
    double_four: u64,
    double_three: u64,
    five: u64,
    /// Not a double three only because some three's straight-four point is
    /// forbidden: the recursion decided.
    dead_three: u64,
}

fn gen_stats(kind: GenKind, positions: u64, seed: u64) -> GenStats {
    let mut s = GenStats::default();
    let mut rng = Rng::new(seed);
    for _ in 0..positions {
        let pos = generate(kind, &mut rng);
        let mut g = pos.grid.clone();
        s.positions += 1;
        s.stones += (g.count(1) + g.count(2)) as u64;
        for (x, y) in sample_points(&pos, &mut rng, CAP) {
            s.points += 1;
            match reference_verdict(&mut g, x, y) {
                RefVerdict::Five => s.five += 1,
                RefVerdict::Legal => {
                    if threes_ignoring_legality(&mut g, x, y) >= 2 {
                        s.dead_three += 1;
                    }
                }
                RefVerdict::Forbidden(RefKind::Overline) => s.overline += 1,
                RefVerdict::Forbidden(RefKind::DoubleFour) => s.double_four += 1,
                RefVerdict::Forbidden(RefKind::DoubleThree) => s.double_three += 1,
            }
        }
    }
    s
}

/// Every generator must give the checker something to chew on: a good share
/// of sampled points forbidden, of each kind.
#[test]
fn generators_make_forbidden_points() {
    let mut failures = Vec::new();
    for kind in GEN_KINDS {
        let s = gen_stats(kind, 2_000, 0xC0FFEE ^ kind as u64);
        let pct = |n: u64| 100.0 * n as f64 / s.points as f64;
        eprintln!(
            "{kind:?}: {} positions, {:.1} stones/position, {} points: 33 {:.1}%, 44 {:.1}%, overline {:.1}%, five {:.1}%, 3-3 saved by a dead three {:.2}%",
            s.positions,
            s.stones as f64 / s.positions as f64,
            s.points,
            pct(s.double_three),
            pct(s.double_four),
            pct(s.overline),
            pct(s.five),
            pct(s.dead_three)
        );
        if s.points < 10 * s.positions
            || pct(s.double_three) < 3.0
            || pct(s.double_four) < 0.5
            || pct(s.overline) < 0.3
        {
            failures.push(format!(
                "{kind:?}: too few points or forbidden points: {s:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The loop of `forbidden_reference_random` with the reference compared to
/// itself on a fresh copy of the board, to time the reference's share.
#[test]
#[ignore]
fn reference_random_timing() {
    let positions = positions_from_env(200_000);
    let seed = seed_from_env(0x7469_616E_7975_616E);
    let start = Instant::now();
    let mut points = 0u64;
    let mut forbidden = 0u64;
    for i in 0..positions {
        let (pos, sample) = position_and_points(seed, i, CAP);
        let mut g = pos.grid.clone();
        let mut g2 = pos.grid.clone();
        for (x, y) in sample {
            let a = common::reference::reference_forbidden(&mut g, x, y);
            let b = common::reference::reference_forbidden(&mut g2, x, y);
            assert_eq!(a, b);
            points += 1;
            forbidden += a.is_some() as u64;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "{positions} positions, {points} points ({forbidden} forbidden), {secs:.1} s for two reference runs: {:.2} us per reference call",
        secs * 1e6 / (2 * points) as f64
    );
}

// ---------------------------------------------------------------------------
// The positions. `?` is the point asked about (a black move).
// ---------------------------------------------------------------------------

const SIMPLE_33: &str = "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . . X X ? . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
";

const FOUR_THREE: &str = "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . X X X ? . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
";

const SINGLE_LINE_44_A: &str = "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . X X X . ? . X X X . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
";

const SINGLE_LINE_44_B: &str = "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . X X . X ? . X X . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
";

const SINGLE_LINE_44_C: &str = "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . X . X ? X . X . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
";

const STRAIGHT_PLUS_CLOSED_44: &str = "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . O . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . X X X ? . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
";

const OVERLINE_6: &str = "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . X X X ? X X . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
";

const FIVE_BEATS_44: &str = "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . X . . X . . . . . . .
        . . . . . X . X . . . . . . .
        . . . . . . X X . . . . . . .
        . . . X X X X ? . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
";

const FIVE_BEATS_OVERLINE: &str = "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . . . . X . . . . . . .
        . . . X X X X ? O . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
";

const OVERLINE_SKELETON_NO_THREE: &str = "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . X . . ? X X . . X . . . .
        . . . . . X . . . . . . . . .
        . . . . . X . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
";

const OVERLINE_SKELETON_CONTROL: &str = "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . X . . ? X X . . . . . . .
        . . . . . X . . . . . . . . .
        . . . . . X . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
";

const BLOCKED_FURTHER_NO_THREE: &str = "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . O . X X ? . O . . . . . .
        . . . . . . X . . . . . . . .
        . . . . . . X . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
";

const EDGE_BLOCKS_THREE: &str = "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ? X X . . . . . . . . . . . .
        X . . . . . . . . . . . . . .
        X . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
";

const EDGE_CONTROL: &str = "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . ? X X . . . . . . . . . . .
        . X . . . . . . . . . . . . .
        . X . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
";

const DEAD_THREE_44_POINT: &str = "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . . . . . X X X O . . .
        . . . . . . . X . . . . . . .
        . . . . . X X ? . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
";

const DEAD_THREE_CONTROL: &str = "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . . . . . X X . O . . .
        . . . . . . . X . . . . . . .
        . . . . . X X ? . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
";

const FIVE_POINT_MAKES_TRUE_THREE: &str = "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . O . . .
        . . . . . . . . . . X . . . .
        . . . . . . . . . X . . . . .
        . . . . . . . . X . . . . . .
        . . . X X X X . . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . . X X ? . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . O . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
";

const FIVE_POINT_CONTROL: &str = "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . O . . .
        . . . . . . . . . . X . . . .
        . . . . . . . . . X . . . . .
        . . . . . . . . X . . . . . .
        . . . . X X X . . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . . X X ? . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . O . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
";

const OLDER_THREE_NOT_OURS: &str = "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . ? . . X X . X . . . . .
        . . . X . . . . . . . . . . .
        . . . X . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
";
const DEAD_THREE_33_POINT: &str = "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . X . . . . . . . . .
        . . . . . . X X . . . . . . .
        . . . . . . . . X X . . . . .
        . . . . . . . X . . . . . . .
        . . . . . X X ? . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
";

const DEAD_THREE_33_CONTROL: &str = "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . X X . . . . . . .
        . . . . . . . . X X . . . . .
        . . . . . . . X . . . . . . .
        . . . . . X X ? . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
";
