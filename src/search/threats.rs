//! Threat queries the search and the solver share: five points, legal
//! open-four points, the defensive move set.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::game::pattern::HALF;
use crate::game::{Board, Color, Direction, Pattern, Pos, RenjuShape, Rule, Threat, renju_shape};

/// A solver's deadline, read from the clock every [`Clock::EVERY`] nodes
/// (whatever the step between the node counts it is shown) and sticky once passed.
#[derive(Debug)]
pub struct Clock {
    deadline: Option<Instant>,
    next_read: Cell<u64>,
    expired: Cell<bool>,
}

impl Clock {
    /// Nodes between two readings of the clock.
    pub const EVERY: u64 = 256;

    /// A clock that expires at `deadline` (never if `None`).
    pub fn new(deadline: Option<Instant>) -> Clock {
        Clock {
            deadline,
            next_read: Cell::new(0),
            expired: Cell::new(false),
        }
    }

    /// Counts nodes from zero again (the deadline stays).
    pub fn restart(&self) {
        self.next_read.set(0);
    }

    /// Has the deadline passed? Reads the clock when `nodes` reached the next reading.
    #[inline]
    pub fn expired(&self, nodes: u64) -> bool {
        if self.expired.get() {
            return true;
        }
        let Some(deadline) = self.deadline else {
            return false;
        };
        if nodes >= self.next_read.get() {
            self.next_read.set(nodes + Self::EVERY);
            if Instant::now() >= deadline {
                self.expired.set(true);
                return true;
            }
        }
        false
    }
}

/// Has a threat solver used up its budget: `nodes` of `max_nodes`, the stop
/// flag, or the deadline of `clock`?
#[inline]
pub fn budget_exhausted(
    nodes: u64,
    max_nodes: u64,
    stop: Option<&AtomicBool>,
    clock: &Clock,
) -> bool {
    nodes >= max_nodes || stop.is_some_and(|s| s.load(Ordering::Relaxed)) || clock.expired(nodes)
}

/// Is `p` playable for `color` (not a Renju black forbidden point)?
#[inline]
pub fn legal_for(board: &mut Board, p: Pos, color: Color) -> bool {
    !(color == Color::Black && board.rule() == Rule::Renju && board.is_forbidden(p))
}

/// An empty point where `color` makes a five, looking first along the lines
/// through `hint` (where a new one most likely appeared).
pub fn five_point(board: &Board, color: Color, hint: Option<Pos>) -> Option<Pos> {
    if board.threat_count(color, Threat::Five) == 0 {
        return None;
    }
    if let Some(h) = hint {
        for d in Direction::ALL {
            for k in (-4..0).chain(1..=4) {
                let q = h.offset(d, k);
                if board.is_empty(q) && board.threat(q, color) == Threat::Five {
                    return Some(q);
                }
            }
        }
    }
    board.urgent_set(color, Threat::Five)?.iter().next()
}

/// The points the defender can take so that `attacker` has no five point
/// left: the five point, or under Caro any point that spoils every five
/// (one block may spoil two, and a stone just beyond a five's end shuts it
/// at both ends). Empty when the attacker has no five point or more than
/// the defender can stop.
pub fn killing_blocks(board: &mut Board, attacker: Color, hint: Option<Pos>) -> Vec<Pos> {
    let n = board.threat_count(attacker, Threat::Five);
    if n == 0 {
        return Vec::new();
    }
    if !board.rule().blocked_five_loses() {
        if n > 1 {
            return Vec::new();
        }
        return five_point(board, attacker, hint).into_iter().collect();
    }
    let defender = attacker.opponent();
    // A stone just beyond a five's end may shut it at both ends: every
    // empty point on a five point's lines is a candidate, the five points first.
    let mut candidates = board.threat_points(attacker, Threat::Five);
    for q in candidates.clone() {
        for p in points_in_sight(board, q, attacker) {
            if !candidates.contains(&p) {
                candidates.push(p);
            }
        }
    }
    candidates
        .into_iter()
        .filter(|&q| {
            board.make_color(q, defender);
            let ok = board.threat_count(attacker, Threat::Five) == 0;
            board.undo().ok();
            ok
        })
        .collect()
}

/// The [`killing_blocks`] of `attacker`'s five threat that the defender
/// may legally play (Renju black's forbidden points left out), in that order.
pub fn legal_blocks(board: &mut Board, attacker: Color, hint: Option<Pos>) -> Vec<Pos> {
    let defender = attacker.opponent();
    let mut blocks = killing_blocks(board, attacker, hint);
    blocks.retain(|&q| legal_for(board, q, defender));
    blocks
}

