//! Runs a tournament: worker threads (the concurrency) take games from the schedule,
//! each with its own engine processes; the main thread counts results, runs the SPRT
//! on game pairs, writes the records and draws the progress bar.

use std::collections::{HashMap, VecDeque};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::thread;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::game::Color;

use super::engine::{Engine, EngineConfig, ProtocolLog};
use super::game::{GameReport, GameSettings, Seat, play_game};
use super::opening::Opening;
use super::output::{Output, OutputPaths, game_log, today};
use super::record::GameRecord;
use super::report::{SprtStatus, pairing_line};
use super::schedule::{Job, OpeningOrder, TournamentKind, opening_sequence, schedule};
use super::stats::{Outcome, Pentanomial, ResultsTable, Sprt, SprtDecision};

/// When engines are restarted between games.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RestartPolicy {
    /// Only after they misbehaved (timeout, crash, garbled or illegal reply).
    OnError,
    /// Before every game.
    Always,
}

/// Everything a run needs.
#[derive(Clone, Debug)]
pub struct TournamentConfig {
    /// The engines (at least two, unique names).
    pub engines: Vec<EngineConfig>,
    /// Match, gauntlet or round robin.
    pub kind: TournamentKind,
    /// Board, rule, time control, move cap.
    pub settings: GameSettings,
    /// The openings (at least one; the empty opening for none).
    pub openings: Vec<Opening>,
    /// Their order.
    pub opening_order: OpeningOrder,
    /// Seed for a random opening order.
    pub seed: u64,
    /// Game pairs per pairing.
    pub rounds: usize,
    /// Games per pairing, if cut short of `2 * rounds` (odd: the last pair has one game).
    pub games: Option<usize>,
    /// Games played at once.
    pub concurrency: usize,
    /// Stop early on an SPRT decision (match only).
    pub sprt: Option<Sprt>,
    /// When to restart engines.
    pub restart: RestartPolicy,
    /// Output files.
    pub output: OutputPaths,
    /// Event name for the records.
    pub event: String,
    /// Draw the progress bar and print a line per game (on stderr).
    pub progress: bool,
}

/// What a run produced.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Finished games with their numbers, in the order they finished.
    pub records: Vec<(usize, GameRecord)>,
    /// Results per engine and colour.
    pub table: ResultsTable,
    /// Game-pair counts per pairing, from the first engine's view.
    pub pairs: Vec<((usize, usize), Pentanomial)>,
    /// The SPRT at the end, if one ran.
    pub sprt: Option<SprtStatus>,
    /// Games scheduled.
    pub scheduled: usize,
    /// The run stopped before the schedule was done (SPRT decision).
    pub stopped_early: bool,
    /// The run was interrupted ([`INTERRUPTED`]).
    pub interrupted: bool,
}

/// Set (e.g. by a Ctrl-C handler) to stop a run: games in progress are abandoned, the
/// engines stopped, and [`run`] returns what was played with [`Summary::interrupted`].
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// How often the main thread looks at [`INTERRUPTED`].
const INTERRUPT_POLL: Duration = Duration::from_millis(100);

enum Msg {
    Game(Job, Box<GameReport>),
    Fatal(anyhow::Error),
}

/// Plays the whole tournament.
pub fn run(config: &TournamentConfig) -> Result<Summary> {
    if config.engines.len() < 2 {
        bail!("a tournament needs at least two engines");
    }
    if config.openings.is_empty() {
        bail!("no openings");
    }
    let opening_seq = opening_sequence(
        config.rounds,
        config.openings.len(),
        config.opening_order,
        config.seed,
    );
    let jobs = schedule(
        config.kind,
        config.engines.len(),
        config.rounds,
        config.games,
        &opening_seq,
    );
    let scheduled = jobs.len();
    let mut output = Output::open(&config.output).context("cannot create the output files")?;
    let queue = Mutex::new(VecDeque::from(jobs));
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel();
    let bar = progress_bar(config.progress, scheduled as u64);

    let mut state = RunState::new(config);
    let mut fatal: Option<anyhow::Error> = None;
    let log_dir = config.output.log_dir.clone();

    thread::scope(|s| {
        for w in 0..config.concurrency.clamp(1, scheduled.max(1)) {
            let tx = tx.clone();
            let (queue, stop, log_dir) = (&queue, &stop, log_dir.clone());
            thread::Builder::new()
                .name(format!("match-worker-{w}"))
                .spawn_scoped(s, move || {
                    worker(config, queue, stop, &tx, log_dir.as_deref())
                })
                .expect("spawn a worker thread");
        }
        drop(tx);
        loop {
            if INTERRUPTED.load(Ordering::Relaxed) && !state.interrupted {
                state.interrupted = true;
                stop.store(true, Ordering::Relaxed);
            }
            let msg = match rx.recv_timeout(INTERRUPT_POLL) {
                Ok(m) => m,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => break,
            };
            match msg {
                Msg::Fatal(e) => {
                    stop.store(true, Ordering::Relaxed);
                    fatal.get_or_insert(e);
                }
                Msg::Game(job, report) => {
                    if report.aborted {
                        continue;
                    }
                    if let Some(e) = state.check_starts(&job, &report) {
                        stop.store(true, Ordering::Relaxed);
                        fatal.get_or_insert(e);
                    }
                    let mut record = report.record;
                    record.date = Some(today());
                    record.event = Some(config.event.clone());
                    record.round = Some(format!(
                        "{}.{}",
                        job.round,
                        if job.first_of_pair { 1 } else { 2 }
                    ));
                    if let Err(e) = output.write_game(job.game, &record) {
                        stop.store(true, Ordering::Relaxed);
                        fatal.get_or_insert(anyhow::Error::new(e).context("cannot write a record"));
                    }
                    if config.progress {
                        let opening = &config.openings[job.opening].name;
                        bar.suspend(|| {
                            eprintln!(
                                "Game {} ({opening}): {} vs {}: {} {{{}}}",
                                job.game,
                                record.black,
                                record.white,
                                record.result.pgn_token(),
                                record.reason
                            );
                        });
                    }
                    if state.add(&job, record) {
                        stop.store(true, Ordering::Relaxed);
                    }
                    bar.inc(1);
                    bar.set_message(state.status_line());
                }
            }
        }
    });
    bar.finish_and_clear();
    if let Some(e) = fatal {
        return Err(e);
    }
    Ok(state.into_summary(scheduled))
}

