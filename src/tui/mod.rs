//! The interactive workbench (being built).
use std::path::PathBuf;

pub enum Launch {
    Sample,
    Open(PathBuf),
    New(PathBuf),
}

pub fn run(_launch: Launch) -> i32 {
    eprintln!("cqlmodel: the workbench is not built yet");
    2
}