/// A point where `color` makes an open four (or two fours) legally, if any.
pub fn legal_flex4_point(board: &mut Board, color: Color) -> Option<Pos> {
    if board.threat_count(color, Threat::Flex4) == 0 {
        return None;
    }
    // Five points are in the set too; only open fours are wanted here.
    exact_threat_points(board, color, Threat::Flex4)
        .into_iter()
        .find(|&p| legal_for(board, p, color))
}

/// The empty points where `color` makes exactly the threat `t`
/// ([`Board::threat_points`] gives those of `t` or more).
fn exact_threat_points(board: &Board, color: Color, t: Threat) -> Vec<Pos> {
    board
        .threat_points(color, t)
        .into_iter()
        .filter(|&p| board.threat(p, color) == t)
        .collect()
}

/// A point where `attacker` (to move, with no five or open-four point of
/// its own, facing no five) wins in 5 plies whatever the opponent does, seen
/// from the threat classes with at most a probe per 4-3 point (Rapfi's
/// quick win check): a 4-3 whose four's block is no four of the opponent's
/// (nor legal, for Renju black), so the three becomes an open four next; or
/// a double three when the opponent can make no four at all. Not in Caro,
/// nor for Renju black's double threes (forbidden).
pub fn win_in_5(board: &mut Board, attacker: Color) -> Option<Pos> {
    let rule = board.rule();
    if rule.blocked_five_loses() {
        return None;
    }
    let four3s = board.threat_count(attacker, Threat::Four3);
    let three3s = board.threat_count(attacker, Threat::Three3);
    if four3s == 0 && three3s == 0 {
        return None;
    }
    let defender = attacker.opponent();
    let renju_black = attacker == Color::Black && rule.has_forbidden();
    let defender_fours = board.threat_count_at_least(defender, Threat::Four);
    if four3s > 0 {
        for q in exact_threat_points(board, attacker, Threat::Four3) {
            if renju_black && !legal_for(board, q, attacker) {
                continue;
            }
            board.make_color(q, attacker);
            // Renju black's three is real only with a legal open-four point.
            let real = !renju_black || legal_flex4_point(board, attacker).is_some();
            let wins = real
                && (defender_fours == 0
                    || five_point(board, attacker, Some(q)).is_some_and(|b| {
                        !legal_for(board, b, defender) || board.threat(b, defender) < Threat::Four
                    }));
            board.undo().ok();
            if wins {
                return Some(q);
            }
        }
    }
    if !renju_black && defender_fours == 0 && three3s > 0 {
        return exact_threat_points(board, attacker, Threat::Three3)
            .first()
            .copied();
    }
    None
}

/// The moves of `defender` (to move) that answer the opponent's open-four
/// threat (an open three or a double-four point): its own fours (and fives),
/// which force a reply, and the points after which the opponent has no legal
/// open-four point left; against a five threat only its blocks
/// ([`killing_blocks`]). Renju black's forbidden points are left out.
pub fn defences(board: &mut Board, defender: Color) -> Vec<Pos> {
    let attacker = defender.opponent();
    if board.threat_count(attacker, Threat::Five) > 0 {
        // A five threat (under Caro with several blocks): only its blocks.
        return legal_blocks(board, attacker, None);
    }
    let mut out: Vec<Pos> = board
        .threat_points(defender, Threat::Four)
        .into_iter()
        .filter(|&p| legal_for(board, p, defender))
        .collect();
    // Every point that stops the threat is on its line, where the attacker
    // would make at least a four (in Caro also just beyond an end).
    // A stone changes only the patterns of points that see it along a line,
    // so a point out of sight of one of the attacker's open-four points
    // cannot stop it (not for Renju black, whose points' legality reaches
    // farther): no need to try it.
    let renju_black = attacker == Color::Black && board.rule().has_forbidden();
    let open_fours = board.threat_points(attacker, Threat::Flex4);
    let flex4: &[Pos] = if renju_black { &[] } else { &open_fours };
    // Two more kinds of stopping points: in Caro a stone just beyond a
    // four's end (the five left after the other block would be shut at both
    // ends), so every point on the open four's lines is tried; in Renju the
    // points where black would make two fours on one line (forbidden for
    // black, so not among its four points), where white blocks both.
    let candidates = match flex4.first() {
        Some(&q) if board.rule().blocked_five_loses() => points_in_sight(board, q, attacker),
        _ if renju_black && board.threat_count(attacker, Threat::Forbidden) > 0 => board
            .points()
            .filter(|&p| board.is_empty(p))
            .filter(|&p| {
                let t = board.threat(p, attacker);
                t == Threat::Forbidden || t >= Threat::Four
            })
            .collect(),
        _ => board.threat_points(attacker, Threat::Four),
    };
    for p in candidates {
        if flex4.iter().any(|&q| !in_sight(p, q)) {
            continue;
        }
        if out.contains(&p) || !legal_for(board, p, defender) {
            continue;
        }
        let stops = if renju_black {
            if keeps_plain_open_four(board, &open_fours, p, defender) {
                continue;
            }
            // The stone may make a forbidden open-four point legal: try it.
            board.make_color(p, defender);
            let stops = legal_flex4_point(board, attacker).is_none();
            board.undo().ok();
            stops
        } else {
            // A defender's stone only takes shapes away (no new open-four
            // point appears), so it stops the threat exactly when none of
            // the attacker's open-four (or five) points is left an open four.
            flex4.iter().all(|&q| {
                q == p
                    || board
                        .threat_with_stone(q, attacker, p, defender)
                        .unwrap_or(board.threat(q, attacker))
                        != Threat::Flex4
            })
        };
        if stops {
            out.push(p);
        }
    }
    out
}

