//! Board benchmarks: make + undo with all pattern updates, and listing every
//! forbidden point of a Renju middle game. `cargo bench --bench board`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tianyuan::game::{Board, Pos, Rule};

/// A 15x15 Renju middle game (34 stones), black to move.
const MIDGAME: &str = "
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . O . X . . . . . . .
    . . . . X X O X O . . . . . .
    . . . O X O X X X O . . . . .
    . . . . X X X O X O . . . . .
    . . . O X O O X O . X . . . .
    . . . . O X . O X . . . . . .
    . . . . . O X . O . . . . . .
    . . . . . . . O . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .";

fn midgame(rule: Rule) -> Board {
    Board::from_diagram(MIDGAME, rule).expect("diagram").0
}

fn make_undo(c: &mut Criterion) {
    for rule in [Rule::Freestyle, Rule::Renju] {
        let mut b = midgame(rule);
        let moves: Vec<Pos> = b.candidates();
        c.bench_function(&format!("make_undo/{rule}"), |bench| {
            let mut i = 0;
            bench.iter(|| {
                let p = moves[i % moves.len()];
                i += 1;
                b.make(black_box(p));
                b.undo().unwrap();
            })
        });
    }
}

fn forbidden_points(c: &mut Criterion) {
    let mut b = midgame(Rule::Renju);
    c.bench_function("forbidden_points/renju_midgame", |bench| {
        bench.iter(|| black_box(b.forbidden_points()))
    });
}

criterion_group!(benches, make_undo, forbidden_points);
criterion_main!(benches);