fn progress_bar(visible: bool, len: u64) -> ProgressBar {
    let target = if visible {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(len), target);
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30.cyan/blue}] {pos}/{len} games, ETA {eta}  {msg}",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    bar
}

/// One worker: takes jobs until the queue is empty or the run stops.
fn worker(
    config: &TournamentConfig,
    queue: &Mutex<VecDeque<Job>>,
    stop: &AtomicBool,
    tx: &Sender<Msg>,
    log_dir: Option<&Path>,
) {
    let mut slots: Vec<Option<Engine>> = config.engines.iter().map(|_| None).collect();
    while !stop.load(Ordering::Relaxed) {
        let Some(job) = queue.lock().ok().and_then(|mut q| q.pop_front()) else {
            break;
        };
        // Keep only this game's engines running.
        for (i, slot) in slots.iter_mut().enumerate() {
            if i != job.black && i != job.white {
                slot.take();
            }
        }
        for i in [job.black, job.white] {
            if slots[i].is_none() {
                match Engine::spawn(&config.engines[i]) {
                    Ok(e) => slots[i] = Some(e),
                    Err(e) => {
                        stop.store(true, Ordering::Relaxed);
                        let _ = tx.send(Msg::Fatal(e.into()));
                        return;
                    }
                }
            }
        }
        let (bn, wn) = (
            &config.engines[job.black].name,
            &config.engines[job.white].name,
        );
        let log = match game_log(log_dir, job.game, bn, wn) {
            Ok(l) => l,
            Err(e) => {
                stop.store(true, Ordering::Relaxed);
                let _ = tx.send(Msg::Fatal(
                    anyhow::Error::new(e)
                        .context(format!("cannot create the log of game {}", job.game)),
                ));
                return;
            }
        };
        let (black, white) = two_mut(&mut slots, job.black, job.white);
        let (black, white) = (
            black.as_mut().expect("spawned"),
            white.as_mut().expect("spawned"),
        );
        let report = play_game(
            &config.settings,
            &config.openings[job.opening],
            Seat {
                engine: black,
                config: &config.engines[job.black],
            },
            Seat {
                engine: white,
                config: &config.engines[job.white],
            },
            &log,
            stop,
        );
        black.set_log(ProtocolLog::none());
        white.set_log(ProtocolLog::none());
        for (i, broken) in [(job.black, report.broken[0]), (job.white, report.broken[1])] {
            if broken || config.restart == RestartPolicy::Always {
                slots[i].take(); // dropping quits (END, then kill after a grace period)
            }
        }
        if tx.send(Msg::Game(job, Box::new(report))).is_err() {
            break;
        }
    }
}

/// Two distinct elements of a slice, mutably.
fn two_mut<T>(v: &mut [T], a: usize, b: usize) -> (&mut T, &mut T) {
    assert_ne!(a, b, "an engine cannot play itself");
    if a < b {
        let (l, r) = v.split_at_mut(b);
        (&mut l[a], &mut r[0])
    } else {
        let (l, r) = v.split_at_mut(a);
        (&mut r[0], &mut l[b])
    }
}

