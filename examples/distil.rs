//! Fits the evaluation to search scores (distillation): reads the lines
//! `label.rs` writes, and fits, on the first 80 % of them (the rest held out;
//! positions of one game stay together but at the cut), the threat-count weights
//! and per-point residuals keyed by the sorted four line patterns of each
//! colour, minimising the squared difference of logistic(score / K) and
//! logistic(eval / K); reports the held-out loss of the current weights, of
//! refitted threat weights, and of both with residuals. With `PRIOR=1` the
//! shape values start from the current ones and the L2 term (`L2`) pulls
//! them towards those instead of towards 0 (`L2=1` keeps them as they are,
//! so only the threat weights are refitted). With `FIX_THREATS=1` the threat
//! weights stay as they are and only the shape values are fitted (with
//! `PRIOR=1`, starting from the current ones): the search's margins are set in
//! the units of the threat weights.
//! Usage: `cargo run --release --example distil -- LABELS... > TABLE`.

use std::collections::HashMap;

use tianyuan::eval::{WEIGHTS, evaluate, family, shape_tables, sorted_shape_key};
use tianyuan::game::{Board, Pos, Rule};

#[path = "common/weights.rs"]
mod weights;

const N: usize = 15;

/// One labelled position: threat counts, sparse residual-key counts, target.
struct Sample {
    own_t: [f32; N],
    opp_t: [f32; N],
    /// (key index, +1 own / -1 opp count).
    keys: Vec<(u32, f32)>,
    target: f64,
    current: f64,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn main() {
    let k: f64 = std::env::var("K")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(400.0);
    let lambda: f64 = std::env::var("L2")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1e-6);
    let min_seen: usize = std::env::var("MIN_SEEN")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    // Positions decided within the horizon: left out, their threats would
    // read as worth little (the won ones are not there); DECISIVE=1 keeps them.
    let with_decisive = std::env::var("DECISIVE").is_ok_and(|v| v == "1");
    // Start the shape values from the current ones and pull them towards
    // those (L2) instead of towards 0: a refinement of the fit in use.
    let prior = std::env::var("PRIOR").is_ok_and(|v| v == "1");
    let fix_threats = std::env::var("FIX_THREATS").is_ok_and(|v| v == "1");
    // The rule of the labels (the last line's: one rule family per run).
    let mut data_rule = Rule::Freestyle;
    let mut index: HashMap<(u16, bool, usize), u32> = HashMap::new();
    let mut seen: Vec<usize> = Vec::new();
    let mut samples = Vec::new();
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).expect("labels");
        for line in text.lines() {
            let mut it = line.split_whitespace();
            let rule = Rule::from_protocol(it.next().unwrap().parse().unwrap()).unwrap();
            data_rule = rule;
            let score: i32 = it.next().unwrap().parse().unwrap();
            let decisive = score.abs() > 20_000;
            if decisive && !with_decisive {
                continue;
            }
            let mut b = Board::new(15, 15, rule).unwrap();
            for m in it {
                let (x, y) = m.split_once(',').unwrap();
                b.make(Pos::new(x.parse().unwrap(), y.parse().unwrap()));
            }
            let me = b.side_to_move();
            let opp = me.opponent();
            let mut own_t = [0.0; N];
            let mut opp_t = [0.0; N];
            for t in 0..N {
                own_t[t] = b.threat_counts(me)[t] as f32;
                opp_t[t] = b.threat_counts(opp)[t] as f32;
            }
            let mut counts: HashMap<u32, f32> = HashMap::new();
            let points: Vec<Pos> = b.points().filter(|&p| b.is_empty(p)).collect();
            for p in points {
                for (c, own) in [(me, true), (opp, false)] {
                    let pats = b.packed_patterns(p, c);
                    if pats == 0 {
                        continue;
                    }
                    // In Renju the colours' shapes differ (black's may be forbidden).
                    let colour = if rule.has_forbidden() { c.index() } else { 0 };
                    let key = (sorted_shape_key(pats), own, colour);
                    let n = index.len() as u32;
                    let i = *index.entry(key).or_insert(n);
                    if i as usize == seen.len() {
                        seen.push(0);
                    }
                    seen[i as usize] += 1;
                    *counts.entry(i).or_default() += if own { 1.0 } else { -1.0 };
                }
            }
            let target = sigmoid(score.clamp(-20_000, 20_000) as f64 / k);
            samples.push(Sample {
                own_t,
                opp_t,
                keys: counts.into_iter().collect(),
                target,
                current: evaluate(&b) as f64,
            });
        }
    }
    let n = samples.len();
    let split = n * 4 / 5;
    let (train, test) = samples.split_at(split);
    eprintln!(
        "{n} positions ({} train), {} keys",
        train.len(),
        index.len()
    );
    let loss = |f: &dyn Fn(&Sample) -> f64, set: &[Sample]| {
        set.iter()
            .map(|s| (s.target - sigmoid(f(s) / k)).powi(2))
            .sum::<f64>()
            / set.len() as f64
    };
    eprintln!(
        "current weights: train {:.5} test {:.5}",
        loss(&|s| s.current, train),
        loss(&|s| s.current, test)
    );
    let nk = index.len();
    let fam = family(data_rule);
    // Parameters: own threat weights, opp threat weights, residuals.
    let mut w = vec![0.0f64; 2 * N + nk];
    if prior {
        let tables = shape_tables(data_rule);
        for (&(key, own, colour), &i) in &index {
            w[2 * N + i as usize] = tables[colour][key as usize][usize::from(!own)] as f64;
        }
    }
    for t in 0..N {
        w[t] = WEIGHTS.own[fam][t] as f64;
        w[N + t] = WEIGHTS.opp[fam][t] as f64;
    }
    let w0 = w.clone();
    let predict = |w: &[f64], s: &Sample| -> f64 {
        let mut e = 0.0;
        for t in 2..N {
            e += w[t] * s.own_t[t] as f64 - w[N + t] * s.opp_t[t] as f64;
        }
        for &(i, c) in &s.keys {
            e += w[2 * N + i as usize] * c as f64;
        }
        e
    };
    for (phase, with_keys) in [("threat weights", false), ("with residuals", true)] {
        let (mut m, mut v) = (vec![0.0; w.len()], vec![0.0; w.len()]);
        let (b1, b2, lr) = (0.9, 0.999, 1.0);
        for it in 1..=2000 {
            let mut g = vec![0.0; w.len()];
            for s in train {
                let p = sigmoid(predict(&w, s) / k);
                let d = -2.0 * (s.target - p) * p * (1.0 - p) / k;
                for t in 2..N {
                    g[t] += d * s.own_t[t] as f64;
                    g[N + t] -= d * s.opp_t[t] as f64;
                }
                if with_keys {
                    for &(i, c) in &s.keys {
                        g[2 * N + i as usize] += d * c as f64;
                    }
                }
            }
            for i in 0..w.len() {
                if fix_threats && i < 2 * N {
                    continue;
                }
                let mut gi = g[i] / train.len() as f64;
                if i >= 2 * N {
                    if seen[i - 2 * N] < min_seen {
                        continue;
                    }
                    gi += 2.0 * lambda * (w[i] - w0[i]);
                }
                m[i] = b1 * m[i] + (1.0 - b1) * gi;
                v[i] = b2 * v[i] + (1.0 - b2) * gi * gi;
                let mh = m[i] / (1.0 - b1.powi(it));
                let vh = v[i] / (1.0 - b2.powi(it));
                w[i] -= lr * mh / (vh.sqrt() + 1e-8);
            }
            if it % 500 == 0 {
                eprintln!(
                    "{phase} {it}: train {:.5} test {:.5}",
                    loss(&|s| predict(&w, s), train),
                    loss(&|s| predict(&w, s), test)
                );
            }
        }
    }
    println!("own: [{}]", weights::rounded_list(&w[..N]));
    println!("opp: [{}]", weights::rounded_list(&w[N..2 * N]));
    // Residuals by sorted key: (own, opponent), as Rust tuples.
    let mut table: std::collections::BTreeMap<(usize, u16), (i64, i64)> = Default::default();
    for (&(key, own, colour), &i) in &index {
        let r = w[2 * N + i as usize].round() as i64;
        let e = table.entry((colour, key)).or_default();
        if own {
            e.0 = r;
        } else {
            e.1 = r;
        }
    }
    let mut colour = usize::MAX;
    for ((c, key), (own, opp)) in table {
        if c != colour {
            println!("// colour {c}");
            colour = c;
        }
        if own != 0 || opp != 0 {
            println!("    (0x{key:04x}, {own}, {opp}),");
        }
    }
}
