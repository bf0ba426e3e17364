//! `pbrain-tianyuan`: the engine binary speaking the Piskvork protocol on stdin/stdout.

use clap::{Parser, Subcommand};
use tianyuan::game::notation::to_rif;
use tianyuan::protocol::session::Options;
use tianyuan::search::balance::{self, BalanceConfig};
use tianyuan::search::bench;

/// Tianyuan (天元), a Gomoku/Renju engine for the Gomocup/Piskvork protocol.
///
/// Without a subcommand it speaks the protocol on stdin/stdout (logs on stderr;
/// set RUST_LOG=debug for more).
#[derive(Parser, Debug)]
#[command(version, about)]
struct Cli {
    /// Search threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Transposition table size in MiB (default: 128; INFO max_memory and hash_size override).
    #[arg(long)]
    hash: Option<usize>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Search the fixed bench positions on one thread and print the node-count signature.
    Bench {
        /// Search depth.
        #[arg(default_value_t = bench::DEFAULT_DEPTH)]
        depth: i32,
        /// Search threads; the signature is defined for 1, more measures
        /// time-to-depth.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Print balanced openings (one per line, `h8i9j7`) for engine matches:
    /// random quiet stones near the centre whose searched score stays small.
    Openings {
        /// Rule: freestyle, standard, renju, caro, caro-exact or a protocol number.
        #[arg(long, default_value = "freestyle")]
        rule: String,
        /// Board size.
        #[arg(long, default_value_t = 15)]
        size: usize,
        /// Openings to print.
        #[arg(long, default_value_t = 40)]
        count: usize,
        /// Stones per opening (black first).
        #[arg(long, default_value_t = 3)]
        stones: usize,
        /// Stones lie at most this far from the centre.
        #[arg(long, default_value_t = 3)]
        radius: usize,
        /// Depth of the balance search.
        #[arg(long, default_value_t = 8)]
        depth: i32,
        /// Largest absolute score kept (an open three is about 100).
        #[arg(long, default_value_t = 60)]
        max_score: i32,
        /// Seed of the random draw.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Bench { depth, threads }) => {
            let r = bench::run(depth, threads.max(1));
            eprintln!("positions: {}", bench::positions().len());
            eprintln!("depth: {depth}");
            eprintln!("threads: {}", threads.max(1));
            eprintln!("time: {} ms", r.elapsed.as_millis());
            eprintln!("nps: {}", r.nps());
            println!("Nodes searched: {}", r.nodes);
        }
        Some(Command::Openings {
            rule,
            size,
            count,
            stones,
            radius,
            depth,
            max_score,
            seed,
        }) => {
            let result = tianyuan::arena::cli::parse_rule(&rule).and_then(|rule| {
                let cfg = BalanceConfig {
                    rule,
                    size,
                    stones,
                    radius,
                    depth,
                    max_score,
                    count,
                    seed,
                };
                println!(
                    "# {count} balanced openings: rule {}, {size}x{size}, {stones} stones within {radius} of the centre,",
                    rule.name()
                );
                println!("# |score| <= {max_score} at depth {depth}, seed {seed} (pbrain-tianyuan openings)");
                balance::generate(&cfg, &mut |o| {
                    let s: String = o.moves.iter().map(|&p| to_rif(p, size)).collect();
                    println!("{s}");
                    eprintln!("{s} score {}", o.score);
                })
                .map_err(anyhow::Error::msg)
            });
            if let Err(e) = result {
                eprintln!("error: {e}");
                std::process::exit(2);
            }
        }
        None => {
            let options = Options {
                threads: cli.threads,
                hash_bytes: cli.hash.map(|mb| mb << 20),
            };
            tianyuan::protocol::io::run(&options);
        }
    }
}
