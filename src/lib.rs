//! cqlmodel: query-driven Apache Cassandra data modeling.
//!
//! The core is layered, each layer reading only the ones above it:
//! `model` (the project, its resolution) → `derive` (tables, plans,
//! estimates) → `review` (findings, refinements, alternatives) → `edit`
//! (edits and history) → `analysis` (the engine: reuse between edits) →
//! `output` (CQL, reports, diagrams, annotations) and `lifecycle` (import,
//! diff, migrate). `tui` and `cli` are thin shells over it.
//! ARCHITECTURE.md maps the modules and the invariants they keep.
pub mod analysis;
pub mod cli;
pub mod derive;
pub mod edit;
pub mod lifecycle;
pub mod model;
pub mod output;
pub mod review;
pub mod samples;
pub mod tui;
