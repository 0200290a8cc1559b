//! Independent oracles for the property tests: written from Cassandra's
//! rules and the conceptual model's meaning, sharing no logic with the
//! derivation they judge.

// Each test crate that includes this module uses a part of it.
#![allow(dead_code)]

pub mod cassandra;
pub mod instances;
