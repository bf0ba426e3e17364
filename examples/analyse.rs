//! Replays a Piskvork `.psq` game record and, after every move, asks the VCF
//! and VCT solvers whether the side to move now has a forced win, to find the
//! move that lost a game. Usage: `cargo run --release --example analyse -- GAME.psq [RULE]`.

use tianyuan::game::Board;
use tianyuan::search::{vcf::VcfSolver, vct::VctSolver};

#[path = "common/cli.rs"]
mod cli;
#[path = "common/psq.rs"]
mod psq;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: analyse GAME.psq [RULE]");
    let rule = cli::rule(args.next());
    let text = std::fs::read_to_string(&path).expect("read the record");
    let record = psq::parse(&text);
    let (vct_nodes, vct_depth) = (
        cli::env_u64("VCT_NODES", 1_000_000),
        cli::env_u64("VCT_DEPTH", 13) as u8,
    );
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
