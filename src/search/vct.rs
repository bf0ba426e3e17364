//! Threat-space solver for continuous threats (VCT): threes and fours.
//!
//! The attacker plays only moves that make a three or a four; the defender
//! must answer each one, and is allowed every reply that can matter: against a
//! four, the block; against a three (a threatened open four), every point after
//! which the attacker has no open-four point left and every four of its own
//! ([`super::threats::defences`]). The attacker wins if it wins against all of
//! them. Renju-aware like the VCF solver: black's forbidden points are never
//! played, and a white four whose only block is forbidden wins. Proven results
//! of attack nodes are cached by position, since threat sequences transpose.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::threats::{
    Clock, budget_exhausted, defences, five_point, legal_blocks, legal_flex4_point, legal_for,
};
use crate::game::{Board, Pos, Threat};

/// Limits and counters of one VCT search.
pub struct VctSolver<'a> {
    /// Nodes visited so far.
    pub nodes: u64,
    max_nodes: u64,
    stop: Option<&'a AtomicBool>,
    clock: Clock,
    /// Proven results of attack nodes by position hash: the least depth a
    /// win was found with, and the greatest depth with no win.
    cache: HashMap<u64, Proven, BuildHasherDefault<ZobristHasher>>,
    /// Stones on the board where the search started (its root is not cached:
    /// the first move is wanted there).
    root_stones: usize,
}

/// Hashes a key that is already a Zobrist hash by taking it as it is
/// (SipHash over it cost about 2 % of the solver's time).
#[derive(Default)]
struct ZobristHasher(u64);

impl Hasher for ZobristHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// What is proven about one attack node.
#[derive(Clone, Copy)]
struct Proven {
    win_at: u8,
    no_win_to: Option<u8>,
}

