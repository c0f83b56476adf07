//! The `chariot` binary: the protocol loop, or a subcommand (see `chariot --help`).

fn main() -> std::process::ExitCode {
    chariot::cli::run()
}
