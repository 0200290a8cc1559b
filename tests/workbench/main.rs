//! Integration tests of the workbench (the TUI) in-process: keys through the
//! real event handler, screens drawn on ratatui's `TestBackend`, and the CQL
//! highlighter. One test crate, so the library is linked once for all of
//! them; each file is a module, and its snapshots are in `snapshots/` as
//! `workbench__FILE__NAME`.
//! Property tests keep their regression seeds in
//! `../proptest-regressions/FILE.txt` (proptest's place beside a `main.rs`).

#[path = "../support/mod.rs"]
mod support;

mod highlight;
mod tui_add_hints;
mod tui_background;
mod tui_calendar;
mod tui_cost;
mod tui_detail_welcome;
mod tui_diagnostics_filter;
mod tui_export;
mod tui_focus_questions;
mod tui_keymap;
mod tui_keys;
mod tui_line_editing;
mod tui_numbers;
mod tui_owners;
mod tui_pickers;
mod tui_query_rows;
mod tui_retention;
mod tui_save;
mod tui_shared_refine;
mod tui_snapshots;
