//! cqlmodel: query-driven Apache Cassandra data modeling.
//!
//! The core (`model`, `derive`, `estimate`, `diagnose`, `cql`, `report`)
//! knows nothing of terminals; `tui` and `cli` are thin shells over it.
//! ARCHITECTURE.md maps the modules and the invariants they keep.
pub mod alternatives;
pub mod analysis;
pub mod annotations;
pub mod cli;
pub mod cql;
pub mod derive;
pub mod design_report;
pub mod diagnose;
pub mod diagram;
pub mod diff;
pub mod edit;
pub mod estimate;
pub mod history;
pub mod import;
pub mod literal;
pub mod markup;
pub mod migrate;
pub mod model;
pub mod naming;
mod parts;
pub mod quantity;
pub mod refine;
pub mod report;
pub mod samples;
pub mod terminal_text;
pub mod tui;
