//! `pbrain-tianyuan`: the engine binary speaking the Piskvork protocol on stdin/stdout.

use clap::{Parser, Subcommand};
use tianyuan::protocol::session::Options;
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
        None => {
            let options = Options {
                threads: cli.threads,
                hash_bytes: cli.hash.map(|mb| mb << 20),
            };
            tianyuan::protocol::io::run(&options);
        }
    }
}
