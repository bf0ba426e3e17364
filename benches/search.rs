//! Search benchmarks: VCF solve times on the tactical suite's long VCF
//! positions, and a fixed-depth search of a middle game on one thread.
//! `cargo bench --bench search`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tianyuan::game::{Board, Rule};
use tianyuan::search::vcf::VcfSolver;
use tianyuan::search::{Limits, Searcher};

/// The VCF cases of `tests/tactics/vcf.txt` with the given ids, as boards.
fn vcf_cases(ids: &[&str]) -> Vec<(String, Board)> {
    let text = std::fs::read_to_string("tests/tactics/vcf.txt").expect("tests/tactics/vcf.txt");
    let mut out = Vec::new();
    for block in text.split("\n\n") {
        let Some(id) = block.lines().find_map(|l| l.strip_prefix("# id: ")) else {
            continue;
        };
        if !ids.contains(&id.trim()) {
            continue;
        }
        let rule = block
            .lines()
            .find_map(|l| l.strip_prefix("# rule: "))
            .and_then(|r| Rule::from_name(r.trim()))
            .expect("rule");
        let diagram: String = block
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| format!("{l}\n"))
            .collect();
        let (b, _) = Board::from_diagram(&diagram, rule).expect("diagram");
        out.push((id.trim().to_string(), b));
    }
    out
}

fn vcf(c: &mut Criterion) {
    for (id, board) in vcf_cases(&["fs15-vcf-01", "fs15-vcf-02", "fs20-vcf-05"]) {
        c.bench_function(&format!("vcf/{id}"), |bench| {
            let mut b = board.clone();
            bench.iter(|| {
                let line = VcfSolver::new(1_000_000, None).solve(&mut b, 40);
                black_box(line.expect("a VCF"))
            })
        });
    }
}

fn search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    let positions = tianyuan::search::bench::positions();
    let board = positions[3].clone();
    group.bench_function("depth6/freestyle_midgame/1thread", |bench| {
        bench.iter(|| {
            let s = Searcher::new(16 << 20, 1);
            black_box(s.search(&board, &Limits::depth(6), &mut |_| {}))
        })
    });
    group.finish();
}

criterion_group!(benches, vcf, search);
criterion_main!(benches);
