//! The `bashgate` command: a thin layer over the library. Exit codes: 0 allow,
//! 1 ask, 2 deny, 64+ usage or config errors (never 2, which would read as deny).

mod cli;

fn main() {
    install_fail_closed_panic_hook();
    install_quiet_broken_pipe();
    std::process::exit(cli::run());
}

/// A panic exits with 101, which Claude Code and Codex treat as a non-blocking error
/// (the tool call runs). In hook mode a panic must block instead: exit 2, and for
/// Gemini CLI (which reads only stdout) print a deny decision too.
fn install_fail_closed_panic_hook() {
    let mut args = std::env::args().skip(1);
    if args.next().as_deref() != Some("hook") {
        return;
    }
    let gemini = args.next().as_deref() == Some("gemini");
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        default(info);
        if gemini {
            println!(r#"{{"decision":"deny","reason":"bashgate failed internally"}}"#);
        }
        std::process::exit(2);
    }));
}

/// `bashgate rules | head` closes the pipe early; printing then fails with a broken
/// pipe, which `println!` reports as a panic. Outside hook mode that is not a bug worth
/// a backtrace: exit as a shell does after SIGPIPE (141), never 0, so a `check` whose
/// verdict could not be written is never read as allow.
fn install_quiet_broken_pipe() {
    if std::env::args().nth(1).as_deref() == Some("hook") {
        return;
    }
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.contains("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(141);
        }
        default(info);
    }));
}
