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
    },
}

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Bench { depth }) => {
            let r = bench::run(depth);
            eprintln!("positions: {}", bench::positions().len());
            eprintln!("depth: {depth}");
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
