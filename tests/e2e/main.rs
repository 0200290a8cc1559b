//! End-to-end tests: the real binary in a real terminal (tmux). One test
//! crate, so the library is linked once for all of them; each file is a
//! module. Without tmux they fail unless `CQLMODEL_SKIP_TMUX=1`.

#[path = "../support/mod.rs"]
mod support;

mod e2e_tmux;
mod e2e_tmux_dialogs;
mod terminal_tmux;
mod usability_logs;
mod usability_weather;
