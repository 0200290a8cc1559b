//! cqlmodel: query-driven Apache Cassandra data modeling.
pub mod highlight;
