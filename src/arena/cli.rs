//! The command line of `tianyuan-match`: options, argument files, and their checks
//! into a [`TournamentConfig`] with clear errors.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, bail, ensure};
use clap::{ArgAction, CommandFactory, FromArgMatches, Parser};

use crate::game::{MAX_SIZE, MIN_SIZE, Rule};

use super::clock::{TimeControl, parse_duration};
use super::engine::EngineConfig;
use super::game::GameSettings;
use super::opening::{Opening, OpeningFormat, load_openings, rif_openings};
use super::output::OutputPaths;
use super::schedule::{OpeningOrder, TournamentKind};
use super::stats::{Sprt, SprtModel};
use super::tournament::{RestartPolicy, TournamentConfig};

/// Default game pairs for an SPRT: effectively "until it decides".
pub const SPRT_DEFAULT_ROUNDS: usize = 50_000;

/// Engine-vs-engine matches, gauntlets and round robins for Gomoku/Renju engines that
/// speak the Piskvork (pbrain) protocol.
///
/// Every opening is played twice with colours swapped. Every deadline is enforced: a
/// silent engine is killed and loses on time, a crashed one loses and is restarted.
/// An argument `@FILE` is replaced by the words of FILE (whitespace-separated,
/// `#` starts a comment), for long configurations.
#[derive(Parser, Debug)]
#[command(
    name = "tianyuan-match",
    version,
    after_help = "Example:\n  tianyuan-match -e cmd=./pbrain-new name=new -e cmd=./pbrain-base name=base \\\n    --rule renju --openings rif --move-time 1s --concurrency 2 --sprt --elo0 0 --elo1 10 -o out/"
)]
pub struct Cli {
    /// An engine: `cmd=PATH [name=NAME] [arg=ARG]... [dir=DIR] [threads=N] [memory=MB]
    /// [option.KEY=VALUE]...` (option.KEY sends `INFO KEY VALUE`); a bare PATH means
    /// cmd=PATH. Give one --engine per engine.
    #[arg(short, long = "engine", value_name = "KEY=VALUE", num_args = 1.., action = ArgAction::Append, required = true)]
    pub engine: Vec<String>,

    /// The words of each --engine, grouped (filled by [`Cli::parse_args`]).
    #[arg(skip)]
    pub engine_groups: Vec<Vec<String>>,

    /// Engine settings for every engine (same keys as --engine), before each one's own.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub each: Vec<String>,

    /// match (two engines), gauntlet (the first against each other one) or round-robin.
    /// Default: match for two engines, round-robin for more.
    #[arg(long, value_name = "KIND")]
    pub tournament: Option<String>,

    /// Game pairs (an opening with colours swapped) per pairing. Default: one per
    /// opening of --openings, else 1; with --sprt, until the SPRT decides.
    #[arg(long, value_name = "N")]
    pub rounds: Option<usize>,

    /// Games per pairing instead of --rounds (odd: the last opening once).
    #[arg(long, value_name = "N", conflicts_with = "rounds")]
    pub games: Option<usize>,

    /// Games played at the same time.
    #[arg(short, long, value_name = "N", default_value_t = 1)]
    pub concurrency: usize,

    /// Rule: freestyle, standard (exact five), renju, caro, caro-exact, or a protocol
    /// `INFO rule` number (0, 1, 4, 8, 9).
    #[arg(long, value_name = "RULE", default_value = "freestyle")]
    pub rule: String,

    /// Board size: N (square) or WxH.
    #[arg(long, value_name = "N|WxH", default_value = "15")]
    pub board: String,

    /// Openings: a file (offset format `dx,dy, dx,dy, …` from the centre, or position
    /// format `h8i9j7`, one per line), or `rif` for the 26 RIF openings.
    #[arg(long, value_name = "FILE|rif")]
    pub openings: Option<String>,

