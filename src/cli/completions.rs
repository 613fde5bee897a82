//! `bashgate completions SHELL` and `bashgate man`: generated from the same clap
//! definition as the parser, so they cannot drift from the flags.

use clap::CommandFactory;
use clap_complete::Shell;
use std::io::Write;

/// Prints the completion script for `shell`.
pub fn completions(shell: Shell) -> i32 {
    let mut command = super::Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "bashgate", &mut script);
    emit(&script)
}

/// Prints the man page (roff) of `bashgate`.
pub fn man() -> i32 {
    let page = clap_mangen::Man::new(super::Cli::command());
    let mut roff = Vec::new();
    match page.render(&mut roff) {
        Ok(()) => emit(&roff),
        Err(e) => {
            eprintln!("bashgate: cannot render the man page: {e}");
            super::EXIT_CONFIG
        }
    }
}

/// Writes to stdout; a closed pipe (`| head`) is not an error worth a panic.
fn emit(bytes: &[u8]) -> i32 {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(bytes).and_then(|()| out.flush());
    0
}
