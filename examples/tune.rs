//! Fits the evaluation's threat-count weights to game results (Texel's method;
//! the weights in use are now fitted to search scores by `distil.rs`):
//! replays `.psq` records, keeps the quiet positions (and those defending an
//! open three: the evaluation sees both at the horizon), and minimises the squared
//! error between each game's result and a logistic function of the evaluation.
//! Usage: `cargo run --release --example tune -- RULE GAME.psq... [RULE GAME.psq...]`
//! (RULE: protocol number, for the records after it).

use tianyuan::eval::{WEIGHTS, family};
use tianyuan::game::{Board, Color, Rule};
use tianyuan::search::movegen::{NodeKind, node_kind};

#[path = "common/psq.rs"]
mod psq;
#[path = "common/weights.rs"]
mod weights;

const N: usize = 15;

struct Sample {
    mine: [f64; N],
    theirs: [f64; N],
    result: f64,
}

fn load(path: &str, rule: Rule, out: &mut Vec<Sample>) {
    let Ok(text) = std::fs::read_to_string(path) else {
        return;
    };
    let record = psq::parse(&text);
    let mut board = Board::new(record.width, record.height, rule).expect("board");
    let mut positions = Vec::new();
    for &(p, _) in &record.moves {
        if !board.is_empty(p) {
            return;
        }
        let last = board.last_move().map(|m| m.0);
        if board.stone_count() >= 6
            && matches!(
                node_kind(&mut board, last),
                NodeKind::Quiet | NodeKind::Defend
            )
        {
            let me = board.side_to_move();
            let f = |c: Color| {
                let mut a = [0.0; N];
                for (t, v) in a.iter_mut().enumerate() {
                    *v = board.threat_counts(c)[t] as f64;
                }
                a
            };
            positions.push((me, f(me), f(me.opponent())));
        }
        board.make(p);
    }
    let winner = board.last_move_wins();
    for (me, mine, theirs) in positions {
        let result = match winner {
            None => 0.5,
            Some(w) if w == me => 1.0,
            Some(_) => 0.0,
        };
        out.push(Sample {
            mine,
            theirs,
            result,
        });
    }
}

fn eval(w: &[f64; 2 * N], s: &Sample) -> f64 {
    (2..N)
        .map(|t| w[t] * s.mine[t] - w[N + t] * s.theirs[t])
        .sum()
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn loss(w: &[f64; 2 * N], k: f64, data: &[Sample]) -> f64 {
    data.iter()
        .map(|s| (s.result - sigmoid(eval(w, s) / k)).powi(2))
        .sum::<f64>()
        / data.len() as f64
}

fn main() {
    let mut rule = Rule::Freestyle;
    let mut data = Vec::new();
    for arg in std::env::args().skip(1) {
        match arg.parse::<i64>() {
            Ok(n) => rule = Rule::from_protocol(n).expect("rule number"),
            Err(_) => load(&arg, rule, &mut data),
        }
    }
    eprintln!("{} positions", data.len());
    // Start from the table of the last rule given.
    let f = family(rule);
    let mut w = [0.0; 2 * N];
    for t in 0..N {
        w[t] = WEIGHTS.own[f][t] as f64;
        w[N + t] = WEIGHTS.opp[f][t] as f64;
    }
    // The scale that best fits the current weights, unless TUNE_K fixes it
    // (to fit several rules on one scale).
    let mut k = 100.0;
    let mut best = f64::MAX;
    for step in 1..200 {
        let kk = step as f64 * 10.0;
        let l = loss(&w, kk, &data);
        if l < best {
            best = l;
            k = kk;
        }
    }
    if let Some(fixed) = std::env::var("TUNE_K").ok().and_then(|v| v.parse().ok()) {
        k = fixed;
        best = loss(&w, k, &data);
    }
    eprintln!("K = {k}, loss with current weights {best:.5}");
    // Adam on the weights.
    let (mut m, mut v) = ([0.0; 2 * N], [0.0; 2 * N]);
    let (b1, b2, lr) = (0.9, 0.999, 2.0);
    for it in 1..=3000 {
        let mut g = [0.0; 2 * N];
        for s in &data {
            let p = sigmoid(eval(&w, s) / k);
            let d = -2.0 * (s.result - p) * p * (1.0 - p) / k;
            for t in 2..N {
                g[t] += d * s.mine[t];
                g[N + t] -= d * s.theirs[t];
            }
        }
        for i in 0..2 * N {
            let gi = g[i] / data.len() as f64;
            m[i] = b1 * m[i] + (1.0 - b1) * gi;
            v[i] = b2 * v[i] + (1.0 - b2) * gi * gi;
            let mh = m[i] / (1.0 - b1.powi(it));
            let vh = v[i] / (1.0 - b2.powi(it));
            w[i] -= lr * mh / (vh.sqrt() + 1e-8);
            w[i] = w[i].max(0.0);
        }
        if it % 500 == 0 {
            eprintln!("iteration {it}: loss {:.5}", loss(&w, k, &data));
        }
    }
    println!("own: [{}],", weights::rounded_list(&w[..N]));
    println!("opp: [{}],", weights::rounded_list(&w[N..]));
}
