//! Balanced openings: a few random stones near the centre, kept when a search
//! finds neither side clearly ahead.
//!
//! Matches between engines are measured from openings that both colours can
//! play; the RIF openings are balanced for Renju only (several are known black
//! wins in freestyle). [`generate`] draws positions of `stones` stones (black
//! first, alternating) inside a square around the centre, drops those where either
//! side already has a three or a four and those that mirror an earlier draw,
//! and keeps those whose searched score for the side to move lies
//! within `max_score`. Everything is seeded, so the same settings give the same
//! openings on every machine.

use std::collections::HashSet;

use super::{Limits, Searcher};
use crate::eval::Score;
use crate::game::{Board, Pos, Rng, Rule, Threat};

/// What [`generate`] draws and keeps.
#[derive(Clone, Debug)]
pub struct BalanceConfig {
    /// Rule the openings are for.
    pub rule: Rule,
    /// Board side (square boards).
    pub size: usize,
    /// Stones per opening.
    pub stones: usize,
    /// Stones lie at most this far from the centre (in x and in y).
    pub radius: usize,
    /// Search depth of the balance check (one thread, fresh table).
    pub depth: i32,
    /// Largest absolute score (side to move's view) an opening may have.
    pub max_score: Score,
    /// Openings wanted.
    pub count: usize,
    /// Seed of the random draw.
    pub seed: u64,
}

impl Default for BalanceConfig {
    fn default() -> BalanceConfig {
        BalanceConfig {
            rule: Rule::Freestyle,
            size: 15,
            stones: 3,
            radius: 3,
            depth: 8,
            max_score: 60,
            count: 40,
            seed: 1,
        }
    }
}

/// A kept opening: its stones in move order and the balance search's score.
#[derive(Clone, Debug)]
pub struct BalancedOpening {
    /// Stones, black first, alternating.
    pub moves: Vec<Pos>,
    /// Score of the side to move after the opening.
    pub score: Score,
}

/// Most draws tried per wanted opening before giving up.
const DRAWS_PER_OPENING: usize = 500;

/// Draws and checks openings until `cfg.count` are kept or too many draws
/// failed; calls `on_kept` for each as it is found and returns them all.
pub fn generate(
    cfg: &BalanceConfig,
    on_kept: &mut dyn FnMut(&BalancedOpening),
) -> Result<Vec<BalancedOpening>, String> {
    if cfg.stones == 0 {
        return Err("an opening needs at least one stone".into());
    }
    Board::new(cfg.size, cfg.size, cfg.rule).map_err(|e| e.to_string())?;
    let side = 2 * cfg.radius + 1;
    if side > cfg.size || cfg.stones > side * side / 2 {
        return Err(format!(
            "{} stones do not fit a radius of {} on a {}x{} board",
            cfg.stones, cfg.radius, cfg.size, cfg.size
        ));
    }
    let mut rng = Rng::new(cfg.seed);
    let mut seen: HashSet<Vec<(u8, u8, bool)>> = HashSet::new();
    let mut kept = Vec::new();
    let mut draws = 0;
    let searcher = Searcher::new(16 << 20, 1);
    while kept.len() < cfg.count {
        draws += 1;
        if draws > DRAWS_PER_OPENING * cfg.count.max(1) {
            return Err(format!(
                "only {} of {} openings found in {} draws; raise --max-score or the radius",
                kept.len(),
                cfg.count,
                draws - 1
            ));
        }
        let Some(board) = draw(cfg, &mut rng) else {
            continue;
        };
        if !seen.insert(canonical(&board, cfg.size)) {
            continue;
        }
        searcher.clear_hash();
        let Some(o) = searcher.search(&board, &Limits::depth(cfg.depth), &mut |_| {}) else {
            continue;
        };
        if o.score.abs() <= cfg.max_score {
            let opening = BalancedOpening {
                moves: board.history().iter().map(|m| m.0).collect(),
                score: o.score,
            };
            on_kept(&opening);
            kept.push(opening);
        }
    }
    Ok(kept)
}

