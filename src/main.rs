//! The `cqlmodel` binary: the command line and the workbench.

fn main() {
    std::process::exit(cqlmodel::cli::main());
}
