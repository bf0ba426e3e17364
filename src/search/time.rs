//! Time management: how long to think about one move.
//!
//! Three pieces, all pure arithmetic so they can be tested without sleeping:
//!
//! - [`TimeControl`] holds what the manager told us (`INFO timeout_turn`, `timeout_match`,
//!   `time_left`, Yixin's `time_increment`, and a byoyomi period).
//! - [`budget`] turns it, with the move number and the number of empty cells, into a
//!   [`Budget`]: a *soft* limit after which iterative deepening starts no new iteration, and a
//!   *hard* limit at which the search must stop and answer.
//! - [`Stability`] turns the history of best-move changes into the factor by which the search
//!   stretches or shrinks the soft limit; [`Budget::can_start_iteration`] applies it, with a
//!   prediction of the next iteration's cost. (The search itself stops at the hard limit,
//!   measured from when the move request arrived.)
//!
//! # Safety margin
//! Every limit we were given is shortened by a margin for process overhead (reading the
//! command, writing the answer, the judge's own clock, scheduling on a loaded machine):
//! `margin(limit) = min(max(margin_ms, limit / 40), limit / 2)`, i.e. the larger of
//! [`TimeControl::margin_ms`] (default [`DEFAULT_MARGIN_MS`] = 30 ms) and 2.5 % of the limit,
//! but never more than half the limit, so that even a 1 ms limit leaves a small positive
//! budget (0.5 ms) instead of none. See [`safety_margin`].
//!
//! # When nothing was said
//! The protocol gives no default for `timeout_turn`. With no per-move limit, no match limit
//! and no byoyomi we think [`DEFAULT_TURN_MS`] (5 s) per move: generous, yet finite, so that a
//! GUI that forgot to send limits still gets an answer.
//!
//! # Byoyomi
//! A byoyomi clock (our own extension; the seeds' tournaments play 20 min + 60 s) gives the
//! main time first (from `time_left`, or `timeout_match` before the first `time_left`), then a
//! fixed period for every move. While main time remains a move may use all of it plus nearly a
//! full period; once the main time is gone (`time_left` ≤ 0, or under a tenth of the period)
//! the move must be made within the period.
//!
//! All arithmetic is done in microseconds on saturating integers; any input, including
//! `u64::MAX` and `i64::MIN`, gives a valid budget without overflow.

use std::time::Duration;

/// Default fixed part of the safety margin, in milliseconds.
pub const DEFAULT_MARGIN_MS: u64 = 30;

/// Per-move time used when the manager sent no limit at all, in milliseconds.
pub const DEFAULT_TURN_MS: u64 = 5_000;

/// The `time_left` value meaning "unlimited" (`i32::MAX`); this and anything larger is treated
/// as no match limit.
pub const UNLIMITED_TIME_LEFT: i64 = 2_147_483_647;

/// Fewest own moves we ever plan the remaining match time for, so a reserve is always kept.
pub const MIN_MOVES_TO_GO: u64 = 9;

/// Stones a game is expected to last when planning the match time (half of them ours).
///
/// Games against engines of our strength are decided early, and most end with more than half
/// of the clock unused: planning 30 stones and at least 9 moves (a fifteenth of the clock for
/// an early move, then a ninth of what is left) beat 40 and 12, which beat 60 and 15, which
/// beat 90 and 20, in self-play under a game clock (docs/strength.md, "Spending the game
/// clock"). Rapfi plans a 22nd of what is left.
pub const EXPECTED_GAME_STONES: u64 = 30;

/// Predicted cost of the next iteration as a multiple of the last one (see
/// [`Budget::can_start_iteration`]).
pub const ITERATION_GROWTH: f64 = 2.0;

/// Smallest factor [`Budget::scaled_soft`] applies to the soft limit.
pub const MIN_STABILITY_FACTOR: f64 = 0.5;

/// Largest factor [`Budget::scaled_soft`] applies to the soft limit.
pub const MAX_STABILITY_FACTOR: f64 = 2.0;

/// Inputs above this many milliseconds (about 31 years) are clamped to it; it keeps every
/// intermediate value far from `u64::MAX` microseconds.
const MAX_MS: u64 = 1_000_000_000_000;

/// Margin as a fraction of the limit: `limit / MARGIN_DIVISOR` (2.5 %).
const MARGIN_DIVISOR: u64 = 40;

/// Soft limit as a percentage of the hard limit when time saved has no later use.
const USE_ALL_SOFT_PERCENT: u64 = 90;

/// Soft limit as a percentage of the optimum when time saved can be used later: iterative
/// deepening overshoots the soft limit by part of an iteration, so the average spend lands near
/// the optimum.
const SOFT_PERCENT: u64 = 60;

/// Share of the byoyomi period counted into the optimum while main time remains.
const BYOYOMI_PERCENT: u64 = 80;

/// The hard limit is at most this multiple of the optimum while main time remains.
const HARD_OPTIMUM_RATIO: u64 = 4;

/// One move never takes more than `1 / MAIN_SHARE_DIVISOR` of the main time (plus byoyomi).
const MAIN_SHARE_DIVISOR: u64 = 4;

/// Main time under `byoyomi / BYOYOMI_PHASE_DIVISOR` counts as already spent.
const BYOYOMI_PHASE_DIVISOR: u64 = 10;

