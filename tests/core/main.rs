//! Integration tests that call the library directly: derivation, estimates,
//! diagnostics, properties, golden files, CQL quoting and validity, import,
//! diff and migrate, provenance, and fuzzed, hostile or malformed input.
//! One test crate, so the library is linked once for all of them; each file
//! is a module, and its snapshots are in `snapshots/` as `core__FILE__NAME`.
//! Property tests keep their regression seeds in
//! `../proptest-regressions/FILE.txt` (proptest's place beside a `main.rs`).

#[path = "../support/mod.rs"]
mod support;

mod oracle;

mod aggregates_grouped;
mod alternatives_devices;
mod calendar;
mod cost;
mod cql_quoting;
mod cql_validity;
mod derive_properties;
mod diagnose_rules;
mod diagnose_samples;
mod diff_migrate;
mod drift_properties;
mod encoded_range;
mod estimate_formulas;
mod estimate_properties;
mod estimate_static;
mod expert_designs;
mod fuzz;
mod golden_hintless;
mod golden_samples;
mod hostile_input;
mod import_corpus;
mod import_fixtures;
mod import_merge;
mod import_replay;
mod incremental;
mod leveled;
mod loadtest;
mod malformed;
mod meets;
mod migrate_pairs;
mod migrate_rows;
mod physical;
mod placement_reasons;
mod preserve_edits;
mod properties;
mod provenance;
mod refine_apply;
mod review_numbers;
mod udt_order;
mod views;
