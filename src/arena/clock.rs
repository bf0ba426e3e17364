//! Time controls and the per-player game clock the runner enforces.
//!
//! A [`TimeControl`] combines, all optional:
//! - a limit per move (`INFO timeout_turn`),
//! - main time per game (`INFO timeout_match`) with a Fischer increment added after
//!   each move (Yixin's `INFO time_increment`),
//! - a byoyomi period (our `INFO byoyomi` extension): once the main time is spent, every
//!   move may take up to the period (the seeds' 20 min + 60 s),
//! - a tolerance: how far past its budget a reply may arrive and still count.
//!
//! The budget for a move is `min(per-move limit, main time left + byoyomi)`; a reply
//! later than budget + tolerance loses on time. After a move the main time drops by the
//! time taken (not below zero: a tolerated overrun or a move in byoyomi leaves it at 0)
//! and the increment is added.

use std::fmt;
use std::time::Duration;

/// The `time_left` value meaning "unlimited".
pub const UNLIMITED_MS: u64 = 2_147_483_647;

/// A time control, all values in milliseconds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TimeControl {
    /// Limit per move, if any.
    pub turn_ms: Option<u64>,
    /// Main time per game, if the game time is limited.
    pub game_ms: Option<u64>,
    /// Added to the main time after each move.
    pub increment_ms: u64,
    /// Time per move once the main time is spent (0 = none).
    pub byoyomi_ms: u64,
    /// Grace past the budget before a move counts as late.
    pub tolerance_ms: u64,
}

impl Default for TimeControl {
    /// Gomocup's fast games without the game limit: 5 s per move, 1 s tolerance.
    fn default() -> Self {
        TimeControl {
            turn_ms: Some(5000),
            game_ms: None,
            increment_ms: 0,
            byoyomi_ms: 0,
            tolerance_ms: 1000,
        }
    }
}

impl TimeControl {
    /// The `INFO timeout_turn` value: the per-move limit, else the longest a move may
    /// take (main time plus byoyomi); 0 never (that would mean "play instantly").
    pub fn info_timeout_turn(&self) -> u64 {
        match (self.turn_ms, self.game_ms) {
            (Some(t), _) => t,
            (None, Some(g)) => (g + self.byoyomi_ms).clamp(1, UNLIMITED_MS),
            (None, None) => UNLIMITED_MS,
        }
    }

    /// The `INFO timeout_match` value: main time, 0 = unlimited.
    pub fn info_timeout_match(&self) -> u64 {
        self.game_ms.unwrap_or(0)
    }

    /// The INFO lines (without `INFO `) describing this control to an engine.
    pub fn info_settings(&self) -> Vec<(String, String)> {
        let mut out = vec![
            (
                "timeout_turn".to_owned(),
                self.info_timeout_turn().to_string(),
            ),
            (
                "timeout_match".to_owned(),
                self.info_timeout_match().to_string(),
            ),
        ];
        if self.increment_ms > 0 {
            out.push(("time_increment".to_owned(), self.increment_ms.to_string()));
        }
        if self.byoyomi_ms > 0 {
            out.push(("byoyomi".to_owned(), self.byoyomi_ms.to_string()));
        }
        out
    }
}

impl fmt::Display for TimeControl {
    /// E.g. `5s/move`, `120s+1s`, `1200s+byoyomi 60s, 5s/move`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(g) = self.game_ms {
            let mut s = format_ms(g);
            if self.increment_ms > 0 {
                s.push('+');
                s.push_str(&format_ms(self.increment_ms));
            }
            if self.byoyomi_ms > 0 {
                s.push_str(&format!(" byoyomi {}", format_ms(self.byoyomi_ms)));
            }
            parts.push(s);
        } else if self.byoyomi_ms > 0 {
            parts.push(format!("byoyomi {}", format_ms(self.byoyomi_ms)));
        }
        if let Some(t) = self.turn_ms {
            parts.push(format!("{}/move", format_ms(t)));
        }
        if parts.is_empty() {
            parts.push("unlimited".to_owned());
        }
        write!(f, "{}", parts.join(", "))
    }
}