/// What the manager told us about time, as raw protocol values.
///
/// Fill it from `INFO` lines (see [`TimeControl::apply_info`]) and pass it to [`budget`] before
/// every search. The session must keep [`time_left_ms`](Self::time_left_ms) current (the
/// manager sends `time_left` before every move when the game time is limited).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// `timeout_turn`: limit for one move in ms; `Some(0)` = answer as fast as possible;
    /// `None` = not sent.
    pub turn_ms: Option<u64>,
    /// `timeout_match`: limit for the whole game in ms; `Some(0)` or `None` = unlimited.
    /// Used as the remaining time until the first `time_left` arrives.
    pub match_ms: Option<u64>,
    /// `time_left`: remaining game time in ms; may be negative;
    /// [`UNLIMITED_TIME_LEFT`] (2147483647) or more = unlimited; `None` = not sent.
    pub time_left_ms: Option<i64>,
    /// Yixin's `time_increment`: ms added to the game clock after each of our moves.
    pub increment_ms: u64,
    /// Byoyomi period in ms (0 = none): after the main time runs out, every move must be made
    /// within this period.
    pub byoyomi_ms: u64,
    /// Fixed part of the safety margin in ms (default [`DEFAULT_MARGIN_MS`]); see
    /// [`safety_margin`].
    pub margin_ms: u64,
}

impl Default for TimeControl {
    /// Nothing known yet: no limits, no increment, no byoyomi, the default margin.
    fn default() -> Self {
        TimeControl {
            turn_ms: None,
            match_ms: None,
            time_left_ms: None,
            increment_ms: 0,
            byoyomi_ms: 0,
            margin_ms: DEFAULT_MARGIN_MS,
        }
    }
}

impl TimeControl {
    /// Applies one `INFO key value` pair if it is about time; returns whether it was used.
    ///
    /// Keys (any case): `timeout_turn`, `timeout_match`, `time_left`, `time_increment`, and
    /// `byoyomi` (our proposed extension for the byoyomi period, in ms). Values are integers
    /// in ms; `time_left` may be negative, the others may not. Out-of-range values saturate;
    /// unparsable ones are ignored (returning `false`) and leave `self` unchanged.
    pub fn apply_info(&mut self, key: &str, value: &str) -> bool {
        let Ok(v) = value.trim().parse::<i128>() else {
            return false;
        };
        let non_negative = u64::try_from(v.max(0)).unwrap_or(u64::MAX);
        match key.trim().to_ascii_lowercase().as_str() {
            "time_left" => {
                let clamped = v.clamp(i128::from(i64::MIN), i128::from(i64::MAX));
                self.time_left_ms = Some(clamped as i64);
                true
            }
            _ if v < 0 => false,
            "timeout_turn" => {
                self.turn_ms = Some(non_negative);
                true
            }
            "timeout_match" => {
                self.match_ms = Some(non_negative);
                true
            }
            "time_increment" => {
                self.increment_ms = non_negative;
                true
            }
            "byoyomi" => {
                self.byoyomi_ms = non_negative;
                true
            }
            _ => false,
        }
    }

    /// Takes `used` off the game clock after one of our moves and adds the
    /// increment, as the manager's clock does: for a manager that sends
    /// `timeout_match` but not `time_left` (Piskvork sends `time_left` before
    /// every move, and its value replaces this one). Returns whether the game
    /// time is limited; if not, nothing changes.
    pub fn charge(&mut self, used: Duration) -> bool {
        let Some(left) = self.left_ms() else {
            return false;
        };
        let used = i64::try_from(used.as_millis()).unwrap_or(i64::MAX);
        let increment = i64::try_from(self.increment_ms).unwrap_or(i64::MAX);
        let left = left.saturating_sub(used).saturating_add(increment);
        self.time_left_ms = Some(left.min(UNLIMITED_TIME_LEFT - 1));
        true
    }

    /// Game time still on our clock in ms (may be negative): `time_left`, or
    /// `timeout_match` until the first `time_left`; `None` if unlimited.
    fn left_ms(&self) -> Option<i64> {
        match self.time_left_ms {
            Some(left) if left >= UNLIMITED_TIME_LEFT => None,
            Some(left) => Some(left),
            None => match self.match_ms {
                None | Some(0) => None,
                Some(m) => Some(i64::try_from(m).unwrap_or(i64::MAX)),
            },
        }
    }

    /// Main (non-byoyomi) game time still on our clock in µs, or `None` if the game time is
    /// unlimited. Negative `time_left` counts as zero.
    fn main_time_us(&self) -> Option<u64> {
        self.left_ms()
            .map(|left| ms_to_us(u64::try_from(left).unwrap_or(0)))
    }
}

/// How long the search may think about one move.
///
/// Invariant: `soft <= hard` and `optimum <= hard`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Iterative deepening starts no new iteration after this (before stability scaling, see
    /// [`Budget::scaled_soft`]).
    pub soft: Duration,
    /// Absolute stop: the search must abort and answer when this much time has passed.
    pub hard: Duration,
    /// The time we expect to spend on this move on average (for logs and tuning).
    pub optimum: Duration,
    /// True when time saved now cannot be used later (only a per-move limit applies, or we are
    /// in byoyomi): the search should think until about `soft`, whatever its stability.
    pub use_all: bool,
}