/// With a `defender` stone on `p`, does one of Renju black's open-four
/// points `open_fours` keep an open four that its patterns alone make legal
/// (no double three to check, see [`renju_shape`])? Then `p` is surely no
/// defence; otherwise only trying it tells.
fn keeps_plain_open_four(board: &Board, open_fours: &[Pos], p: Pos, defender: Color) -> bool {
    open_fours.iter().any(|&q| {
        if q == p {
            return false;
        }
        let pats = board
            .patterns_with_stone(q, Color::Black, p, defender)
            .unwrap_or(board.packed_patterns(q, Color::Black));
        board.threat_of_patterns(Color::Black, pats) == Threat::Flex4
            && renju_shape(&Pattern::unpack(pats)) == RenjuShape::Legal
    })
}

/// The empty points on the lines where `color` makes a four or better by
/// playing `q` (within a pattern's reach, see [`in_sight`]), `q` included:
/// only a stone there can change that four.
fn points_in_sight(board: &Board, q: Pos, color: Color) -> Vec<Pos> {
    let mut out = vec![q];
    for d in Direction::ALL {
        if board.pattern(q, color, d) < Pattern::B4 {
            continue;
        }
        for k in (-HALF..=HALF).filter(|&k| k != 0) {
            // The padding around the board is wider than a pattern's reach.
            let p = Pos((q.0 as i32 + k * d.delta()) as u16);
            if board.on_board(p) && board.is_empty(p) {
                out.push(p);
            }
        }
    }
    out
}

/// Is `q` the point `p` or on one of its lines within a pattern's reach?
fn in_sight(p: Pos, q: Pos) -> bool {
    let dx = (q.x() as i32 - p.x() as i32).abs();
    let dy = (q.y() as i32 - p.y() as i32).abs();
    (dx == 0 || dy == 0 || dx == dy) && dx.max(dy) <= HALF
}

