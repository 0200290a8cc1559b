//! Independent oracles for the property tests: written from Cassandra's
//! rules and the conceptual model's meaning, sharing no logic with the
//! derivation they judge.

// Each test module that uses it uses a part of it.
#![allow(dead_code)]

pub mod cassandra;
pub mod instances;
