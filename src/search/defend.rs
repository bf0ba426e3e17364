//! Defence points (Yixin-Board's `YXSEARCHDEFEND`): which moves of the side
//! to move leave the opponent without a forced win.
//!
//! First the opponent's threat is checked as if the side to move passed: if
//! the threat solvers find no forced win (continuous fours, or threes and
//! fours) for the opponent, every move holds and nothing more is searched.
//! Otherwise every legal point is played in turn and the opponent's forced
//! win searched again, each within an equal share of the time and nodes
//! left: a point after which a win is found is lost, one after which none is
//! found within its share holds (as far as the solvers see). Each check is
//! the one the search makes of a new best move (`wins_by_force`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::threats::legal_for;
use super::{Limits, wins_by_force};
use crate::game::{Board, Pos, Threat};

/// The outcome of a defence search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Defence {
    /// The opponent wins by force if the side to move passes.
    pub threatened: bool,
    /// Points after which the opponent still wins by force, in the order checked.
    pub lost: Vec<Pos>,
    /// Points after which no forced win was found for the opponent.
    pub hold: Vec<Pos>,
    /// Legal points left unchecked when the time, the nodes or a stop ran out.
    pub unchecked: Vec<Pos>,
    /// Solver nodes spent.
    pub nodes: u64,
}

/// Finds the defence points of the side to move on `board` within `limits`'
/// hard limit (from `start`) and node limit; `stop` ends it early (the
/// points not reached are `unchecked`). `on_lost` hears of each lost point
/// as it is found. Points in `limits.exclude` are left out.
pub fn search_defence(
    board: &Board,
    limits: &Limits,
    start: Instant,
    stop: &AtomicBool,
    on_lost: &mut dyn FnMut(Pos),
) -> Defence {
    let mut b = board.clone();
    let me = b.side_to_move();
    let mut points: Vec<Pos> = b
        .points()
        .filter(|&p| b.is_empty(p) && !limits.exclude.contains(&p))
        .collect();
    points.retain(|&p| legal_for(&mut b, p, me));
    // Points near the stones first: those are where defences are.
    points.sort_by_key(|&p| !b.is_near_stone(p));
    let deadline = start + limits.hard_capped();
    let mut out = Defence::default();

    b.make_null();
    let (threat, nodes) = wins_by_force(&mut b, stop, deadline, limits.max_nodes);
    b.undo_null();
    out.nodes = nodes;
    if stop.load(Ordering::Relaxed) {
        out.unchecked = points;
        return out;
    }
    out.threatened = threat;
    if !threat {
        out.hold = points;
        return out;
    }
    for (i, &p) in points.iter().enumerate() {
        let now = Instant::now();
        let left = points.len() - i;
        let node_budget = limits.max_nodes.saturating_sub(out.nodes) / left as u64;
        if stop.load(Ordering::Relaxed) || now >= deadline || node_budget == 0 {
            out.unchecked = points[i..].to_vec();
            break;
        }
        if b.threat(p, me) == Threat::Five {
            // A five ends the game: nothing is left to defend.
            out.hold.push(p);
            continue;
        }
        let share = (deadline - now) / left as u32;
        b.make(p);
        let (lost, nodes) = wins_by_force(&mut b, stop, now + share, node_budget);
        b.undo().ok();
        out.nodes += nodes;
        if stop.load(Ordering::Relaxed) {
            // Cut short: this point's answer is not known.
            out.unchecked = points[i..].to_vec();
            break;
        }
        if lost {
            out.lost.push(p);
            on_lost(p);
        } else {
            out.hold.push(p);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Rule, notation};
    use std::time::Duration;

    fn pts(text: &str) -> Vec<Pos> {
        notation::parse_rif_sequence(text, 15, 15).expect("points")
    }

    fn board(rule: Rule, moves: &str) -> Board {
        let mut b = Board::new(15, 15, rule).expect("board");
        for p in pts(moves) {
            b.make(p);
        }
        b
    }

    fn run(b: &Board) -> Defence {
        let stop = AtomicBool::new(false);
        let limits = Limits::time(Duration::from_secs(20));
        search_defence(b, &limits, Instant::now(), &stop, &mut |_| {})
    }

    fn sorted(mut v: Vec<Pos>) -> Vec<Pos> {
        v.sort_by_key(|p| p.index());
        v
    }

    #[test]
    fn against_a_four_only_the_block_holds() {
        // Black h8 i8 j8 k8, white on g8: l8 is the only point.
        let b = board(Rule::Freestyle, "h8g8i8a1j8a3k8");
        let d = run(&b);
        assert!(d.threatened);
        assert_eq!(d.hold, pts("l8"));
        assert_eq!(d.lost.len(), 225 - 7 - 1);
        assert!(d.unchecked.is_empty());
    }

    #[test]
    fn against_an_open_three_only_the_adjacent_blocks_hold() {
        // Black's open three h8 i8 j8, white to move: g8 and k8 hold; f8 and
        // l8 do not (black makes an open four on the other side).
        let b = board(Rule::Freestyle, "h8a1i8a3j8");
        let mut lost = Vec::new();
        let stop = AtomicBool::new(false);
        let limits = Limits::time(Duration::from_secs(20));
        let d = search_defence(&b, &limits, Instant::now(), &stop, &mut |p| lost.push(p));
        assert!(d.threatened);
        assert_eq!(sorted(d.hold), sorted(pts("g8k8")));
        assert_eq!(lost, d.lost);
        assert!(d.lost.contains(&pts("f8")[0]) && d.lost.contains(&pts("l8")[0]));
        assert_eq!(d.lost.len(), 225 - 5 - 2);
    }

    #[test]
    fn renju_black_is_offered_no_forbidden_point() {
        // h9 is black's double three (g9 i9 and h10 h11).
        let b = board(Rule::Renju, "g9a1i9o1h10a15h11o15");
        let mut bb = b.clone();
        assert!(bb.is_forbidden(pts("h9")[0]));
        let d = run(&b);
        assert_eq!(d.hold.len(), 225 - 8 - 1);
        assert!(!d.hold.contains(&pts("h9")[0]));
    }

    #[test]
    fn without_a_threat_every_point_holds_at_once() {
        let b = board(Rule::Freestyle, "h8i9");
        let d = run(&b);
        assert!(!d.threatened);
        assert_eq!(d.hold.len(), 223);
        assert!(d.lost.is_empty() && d.unchecked.is_empty());
    }

    #[test]
    fn a_stop_leaves_every_point_unchecked() {
        let b = board(Rule::Freestyle, "h8a1i8a3j8");
        let stop = AtomicBool::new(true);
        let limits = Limits::time(Duration::from_secs(20));
        let d = search_defence(&b, &limits, Instant::now(), &stop, &mut |_| {});
        assert!(d.lost.is_empty() && d.hold.is_empty());
        assert_eq!(d.unchecked.len(), 225 - 5);
    }
}
