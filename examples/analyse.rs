//! Replays a Piskvork `.psq` game record and, after every move, asks the VCF
//! and VCT solvers whether the side to move now has a forced win, to find the
//! move that lost a game. Usage: `cargo run --release --example analyse -- GAME.psq [RULE]`.

use tianyuan::game::{Board, Rule};
use tianyuan::search::{vcf::VcfSolver, vct::VctSolver};

#[path = "common/psq.rs"]
mod psq;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: analyse GAME.psq [RULE]");
    let rule = args
        .next()
        .map(|r| Rule::from_protocol(r.parse().expect("rule number")).expect("rule"))
        .unwrap_or(Rule::Freestyle);
    let text = std::fs::read_to_string(&path).expect("read the record");
    let record = psq::parse(&text);
    let env = |k: &str, d: u64| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let (vct_nodes, vct_depth) = (env("VCT_NODES", 1_000_000), env("VCT_DEPTH", 13) as u8);
    let mut board = Board::new(record.width, record.height, rule).expect("board");
    for (n, &(p, ms)) in record.moves.iter().enumerate() {
        if !board.is_empty(p) {
            break;
        }
        let mover = board.side_to_move();
        board.make(p);
        let vcf = VcfSolver::new(2_000_000, None).solve(&mut board, 60);
        let vct = if vcf.is_none() {
            VctSolver::new(vct_nodes, None, None).solve_deepening(&mut board, vct_depth)
        } else {
            None
        };
        let note = match (&vcf, vct) {
            (Some(line), _) => format!("side to move wins by VCF ({} moves)", line.len()),
            (None, Some(q)) => format!("side to move wins by VCT from {q:?}"),
            _ => String::new(),
        };
        println!("{:3} {:?} {:?} {} ms  {}", n + 1, mover, p, ms, note);
    }
}
