//! Threat queries the search and the solver share: five points, legal
//! open-four points, the defensive move set.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::game::{Board, Color, Direction, Pos, Rule, Threat};

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

/// The five points of `attacker` that the defender can take so that no five
/// point is left (under Caro one block may spoil two fives). Empty when the
/// attacker has no five point or more than the defender can stop.
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
    let pts = board.threat_points(attacker, Threat::Five);
    pts.into_iter()
        .filter(|&q| {
            board.make_color(q, defender);
            let ok = board.threat_count(attacker, Threat::Five) == 0;
            board.undo().ok();
            ok
        })
        .collect()
}

/// A point where `color` makes an open four (or two fours) legally, if any.
pub fn legal_flex4_point(board: &mut Board, color: Color) -> Option<Pos> {
    if board.threat_count(color, Threat::Flex4) == 0 {
        return None;
    }
    // Five points are in the set too; only open fours are wanted here.
    let pts: Vec<Pos> = board
        .threat_points(color, Threat::Flex4)
        .into_iter()
        .filter(|&p| board.threat(p, color) == Threat::Flex4)
        .collect();
    pts.into_iter().find(|&p| legal_for(board, p, color))
}

/// The moves of `defender` (to move) that answer the opponent's open-four
/// threat (an open three or a double-four point): its own fours (and fives),
/// which force a reply, and the points after which the opponent has no legal
/// open-four point left. Renju black's forbidden points are left out.
pub fn defences(board: &mut Board, defender: Color) -> Vec<Pos> {
    let attacker = defender.opponent();
    let mut out: Vec<Pos> = board
        .threat_points(defender, Threat::Four)
        .into_iter()
        .filter(|&p| legal_for(board, p, defender))
        .collect();
    // Every point that stops the threat is on its line, where the attacker
    // would make at least a four.
    for p in board.threat_points(attacker, Threat::Four) {
        if out.contains(&p) || !legal_for(board, p, defender) {
            continue;
        }
        board.make_color(p, defender);
        let stops = legal_flex4_point(board, attacker).is_none();
        board.undo().ok();
        if stops {
            out.push(p);
        }
    }
    out
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