impl Budget {
    /// Answer at once: search the minimum depth only (`timeout_turn 0`). The search is expected
    /// to complete its minimum depth even though every limit is zero.
    pub const INSTANT: Budget = Budget {
        soft: Duration::ZERO,
        hard: Duration::ZERO,
        optimum: Duration::ZERO,
        use_all: true,
    };

    /// No time limit at all (a search bounded by depth or nodes).
    pub const UNLIMITED: Budget = Budget {
        soft: Duration::MAX,
        hard: Duration::MAX,
        optimum: Duration::MAX,
        use_all: true,
    };

    /// Think for `time`, all of it (soft target = hard limit).
    pub fn fixed(time: Duration) -> Budget {
        Budget {
            soft: time,
            hard: time,
            optimum: time,
            use_all: true,
        }
    }

    /// The budget left once `spent` has passed.
    pub fn less(self, spent: Duration) -> Budget {
        Budget {
            soft: self.soft.saturating_sub(spent),
            hard: self.hard.saturating_sub(spent),
            optimum: self.optimum.saturating_sub(spent),
            use_all: self.use_all,
        }
    }

    /// A `n`th of the budget, for one of `n` searches that share it (`n`
    /// of 0 counts as 1).
    pub fn divided(self, n: u32) -> Budget {
        let n = n.max(1);
        Budget {
            soft: self.soft / n,
            hard: self.hard / n,
            optimum: self.optimum / n,
            use_all: self.use_all,
        }
    }

    /// The soft limit scaled by a stability `factor` (see [`Stability::factor`]), clamped to
    /// [[`MIN_STABILITY_FACTOR`], [`MAX_STABILITY_FACTOR`]] (a NaN counts as 1), and never past
    /// `hard`. With [`use_all`](Self::use_all) the soft limit as it is: shrinking it would only
    /// throw time away, and it already stands near the only limit.
    pub fn scaled_soft(&self, factor: f64) -> Duration {
        if self.use_all {
            return self.soft;
        }
        let f = if factor.is_nan() {
            1.0
        } else {
            factor.clamp(MIN_STABILITY_FACTOR, MAX_STABILITY_FACTOR)
        };
        let scaled = (self.soft.as_micros() as f64 * f) as u128;
        self.hard.min(Duration::from_micros(
            u64::try_from(scaled).unwrap_or(u64::MAX),
        ))
    }

    /// Whether iterative deepening should start another iteration, `elapsed` after the move
    /// request arrived, with stability `factor` (see [`Budget::scaled_soft`]) and the last
    /// iteration having taken `last_iteration`.
    ///
    /// No when `elapsed` has reached the scaled soft limit. Also no, unless
    /// [`use_all`](Self::use_all), when the next iteration, predicted to cost
    /// [`ITERATION_GROWTH`] times the last, would not finish before `hard`: the time would be
    /// wasted on an aborted iteration while it could serve later moves. (With `use_all` an
    /// aborted iteration costs nothing and may still improve the root move.)
    pub fn can_start_iteration(
        &self,
        elapsed: Duration,
        factor: f64,
        last_iteration: Duration,
    ) -> bool {
        if elapsed >= self.scaled_soft(factor) {
            return false;
        }
        if self.use_all {
            return true;
        }
        let predicted = last_iteration.as_secs_f64() * ITERATION_GROWTH;
        elapsed.as_secs_f64() + predicted <= self.hard.as_secs_f64()
    }
}

/// The safety margin subtracted from a time `limit`:
/// `min(max(tc.margin_ms, limit / 40), limit / 2)` (see the module docs).
pub fn safety_margin(tc: &TimeControl, limit: Duration) -> Duration {
    let limit_us = u64::try_from(limit.as_micros()).unwrap_or(u64::MAX);
    Duration::from_micros(margin_us(limit_us, ms_to_us(tc.margin_ms)))
}

/// Own moves we still expect to play, for spreading the match time: half of the stones left
/// until [`EXPECTED_GAME_STONES`], at least [`MIN_MOVES_TO_GO`], but no more than there are
/// empty cells for (half of them, rounded up), and at least 1.
pub fn moves_to_go(ply: usize, empty_cells: usize) -> u64 {
    let ply = u64::try_from(ply).unwrap_or(u64::MAX);
    let empty = u64::try_from(empty_cells).unwrap_or(u64::MAX);
    let expected = (EXPECTED_GAME_STONES.saturating_sub(ply) / 2).max(MIN_MOVES_TO_GO);
    let room = empty / 2 + empty % 2;
    expected.min(room).max(1)
}

