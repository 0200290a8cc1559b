//! What the core writes for people and tools: CQL, text and design
//! reports, diagrams, CI annotations, and the escaping each medium needs.
pub mod annotations;
pub mod cost;
pub mod cql;
pub mod design_report;
pub mod diagram;
pub mod loadtest;
pub mod markup;
pub mod report;
