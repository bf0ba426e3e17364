//! `tianyuan-match`: engine-vs-engine matches, gauntlets and round robins for
//! pbrain (Piskvork protocol) engines. See `docs/arena.md`.

use std::process::ExitCode;

use tianyuan::arena::cli::{Cli, build_config, expand_arg_files};
use tianyuan::arena::report::render;
use tianyuan::arena::schedule::OpeningOrder;
use tianyuan::arena::tournament::{INTERRUPTED, run};

/// First Ctrl-C (or SIGTERM): stop the run and report what was played. Second: quit.
#[cfg(unix)]
extern "C" fn on_signal(_: libc::c_int) {
    if INTERRUPTED.swap(true, std::sync::atomic::Ordering::Relaxed) {
        // SAFETY: _exit is async-signal-safe.
        unsafe { libc::_exit(130) };
    }
}

#[cfg(unix)]
fn install_signal_handlers() {
    let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
    // SAFETY: the handler only touches an atomic and calls _exit.
    unsafe {
        libc::signal(libc::SIGINT, handler);
        libc::signal(libc::SIGTERM, handler);
    }
}

#[cfg(not(unix))]
fn install_signal_handlers() {}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args = match expand_arg_files(std::env::args()) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("tianyuan-match: error: {e:#}");
            return ExitCode::from(2);
        }
    };
    let cli = match Cli::parse_args(args) {
        Ok(c) => c,
        Err(e) => e.exit(),
    };
    let config = match build_config(&cli) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("tianyuan-match: error: {e:#}");
            return ExitCode::from(2);
        }
    };
    if !cli.quiet {
        let names: Vec<&str> = config.engines.iter().map(|e| e.name.as_str()).collect();
        eprintln!(
            "{} ({}): {} — {} {}x{}, {}, {} opening(s){}",
            config.event,
            config.kind,
            names.join(", "),
            config.settings.rule,
            config.settings.width,
            config.settings.height,
            config.settings.tc,
            config.openings.len(),
            if config.opening_order == OpeningOrder::Random {
                format!(" in random order (seed {})", config.seed)
            } else {
                String::new()
            }
        );
    }
    install_signal_handlers();
    match run(&config) {
        Ok(summary) => {
            print!("{}", render(&config, &summary));
            if summary.interrupted {
                ExitCode::from(130)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            eprintln!("tianyuan-match: error: {e:#}");
            ExitCode::from(1)
        }
    }
}
