//! The `cqlmodel` binary: the command line and the workbench.

/// The derivation allocates many small strings and vectors on every edit;
/// jemalloc serves them markedly faster than the system allocator, and its
/// background thread hands freed memory back to the system while the
/// workbench waits for keys (its settings: `.cargo/config.toml`).
#[global_allocator]
static GLOBAL: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() {
    std::process::exit(cqlmodel::cli::main());
}
