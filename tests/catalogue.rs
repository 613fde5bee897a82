//! Meta-tests tying the program catalogue to the corpus: every program the corpus
//! starts has a catalogue entry, and every entry is exercised by a corpus case.

#[path = "common/corpus_commands.rs"]
mod corpus_commands;

use bashgate::Gate;
use corpus_commands::corpus_commands;
use std::collections::BTreeSet;

/// Names the corpus starts that are not programs anyone installs: stand-ins in
/// cases about syntax (`x`, `foo`), files of the fixture project run by path, and
/// names made only to be denied by a configured denylist.
const NOT_PROGRAMS: &[&str] = &[
    // stand-ins in cases about syntax, fixture files, names denied by a config
    ".txt",
    "app",
    "bomb",
    "f",
    "g",
    "keep",
    "server",
    "tool",
    "x",
    "y",
    "{}",
    "}",
    "deploy.sh",
    // a program only a case's config names (`[programs.deploy]`)
    "deploy",
    "Deploy.exe",
    // functions and aliases the command defines and then calls
    "_mytool",
    "b",
    "enter",
    "gs",
    "ll",
    "reboot-now",
    "rmall",
    "setd",
    "up",
    // a project's own programs named by a path (`./build`, `./f.sh`), and a
    // cloned repository's (`./configure`, `./tool/install.sh`)
    "build",
    "configure",
    "install.sh",
    "f.sh",
    "run.sh",
    "x.sh",
    // programs nobody knows, in cases about what the gate does with them (an
    // unknown wrapper given a shell with inline code, an unknown tool's subcommand)
    "mytool",
    "newshell",
    // the value of an unknown program's `-c`, read as the command it may be
    "config.yml",
    "somewrapper",
    "with-env",
    // a script named by a URL (`uv run https://example.com/s.py`)
    "s.py",
    // a word the error recovery reads as a command in a line the grammar cannot
    // parse (`rm !(keep).txt`)
    "!",
    // a package spec given to npx: the package, not a program name
    "eslint@8",
    "evil-server",
    // a script a runner fetches from a URL (`uv run https://example.com/x.py`)
    "x.py",
    // scripts and project programs a runner starts by name (`yarn run dev`,
    // `pnpm lint`, `stack exec -- my-app`, `dune exec ./bin/main.exe`)
    "dev",
    "lint",
    "my-app",
    "main.exe",
    // brace expansions and look-alike characters the gate must not take for rm or sudo
    "rm,-rf,x}",
    "sudo,ls}",
    "git\u{a0}status",
    "ls\u{200b}",
    "r\u{a0}m",
    "сudo",
    "ｒｍ",
    // commands the grammar invents from a `$NAME` it splits after quotes
    // (`A='k'v=$X-x`): the parse problem asks, they never run
    "AWS_SECRET_ACCESS_KEY-x",
    "X-x",
];

/// The static basenames of every program (and wrapper) the corpus starts.
fn corpus_programs() -> BTreeSet<String> {
    let gate = Gate::builder().root(".").build().expect("gate");
    let mut names = BTreeSet::new();
    for cmd in corpus_commands() {
        for start in gate.inspect(&cmd, None).programs {
            if let Some(base) = start.basename()
                && !base.is_empty()
            {
                names.insert(base.to_string());
            }
        }
    }
    names
}

#[test]
fn every_program_in_the_corpus_has_a_catalogue_entry() {
    let missing: Vec<String> = corpus_programs()
        .into_iter()
        .filter(|n| bashgate::catalogue::lookup(n).is_none())
        .filter(|n| !NOT_PROGRAMS.contains(&n.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "programs without a catalogue entry: {missing:?}"
    );
}

#[test]
fn every_catalogue_entry_has_a_corpus_case() {
    let mut seen: BTreeSet<&'static str> = corpus_programs()
        .iter()
        .filter_map(|n| bashgate::catalogue::canonical(n))
        .collect();
    // A module an interpreter runs as a program (`python -m http.server`) has an
    // entry of its own.
    for cmd in corpus_commands() {
        let words: Vec<&str> = cmd.split_whitespace().collect();
        for pair in words.windows(2) {
            if pair[0] == "-m"
                && let Some(name) = bashgate::catalogue::canonical(pair[1])
            {
                seen.insert(name);
            }
        }
    }
    let missing: Vec<&str> = bashgate::catalogue::entries()
        .iter()
        .map(|e| e.name)
        .filter(|n| !seen.contains(n))
        .collect();
    assert!(
        missing.is_empty(),
        "catalogue entries without a corpus case: {missing:?}"
    );
}
