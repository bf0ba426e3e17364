//! The engine-vs-engine tournament runner behind `tianyuan-match`.
