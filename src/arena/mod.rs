//! The engine-vs-engine tournament runner behind `tianyuan-match`.
//!
//! - [`engine`]: a pbrain process, its reader threads, deadlines, kill and restart.
//! - [`clock`]: time controls (per move, per game with increment, byoyomi).
//! - [`referee`]: judges moves on the game core's board.
//! - [`opening`]: opening files (offset and position formats) and the 26 RIF openings.
//! - [`game`]: one game between two engines.
//! - [`schedule`]: pairings, rounds and colour-swapped pairs.
//! - [`tournament`]: workers, results, SPRT, records.
//! - [`output`], [`report`]: files written and text printed.
//! - [`cli`]: the command line of `tianyuan-match`.
//! - [`stats`], [`record`]: statistics and game records.

pub mod cli;
pub mod clock;
pub mod engine;
pub mod game;
pub mod opening;
pub mod output;
pub mod record;
pub mod referee;
pub mod report;
pub mod schedule;
pub mod stats;
pub mod tournament;
