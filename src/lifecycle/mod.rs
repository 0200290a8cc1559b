//! A model over time and against running clusters: import of CQL schemas,
//! drift checks, semantic diffs and migration scripts.
pub mod diff;
pub mod import;
pub mod migrate;
