//! Code shared by the integration tests.
//!
//! Each integration test is its own crate and uses only part of this module,
//! so unused items are expected here.
#![allow(dead_code)]

pub mod cases;
pub mod engine;
pub mod reference;