/// Results counted so far (main thread only).
struct RunState<'c> {
    config: &'c TournamentConfig,
    records: Vec<(usize, GameRecord)>,
    table: ResultsTable,
    /// First game of each open pair: the outcome for the pairing's first engine.
    open_pairs: HashMap<usize, Option<Outcome>>,
    pairs: Vec<((usize, usize), Pentanomial)>,
    sprt: Option<SprtStatus>,
    stopped_early: bool,
    interrupted: bool,
    /// Per engine: games in a row in which it failed to start.
    start_failures: Vec<usize>,
}

/// After this many games in a row in which an engine failed to start, the run stops
/// with an error: the engine cannot be started.
pub const MAX_START_FAILURES: usize = 3;

impl<'c> RunState<'c> {
    fn new(config: &'c TournamentConfig) -> RunState<'c> {
        let mut table = ResultsTable::new();
        for e in &config.engines {
            table.add_engine(&e.name);
        }
        let pairs = super::schedule::pairings(config.kind, config.engines.len())
            .into_iter()
            .map(|p| (p, Pentanomial::default()))
            .collect();
        RunState {
            config,
            records: Vec::new(),
            table,
            open_pairs: HashMap::new(),
            pairs,
            sprt: config.sprt.map(|s| SprtStatus::new(s, 0.0)),
            stopped_early: false,
            interrupted: false,
            start_failures: vec![0; config.engines.len()],
        }
    }

    /// Counts start failures; an error once an engine has failed to start
    /// [`MAX_START_FAILURES`] games in a row.
    fn check_starts(&mut self, job: &Job, report: &GameReport) -> Option<anyhow::Error> {
        for (i, failed) in [
            (job.black, report.start_failed[0]),
            (job.white, report.start_failed[1]),
        ] {
            if !failed {
                self.start_failures[i] = 0;
                continue;
            }
            self.start_failures[i] += 1;
            if self.start_failures[i] >= MAX_START_FAILURES {
                return Some(anyhow::anyhow!(
                    "engine {:?} failed to start in {} games in a row (last: {})",
                    self.config.engines[i].name,
                    self.start_failures[i],
                    report.record.reason
                ));
            }
        }
        None
    }

    /// Counts a finished game; true when the SPRT says stop.
    fn add(&mut self, job: &Job, record: GameRecord) -> bool {
        self.table.add_game(
            &record.black,
            &record.white,
            record.result.outcome_for(Color::Black),
        );
        let first_color = if job.black == job.pairing.0 {
            Color::Black
        } else {
            Color::White
        };
        let outcome = record.result.outcome_for(first_color);
        self.records.push((job.game, record));
        let Some(other) = self.open_pairs.remove(&job.pair) else {
            self.open_pairs.insert(job.pair, outcome);
            return false;
        };
        let (Some(a), Some(b)) = (other, outcome) else {
            return false; // a pair with an unfinished game is not counted
        };
        if let Some((_, penta)) = self.pairs.iter_mut().find(|(p, _)| *p == job.pairing) {
            penta.add_pair(a, b);
        }
        if let Some(status) = &mut self.sprt {
            let penta = self.pairs[0].1;
            *status = SprtStatus::new(status.sprt, status.sprt.llr_pentanomial(&penta));
            if status.decision != SprtDecision::Continue {
                self.stopped_early = true;
                return true;
            }
        }
        false
    }

    /// The progress bar's message.
    fn status_line(&self) -> String {
        let names: Vec<&str> = self
            .config
            .engines
            .iter()
            .map(|e| e.name.as_str())
            .collect();
        let mut line = match self.config.kind {
            TournamentKind::Match | TournamentKind::Gauntlet if names.len() == 2 => {
                pairing_line(&self.table, names[0], names[1], None)
            }
            TournamentKind::Gauntlet => {
                let t = self
                    .table
                    .engine(names[0])
                    .map(|e| e.total())
                    .unwrap_or_default();
                let score = t
                    .score()
                    .map_or(String::new(), |s| format!(" ({:.1}%)", 100.0 * s));
                format!("{} {t}{score}", names[0])
            }
            _ => {
                let best = self
                    .table
                    .engines()
                    .iter()
                    .max_by(|a, b| a.total().points().total_cmp(&b.total().points()));
                best.map_or(String::new(), |e| {
                    format!("leader {} {:.1} pts", e.name, e.total().points())
                })
            }
        };
        if let Some(s) = &self.sprt {
            line.push_str(&format!(
                "  LLR {:.2} ({:.2}, {:.2})",
                s.llr,
                s.sprt.lower_bound(),
                s.sprt.upper_bound()
            ));
        }
        line
    }

    fn into_summary(self, scheduled: usize) -> Summary {
        Summary {
            records: self.records,
            table: self.table,
            pairs: self.pairs,
            sprt: self.sprt,
            scheduled,
            stopped_early: self.stopped_early,
            interrupted: self.interrupted,
        }
    }
}
