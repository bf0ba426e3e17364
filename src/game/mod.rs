//! The game itself: points, board, line patterns, rules, forbidden points, notation.
//!
//! Knows nothing of search or protocol.

pub mod pos;
pub mod rule;

pub use pos::{CELLS, Cell, Color, Direction, MAX_SIZE, MIN_SIZE, PAD, Pos, STRIDE};
pub use rule::{Rule, RuleError};
