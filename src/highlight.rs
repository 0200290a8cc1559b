//! CQL syntax highlighting (placeholder until written).