/// Milliseconds as seconds, e.g. `5s`, `0.25s`.
pub fn format_ms(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        format!("{}s", ms / 1000)
    } else {
        let s = format!("{:.3}", ms as f64 / 1000.0);
        format!("{}s", s.trim_end_matches('0'))
    }
}

/// Reads a duration: a number with an optional unit `ms`, `s` (the default), `m`, `h`,
/// or `M:SS`. E.g. `500ms`, `5`, `2.5s`, `20m`, `1:30`.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim().to_ascii_lowercase();
    let bad = || format!("cannot read the duration {text:?} (examples: 500ms, 5s, 2.5, 20m, 1:30)");
    if let Some((m, s)) = t.split_once(':') {
        let m: u64 = m.parse().map_err(|_| bad())?;
        let s: f64 = s.parse().map_err(|_| bad())?;
        if !(0.0..60.0).contains(&s) {
            return Err(bad());
        }
        return Ok(Duration::from_secs(m * 60) + Duration::from_secs_f64(s));
    }
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let value: f64 = num.parse().map_err(|_| bad())?;
    let scale = match unit.trim() {
        "ms" => 0.001,
        "" | "s" | "sec" => 1.0,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        _ => return Err(bad()),
    };
    let secs = value * scale;
    if !secs.is_finite() || !(0.0..=1e9).contains(&secs) {
        return Err(bad());
    }
    Ok(Duration::from_secs_f64(secs))
}

/// One player's clock during a game.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    tc: TimeControl,
    /// Main time left, `None` if unlimited.
    main_left_ms: Option<u64>,
}

/// How a move fitted the clock.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ClockVerdict {
    /// In time.
    InTime,
    /// Later than budget + tolerance.
    Late {
        /// The budget the move had, in ms.
        budget_ms: u64,
    },
}

impl Clock {
    /// A fresh clock for one game.
    pub fn new(tc: TimeControl) -> Clock {
        Clock {
            tc,
            main_left_ms: tc.game_ms,
        }
    }

    /// The `INFO time_left` value to send before the next move: main time left, or
    /// [`UNLIMITED_MS`].
    pub fn time_left_ms(&self) -> u64 {
        self.main_left_ms
            .map_or(UNLIMITED_MS, |m| m.min(UNLIMITED_MS))
    }

    /// What the next move may take before it is late (tolerance not included);
    /// `None` when nothing limits it.
    pub fn budget_ms(&self) -> Option<u64> {
        let game = self.main_left_ms.map(|m| m + self.tc.byoyomi_ms);
        match (self.tc.turn_ms, game) {
            (Some(t), Some(g)) => Some(t.min(g)),
            (Some(t), None) => Some(t),
            (None, Some(g)) => Some(g),
            (None, None) => None,
        }
    }

    /// How long to wait for the next move before giving up on it.
    pub fn deadline(&self) -> Option<Duration> {
        self.budget_ms()
            .map(|b| Duration::from_millis(b.saturating_add(self.tc.tolerance_ms)))
    }

