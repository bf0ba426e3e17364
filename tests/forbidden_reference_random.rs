//! The ENGINE's Renju forbidden-point checker against the slow reference
//! checker (`tests/common/reference.rs`) on generated positions.
//!
//! Positions come from three generators, mixed (dense clusters, black stones
//! strung along lines, planted hard shapes with nested forbidden points); in
//! each, up to 12 empty points near black stones are asked about, the most
//! promising first. The engine board is built once per position and asked
//! about every point in turn, so a checker that does not restore its board
//! shows up as a disagreement on a later point.
//!
//! Environment:
//! - `TIANYUAN_REF_POSITIONS` (default 200000): how many positions;
//! - `TIANYUAN_REF_SEED` (decimal or 0x hex): another fixed seed;
//! - `TIANYUAN_REF_FIRST`: index of the first position (a failure prints the
//!   command line that replays just its position).
//!
//! The default run takes about 10 s of reference time on one core, plus the
//! engine's share.

mod common;

use common::engine::{engine_board, to_ref};

use std::time::Instant;

use common::reference::{
    GenKind, RefKind, diagram, first_from_env, notation, position_and_points, positions_from_env,
    reference_all_kinds, reference_forbidden, seed_from_env,
};
use tianyuan::game::Pos;

const DEFAULT_POSITIONS: u64 = 200_000;
/// "tianyuan" in ASCII.
const DEFAULT_SEED: u64 = 0x7469_616E_7975_616E;
/// Points asked about per position.
const POINTS_PER_POSITION: usize = 12;

#[derive(Default)]
struct Tally {
    positions: u64,
    points: u64,
    overline: u64,
    double_four: u64,
    double_three: u64,
}

#[test]
fn engine_matches_reference_on_random_positions() {
    let positions = positions_from_env(DEFAULT_POSITIONS);
    let seed = seed_from_env(DEFAULT_SEED);
    let first = first_from_env();
    let start = Instant::now();
    let mut tallies: Vec<(GenKind, Tally)> = common::reference::GEN_KINDS
        .iter()
        .map(|&k| (k, Tally::default()))
        .collect();

    for index in first..first + positions {
        let (pos, points) = position_and_points(seed, index, POINTS_PER_POSITION);
        let mut g = pos.grid.clone();
        let mut board = engine_board(&g);
        let tally = &mut tallies.iter_mut().find(|(k, _)| *k == pos.kind).unwrap().1;
        tally.positions += 1;
        for (x, y) in points {
            let reference = reference_forbidden(&mut g, x, y);
            let engine = board.forbidden_kind(Pos::new(x, y)).map(to_ref);
            tally.points += 1;
            match reference {
                Some(RefKind::Overline) => tally.overline += 1,
                Some(RefKind::DoubleFour) => tally.double_four += 1,
                Some(RefKind::DoubleThree) => tally.double_three += 1,
                None => {}
            }
            // Both must agree on forbidden or not; when both say forbidden,
            // the engine's reason must be one of the reasons that hold.
            let agree = match (reference, engine) {
                (None, None) => true,
                (Some(r), Some(e)) => r == e || reference_all_kinds(&mut g, x, y).contains(&e),
                _ => false,
            };
            if !agree {
                let all = reference_all_kinds(&mut g, x, y);
                panic!(
                    "engine and reference disagree on a black move at {} = ({x},{y})\n\
                     position {index} of seed {seed:#x} ({:?} generator)\n\
                     reference: {reference:?} (all reasons: {all:?})\n\
                     engine:    {engine:?}\n{}\n\
                     replay: TIANYUAN_REF_SEED={seed:#x} TIANYUAN_REF_FIRST={index} TIANYUAN_REF_POSITIONS=1 \
                     cargo test --test forbidden_reference_random",
                    notation(g.h, x, y),
                    pos.kind,
                    diagram(&g, Some((x, y)))
                );
            }
        }
    }

    for (kind, t) in &tallies {
        eprintln!(
            "{kind:?}: {} positions, {} points: {} overline, {} 4-4, {} 3-3",
            t.positions, t.points, t.overline, t.double_four, t.double_three
        );
    }
    eprintln!(
        "engine agrees with the reference on {} points in {positions} positions ({:.1} s)",
        tallies.iter().map(|(_, t)| t.points).sum::<u64>(),
        start.elapsed().as_secs_f64()
    );
}
