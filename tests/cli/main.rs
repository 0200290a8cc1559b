//! Integration tests that run programs: the built binary (`cqlmodel`) without
//! a terminal, the offline CQL validator (cqlcheck) and a headless browser;
//! also the README checks, the design report and the save-safety rules. One
//! test crate, so the library is linked once for all of them; each file is a
//! module, and its snapshots are in `snapshots/` as `cli__FILE__NAME`.

#[path = "../support/mod.rs"]
mod support;

mod browser;
mod check_matches_cqlcheck;
mod ci_annotations;
mod cli;
mod cqlcheck_samples;
mod design_report;
mod diagnose_cli;
mod drift;
mod odd_files;
mod readme;
mod save_safety;
mod unsafe_chars;
mod workload;