    /// Format of the opening file: auto (per line), offset or pos.
    #[arg(
        long,
        value_name = "FORMAT",
        default_value = "auto",
        requires = "openings"
    )]
    pub opening_format: String,

    /// Use the openings in random order (each once before any repeats).
    #[arg(long, requires = "openings")]
    pub random_openings: bool,

    /// Seed for --random-openings (default: from the clock; printed).
    #[arg(long, value_name = "N", requires = "random_openings")]
    pub seed: Option<u64>,

    /// Draw once this many stones are on the board.
    #[arg(long, value_name = "N")]
    pub max_moves: Option<usize>,

    /// Time limit per move (INFO timeout_turn), e.g. 5s, 500ms. Default 5s when no
    /// other time control is given.
    #[arg(long, value_name = "DURATION")]
    pub move_time: Option<String>,

    /// Main time per game and side (INFO timeout_match), e.g. 120s, 20m.
    #[arg(long, value_name = "DURATION")]
    pub game_time: Option<String>,

    /// Added after every move (INFO time_increment); needs --game-time.
    #[arg(long, value_name = "DURATION", requires = "game_time")]
    pub increment: Option<String>,

    /// Byoyomi: once the main time is spent, this much per move (INFO byoyomi), e.g.
    /// --game-time 20m --byoyomi 60s.
    #[arg(long, value_name = "DURATION")]
    pub byoyomi: Option<String>,

    /// How late past its budget a move may still arrive.
    #[arg(long, value_name = "DURATION", default_value = "1s")]
    pub tolerance: String,

    /// How long an engine may take to answer START.
    #[arg(long, value_name = "DURATION", default_value = "30s")]
    pub start_timeout: String,

    /// Run an SPRT on game pairs and stop as soon as it decides (match only).
    #[arg(long)]
    pub sprt: bool,

    /// SPRT: Elo under H0.
    #[arg(
        long,
        value_name = "ELO",
        default_value_t = 0.0,
        requires = "sprt",
        allow_hyphen_values = true
    )]
    pub elo0: f64,

    /// SPRT: Elo under H1.
    #[arg(
        long,
        value_name = "ELO",
        default_value_t = 5.0,
        requires = "sprt",
        allow_hyphen_values = true
    )]
    pub elo1: f64,

    /// SPRT: false-positive rate.
    #[arg(long, value_name = "P", default_value_t = 0.05, requires = "sprt")]
    pub alpha: f64,

    /// SPRT: false-negative rate.
    #[arg(long, value_name = "P", default_value_t = 0.05, requires = "sprt")]
    pub beta: f64,

    /// SPRT Elo model: logistic or normalized.
    #[arg(
        long,
        value_name = "MODEL",
        default_value = "logistic",
        requires = "sprt"
    )]
    pub sprt_model: String,

    /// Restart engines: on-error (after a timeout, crash or bad reply) or always.
    #[arg(long, value_name = "WHEN", default_value = "on-error")]
    pub restart: String,

    /// Output folder: games.sgf, games.pgn, psq/ (and logs/ with --logs).
    #[arg(short, long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// Keep a protocol log per game in OUT/logs.
    #[arg(long, requires = "out")]
    pub logs: bool,

    /// All games as one SGF collection (overrides --out's).
    #[arg(long, value_name = "FILE")]
    pub sgf: Option<PathBuf>,

    /// PGN result file for Ordo/BayesElo (overrides --out's).
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,

    /// Folder for one Piskvork .psq per game (overrides --out's).
    #[arg(long, value_name = "DIR")]
    pub psq_dir: Option<PathBuf>,

    /// Folder for one protocol log per game (overrides --out's).
    #[arg(long, value_name = "DIR")]
    pub log_dir: Option<PathBuf>,

    /// Event name in the records.
    #[arg(long, value_name = "NAME", default_value = "Tianyuan match")]
    pub event: String,

    /// No progress bar and no line per game.
    #[arg(short, long)]
    pub quiet: bool,
}

