//! `bench`: a fixed set of positions searched to a fixed depth on one thread.
//!
//! The total node count is a signature of the search's behaviour: the same on
//! every run and machine. Put it in the message of every commit that changes
//! search or evaluation (a change that alters it changed behaviour).

use std::time::{Duration, Instant};

use super::{Limits, Searcher};
use crate::game::{Board, Pos, Rng, Rule, Threat};

/// The depth `bench` searches by default.
pub const DEFAULT_DEPTH: i32 = 6;

/// Positions per rule.
pub const POSITIONS_PER_RULE: usize = 12;

/// The rules the bench covers.
pub const RULES: [Rule; 4] = [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro];

/// The bench positions: seeded quiet games of 6 to 28 stones near the centre
/// of a 15x15 board, none already decided.
pub fn positions() -> Vec<Board> {
    let mut out = Vec::new();
    let mut rng = Rng::new(0x7469_616e_7975_616e); // "tianyuan"
    for rule in RULES {
        while out.len() % POSITIONS_PER_RULE != 0
            || out.len() < POSITIONS_PER_RULE * (rule.index().min(3) + 1)
        {
            let stones = 6 + rng.below(23);
            let mut b = Board::new(15, 15, rule).expect("15x15");
            b.make(Pos::new(7, 7));
            let mut ok = true;
            while b.stone_count() < stones {
                let me = b.side_to_move();
                let cands: Vec<Pos> = b
                    .candidates()
                    .into_iter()
                    .filter(|&p| {
                        b.threat(p, me) < Threat::Four && b.threat(p, me) != Threat::Forbidden
                    })
                    .filter(|&p| (p.x() as i32 - 7).abs() <= 4 && (p.y() as i32 - 7).abs() <= 4)
                    .collect();
                if cands.is_empty() {
                    ok = false;
                    break;
                }
                b.make(cands[rng.below(cands.len())]);
            }
            let me = b.side_to_move();
            let decided = b.threat_count_at_least(me, Threat::Four) > 0
                || b.threat_count_at_least(me.opponent(), Threat::Four) > 0;
            if ok && !decided {
                out.push(b);
            }
        }
    }
    out
}

/// The result of a bench run.
pub struct BenchResult {
    /// Total nodes over all positions (the signature).
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as u128 * 1_000_000 / self.elapsed.as_micros().max(1)) as u64
    }
}

/// Searches every bench position to `depth` on `threads` threads with a
/// fresh table. With one thread the node count is the signature; with more,
/// the time measures time-to-depth (the node count then varies from run to run).
pub fn run(depth: i32, threads: usize) -> BenchResult {
    let start = Instant::now();
    let mut nodes = 0;
    for b in positions() {
        let searcher = Searcher::new(16 << 20, threads);
        if let Some(o) = searcher.search(&b, &Limits::depth(depth), &mut |_| {}) {
            nodes += o.nodes;
        }
    }
    BenchResult {
        nodes,
        elapsed: start.elapsed(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_fixed_and_undecided() {
        let a = positions();
        let b = positions();
        assert_eq!(a.len(), POSITIONS_PER_RULE * RULES.len());
        assert!(a.iter().zip(&b).all(|(x, y)| x.hash() == y.hash()));
    }

    #[test]
    fn node_count_is_deterministic() {
        assert_eq!(run(3, 1).nodes, run(3, 1).nodes);
    }
}