/// The time budget for our next move.
///
/// `ply` is the number of stones on the board, `empty_cells` the number of empty cells.
///
/// - `timeout_turn 0` → [`Budget::INSTANT`].
/// - A per-move limit `t` → `hard ≤ t − margin(t)`, soft 90 % of that.
/// - Limited game time `R` (main time) → the optimum is `R / moves_to_go + increment`
///   (+ 80 % of a byoyomi period), soft is 60 % of the optimum, and
///   `hard = min(4 × optimum, R / 4 + byoyomi, R + byoyomi − margin(R + byoyomi))`.
/// - In byoyomi (main time gone, or under a tenth of the period) → hard is the main time left
///   plus the period minus the margin, soft 90 % of that.
/// - Byoyomi without any main time → every move is in byoyomi.
/// - No limit at all → [`DEFAULT_TURN_MS`] per move.
///
/// When several limits apply the tightest wins. Always `soft ≤ hard`, `optimum ≤ hard`.
pub fn budget(tc: &TimeControl, ply: usize, empty_cells: usize) -> Budget {
    if tc.turn_ms == Some(0) {
        return Budget::INSTANT;
    }
    let base_margin = ms_to_us(tc.margin_ms);
    let byoyomi = ms_to_us(tc.byoyomi_ms);
    let increment = ms_to_us(tc.increment_ms);
    let mut main = tc.main_time_us();
    if main.is_none() && byoyomi > 0 {
        main = Some(0);
    }
    let mut turn = tc.turn_ms.map(ms_to_us);
    if turn.is_none() && main.is_none() {
        turn = Some(ms_to_us(DEFAULT_TURN_MS));
    }

    let mut hard = u64::MAX;
    let mut soft = u64::MAX;
    let mut optimum = u64::MAX;
    let mut use_all = true;

    if let Some(t) = turn {
        let cap = t - margin_us(t, base_margin);
        hard = cap;
        optimum = cap;
        soft = percent(cap, USE_ALL_SOFT_PERCENT);
    }

    if let Some(r) = main {
        let total = r + byoyomi;
        let cap = total - margin_us(total, base_margin);
        let (m_soft, m_hard, m_opt, m_use_all) =
            if byoyomi > 0 && r <= byoyomi / BYOYOMI_PHASE_DIVISOR {
                (percent(cap, USE_ALL_SOFT_PERCENT), cap, cap, true)
            } else {
                let mtg = moves_to_go(ply, empty_cells);
                let opt = r / mtg + percent(byoyomi, BYOYOMI_PERCENT) + increment;
                let m_hard = (opt * HARD_OPTIMUM_RATIO)
                    .min(r / MAIN_SHARE_DIVISOR + byoyomi)
                    .min(cap);
                let opt = opt.min(m_hard);
                (percent(opt, SOFT_PERCENT), m_hard, opt, false)
            };
        if !m_use_all && m_soft < soft {
            use_all = false;
        }
        hard = hard.min(m_hard);
        soft = soft.min(m_soft);
        optimum = optimum.min(m_opt);
    }

    soft = soft.min(hard);
    optimum = optimum.min(hard);
    Budget {
        soft: Duration::from_micros(soft),
        hard: Duration::from_micros(hard),
        optimum: Duration::from_micros(optimum),
        use_all,
    }
}

/// Tracks how often the root's best move changed across iterations and turns it into the
/// factor by which the soft limit is scaled ([`Budget::scaled_soft`]): a best move that keeps
/// changing earns more time, one that has stood for many iterations less.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stability {
    /// Changes, each halved at every later iteration (so at most 2).
    changes: f64,
    /// Iterations since the best move last changed.
    stable_iterations: u32,
}

impl Stability {
    /// No iteration seen yet.
    pub fn new() -> Stability {
        Stability::default()
    }

    /// Records a finished iteration; `best_move_changed` says whether its best move differs
    /// from the previous iteration's.
    pub fn record(&mut self, best_move_changed: bool) {
        self.changes *= 0.5;
        if best_move_changed {
            self.changes += 1.0;
            self.stable_iterations = 0;
        } else {
            self.stable_iterations = self.stable_iterations.saturating_add(1);
        }
    }

    /// The soft-limit factor: `0.8 + 0.6 × changes − 0.05 × min(stable iterations, 6)`,
    /// clamped to [[`MIN_STABILITY_FACTOR`], [`MAX_STABILITY_FACTOR`]]. Fresh: 0.8; just after a
    /// change: ≥ 1.1; long stable: 0.5; changing at every iteration: 2.0.
    pub fn factor(&self) -> f64 {
        let stable = f64::from(self.stable_iterations.min(6));
        (0.8 + 0.6 * self.changes - 0.05 * stable).clamp(MIN_STABILITY_FACTOR, MAX_STABILITY_FACTOR)
    }
}

/// Milliseconds (clamped to [`MAX_MS`]) to microseconds.
fn ms_to_us(ms: u64) -> u64 {
    ms.min(MAX_MS) * 1_000
}

/// `x * p / 100` without overflow for `x ≤ u64::MAX / 100`, saturating beyond.
fn percent(x: u64, p: u64) -> u64 {
    u64::try_from(u128::from(x) * u128::from(p) / 100).unwrap_or(u64::MAX)
}