impl Cli {
    /// Parses the arguments (after [`expand_arg_files`]), keeping each `--engine`'s
    /// words together.
    pub fn parse_args<I, T>(args: I) -> Result<Cli, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let matches = Cli::command().try_get_matches_from(args)?;
        let mut cli = Cli::from_arg_matches(&matches)?;
        cli.engine_groups = matches
            .get_occurrences::<String>("engine")
            .map(|o| o.map(|words| words.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(cli)
    }
}

/// Replaces each `@FILE` argument by the words in FILE (`#` to the end of a line is a
/// comment). The first argument (the program) is kept as it is.
pub fn expand_arg_files(args: impl IntoIterator<Item = String>) -> Result<Vec<String>> {
    let mut out = Vec::new();
    for (i, arg) in args.into_iter().enumerate() {
        match arg.strip_prefix('@') {
            Some(path) if i > 0 && !path.is_empty() => {
                let text = fs::read_to_string(path)
                    .with_context(|| format!("cannot read the argument file {path}"))?;
                for line in text.lines() {
                    let line = line.split('#').next().unwrap_or("");
                    out.extend(line.split_whitespace().map(str::to_owned));
                }
            }
            _ => out.push(arg),
        }
    }
    Ok(out)
}

fn duration_ms(text: &str, what: &str) -> Result<u64> {
    let d: Duration = parse_duration(text).map_err(|e| anyhow::anyhow!("--{what}: {e}"))?;
    Ok(d.as_millis() as u64)
}

/// `15` or `20x15`.
pub fn parse_board(text: &str) -> Result<(usize, usize)> {
    let t = text.trim().to_ascii_lowercase();
    let (w, h) = match t.split_once('x') {
        Some((w, h)) => (w.trim().parse(), h.trim().parse()),
        None => (t.parse(), t.parse()),
    };
    let (Ok(w), Ok(h)) = (w, h) else {
        bail!("--board: cannot read {text:?} (examples: 15, 20, 20x15)");
    };
    ensure!(
        (MIN_SIZE..=MAX_SIZE).contains(&w) && (MIN_SIZE..=MAX_SIZE).contains(&h),
        "--board: {w}x{h} is not supported (sides {MIN_SIZE}..={MAX_SIZE})"
    );
    Ok((w, h))
}

/// A rule by name or protocol number.
pub fn parse_rule(text: &str) -> Result<Rule> {
    if let Some(r) = Rule::from_name(text.trim()) {
        return Ok(r);
    }
    if let Ok(n) = text.trim().parse::<i64>() {
        return Rule::from_protocol(n).map_err(|e| anyhow::anyhow!("--rule: {e}"));
    }
    bail!(
        "--rule: unknown rule {text:?} (freestyle, standard, renju, caro, caro-exact, or 0/1/4/8/9)"
    )
}

/// Finds an executable: a path with a `/` relative to the current folder, else on PATH.
fn resolve_command(cmd: &str) -> Result<PathBuf> {
    let p = Path::new(cmd);
    if cmd.contains('/') || cmd.contains(std::path::MAIN_SEPARATOR) {
        ensure!(p.is_file(), "engine command {cmd} does not exist");
        return p
            .canonicalize()
            .with_context(|| format!("engine command {cmd}"));
    }
    if let Some(paths) = env::var_os("PATH") {
        for dir in env::split_paths(&paths) {
            let c = dir.join(cmd);
            if c.is_file() {
                return Ok(c);
            }
        }
    }
    bail!("engine command {cmd} not found (give a path, e.g. ./{cmd}, or put it on PATH)")
}

/// One engine from its `KEY=VALUE` words (after the `--each` words).
pub fn parse_engine(words: &[String]) -> Result<EngineConfig> {
    let mut cfg = EngineConfig::new("", "");
    let mut name = None;
    let mut cmd = None;
    for w in words {
        let Some((key, value)) = w.split_once('=') else {
            ensure!(cmd.is_none(), "engine: {w:?} is not KEY=VALUE");
            cmd = Some(w.clone());
            continue;
        };
        let number = |what: &str| -> Result<u64> {
            value
                .parse()
                .with_context(|| format!("engine {what}={value:?}: not a whole number"))
        };
        match key {
            "cmd" => cmd = Some(value.to_owned()),
            "name" => {
                ensure!(!value.trim().is_empty(), "engine name= is empty");
                name = Some(value.to_owned());
            }
            "arg" => cfg.args.push(value.to_owned()),
            "args" => cfg.args.extend(value.split_whitespace().map(str::to_owned)),
            "dir" => cfg.dir = Some(PathBuf::from(value)),
            "threads" => cfg.threads = Some(number("threads")? as u32),
            "memory" => cfg.memory_mb = Some(number("memory")?),
            _ => {
                let opt = key
                    .strip_prefix("option.")
                    .or_else(|| key.strip_prefix("info."));
                match opt {
                    Some(k) if !k.is_empty() && !k.contains(char::is_whitespace) => {
                        cfg.options.retain(|(o, _)| o != k);
                        cfg.options.push((k.to_owned(), value.to_owned()));
                    }
                    _ => bail!(
                        "engine: unknown key {key:?} in {w:?} (keys: cmd, name, arg, args, dir, threads, memory, option.KEY)"
                    ),
                }
            }
        }
    }
    let Some(cmd) = cmd else {
        bail!("engine {}: no cmd= given", words.join(" "));
    };
    cfg.command = resolve_command(&cmd)?;
    if let Some(dir) = &cfg.dir {
        ensure!(dir.is_dir(), "engine dir={} is not a folder", dir.display());
    }
    cfg.name = name.unwrap_or_else(|| {
        Path::new(&cmd)
            .file_stem()
            .map_or(cmd.clone(), |s| s.to_string_lossy().into_owned())
    });
    Ok(cfg)
}

/// Checks the options and builds the run's configuration.
pub fn build_config(cli: &Cli) -> Result<TournamentConfig> {
    // Engines, with unique names.
    let mut engines: Vec<EngineConfig> = Vec::new();
    for words in &cli.engine_groups {
        let all: Vec<String> = cli.each.iter().chain(words).cloned().collect();
        let mut e = parse_engine(&all)?;
        let explicit = words.iter().any(|w| w.starts_with("name="));
        if engines.iter().any(|o| o.name == e.name) {
            ensure!(
                !explicit,
                "two engines are named {:?}; names must be unique",
                e.name
            );
            let base = e.name.clone();
            let mut k = 2;
            while engines.iter().any(|o| o.name == e.name) {
                e.name = format!("{base}-{k}");
                k += 1;
            }
        }
        engines.push(e);
    }
    ensure!(
        engines.len() >= 2,
        "give at least two engines (--engine … --engine …)"
    );

    let kind = match &cli.tournament {
        Some(t) => TournamentKind::from_name(t).with_context(|| {
            format!("--tournament: unknown kind {t:?} (match, gauntlet, round-robin)")
        })?,
        None if engines.len() == 2 => TournamentKind::Match,
        None => TournamentKind::RoundRobin,
    };
    if kind == TournamentKind::Match {
        ensure!(
            engines.len() == 2,
            "--tournament match needs exactly two engines, got {} (use gauntlet or round-robin)",
            engines.len()
        );
    }

    let (width, height) = parse_board(&cli.board)?;
    let rule = parse_rule(&cli.rule)?;

    // Time control.
    let turn_ms = cli
        .move_time
        .as_deref()
        .map(|t| duration_ms(t, "move-time"))
        .transpose()?;
    let game_ms = cli
        .game_time
        .as_deref()
        .map(|t| duration_ms(t, "game-time"))
        .transpose()?;
    let increment_ms = cli
        .increment
        .as_deref()
        .map(|t| duration_ms(t, "increment"))
        .transpose()?;
    let byoyomi_ms = cli
        .byoyomi
        .as_deref()
        .map(|t| duration_ms(t, "byoyomi"))
        .transpose()?;
    ensure!(turn_ms != Some(0), "--move-time must be above zero");
    ensure!(byoyomi_ms != Some(0), "--byoyomi must be above zero");
    if game_ms == Some(0) {
        ensure!(
            byoyomi_ms.is_some() || increment_ms.is_some_and(|i| i > 0),
            "--game-time 0 leaves no time: add --byoyomi or --increment"
        );
    }
    let mut tc = TimeControl {
        turn_ms,
        game_ms: game_ms.or(byoyomi_ms.map(|_| 0)),
        increment_ms: increment_ms.unwrap_or(0),
        byoyomi_ms: byoyomi_ms.unwrap_or(0),
        tolerance_ms: duration_ms(&cli.tolerance, "tolerance")?,
    };
    if tc.turn_ms.is_none() && tc.game_ms.is_none() {
        tc.turn_ms = TimeControl::default().turn_ms;
    }
    let start_timeout = Duration::from_millis(duration_ms(&cli.start_timeout, "start-timeout")?);
    ensure!(
        !start_timeout.is_zero(),
        "--start-timeout must be above zero"
    );

    // Openings.
    let openings: Vec<Opening> = match cli.openings.as_deref() {
        None => vec![Opening::empty()],
        Some(o) if o.eq_ignore_ascii_case("rif") && !Path::new(o).exists() => {
            rif_openings(width, height, rule)?
        }
        Some(path) => {
            let format = OpeningFormat::from_name(&cli.opening_format).with_context(|| {
                format!(
                    "--opening-format: unknown format {:?} (auto, offset, pos)",
                    cli.opening_format
                )
            })?;
            load_openings(Path::new(path), format, width, height, rule)?
        }
    };
    if let Some(m) = cli.max_moves {
        let longest = openings.iter().map(|o| o.moves.len()).max().unwrap_or(0);
        ensure!(
            m > longest,
            "--max-moves {m} is not above the longest opening ({longest} stones)"
        );
    }

    // SPRT.
    let sprt = if cli.sprt {
        ensure!(
            kind == TournamentKind::Match,
            "--sprt needs a match of two engines (not a {kind})"
        );
        let model = match cli.sprt_model.to_ascii_lowercase().as_str() {
            "logistic" => SprtModel::Logistic,
            "normalized" => SprtModel::Normalized,
            m => bail!("--sprt-model: unknown model {m:?} (logistic, normalized)"),
        };
        Some(Sprt::new(cli.elo0, cli.elo1, cli.alpha, cli.beta, model)?)
    } else {
        None
    };

    let games = cli.games;
    ensure!(games != Some(0), "--games must be at least 1");
    ensure!(cli.rounds != Some(0), "--rounds must be at least 1");
    let rounds = match (cli.rounds, games) {
        (Some(r), _) => r,
        (None, Some(g)) => g.div_ceil(2),
        (None, None) if sprt.is_some() => SPRT_DEFAULT_ROUNDS,
        (None, None) => openings.len(),
    };
    ensure!(cli.concurrency >= 1, "--concurrency must be at least 1");

    let restart = match cli.restart.to_ascii_lowercase().as_str() {
        "on-error" | "onerror" | "error" => RestartPolicy::OnError,
        "always" => RestartPolicy::Always,
        r => bail!("--restart: unknown policy {r:?} (on-error, always)"),
    };

    let mut output = match &cli.out {
        Some(dir) => OutputPaths::in_dir(dir, cli.logs),
        None => OutputPaths::default(),
    };
    output.sgf = cli.sgf.clone().or(output.sgf);
    output.pgn = cli.pgn.clone().or(output.pgn);
    output.psq_dir = cli.psq_dir.clone().or(output.psq_dir);
    output.log_dir = cli.log_dir.clone().or(output.log_dir);

    let seed = cli.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });

    Ok(TournamentConfig {
        engines,
        kind,
        settings: GameSettings {
            width,
            height,
            rule,
            tc,
            max_moves: cli.max_moves,
            start_timeout,
        },
        openings,
        opening_order: if cli.random_openings {
            OpeningOrder::Random
        } else {
            OpeningOrder::Sequential
        },
        seed,
        rounds,
        games,
        concurrency: cli.concurrency,
        sprt,
        restart,
        output,
        event: cli.event.clone(),
        progress: !cli.quiet,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cli(args: &[&str]) -> Result<TournamentConfig> {
        let mut all = vec!["tianyuan-match"];
        all.extend_from_slice(args);
        let cli = Cli::parse_args(all)?;
        build_config(&cli)
    }

    #[test]
    fn engines_and_defaults() {
        let c = cli(&[
            "-e",
            "cmd=/bin/cat",
            "name=a",
            "arg=-u",
            "threads=2",
            "memory=64",
            "option.hash_size=1024",
            "-e",
            "/bin/cat",
        ])
        .unwrap();
        assert_eq!(c.engines.len(), 2);
        assert_eq!(c.engines[0].name, "a");
        assert_eq!(c.engines[0].args, ["-u"]);
        assert_eq!(c.engines[0].threads, Some(2));
        assert_eq!(c.engines[0].memory_mb, Some(64));
        assert_eq!(c.engines[0].options, [("hash_size".into(), "1024".into())]);
        assert_eq!(c.engines[1].name, "cat");
        assert_eq!(c.kind, TournamentKind::Match);
        assert_eq!(c.settings.tc.turn_ms, Some(5000));
        assert_eq!(c.settings.rule, Rule::Freestyle);
        assert_eq!((c.settings.width, c.settings.height), (15, 15));
        assert_eq!(c.rounds, 1);
        // Auto names are made unique.
        let c = cli(&["-e", "/bin/cat", "-e", "/bin/cat", "-e", "/bin/cat"]).unwrap();
        let names: Vec<_> = c.engines.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["cat", "cat-2", "cat-3"]);
        assert_eq!(c.kind, TournamentKind::RoundRobin);
    }

    #[test]
    fn time_controls() {
        let c = cli(&[
            "-e",
            "/bin/cat",
            "-e",
            "/bin/cat",
            "--game-time",
            "20m",
            "--byoyomi",
            "60s",
        ])
        .unwrap();
        let tc = c.settings.tc;
        assert_eq!(
            (tc.turn_ms, tc.game_ms, tc.byoyomi_ms),
            (None, Some(1_200_000), 60_000)
        );
        let c = cli(&[
            "-e",
            "/bin/cat",
            "-e",
            "/bin/cat",
            "--game-time",
            "120",
            "--increment",
            "0.5",
            "--move-time",
            "5s",
            "--tolerance",
            "200ms",
        ])
        .unwrap();
        let tc = c.settings.tc;
        assert_eq!(
            (tc.turn_ms, tc.game_ms, tc.increment_ms, tc.tolerance_ms),
            (Some(5000), Some(120_000), 500, 200)
        );
        let c = cli(&["-e", "/bin/cat", "-e", "/bin/cat", "--byoyomi", "10s"]).unwrap();
        assert_eq!(
            (c.settings.tc.game_ms, c.settings.tc.byoyomi_ms),
            (Some(0), 10_000)
        );
    }

    #[test]
    fn conflicts_and_bad_values_are_errors() {
        let two = ["-e", "/bin/cat", "-e", "/bin/cat"];
        let err = |extra: &[&str]| {
            let mut a = two.to_vec();
            a.extend_from_slice(extra);
            cli(&a).unwrap_err().to_string()
        };
        assert!(err(&["--rounds", "2", "--games", "4"]).contains("cannot be used with"));
        assert!(err(&["--increment", "1s"]).contains("--game-time"));
        assert!(err(&["--elo1", "3"]).contains("--sprt"));
        assert!(err(&["--board", "40"]).contains("not supported"));
        assert!(err(&["--board", "abc"]).contains("cannot read"));
        assert!(err(&["--rule", "go"]).contains("unknown rule"));
        assert!(err(&["--move-time", "fast"]).contains("--move-time"));
        assert!(err(&["--game-time", "0"]).contains("no time"));
        assert!(err(&["--sprt", "--elo0", "5", "--elo1", "0"]).contains("elo0 < elo1"));
        assert!(err(&["--tournament", "swiss"]).contains("unknown kind"));
        assert!(err(&["--max-moves", "3", "--openings", "rif"]).contains("longest opening"));
        assert!(err(&["-e", "/bin/cat", "--sprt"]).contains("--sprt needs a match"));
        assert!(err(&["-e", "/bin/cat", "--tournament", "match"]).contains("exactly two"));
        assert!(err(&["--logs"]).contains("--out"));
        let e = cli(&["-e", "/no/such/engine", "-e", "/bin/cat"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("does not exist"), "{e}");
        let e = cli(&["-e", "no-such-engine-xyz", "-e", "/bin/cat"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("not found"), "{e}");
        let e = cli(&["-e", "cmd=/bin/cat", "colour=red", "-e", "/bin/cat"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown key"), "{e}");
        let e = cli(&[
            "-e",
            "cmd=/bin/cat",
            "name=x",
            "-e",
            "cmd=/bin/cat",
            "name=x",
        ])
        .unwrap_err()
        .to_string();
        assert!(e.contains("unique"), "{e}");
        let e = cli(&["-e", "name=x", "-e", "/bin/cat"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("no cmd"), "{e}");
    }

    #[test]
    fn openings_and_rounds() {
        let c = cli(&[
            "-e",
            "/bin/cat",
            "-e",
            "/bin/cat",
            "--openings",
            "rif",
            "--rule",
            "renju",
        ])
        .unwrap();
        assert_eq!(c.openings.len(), 26);
        assert_eq!(c.rounds, 26);
        assert_eq!(c.settings.rule, Rule::Renju);
        let c = cli(&["-e", "/bin/cat", "-e", "/bin/cat", "--games", "5"]).unwrap();
        assert_eq!((c.rounds, c.games), (3, Some(5)));
        let c = cli(&["-e", "/bin/cat", "-e", "/bin/cat", "--sprt", "--rule", "4"]).unwrap();
        assert_eq!(c.rounds, SPRT_DEFAULT_ROUNDS);
        assert_eq!(c.settings.rule, Rule::Renju);
    }

    #[test]
    fn argument_files() {
        let dir = env::temp_dir().join(format!("tianyuan-args-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let f = dir.join("a.args");
        fs::write(
            &f,
            "# engines\n-e cmd=/bin/cat name=a  # first\n-e /bin/cat\n",
        )
        .unwrap();
        let args = expand_arg_files([
            "prog".to_owned(),
            format!("@{}", f.display()),
            "-q".to_owned(),
        ])
        .unwrap();
        assert_eq!(
            args,
            [
                "prog",
                "-e",
                "cmd=/bin/cat",
                "name=a",
                "-e",
                "/bin/cat",
                "-q"
            ]
        );
        assert!(expand_arg_files(["p".to_owned(), "@/no/such/file".to_owned()]).is_err());
        fs::remove_dir_all(&dir).unwrap();
    }
}