impl<'a> VctSolver<'a> {
    /// A solver that gives up after `max_nodes` nodes, at `deadline` or when `stop` is set.
    pub fn new(
        max_nodes: u64,
        stop: Option<&'a AtomicBool>,
        deadline: Option<Instant>,
    ) -> VctSolver<'a> {
        VctSolver {
            nodes: 0,
            max_nodes,
            stop,
            clock: Clock::new(deadline),
            cache: HashMap::default(),
            root_stones: 0,
        }
    }

    /// Like [`Self::solve`], but tries the depths 3, 5, 7, … up to `max_depth`
    /// in turn, so short wins are found cheaply and the budget goes deeper only
    /// when they are not there.
    pub fn solve_deepening(&mut self, board: &mut Board, max_depth: u8) -> Option<Pos> {
        let mut depth = 3.min(max_depth);
        loop {
            if let Some(p) = self.solve(board, depth) {
                return Some(p);
            }
            if depth >= max_depth || self.out_of_budget() {
                return None;
            }
            depth = (depth + 2).min(max_depth);
        }
    }

    /// Searches a win for the side to move by threes and fours, with at most
    /// `depth` attacking moves. Returns the first move of the win.
    pub fn solve(&mut self, board: &mut Board, depth: u8) -> Option<Pos> {
        let mut first = None;
        let hint = board.last_move().map(|m| m.0);
        self.root_stones = board.stone_count();
        if self.attack(board, depth, hint, &mut first) == Some(true) {
            first
        } else {
            None
        }
    }

    fn out_of_budget(&self) -> bool {
        budget_exhausted(self.nodes, self.max_nodes, self.stop, &self.clock)
    }

    /// Attacker to move. `Some(true)`: proven win; `Some(false)`: no win found
    /// within the depth; `None`: out of budget (no conclusion).
    fn attack(
        &mut self,
        b: &mut Board,
        depth: u8,
        hint: Option<Pos>,
        first: &mut Option<Pos>,
    ) -> Option<bool> {
        self.nodes += 1;
        if self.out_of_budget() {
            return None;
        }
        let cached = b.stone_count() != self.root_stones;
        if cached && let Some(e) = self.cache.get(&b.hash()) {
            if e.win_at <= depth {
                return Some(true);
            }
            if e.no_win_to.is_some_and(|d| d >= depth) {
                return Some(false);
            }
        }
        let r = self.attack_node(b, depth, hint, first);
        if cached && let Some(win) = r {
            let e = self.cache.entry(b.hash()).or_insert(Proven {
                win_at: u8::MAX,
                no_win_to: None,
            });
            if win {
                e.win_at = e.win_at.min(depth);
            } else {
                e.no_win_to = Some(e.no_win_to.map_or(depth, |d| d.max(depth)));
            }
        }
        r
    }

    fn attack_node(
        &mut self,
        b: &mut Board,
        depth: u8,
        hint: Option<Pos>,
        first: &mut Option<Pos>,
    ) -> Option<bool> {
        let me = b.side_to_move();
        let opp = me.opponent();
        if let Some(p) = five_point(b, me, None) {
            *first = Some(p);
            return Some(true);
        }
        if five_point(b, opp, hint).is_some() {
            // A block is forced; the attack goes on only if it keeps a threat.
            let mut unknown = false;
            for block in legal_blocks(b, opp, hint) {
                b.make(block);
                let r = self.defend(b, depth, block);
                b.undo().ok();
                match r {
                    Some(true) => {
                        *first = Some(block);
                        return r;
                    }
                    None => unknown = true,
                    Some(false) => {}
                }
            }
            return if unknown { None } else { Some(false) };
        }
        if let Some(p) = legal_flex4_point(b, me) {
            *first = Some(p);
            return Some(true);
        }
        if depth == 0 {
            return Some(false);
        }
        let mut moves = b.threat_points(me, Threat::Three);
        moves.sort_by_key(|&p| std::cmp::Reverse(b.threat(p, me)));
        let mut unknown = false;
        for p in moves {
            if !legal_for(b, p, me) {
                continue;
            }
            b.make(p);
            let r = self.defend(b, depth - 1, p);
            b.undo().ok();
            match r {
                Some(true) => {
                    *first = Some(p);
                    return Some(true);
                }
                None => unknown = true,
                Some(false) => {}
            }
            if self.out_of_budget() {
                return None;
            }
        }
        if unknown { None } else { Some(false) }
    }

    /// Defender to move after the attacker's `last` move: does the attacker win
    /// whatever the defender does?
    fn defend(&mut self, b: &mut Board, depth: u8, last: Pos) -> Option<bool> {
        self.nodes += 1;
        let def = b.side_to_move();
        let att = def.opponent();
        if five_point(b, def, None).is_some() {
            return Some(false);
        }
        if five_point(b, att, Some(last)).is_some() {
            // The defender must block; every block that stops all fives is tried.
            let blocks = legal_blocks(b, att, Some(last));
            return self.attack_beats_all(b, depth, blocks);
        }
        if legal_flex4_point(b, att).is_none() {
            return Some(false); // no threat: the defender is free
        }
        let mut moves = defences(b, def);
        moves.sort_by_key(|&p| std::cmp::Reverse(b.threat(p, def).max(b.threat(p, att))));
        self.attack_beats_all(b, depth, moves)
    }

    /// Does the attacker win after each of the defender's `replies` (legal)?
    /// `Some(false)` as soon as one holds, `None` if one is undecided.
    fn attack_beats_all(&mut self, b: &mut Board, depth: u8, replies: Vec<Pos>) -> Option<bool> {
        let mut unknown = false;
        for p in replies {
            b.make(p);
            let mut first = None;
            let r = self.attack(b, depth, Some(p), &mut first);
            b.undo().ok();
            match r {
                Some(false) => return Some(false),
                None => unknown = true,
                Some(true) => {}
            }
        }
        if unknown { None } else { Some(true) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rule;

    fn solve(rule: Rule, text: &str) -> Option<Pos> {
        let (mut b, _) = Board::from_diagram(text, rule).unwrap();
        let before = b.hash();
        let r = VctSolver::new(2_000_000, None, None).solve(&mut b, 6);
        assert_eq!(b.hash(), before, "board restored");
        r
    }

    #[test]
    fn double_three_wins_in_freestyle() {
        // Black to move: a point that makes two open threes at once.
        let text = "
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . X . . . . . .
            . . . . X . . . . . .
            . . . . . . . . . . .
            . . X X . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . O . O
            . . . . . . . . . . .
            . . . . . . . . O . O";
        let p = solve(Rule::Freestyle, text).expect("a VCT");
        assert_eq!(p, Pos::new(4, 6));
    }

    #[test]
    fn a_lone_two_is_no_vct() {
        let text = "
            . . . . . . . . .
            . . . . . . . . .
            . . . X X . . . .
            . . . . . . . . .
            . . . . . . O . .
            . . . . . . . . .
            . . . . . . . . O
            . . . . . . . . .";
        assert_eq!(solve(Rule::Freestyle, text), None);
    }
}
