//! The `cqlmodel` binary: the command line and the workbench.

/// The derivation allocates many small strings and vectors on every edit;
/// mimalloc serves them markedly faster than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(cqlmodel::cli::main());
}
