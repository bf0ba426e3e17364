//! One game between two running engines, refereed and timed.
//!
//! The conversation, per engine: `START n` (or `RECTSTART w,h`) → `OK`; the INFO
//! settings (rule, game type, time control, then the engine's own); then for each of
//! its moves `INFO time_left` followed by `BEGIN` on an empty board, `TURN x,y` when it
//! knows everything but the opponent's last move, or else `BOARD` with every stone in
//! move order (field 1 its own, 2 the opponent's) and `DONE` — the opening reaches the
//! side to move this way, and the other engine on its first turn.
//!
//! Every wait has a deadline. A late reply loses on time (a silent engine is killed),
//! a closed pipe loses as a crash, a line that is not `x,y` loses as a garbled reply;
//! `MESSAGE`/`DEBUG` go to the log, and stray `OK`, `UNKNOWN …`, `ERROR …` lines (some
//! engines answer INFO) are logged and skipped.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::game::{Color, Rule};

use super::clock::{Clock, ClockVerdict, TimeControl};
use super::engine::{Engine, EngineConfig, EngineError, ProtocolLog};
use super::opening::Opening;
use super::record::{GameRecord, GameResult, Termination};
use super::referee::{Referee, Verdict, color_name};

/// How often a waiting game looks at the stop flag.
const STOP_POLL: Duration = Duration::from_millis(50);

/// A deadline far enough away to mean "none" (a day).
const NO_DEADLINE: Duration = Duration::from_secs(86_400);

/// The conditions of every game in a run.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// The rule.
    pub rule: Rule,
    /// The time control.
    pub tc: TimeControl,
    /// Draw once this many stones are on the board.
    pub max_moves: Option<usize>,
    /// How long an engine may take to answer `START`.
    pub start_timeout: Duration,
}

/// One side of a game: the running engine and its configuration.
pub struct Seat<'a> {
    /// The process.
    pub engine: &'a mut Engine,
    /// Its configuration (name, INFO settings).
    pub config: &'a EngineConfig,
}

/// A finished (or aborted) game.
#[derive(Debug)]
pub struct GameReport {
    /// The record, with result, termination and reason.
    pub record: GameRecord,
    /// Per colour (black, white): the engine misbehaved (timeout, crash, garbled or
    /// illegal reply, refused to start) and should be restarted before its next game.
    pub broken: [bool; 2],
    /// Per colour: the engine failed before the first move (no `OK` to `START`,
    /// refused, or died).
    pub start_failed: [bool; 2],
    /// The run was stopped during the game; the record is unfinished.
    pub aborted: bool,
}

/// Why a game ended early for one side.
struct Fault {
    termination: Termination,
    reason: String,
}

/// The `START`/`RECTSTART` command for a board.
pub fn start_command(width: usize, height: usize) -> String {
    if width == height {
        format!("START {width}")
    } else {
        format!("RECTSTART {width},{height}")
    }
}

/// Reads a move reply `x,y` (spaces around the numbers allowed).
pub fn parse_move(line: &str) -> Option<(i64, i64)> {
    let (x, y) = line.trim().split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

/// Lines skipped while waiting for a move: `OK`, `UNKNOWN …`, `ERROR …`.
fn is_stray(line: &str) -> bool {
    let word = line.split_whitespace().next().unwrap_or("");
    ["OK", "UNKNOWN", "ERROR"]
        .iter()
        .any(|w| word.eq_ignore_ascii_case(w))
}

/// Waits for the next line, giving up at `deadline` or when `stop` is set (`None`).
fn recv_until(
    engine: &mut Engine,
    deadline: Instant,
    stop: &AtomicBool,
) -> Option<Result<(String, Instant), EngineError>> {
    loop {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let slice = deadline.min(Instant::now() + STOP_POLL);
        match engine.recv_line(slice) {
            Err(EngineError::Timeout) if Instant::now() < deadline => continue,
            r => return Some(r),
        }
    }
}

/// Plays one game from `opening`. Both engines must be running; they are left
/// running unless one had to be killed (see [`GameReport::broken`]).
pub fn play_game(
    settings: &GameSettings,
    opening: &Opening,
    black: Seat<'_>,
    white: Seat<'_>,
    log: &ProtocolLog,
    stop: &AtomicBool,
) -> GameReport {
    let mut game = Game {
        settings,
        log,
        stop,
        record: GameRecord::new(
            settings.width as u32,
            settings.height as u32,
            settings.rule,
            &black.config.name,
            &white.config.name,
        ),
        broken: [false; 2],
        start_failed: [false; 2],
        aborted: false,
    };
    game.record.turn_time_ms = settings.tc.turn_ms;
    game.play(opening, black, white);
    log.flush();
    GameReport {
        record: game.record,
        broken: game.broken,
        start_failed: game.start_failed,
        aborted: game.aborted,
    }
}

struct Game<'s> {
    settings: &'s GameSettings,
    log: &'s ProtocolLog,
    stop: &'s AtomicBool,
    record: GameRecord,
    broken: [bool; 2],
    start_failed: [bool; 2],
    aborted: bool,
}

