//! Runs the threat solvers alone on a list of positions (the format of
//! `scripts/mates/*.txt`: a tag, then the stones as `x,y` in move order, the
//! side to move to win) and counts the wins they prove: first the VCF solver,
//! then the VCT solver deepening to `VCT_DEPTH` within `VCT_NODES` nodes.
//! It measures the solvers the root search relies on, apart from the main
//! search. The positions are on a 15x15 board. Usage:
//! `cargo run --release --example vctsuite -- scripts/mates/freestyle.txt [RULE]`.

use std::time::Instant;

use tianyuan::game::{Board, Pos};
use tianyuan::search::{vcf::VcfSolver, vct::VctSolver};

#[path = "common/cli.rs"]
mod cli;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: vctsuite LIST [RULE]");
    let rule = cli::rule(args.next());
    let (max_nodes, max_depth) = (
        cli::env_u64("VCT_NODES", 2_000_000),
        cli::env_u64("VCT_DEPTH", 11) as u8,
    );
    let text = std::fs::read_to_string(&path).expect("read the list");
    let (mut solved, mut total, mut all_nodes) = (0, 0, 0u64);
    let start = Instant::now();
    for (n, line) in text.lines().enumerate() {
        let mut words = line.split_whitespace();
        let Some(tag) = words.next() else { continue };
        let mut board = Board::new(15, 15, rule).expect("board");
        for w in words {
            let (x, y) = w.split_once(',').expect("x,y");
            let p = Pos::new(x.parse().expect("x"), y.parse().expect("y"));
            board.play(p).expect("a legal stone");
        }
        total += 1;
        let t = Instant::now();
        let mut vcf = VcfSolver::new(2_000_000, None);
        let vcf_found = vcf.solve(&mut board, 60).is_some();
        let mut nodes = vcf.nodes;
        let found = if vcf_found {
            "VCF"
        } else {
            let mut vct = VctSolver::new(max_nodes, None, None);
            let r = vct.solve_deepening(&mut board, max_depth);
            nodes += vct.nodes;
            if r.is_some() { "VCT" } else { "-" }
        };
        if found != "-" {
            solved += 1;
        }
        all_nodes += nodes;
        println!(
            "{:3} {tag} {found} {nodes} nodes {} ms",
            n + 1,
            t.elapsed().as_millis()
        );
    }
    println!(
        "solved {solved}/{total}, {all_nodes} nodes, {} ms",
        start.elapsed().as_millis()
    );
}
