//! Threat-space solver for continuous fours (VCF), Renju-aware on both sides.
//!
//! The attacker (side to move) plays only moves that make a four; the
//! defender's reply is forced (block the five point). The attacker wins when
//! it makes a five, an open four or two fours the defender cannot both stop,
//! or when the defender's only block is a forbidden point for Renju black.
//! Black's fours on forbidden points are never tried.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::threats::{
    Clock, budget_exhausted, five_point, killing_blocks, legal_blocks, legal_for,
};
use crate::game::{Board, Color, Pos, Threat};

/// Limits and counters of one VCF search.
pub struct VcfSolver<'a> {
    /// Nodes visited so far.
    pub nodes: u64,
    /// Give up after this many nodes.
    pub max_nodes: u64,
    stop: Option<&'a AtomicBool>,
    clock: Clock,
    failed: Vec<(u64, u8)>,
}

const FAIL_CACHE: usize = 1 << 14;

impl<'a> VcfSolver<'a> {
    /// A solver that gives up after `max_nodes` nodes or when `stop` is set.
    pub fn new(max_nodes: u64, stop: Option<&'a AtomicBool>) -> VcfSolver<'a> {
        VcfSolver {
            nodes: 0,
            max_nodes,
            stop,
            clock: Clock::new(None),
            failed: vec![(0, 0); FAIL_CACHE],
        }
    }

    /// Starts a new search with a budget of `max_nodes` (the failure cache is kept:
    /// a position without a VCF at some depth stays without one).
    pub fn reset(&mut self, max_nodes: u64) {
        self.nodes = 0;
        self.max_nodes = max_nodes;
        self.clock.restart();
    }

    /// Also gives up at `deadline`.
    pub fn with_deadline(mut self, deadline: Instant) -> VcfSolver<'a> {
        self.clock = Clock::new(Some(deadline));
        self
    }

    /// Searches a VCF for the side to move with at most `depth` own fours.
    /// Returns the winning line (own moves and the forced replies, ending with
    /// the move that wins or makes the unstoppable threat).
    pub fn solve(&mut self, board: &mut Board, depth: u8) -> Option<Vec<Pos>> {
        let mut line = Vec::new();
        let hint = board.last_move().map(|m| m.0);
        if self.attack(board, depth, hint, &mut line) {
            Some(line)
        } else {
            None
        }
    }

    fn out_of_budget(&self) -> bool {
        budget_exhausted(self.nodes, self.max_nodes, self.stop, &self.clock)
    }

    fn attack(&mut self, b: &mut Board, depth: u8, hint: Option<Pos>, line: &mut Vec<Pos>) -> bool {
        self.nodes += 1;
        let me = b.side_to_move();
        let opp = me.opponent();
        if let Some(p) = five_point(b, me, None) {
            line.push(p);
            return true;
        }
        let candidates: Vec<Pos> = if five_point(b, opp, hint).is_some() {
            // The defender threatens a five: only a block that is also a four helps.
            let mut blocks = legal_blocks(b, opp, hint);
            blocks.retain(|&q| b.threat(q, me) >= Threat::Four);
            if blocks.is_empty() {
                return false;
            }
            blocks
        } else {
            if let Some(p) = super::threats::legal_flex4_point(b, me) {
                line.push(p);
                return true;
            }
            let mut v = b.threat_points(me, Threat::Four);
            v.sort_by_key(|&p| std::cmp::Reverse(b.threat(p, me)));
            v
        };
        if depth == 0 || self.out_of_budget() {
            return false;
        }
        let slot = (b.hash() as usize) & (FAIL_CACHE - 1);
        if self.failed[slot].0 == b.hash() && self.failed[slot].1 >= depth {
            return false;
        }
        for p in candidates {
            if !b.threat(p, me).is_four_or_better() || !legal_for(b, p, me) {
                continue;
            }
            b.make(p);
            let block = five_point(b, me, Some(p));
            let blocks = killing_blocks(b, me, Some(p));
            let won = match block {
                None => false, // not a real four (cannot happen for a legal four)
                Some(_) if blocks.is_empty() => {
                    // Two five points: the defender cannot stop both.
                    line.push(p);
                    b.undo().ok();
                    return true;
                }
                Some(_) if blocks.len() > 1 => {
                    // Caro: several single blocks spoil every five; all must lose.
                    let mut all = true;
                    for &q in &blocks {
                        b.make(q);
                        let mut sub = Vec::new();
                        let w = self.attack(b, depth - 1, Some(q), &mut sub);
                        b.undo().ok();
                        if !w {
                            all = false;
                            break;
                        }
                    }
                    if all {
                        line.push(p);
                    }
                    all
                }
                Some(_) => {
                    let q = blocks[0];
                    if opp == Color::Black && !legal_for(b, q, opp) {
                        // The only defence is forbidden for black.
                        line.push(p);
                        line.push(q);
                        b.undo().ok();
                        return true;
                    }
                    b.make(q);
                    line.push(p);
                    line.push(q);
                    let won = self.attack(b, depth - 1, Some(q), line);
                    b.undo().ok();
                    if !won {
                        line.truncate(line.len() - 2);
                    }
                    won
                }
            };
            b.undo().ok();
            if won {
                return true;
            }
            if self.out_of_budget() {
                return false;
            }
        }
        self.failed[slot] = (b.hash(), depth);
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rule;

    fn solve(rule: Rule, text: &str) -> Option<Vec<Pos>> {
        let (mut b, _) = Board::from_diagram(text, rule).unwrap();
        let before = b.hash();
        let r = VcfSolver::new(1_000_000, None).solve(&mut b, 30);
        assert_eq!(b.hash(), before, "board restored");
        r
    }

    #[test]
    fn finds_a_simple_vcf() {
        // Black to move: two broken threes, a four-four through continuous fours.
        let text = "
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . X X . X . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . X . . . . .
            . . . . . X . . . . .
            . . . . . . . . . . .
            . . O O . O . O O . .
            . . . . . . . . . . .
            . . . . . . . . . . .";
        let line = solve(Rule::Freestyle, text).expect("a VCF");
        assert!(!line.is_empty());
    }

    #[test]
    fn no_vcf_without_fours() {
        let text = "
            . . . . . . . . .
            . . . . . . . . .
            . . X . . . . . .
            . . . . O . . . .
            . . . . . X . . .
            . . . . . . . . .
            . . . . . . . O .
            . . . . . . . . .";
        assert_eq!(solve(Rule::Freestyle, text), None);
    }
}