/// Test helper for random games: plays a random legal point for the side to
/// move among the candidates within 4 of the centre of a 15x15 board;
/// `false` if there is none.
#[cfg(test)]
pub(crate) fn play_near_centre(b: &mut Board, rng: &mut crate::game::Rng) -> bool {
    let me = b.side_to_move();
    let cands: Vec<Pos> = b
        .candidates()
        .into_iter()
        .filter(|&p| (p.x() as i32 - 7).abs() <= 4 && (p.y() as i32 - 7).abs() <= 4)
        .filter(|&p| legal_for(b, p, me))
        .collect();
    if cands.is_empty() {
        return false;
    }
    b.make(cands[rng.below(cands.len())]);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_is_read_whatever_the_node_step() {
        let past = Instant::now();
        // Node counts that never hit a multiple of 256 still read the clock.
        let clock = Clock::new(Some(past));
        assert!(clock.expired(3));
        assert!(clock.expired(4), "sticky once expired");
        let never = Clock::new(None);
        assert!(!(1..10_000).step_by(7).any(|n| never.expired(n)));
    }

    #[test]
    fn finds_five_points_and_flex4() {
        let (mut b, _) = Board::from_diagram(
            "
            . . . . . . . . .
            . X X X X . . . .
            . . . . . . . . .
            . O O O . . . . .
            . . . . . . . . .
            . . . . . . . O .",
            Rule::Freestyle,
        )
        .unwrap();
        let five = five_point(&b, Color::Black, None).unwrap();
        assert!(five == Pos::new(0, 1) || five == Pos::new(5, 1));
        assert_eq!(five_point(&b, Color::White, None), None);
        assert!(legal_flex4_point(&mut b, Color::White).is_some());
    }

    #[test]
    fn caro_blocks_of_a_five_include_the_point_beyond_its_end() {
        // White's five point 4,1 makes an exact five shut by black's 1,1 at
        // one end: under Caro a black stone at 7,1 spoils it as well.
        let text = "
            . . . . . . . . . .
            . X O O . O O . . .
            . . . . . . . . . .
            . . . . . . . . . .
            . . . . X . . X . X";
        let blocks = |rule| {
            let (mut b, _) = Board::from_diagram(text, rule).unwrap();
            let mut v = killing_blocks(&mut b, Color::White, None);
            v.sort();
            v
        };
        assert_eq!(blocks(Rule::Caro), vec![Pos::new(4, 1), Pos::new(7, 1)]);
        assert_eq!(blocks(Rule::Freestyle), vec![Pos::new(4, 1)]);
    }

    /// Every legal point that stops the attacker's open fours, found by
    /// trying them all, plus the defender's own fours.
    fn defences_by_trying_all(b: &mut Board, defender: Color) -> Vec<Pos> {
        let attacker = defender.opponent();
        let empty: Vec<Pos> = b.points().filter(|&p| b.is_empty(p)).collect();
        let mut out = Vec::new();
        for p in empty {
            if !legal_for(b, p, defender) {
                continue;
            }
            let own_four = b.threat(p, defender).is_four_or_better();
            b.make_color(p, defender);
            let stops = legal_flex4_point(b, attacker).is_none();
            b.undo().unwrap();
            if own_four || stops {
                out.push(p);
            }
        }
        out.sort();
        out
    }

    #[test]
    fn defences_match_trying_every_point() {
        // Seeded random games near the centre; every position where the side
        // to move faces an open four threat is checked.
        let mut rng = crate::game::Rng::new(0x6465_6665_6e63_6573);
        let mut checked = 0;
        for game in 0..600 {
            let rule = [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro][game % 4];
            let mut b = Board::new(15, 15, rule).unwrap();
            b.make(Pos::new(7, 7));
            for _ in 0..40 {
                let me = b.side_to_move();
                if five_point(&b, me.opponent(), None).is_some()
                    || five_point(&b, me, None).is_some()
                {
                    break;
                }
                if legal_flex4_point(&mut b, me.opponent()).is_some() {
                    let mut got = defences(&mut b, me);
                    got.sort();
                    assert_eq!(
                        got,
                        defences_by_trying_all(&mut b, me),
                        "{:?} {:?} {:?}\n{}",
                        rule,
                        b.threat_points(me.opponent(), Threat::Flex4),
                        b.threat_points(me, Threat::Four),
                        b.diagram()
                    );
                    checked += 1;
                }
                if !play_near_centre(&mut b, &mut rng) {
                    break;
                }
            }
        }
        assert!(checked > 300, "only {checked} positions checked");
    }

    #[test]
    fn a_win_in_5_holds_against_every_reply() {
        // Seeded random games near the centre; wherever `win_in_5` names a
        // point, every legal reply to it must leave the attacker a win that
        // the VCT solver proves within 3 threats.
        let mut rng = crate::game::Rng::new(0x7769_6e5f_696e_5f35);
        let mut found = [0; 3];
        for game in 0..600 {
            let rule = [Rule::Freestyle, Rule::Standard, Rule::Renju][game % 3];
            let mut b = Board::new(15, 15, rule).unwrap();
            b.make(Pos::new(7, 7));
            for _ in 0..40 {
                let me = b.side_to_move();
                let opp = me.opponent();
                if five_point(&b, opp, None).is_some()
                    || five_point(&b, me, None).is_some()
                    || legal_flex4_point(&mut b, me).is_some()
                {
                    break;
                }
                if let Some(q) = win_in_5(&mut b, me) {
                    found[game % 3] += 1;
                    b.make(q);
                    for r in b.candidates() {
                        if !legal_for(&mut b, r, opp) {
                            continue;
                        }
                        b.make(r);
                        let mut vct = crate::search::vct::VctSolver::new(1_000_000, None, None);
                        let win = vct.solve(&mut b, 3);
                        b.undo().unwrap();
                        assert!(
                            win.is_some(),
                            "{rule:?}: {q:?} answered by {r:?}\n{}",
                            b.diagram()
                        );
                    }
                    b.undo().unwrap();
                }
                if !play_near_centre(&mut b, &mut rng) {
                    break;
                }
            }
        }
        assert!(found.iter().all(|&n| n > 50), "{found:?} wins checked");
    }

    #[test]
    fn defences_against_an_open_three_are_its_ends() {
        // White to move against black's open three on row 2 (and a black
        // blocked three on row 5 whose four points stop nothing).
        let (mut b, _) = Board::from_diagram(
            "
            . . . . . . . . . .
            . . . . . . . . . .
            . . . X X X . . . .
            . . . . . . . . . .
            . . . . . . . . . .
            . O X X X . . . . .
            . . . . . . . . . .
            . . . . . . . O . O
            . . . . . . . . . .
            . . . . . . . O . .",
            Rule::Freestyle,
        )
        .unwrap();
        assert_eq!(b.side_to_move(), Color::White);
        let mut d = defences(&mut b, Color::White);
        d.sort();
        let mut want = vec![Pos::new(2, 2), Pos::new(6, 2)];
        want.sort();
        assert_eq!(d, want);
    }
}
