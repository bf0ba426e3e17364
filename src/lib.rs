//! Tianyuan (天元): a Gomoku/Renju engine for the Gomocup/Piskvork protocol.
//!
//! Layers, each knowing only the ones above it in this list:
//! - [`game`]: board, line patterns, rules, forbidden points, notation.
//! - [`eval`]: static evaluation and move scoring.
//! - [`search`]: transposition table, threat solver, PVS, threads, time.
//! - [`protocol`]: Piskvork/Yixin command parsing and the engine session.
//! - [`arena`]: the engine-vs-engine tournament runner.

pub mod arena;
pub mod eval;
pub mod game;
pub mod protocol;
pub mod search;
