//! The `bashgate` command: a thin layer over the library. Exit codes: 0 allow,
//! 1 ask, 2 deny, 64+ usage or config errors (never 2, which would read as deny).

mod cli;

fn main() {
    std::process::exit(cli::run());
}
