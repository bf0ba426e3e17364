//! Labels positions from `.psq` game records with a fixed-depth search score,
//! for fitting the evaluation to deeper search (distillation, see `distil.rs`).
//! Keeps the positions the evaluation sees at the horizon (quiet, or defending
//! an open three) with at least 6 stones, every `STEP`-th of them (default 2).
//! Usage: `cargo run --release --example label -- DEPTH RULE GAME.psq... > OUT`
//! (RULE: protocol number). Output lines: `RULE SCORE x,y x,y ...` (0-based moves
//! from the start, the side to move after them is the one scored).

use tianyuan::game::{Board, Pos, Rule};
use tianyuan::search::movegen::{NodeKind, node_kind};
use tianyuan::search::{Limits, Searcher};

#[path = "common/psq.rs"]
mod psq;

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: i32 = args.next().and_then(|d| d.parse().ok()).expect("depth");
    let rule_no: i64 = args.next().and_then(|r| r.parse().ok()).expect("rule");
    let rule = Rule::from_protocol(rule_no).expect("rule number");
    let step: usize = std::env::var("STEP")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2);
    let searcher = Searcher::new(16 << 20, 1);
    // HARD_MS caps each search: the root and refutation solvers get fractions
    // of the hard limit, which without one are bounded only by node counts.
    let mut limits = Limits::depth(depth);
    if let Some(ms) = std::env::var("HARD_MS").ok().and_then(|s| s.parse().ok()) {
        limits.time.hard = std::time::Duration::from_millis(ms);
    }
    let mut seen = std::collections::HashSet::new();
    let mut kept = 0usize;
    for path in args {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let record = psq::parse(&text);
        let mut board = Board::new(record.width, record.height, rule).expect("board");
        let mut played: Vec<Pos> = Vec::new();
        for &(p, _) in &record.moves {
            if !board.is_empty(p) {
                break;
            }
            board.make(p);
            played.push(p);
            if board.last_move_wins().is_some() || board.stone_count() < 6 {
                continue;
            }
            let last = board.last_move().map(|m| m.0);
            if !matches!(
                node_kind(&mut board, last),
                NodeKind::Quiet | NodeKind::Defend
            ) || !seen.insert(board.hash())
            {
                continue;
            }
            kept += 1;
            if !kept.is_multiple_of(step) {
                continue;
            }
            let Some(o) = searcher.search(&board, &limits, &mut |_| {}) else {
                continue;
            };
            let moves: Vec<String> = played
                .iter()
                .map(|q| format!("{},{}", q.x(), q.y()))
                .collect();
            println!("{rule_no} {} {}", o.score, moves.join(" "));
        }
    }
}