impl Game<'_> {
    fn note(&self, text: &str) {
        self.log.write("runner", '#', text);
    }

    fn finish(&mut self, winner: Option<Color>, termination: Termination, reason: String) {
        let result = winner.map_or(GameResult::Draw, GameResult::win_for);
        self.note(&format!("result {}: {reason}", result.pgn_token()));
        self.record.finish(result, termination, &reason);
    }

    fn abort(&mut self) {
        self.aborted = true;
        self.note("stopped");
        self.record.finish(
            GameResult::Unfinished,
            Termination::Unterminated,
            "run stopped",
        );
    }

    fn play<'a>(&mut self, opening: &Opening, black: Seat<'a>, white: Seat<'a>) {
        let s = self.settings;
        self.note(&format!(
            "{} (black) vs {} (white), {} {}x{}, {}, opening {}",
            black.config.name, white.config.name, s.rule, s.width, s.height, s.tc, opening.name
        ));
        let mut seats = [black, white];
        for seat in seats.iter_mut() {
            seat.engine.set_log(self.log.clone());
            seat.engine.drain();
        }

        // START both, then wait for both: slow starters overlap.
        let faults = self.start_both(&mut seats);
        self.start_failed = [faults[0].is_some(), faults[1].is_some()];
        match faults {
            [None, None] => {}
            [Some(f), None] => return self.lose(Color::Black, f),
            [None, Some(f)] => return self.lose(Color::White, f),
            [Some(b), Some(w)] => {
                self.note("both engines failed to start");
                self.record.finish(
                    GameResult::Unfinished,
                    b.termination,
                    &format!("{}; {}", b.reason, w.reason),
                );
                return;
            }
        }

        let mut referee = Referee::new(s.width, s.height, s.rule, s.max_moves)
            .expect("board size checked before the run");
        for &p in &opening.moves {
            let v = referee.play(p.x() as i64, p.y() as i64);
            debug_assert_eq!(v, Verdict::Continue, "openings are validated");
            self.record.push_move(p.x() as u32, p.y() as u32, 0);
        }
        let mut known = [0usize; 2];
        let mut clocks = [Clock::new(s.tc); 2];
        loop {
            if let Verdict::Over {
                winner,
                termination,
                reason,
            } = referee.check_draw()
            {
                return self.finish(winner, termination, reason);
            }
            if self.stop.load(Ordering::Relaxed) {
                return self.abort();
            }
            let me = referee.side_to_move();
            let i = me.index();
            let seat = &mut seats[i];
            let who = format!("{} ({})", color_name(me), seat.config.name);
            let reply = match self.ask_move(seat, &referee, known[i], &clocks[i]) {
                Ok(Some(r)) => r,
                Ok(None) => {
                    seat.engine.kill();
                    self.broken[i] = true;
                    return self.abort();
                }
                Err(fault) => {
                    self.broken[i] = true;
                    return self.lose(me, fault);
                }
            };
            let (line, elapsed_ms) = reply;
            let Some((x, y)) = parse_move(&line) else {
                self.broken[i] = true;
                return self.lose(
                    me,
                    Fault {
                        termination: Termination::IllegalMove,
                        reason: format!("{who} sent a garbled reply {line:?}"),
                    },
                );
            };
            if let ClockVerdict::Late { budget_ms } = clocks[i].charge(elapsed_ms) {
                self.broken[i] = true;
                return self.lose(
                    me,
                    Fault {
                        termination: Termination::Time,
                        reason: format!("{who} took {elapsed_ms} ms, over its {budget_ms} ms"),
                    },
                );
            }
            let before = referee.board().stone_count();
            let verdict = referee.play(x, y);
            if referee.board().stone_count() > before {
                self.record
                    .push_move(x as u32, y as u32, elapsed_ms.min(u32::MAX as u64) as u32);
            }
            known[i] = referee.board().stone_count();
            if let Verdict::Over {
                winner,
                termination,
                reason,
            } = verdict
            {
                if termination == Termination::IllegalMove {
                    self.broken[i] = true;
                }
                let reason = if winner.is_some() {
                    format!("{reason} ({})", seat.config.name)
                } else {
                    reason
                };
                return self.finish(winner, termination, reason);
            }
        }
    }

    /// A loss for `loser`.
    fn lose(&mut self, loser: Color, fault: Fault) {
        self.finish(Some(loser.opponent()), fault.termination, fault.reason);
    }

    /// Sends the start command and INFO settings to both engines and waits for their
    /// `OK`s; a fault per colour.
    fn start_both(&mut self, seats: &mut [Seat<'_>; 2]) -> [Option<Fault>; 2] {
        let s = self.settings;
        let cmd = start_command(s.width, s.height);
        let mut faults: [Option<Fault>; 2] = [None, None];
        for (i, seat) in seats.iter_mut().enumerate() {
            if let Err(e) = seat.engine.send(&cmd) {
                faults[i] = Some(self.engine_fault(i, seat, &e, "START"));
            }
        }
        let deadline = Instant::now() + s.start_timeout;
        for (i, seat) in seats.iter_mut().enumerate() {
            if faults[i].is_some() {
                continue;
            }
            faults[i] = self.wait_ok(i, seat, deadline).err();
            if faults[i].is_none() {
                faults[i] = self.send_settings(i, seat).err();
            }
        }
        faults
    }

    fn wait_ok(&mut self, i: usize, seat: &mut Seat<'_>, deadline: Instant) -> Result<(), Fault> {
        loop {
            match recv_until(seat.engine, deadline, self.stop) {
                None => return Ok(()), // stopping; the main loop aborts
                Some(Ok((line, _))) => {
                    let word = line.split_whitespace().next().unwrap_or("");
                    if word.eq_ignore_ascii_case("OK") {
                        return Ok(());
                    }
                    if word.eq_ignore_ascii_case("ERROR") {
                        self.broken[i] = true;
                        return Err(Fault {
                            termination: Termination::Crash,
                            reason: format!(
                                "{} ({}) refused to start: {line}",
                                color_name(color_of(i)),
                                seat.config.name
                            ),
                        });
                    }
                    // Anything else before OK (banners, UNKNOWN …) is skipped.
                }
                Some(Err(e)) => return Err(self.engine_fault(i, seat, &e, "START")),
            }
        }
    }

    fn send_settings(&mut self, i: usize, seat: &mut Seat<'_>) -> Result<(), Fault> {
        let s = self.settings;
        let mut lines = vec![
            format!("INFO rule {}", s.rule.protocol_value()),
            "INFO game_type 1".to_owned(),
        ];
        for (k, v) in
            s.tc.info_settings()
                .into_iter()
                .chain(seat.config.info_settings())
        {
            lines.push(format!("INFO {k} {v}"));
        }
        for line in lines {
            if let Err(e) = seat.engine.send(&line) {
                return Err(self.engine_fault(i, seat, &e, "INFO"));
            }
        }
        Ok(())
    }

    /// A fault for an engine error while waiting for `what`; kills and marks the
    /// engine as broken.
    fn engine_fault(
        &mut self,
        i: usize,
        seat: &mut Seat<'_>,
        e: &EngineError,
        what: &str,
    ) -> Fault {
        self.broken[i] = true;
        let who = format!("{} ({})", color_name(color_of(i)), seat.config.name);
        match e {
            EngineError::Timeout => {
                seat.engine.kill();
                let limit = if what == "START" {
                    format!(" within {} ms", self.settings.start_timeout.as_millis())
                } else {
                    String::new()
                };
                Fault {
                    termination: Termination::Time,
                    reason: format!("{who} did not answer {what}{limit}"),
                }
            }
            EngineError::Exited(_) => Fault {
                termination: Termination::Crash,
                reason: format!("{who} crashed: {e} (waiting for {what})"),
            },
        }
    }

    /// Sends `time_left` and the move command, waits for a reply line that could be a
    /// move. `Ok(None)` when the run is stopping.
    fn ask_move(
        &mut self,
        seat: &mut Seat<'_>,
        referee: &Referee,
        known: usize,
        clock: &Clock,
    ) -> Result<Option<(String, u64)>, Fault> {
        let me = referee.side_to_move();
        let i = me.index();
        seat.engine.drain();
        let history = referee.board().history();
        let mut lines = vec![format!("INFO time_left {}", clock.time_left_ms())];
        if history.is_empty() {
            lines.push("BEGIN".to_owned());
        } else if known + 1 == history.len() {
            let (p, _) = history[known];
            lines.push(format!("TURN {},{}", p.x(), p.y()));
        } else {
            lines.push("BOARD".to_owned());
            for &(p, c) in history {
                let field = if c == me { 1 } else { 2 };
                lines.push(format!("{},{},{field}", p.x(), p.y()));
            }
            lines.push("DONE".to_owned());
        }
        let what = lines[1].clone();
        let mut sent = Instant::now();
        for line in &lines {
            sent = seat
                .engine
                .send(line)
                .map_err(|e| self.engine_fault(i, seat, &e, &what))?;
        }
        let budget = clock.deadline().unwrap_or(NO_DEADLINE);
        let deadline = sent + budget;
        loop {
            match recv_until(seat.engine, deadline, self.stop) {
                None => return Ok(None),
                Some(Ok((line, at))) => {
                    if is_stray(&line) {
                        continue;
                    }
                    let elapsed = at.saturating_duration_since(sent).as_millis() as u64;
                    return Ok(Some((line, elapsed)));
                }
                Some(Err(EngineError::Timeout)) => {
                    seat.engine.kill();
                    let who = format!("{} ({})", color_name(me), seat.config.name);
                    let limit = clock.budget_ms().unwrap_or(0);
                    return Err(Fault {
                        termination: Termination::Time,
                        reason: format!(
                            "{who} did not move within {limit} ms (+{} ms tolerance)",
                            self.settings.tc.tolerance_ms
                        ),
                    });
                }
                Some(Err(e)) => return Err(self.engine_fault(i, seat, &e, &what)),
            }
        }
    }
}

fn color_of(i: usize) -> Color {
    if i == 0 { Color::Black } else { Color::White }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_replies() {
        assert_eq!(parse_move("7,7"), Some((7, 7)));
        assert_eq!(parse_move(" 10 , 3 \r"), Some((10, 3)));
        assert_eq!(parse_move("-1,3"), Some((-1, 3)));
        assert_eq!(parse_move("7,7,1"), None);
        assert_eq!(parse_move("hello"), None);
        assert_eq!(parse_move("7;7"), None);
        assert!(is_stray("OK"));
        assert!(is_stray("unknown INFO key"));
        assert!(is_stray("ERROR bad"));
        assert!(!is_stray("7,7"));
        assert_eq!(start_command(15, 15), "START 15");
        assert_eq!(start_command(20, 15), "RECTSTART 20,15");
    }
}