/// One random position, or `None` when it already holds a threat.
fn draw(cfg: &BalanceConfig, rng: &mut Rng) -> Option<Board> {
    let mut b = Board::new(cfg.size, cfg.size, cfg.rule).ok()?;
    let c = (cfg.size / 2) as i64;
    let r = cfg.radius as i64;
    let side = 2 * cfg.radius + 1;
    while b.stone_count() < cfg.stones {
        let x = c - r + rng.below(side) as i64;
        let y = c - r + rng.below(side) as i64;
        let p = b.pos(x, y).ok()?;
        if b.is_empty(p) {
            b.make(p);
        }
    }
    // No three or four yet (so no five and, in Renju, no forbidden black
    // stone either): the game starts from quiet shapes.
    for color in [b.side_to_move(), b.side_to_move().opponent()] {
        if b.threat_count_at_least(color, Threat::Four) > 0 {
            return None;
        }
    }
    Some(b)
}

/// The smallest of the eight symmetric images of the stones (relative to the
/// centre, with colours), so mirrored or rotated duplicates are drawn once.
fn canonical(b: &Board, size: usize) -> Vec<(u8, u8, bool)> {
    let n = size as i64 - 1;
    let map = |k: usize, x: i64, y: i64| -> (i64, i64) {
        let (x, y) = if k & 4 != 0 { (y, x) } else { (x, y) };
        let x = if k & 1 != 0 { n - x } else { x };
        let y = if k & 2 != 0 { n - y } else { y };
        (x, y)
    };
    (0..8)
        .map(|k| {
            let mut v: Vec<(u8, u8, bool)> = b
                .history()
                .iter()
                .map(|&(p, color)| {
                    let (x, y) = map(k, p.x() as i64, p.y() as i64);
                    (x as u8, y as u8, color.index() == 0)
                })
                .collect();
            v.sort_unstable();
            v
        })
        .min()
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> BalanceConfig {
        BalanceConfig {
            depth: 3,
            count: 4,
            max_score: 100,
            ..BalanceConfig::default()
        }
    }

    #[test]
    fn openings_are_quiet_balanced_distinct_and_seeded() {
        let cfg = small();
        let a = generate(&cfg, &mut |_| {}).unwrap();
        assert_eq!(a.len(), 4);
        let mut keys = HashSet::new();
        for o in &a {
            assert_eq!(o.moves.len(), 3);
            assert!(o.score.abs() <= cfg.max_score);
            let mut b = Board::new(15, 15, cfg.rule).unwrap();
            for &p in &o.moves {
                assert!((p.x() as i64 - 7).abs() <= 3 && (p.y() as i64 - 7).abs() <= 3);
                b.play(p).unwrap();
            }
            assert!(keys.insert(canonical(&b, 15)));
        }
        let b = generate(&cfg, &mut |_| {}).unwrap();
        assert!(a.iter().zip(&b).all(|(x, y)| x.moves == y.moves));
        let other = generate(&BalanceConfig { seed: 2, ..cfg }, &mut |_| {}).unwrap();
        assert!(a.iter().zip(&other).any(|(x, y)| x.moves != y.moves));
    }

    #[test]
    fn mirrored_positions_share_a_key() {
        let mut a = Board::new(15, 15, Rule::Freestyle).unwrap();
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        for (x, y) in [(7, 7), (8, 6), (9, 9)] {
            a.play(Pos::new(x, y)).unwrap();
            b.play(Pos::new(14 - y, x)).unwrap();
        }
        assert_eq!(canonical(&a, 15), canonical(&b, 15));
    }

    #[test]
    fn impossible_settings_are_errors() {
        let too_many = BalanceConfig {
            stones: 30,
            radius: 2,
            ..small()
        };
        assert!(generate(&too_many, &mut |_| {}).is_err());
        let none = BalanceConfig {
            stones: 0,
            ..small()
        };
        assert!(generate(&none, &mut |_| {}).is_err());
        let huge = BalanceConfig {
            size: 40,
            ..small()
        };
        assert!(generate(&huge, &mut |_| {}).unwrap_err().contains("40"));
        let strict = BalanceConfig {
            max_score: -1,
            count: 1,
            ..small()
        };
        assert!(generate(&strict, &mut |_| {}).is_err());
    }
}
