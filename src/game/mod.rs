//! The game itself: points, board, line patterns, rules, forbidden points, notation.
//!
//! Knows nothing of search or protocol.

pub mod board;
pub mod notation;
pub mod pattern;
pub mod pointset;
pub mod pos;
pub mod rng;
pub mod rule;
pub mod threat;

pub use board::{Board, BoardError, ForbiddenKind, RenjuShape, renju_shape};
pub use pattern::{Pattern, PatternTable};
pub use pointset::PointSet;
pub use pos::{CELLS, Cell, Color, Direction, MAX_SIZE, MIN_SIZE, PAD, Pos, STRIDE};
pub use rng::Rng;
pub use rule::{Rule, RuleError};
pub use threat::Threat;