    /// Charges a move that took `elapsed_ms`, saying whether it was in time.
    pub fn charge(&mut self, elapsed_ms: u64) -> ClockVerdict {
        if let Some(budget_ms) = self.budget_ms()
            && elapsed_ms > budget_ms.saturating_add(self.tc.tolerance_ms)
        {
            return ClockVerdict::Late { budget_ms };
        }
        if let Some(m) = &mut self.main_left_ms {
            *m = m.saturating_sub(elapsed_ms) + self.tc.increment_ms;
        }
        ClockVerdict::InTime
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(turn: Option<u64>, game: Option<u64>, inc: u64, byo: u64) -> TimeControl {
        TimeControl {
            turn_ms: turn,
            game_ms: game,
            increment_ms: inc,
            byoyomi_ms: byo,
            tolerance_ms: 100,
        }
    }

    #[test]
    fn per_move_only() {
        let mut c = Clock::new(tc(Some(1000), None, 0, 0));
        assert_eq!(c.time_left_ms(), UNLIMITED_MS);
        assert_eq!(c.budget_ms(), Some(1000));
        assert_eq!(c.deadline(), Some(Duration::from_millis(1100)));
        assert_eq!(c.charge(1100), ClockVerdict::InTime);
        assert_eq!(c.charge(1101), ClockVerdict::Late { budget_ms: 1000 });
    }

    #[test]
    fn game_time_with_increment() {
        let mut c = Clock::new(tc(None, Some(1000), 200, 0));
        assert_eq!(c.charge(600), ClockVerdict::InTime);
        assert_eq!(c.time_left_ms(), 600);
        assert_eq!(c.budget_ms(), Some(600));
        // A tolerated overrun leaves nothing but the increment.
        assert_eq!(c.charge(650), ClockVerdict::InTime);
        assert_eq!(c.time_left_ms(), 200);
        assert_eq!(c.charge(301), ClockVerdict::Late { budget_ms: 200 });
    }

    #[test]
    fn byoyomi_after_main_time() {
        // 20 min + 60 s.
        let mut c = Clock::new(tc(None, Some(1_200_000), 0, 60_000));
        assert_eq!(c.budget_ms(), Some(1_260_000));
        assert_eq!(c.charge(1_150_000), ClockVerdict::InTime);
        assert_eq!(c.time_left_ms(), 50_000);
        // Uses the rest of the main time and part of the period.
        assert_eq!(c.charge(100_000), ClockVerdict::InTime);
        assert_eq!(c.time_left_ms(), 0);
        // Now every move has the period (plus tolerance), again and again.
        for _ in 0..5 {
            assert_eq!(c.budget_ms(), Some(60_000));
            assert_eq!(c.charge(60_050), ClockVerdict::InTime);
        }
        assert_eq!(c.charge(60_101), ClockVerdict::Late { budget_ms: 60_000 });
    }

    #[test]
    fn per_move_cap_with_game_time() {
        let mut c = Clock::new(tc(Some(5000), Some(120_000), 0, 0));
        assert_eq!(c.budget_ms(), Some(5000));
        for _ in 0..23 {
            assert_eq!(c.charge(5000), ClockVerdict::InTime);
        }
        assert_eq!(c.time_left_ms(), 5000);
        assert_eq!(c.charge(5000), ClockVerdict::InTime);
        assert_eq!(c.budget_ms(), Some(0));
        assert_eq!(c.charge(101), ClockVerdict::Late { budget_ms: 0 });
    }

    #[test]
    fn info_values() {
        let t = tc(None, Some(1_200_000), 0, 60_000);
        assert_eq!(t.info_timeout_turn(), 1_260_000);
        assert_eq!(t.info_timeout_match(), 1_200_000);
        assert!(
            t.info_settings()
                .contains(&("byoyomi".into(), "60000".into()))
        );
        let t = tc(Some(5000), None, 0, 0);
        assert_eq!(t.info_timeout_match(), 0);
        assert_eq!(t.to_string(), "5s/move");
        assert_eq!(
            tc(Some(500), Some(1_200_000), 0, 60_000).to_string(),
            "1200s byoyomi 60s, 0.5s/move"
        );
        assert_eq!(tc(None, Some(120_000), 1000, 0).to_string(), "120s+1s");
    }

    #[test]
    fn durations() {
        let ms = |t: &str| parse_duration(t).map(|d| d.as_millis());
        assert_eq!(ms("500ms"), Ok(500));
        assert_eq!(ms("5"), Ok(5000));
        assert_eq!(ms("2.5s"), Ok(2500));
        assert_eq!(ms("20m"), Ok(1_200_000));
        assert_eq!(ms("1:30"), Ok(90_000));
        assert_eq!(ms("1h"), Ok(3_600_000));
        assert!(ms("abc").is_err());
        assert!(ms("5x").is_err());
        assert!(ms("-1").is_err());
        assert!(ms("").is_err());
    }
}
