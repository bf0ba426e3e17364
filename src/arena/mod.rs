//! The engine-vs-engine tournament runner behind `tianyuan-match`.

pub mod record;
pub mod stats;
