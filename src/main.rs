fn main() {
    std::process::exit(cqlmodel::cli::main());
}