/// The safety margin for a limit, both in µs: `min(max(base, limit / 40), limit / 2)`.
fn margin_us(limit: u64, base: u64) -> u64 {
    base.max(limit / MARGIN_DIVISOR).min(limit / 2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const BOARD_15: usize = 225;

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    #[test]
    fn a_budget_shrinks_by_the_time_spent_and_splits_evenly() {
        let b = Budget {
            soft: ms(600),
            hard: ms(2_000),
            optimum: ms(1_000),
            use_all: false,
        };
        let left = b.less(ms(700));
        assert_eq!(
            (left.soft, left.hard, left.optimum),
            (ms(0), ms(1_300), ms(300))
        );
        assert!(!left.use_all);
        let third = b.divided(3);
        assert_eq!((third.soft, third.hard), (ms(200), ms(2_000) / 3));
        assert_eq!(b.divided(0), b);
        assert_eq!(Budget::fixed(ms(5)).soft, Budget::fixed(ms(5)).hard);
        assert_eq!(Budget::UNLIMITED.less(ms(5)).hard, Duration::MAX - ms(5));
    }

    fn turn(t: u64) -> TimeControl {
        TimeControl {
            turn_ms: Some(t),
            ..TimeControl::default()
        }
    }

    fn check_invariants(b: &Budget) {
        assert!(b.soft <= b.hard, "{b:?}");
        assert!(b.optimum <= b.hard, "{b:?}");
    }

    #[test]
    fn nothing_sent_uses_the_default_turn() {
        let b = budget(&TimeControl::default(), 0, BOARD_15);
        assert_eq!(b.hard, ms(DEFAULT_TURN_MS - DEFAULT_TURN_MS / 40));
        assert!(b.use_all);
        check_invariants(&b);
    }

    #[test]
    fn turn_limit_only() {
        let b = budget(&turn(30_000), 10, 215);
        assert_eq!(b.hard, ms(30_000 - 750));
        assert_eq!(b.soft, ms((30_000 - 750) * 9 / 10));
        assert!(b.use_all);
        check_invariants(&b);
    }

    #[test]
    fn turn_zero_is_instant_whatever_else() {
        assert_eq!(budget(&turn(0), 0, BOARD_15), Budget::INSTANT);
        let tc = TimeControl {
            turn_ms: Some(0),
            match_ms: Some(180_000),
            time_left_ms: Some(100_000),
            byoyomi_ms: 60_000,
            increment_ms: 1_000,
            ..TimeControl::default()
        };
        let b = budget(&tc, 30, 195);
        assert_eq!(b, Budget::INSTANT);
        assert_eq!(b.hard, Duration::ZERO);
        assert!(!b.can_start_iteration(Duration::ZERO, 1.0, Duration::ZERO));
    }

    #[test]
    fn small_turn_limits_stay_positive() {
        // 100 ms: the fixed 30 ms margin applies.
        assert_eq!(budget(&turn(100), 0, BOARD_15).hard, ms(70));
        // 50 ms: the margin is capped at half the limit.
        assert_eq!(budget(&turn(50), 0, BOARD_15).hard, ms(25));
        // 1 ms: half a millisecond.
        let b = budget(&turn(1), 0, BOARD_15);
        assert_eq!(b.hard, Duration::from_micros(500));
        assert!(b.soft > Duration::ZERO);
        check_invariants(&b);
    }

    #[test]
    fn margin_grows_with_large_limits() {
        let tc = TimeControl::default();
        assert_eq!(safety_margin(&tc, ms(1_000)), ms(30));
        assert_eq!(safety_margin(&tc, ms(5_000)), ms(125));
        assert_eq!(safety_margin(&tc, ms(60_000)), ms(1_500));
        assert_eq!(safety_margin(&tc, ms(40)), ms(20));
        assert_eq!(safety_margin(&tc, Duration::ZERO), Duration::ZERO);
        let custom = TimeControl {
            margin_ms: 200,
            ..TimeControl::default()
        };
        assert_eq!(safety_margin(&custom, ms(1_000)), ms(200));
        assert_eq!(
            budget(
                &TimeControl {
                    turn_ms: Some(1_000),
                    ..custom
                },
                0,
                225
            )
            .hard,
            ms(800)
        );
    }

    #[test]
    fn huge_limits_do_not_overflow() {
        let b = budget(&turn(u64::MAX), 0, BOARD_15);
        assert!(b.hard > ms(1_000_000_000));
        check_invariants(&b);
        let tc = TimeControl {
            turn_ms: Some(u64::MAX),
            match_ms: Some(u64::MAX),
            time_left_ms: Some(i64::MAX - 1),
            increment_ms: u64::MAX,
            byoyomi_ms: u64::MAX,
            margin_ms: u64::MAX,
        };
        check_invariants(&budget(&tc, usize::MAX, usize::MAX));
        assert!(budget(&tc, 0, BOARD_15).hard > ms(1_000_000_000));
    }

    #[test]
    fn gomocup_match_limit() {
        // 30 s per move, 180 s per game, start of the game.
        let tc = TimeControl {
            turn_ms: Some(30_000),
            match_ms: Some(180_000),
            time_left_ms: Some(180_000),
            ..TimeControl::default()
        };
        let b = budget(&tc, 0, BOARD_15);
        check_invariants(&b);
        // 15 moves planned: 12 s each, 60 % of that before no new
        // iteration starts; four times the optimum would pass the turn limit.
        assert_eq!(b.optimum, ms(180_000 / 15));
        assert_eq!(b.soft, ms(180_000 / 15 * 6 / 10));
        assert_eq!(b.hard, ms(30_000 - 750));
        assert!(!b.use_all);
        // Late in the game with little time left: a small share, never all of it.
        let late = TimeControl {
            time_left_ms: Some(10_000),
            ..tc
        };
        let b = budget(&late, 120, 105);
        check_invariants(&b);
        assert_eq!(b.optimum, Duration::from_micros(10_000_000 / 9));
        assert_eq!(b.hard, ms(10_000 / 4));
        // Plenty of match time: the turn limit binds.
        let rich = TimeControl {
            time_left_ms: Some(10_000_000),
            ..tc
        };
        let b = budget(&rich, 0, BOARD_15);
        assert_eq!(b.hard, ms(30_000 - 750));
        assert!(b.use_all);
    }

    #[test]
    fn match_time_without_time_left_uses_timeout_match() {
        let with_match = TimeControl {
            match_ms: Some(180_000),
            ..TimeControl::default()
        };
        let with_left = TimeControl {
            time_left_ms: Some(180_000),
            ..TimeControl::default()
        };
        assert_eq!(
            budget(&with_match, 0, BOARD_15),
            budget(&with_left, 0, BOARD_15)
        );
        // time_left overrides timeout_match.
        let both = TimeControl {
            match_ms: Some(180_000),
            time_left_ms: Some(20_000),
            ..TimeControl::default()
        };
        assert!(budget(&both, 0, BOARD_15).hard <= ms(20_000 / 4));
    }

    #[test]
    fn unlimited_match_values() {
        let unlimited = TimeControl {
            turn_ms: Some(5_000),
            match_ms: Some(0),
            time_left_ms: Some(UNLIMITED_TIME_LEFT),
            ..TimeControl::default()
        };
        assert_eq!(
            budget(&unlimited, 0, BOARD_15),
            budget(&turn(5_000), 0, BOARD_15)
        );
        let nothing_but_unlimited = TimeControl {
            time_left_ms: Some(UNLIMITED_TIME_LEFT),
            match_ms: Some(0),
            ..TimeControl::default()
        };
        assert_eq!(
            budget(&nothing_but_unlimited, 0, BOARD_15),
            budget(&TimeControl::default(), 0, BOARD_15)
        );
    }

    #[test]
    fn negative_or_zero_time_left_answers_at_once() {
        for left in [0, -1, -5_000, i64::MIN] {
            let tc = TimeControl {
                turn_ms: Some(30_000),
                time_left_ms: Some(left),
                ..TimeControl::default()
            };
            let b = budget(&tc, 40, 185);
            assert_eq!(b.hard, Duration::ZERO, "time_left {left}");
            check_invariants(&b);
        }
    }

    #[test]
    fn byoyomi_phase() {
        for left in [0, -2_000, i64::MIN, 3_000] {
            let tc = TimeControl {
                time_left_ms: Some(left),
                byoyomi_ms: 60_000,
                ..TimeControl::default()
            };
            let b = budget(&tc, 60, 165);
            let total_us = (60_000 + left.max(0) as u64) * 1_000;
            let hard_us = total_us - total_us / 40;
            assert_eq!(b.hard, Duration::from_micros(hard_us), "time_left {left}");
            assert_eq!(b.soft, Duration::from_micros(hard_us * 9 / 10));
            assert!(b.use_all);
            check_invariants(&b);
        }
    }

    #[test]
    fn byoyomi_without_main_time_is_per_move() {
        let tc = TimeControl {
            byoyomi_ms: 10_000,
            ..TimeControl::default()
        };
        let b = budget(&tc, 0, BOARD_15);
        assert_eq!(b.hard, ms(10_000 - 250));
        assert!(b.use_all);
    }

    #[test]
    fn byoyomi_during_main_time() {
        // The seeds' control: 20 min + 60 s byoyomi, at the start.
        let tc = TimeControl {
            match_ms: Some(1_200_000),
            time_left_ms: Some(1_200_000),
            byoyomi_ms: 60_000,
            ..TimeControl::default()
        };
        let b = budget(&tc, 0, BOARD_15);
        check_invariants(&b);
        assert!(!b.use_all);
        assert_eq!(
            b.optimum,
            Duration::from_micros(1_200_000_000 / 15 + 48_000_000)
        );
        assert!(b.hard > ms(60_000));
        assert!(b.hard <= ms(1_200_000 / 4 + 60_000));
        // A little main time left: it may use the rest plus nearly the whole period.
        let low = TimeControl {
            time_left_ms: Some(10_000),
            ..tc
        };
        let b = budget(&low, 80, 145);
        check_invariants(&b);
        assert!(b.hard > ms(55_000), "{b:?}");
        assert!(b.hard <= ms(70_000 - 1_750));
    }

    #[test]
    fn byoyomi_respects_turn_limit() {
        let tc = TimeControl {
            turn_ms: Some(20_000),
            time_left_ms: Some(0),
            byoyomi_ms: 60_000,
            ..TimeControl::default()
        };
        assert_eq!(budget(&tc, 10, 215).hard, ms(19_500));
    }

    #[test]
    fn increment_adds_to_the_share() {
        let base = TimeControl {
            time_left_ms: Some(60_000),
            ..TimeControl::default()
        };
        let inc = TimeControl {
            increment_ms: 5_000,
            ..base
        };
        let b0 = budget(&base, 20, 205);
        let b1 = budget(&inc, 20, 205);
        assert_eq!(b1.optimum, b0.optimum + ms(5_000));
        assert!(b1.hard <= ms(60_000 - 1_500));
        // The increment arrives only after the move: never count it into the hard cap.
        let broke = TimeControl {
            time_left_ms: Some(1_000),
            increment_ms: 10_000,
            ..TimeControl::default()
        };
        assert!(budget(&broke, 20, 205).hard <= ms(1_000 - 30));
    }

    #[test]
    fn moves_to_go_estimates() {
        assert_eq!(moves_to_go(0, 225), 15);
        assert_eq!(moves_to_go(30, 195), 9);
        assert_eq!(moves_to_go(300, 100), 9);
        assert_eq!(moves_to_go(210, 15), 8);
        assert_eq!(moves_to_go(224, 1), 1);
        assert_eq!(moves_to_go(225, 0), 1);
        assert_eq!(moves_to_go(usize::MAX, usize::MAX), 9);
        // Fewer cells left: a bigger share of the remaining time.
        let tc = TimeControl {
            time_left_ms: Some(20_000),
            ..TimeControl::default()
        };
        assert!(budget(&tc, 215, 10).optimum > budget(&tc, 100, 125).optimum);
    }

    #[test]
    fn our_moves_are_charged_to_the_game_clock() {
        let mut tc = TimeControl {
            match_ms: Some(2000),
            ..TimeControl::default()
        };
        assert!(tc.charge(ms(700)));
        assert_eq!(tc.time_left_ms, Some(1300));
        let before = budget(&tc, 10, 200);
        assert!(tc.charge(ms(1500)));
        assert_eq!(tc.time_left_ms, Some(-200));
        // Out of time: answer at once, not from the whole game time again.
        assert_eq!(budget(&tc, 12, 198).hard, Duration::ZERO);
        assert!(before.hard > Duration::ZERO);
        tc.increment_ms = 500;
        assert!(tc.charge(ms(100)));
        assert_eq!(tc.time_left_ms, Some(200));
        // Unlimited game time: nothing to charge.
        for unlimited in [
            TimeControl::default(),
            TimeControl {
                match_ms: Some(0),
                ..TimeControl::default()
            },
            TimeControl {
                match_ms: Some(5000),
                time_left_ms: Some(UNLIMITED_TIME_LEFT),
                ..TimeControl::default()
            },
        ] {
            let mut tc = unlimited;
            assert!(!tc.charge(ms(100)));
            assert_eq!(tc, unlimited);
        }
    }

    #[test]
    fn scaled_soft_is_clamped() {
        let b = Budget {
            soft: ms(1_000),
            hard: ms(3_000),
            optimum: ms(1_500),
            use_all: false,
        };
        assert_eq!(b.scaled_soft(1.0), ms(1_000));
        assert_eq!(b.scaled_soft(1.5), ms(1_500));
        assert_eq!(b.scaled_soft(0.1), ms(500));
        assert_eq!(b.scaled_soft(10.0), ms(2_000));
        assert_eq!(b.scaled_soft(f64::NAN), ms(1_000));
        assert_eq!(b.scaled_soft(f64::INFINITY), ms(2_000));
        let tight = Budget {
            hard: ms(1_200),
            ..b
        };
        assert_eq!(tight.scaled_soft(2.0), ms(1_200));
        let all = Budget { use_all: true, ..b };
        assert_eq!(all.scaled_soft(0.5), ms(1_000));
        assert_eq!(all.scaled_soft(2.0), ms(1_000));
    }

    #[test]
    fn iteration_decisions() {
        let b = Budget {
            soft: ms(1_000),
            hard: ms(4_000),
            optimum: ms(1_600),
            use_all: false,
        };
        assert!(b.can_start_iteration(ms(100), 1.0, ms(50)));
        assert!(!b.can_start_iteration(ms(1_000), 1.0, ms(50)));
        assert!(b.can_start_iteration(ms(1_000), 2.0, ms(50)));
        assert!(!b.can_start_iteration(ms(600), 0.5, ms(50)));
        // The next iteration (2 × 1.8 s) would end past the hard limit.
        assert!(!b.can_start_iteration(ms(900), 1.0, ms(1_800)));
        assert!(b.can_start_iteration(ms(900), 1.0, ms(1_500)));
        // With nothing to save, an aborted iteration costs nothing.
        let all = Budget { use_all: true, ..b };
        assert!(all.can_start_iteration(ms(900), 1.0, ms(1_800)));
    }

    #[test]
    fn stability_factor() {
        let mut s = Stability::new();
        assert!((s.factor() - 0.8).abs() < 1e-9);
        s.record(true);
        assert!(s.factor() >= 1.1);
        for _ in 0..10 {
            s.record(false);
        }
        assert!((s.factor() - MIN_STABILITY_FACTOR).abs() < 0.01);
        for _ in 0..20 {
            s.record(true);
        }
        assert!((s.factor() - MAX_STABILITY_FACTOR).abs() < 1e-4);
        let changing = s.factor();
        s.record(false);
        assert!(s.factor() < changing);
    }

    #[test]
    fn apply_info_keys() {
        let mut tc = TimeControl::default();
        assert!(tc.apply_info("timeout_turn", "30000"));
        assert!(tc.apply_info("TIMEOUT_MATCH", " 180000 "));
        assert!(tc.apply_info("time_left", "-1234"));
        assert!(tc.apply_info("time_increment", "2000"));
        assert!(tc.apply_info("byoyomi", "60000"));
        assert_eq!(
            tc,
            TimeControl {
                turn_ms: Some(30_000),
                match_ms: Some(180_000),
                time_left_ms: Some(-1_234),
                increment_ms: 2_000,
                byoyomi_ms: 60_000,
                margin_ms: DEFAULT_MARGIN_MS,
            }
        );
        let before = tc;
        assert!(!tc.apply_info("timeout_turn", "-5"));
        assert!(!tc.apply_info("timeout_turn", "fast"));
        assert!(!tc.apply_info("max_memory", "1000"));
        assert_eq!(tc, before);
        assert!(tc.apply_info("time_left", "99999999999999999999999"));
        assert_eq!(tc.time_left_ms, Some(i64::MAX));
        assert!(tc.apply_info("timeout_turn", "99999999999999999999999"));
        assert_eq!(tc.turn_ms, Some(u64::MAX));
        // Unlimited main time but a byoyomi period: every move is in byoyomi.
        assert!(tc.apply_info("time_left", "2147483647"));
        assert_eq!(budget(&tc, 0, BOARD_15).hard, ms(58_500));
        tc.byoyomi_ms = 0;
        assert_eq!(
            budget(&tc, 0, BOARD_15).hard,
            budget(&turn(u64::MAX), 0, BOARD_15).hard
        );
    }

    fn any_ms() -> impl Strategy<Value = u64> {
        prop_oneof![
            Just(0u64),
            Just(1u64),
            Just(u64::MAX),
            0u64..200,
            0u64..10_000_000,
            any::<u64>(),
        ]
    }

    fn any_left() -> impl Strategy<Value = i64> {
        prop_oneof![
            Just(0i64),
            Just(i64::MIN),
            Just(i64::MAX),
            Just(UNLIMITED_TIME_LEFT),
            -100_000i64..10_000_000,
            any::<i64>(),
        ]
    }

    fn any_tc() -> impl Strategy<Value = TimeControl> {
        (
            proptest::option::of(any_ms()),
            proptest::option::of(any_ms()),
            proptest::option::of(any_left()),
            any_ms(),
            any_ms(),
            prop_oneof![Just(DEFAULT_MARGIN_MS), any_ms()],
        )
            .prop_map(
                |(turn_ms, match_ms, time_left_ms, increment_ms, byoyomi_ms, margin_ms)| {
                    TimeControl {
                        turn_ms,
                        match_ms,
                        time_left_ms,
                        increment_ms,
                        byoyomi_ms,
                        margin_ms,
                    }
                },
            )
    }

    fn any_count() -> impl Strategy<Value = usize> {
        prop_oneof![Just(0usize), Just(usize::MAX), 0usize..1100, any::<usize>()]
    }

    proptest! {
        #[test]
        fn budget_invariants(tc in any_tc(), ply in any_count(), empty in any_count()) {
            let b = budget(&tc, ply, empty);
            prop_assert!(b.soft <= b.hard);
            prop_assert!(b.optimum <= b.hard);
            if let Some(t) = tc.turn_ms.filter(|&t| t > 0) {
                let limit = ms(t.min(MAX_MS));
                prop_assert!(b.hard <= limit - safety_margin(&tc, limit));
                // At least 2.5 % is always kept, and min(30 ms, limit / 2) by default.
                prop_assert!(b.hard <= limit - limit / 40);
                if tc.margin_ms >= DEFAULT_MARGIN_MS {
                    prop_assert!(b.hard <= limit - ms(30).min(limit / 2));
                }
            }
            if tc.turn_ms == Some(0) {
                prop_assert_eq!(b, Budget::INSTANT);
            }
            let main = match tc.time_left_ms {
                Some(left) if left >= UNLIMITED_TIME_LEFT => None,
                Some(left) => Some(left.max(0) as u64),
                None => tc.match_ms.filter(|&m| m > 0),
            };
            if let Some(r) = main {
                let avail = ms(r.min(MAX_MS)) + ms(tc.byoyomi_ms.min(MAX_MS));
                prop_assert!(b.hard <= avail);
                prop_assert!(b.hard <= avail - safety_margin(&tc, avail));
            } else if tc.byoyomi_ms > 0 {
                prop_assert!(b.hard <= ms(tc.byoyomi_ms.min(MAX_MS)));
            }
            for factor in [f64::NAN, -1.0, 0.0, 0.5, 1.0, 1.7, 2.0, 1e300] {
                prop_assert!(b.scaled_soft(factor) <= b.hard);
            }
        }

        #[test]
        fn positive_turn_limit_gives_positive_budget(t in 1u64..u64::MAX) {
            let b = budget(&turn(t), 0, BOARD_15);
            prop_assert!(b.hard > Duration::ZERO);
            prop_assert!(b.soft > Duration::ZERO);
        }

        #[test]
        fn iteration_queries_never_panic(
            soft in any::<u64>(),
            extra in any::<u64>(),
            elapsed in any::<u64>(),
            last in any::<u64>(),
            factor in any::<f64>(),
            use_all in any::<bool>(),
        ) {
            let soft = Duration::from_micros(soft);
            let b = Budget {
                soft,
                hard: soft.saturating_add(Duration::from_micros(extra)),
                optimum: soft,
                use_all,
            };
            let elapsed = Duration::from_micros(elapsed);
            let started = b.can_start_iteration(elapsed, factor, Duration::from_micros(last));
            if elapsed >= b.hard {
                prop_assert!(!started);
            }
            prop_assert!(b.scaled_soft(factor) <= b.hard);
        }
    }
}
