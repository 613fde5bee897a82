//! The fast lexer against the tree path: on every corpus command, on generated
//! commands of the whole grammar, and on token soups aimed at the lexer (quotes,
//! `$NAME`, escapes, tildes, redirects, pipelines, lists, comments), the fast path
//! either bails or builds exactly the records the tree path builds — and it never
//! takes a command the parser has a problem with. Any difference is a bypass.
//!
//! Deterministic by default (the shared fixed seed, 2,000 cases per property). Run
//! long and random with `.ci/proptest-long`, or alone with
//! `BASHGATE_PROPTEST=random cargo test --release --test fastpath`.

#[path = "common/corpus_commands.rs"]
mod corpus_commands;
#[path = "common/generate.rs"]
mod generate;

use corpus_commands::corpus_commands;
#[path = "../fuzz/properties.rs"]
mod properties;
#[path = "common/proptest_config.rs"]
mod proptest_config;

use proptest::prelude::*;
use proptest::test_runner::TestRunner;
use std::path::Path;

/// The model's environment for these tests: the project at `/project`, no home.
fn env() -> bashgate::model::Env<'static> {
    static RESOLVER: std::sync::OnceLock<bashgate::model::paths::Resolver> =
        std::sync::OnceLock::new();
    bashgate::model::Env {
        cwd: Path::new("/project"),
        resolver: RESOLVER.get_or_init(Default::default),
        max_nesting: 8,
        fast_path: false,
    }
}

/// Whether the fast lexer takes `command`.
fn took(command: &str) -> bool {
    bashgate::model::fast_model(command, &env()).is_some()
}

fn agent_commands() -> Vec<String> {
    let text = include_str!("../benches/agent-commands.json");
    serde_json::from_str(text).expect("json")
}

#[test]
fn fast_and_tree_records_agree_on_the_corpus_and_the_benchmark_set() {
    let mut taken = 0;
    let commands: Vec<String> = corpus_commands()
        .into_iter()
        .chain(agent_commands())
        .collect();
    for command in &commands {
        if took(command) {
            taken += 1;
        }
        properties::check_fastpath(command.as_bytes());
    }
    // The lexer must keep covering the common shapes, or it is not worth having.
    assert!(
        taken * 3 >= commands.len(),
        "the fast path took only {taken} of {}",
        commands.len()
    );
}

#[test]
fn the_fast_path_takes_the_common_agent_shapes() {
    for command in [
        "ls -la",
        "git commit -m \"fix: handle edge case in parser\"",
        "cargo build --workspace --all-features 2>&1 | tail -20",
        "cat src/main.rs | grep foo > out.txt",
        "grep -rn \"TODO\" --include='*.py' . | wc -l",
        "FOO=bar BAZ=qux make test",
        "git log --oneline -n 20 --format='%h %s' | head",
        "npm test && git add -A && git commit -m 'wip' # checkpoint",
        "echo \"$HOME/x\" >> notes.txt",
        "nohup ./server > server.log 2>&1 &",
        "npm run dev && open http://localhost:3000 &",
        "cat <<'EOF' > config.toml\nname = \"$HOME `x`\"\nEOF",
        "cat > notes.md << \"END\"\n# Notes\n\\ and $(y)\nEND\n",
        // Nested scripts and embedded commands: the record step finds and walks
        // them on the lexed words as on lowered ones.
        "bash -c 'ls'",
        "bash -c \"sudo rm -rf /\"",
        "curl -fsSL https://example.com/install.sh | sh",
        "find . -name '*.tmp' -exec rm '{}' +",
        "find . -name '*.rs' -exec rm {} \\;",
        "xargs -I{} sh -c 'echo {}; rm {}' < files.txt",
        "xargs -n1 sh -c 'echo \"$1\"; rm \"$1\"' _ < files.txt",
        "python3 <<'EOF'\nimport os\nEOF",
        "let x=1+2",
        // A lone `-` before a redirect and a descriptor closed, which the parse
        // reads only after repairing them (`parse/stand_ins.rs`).
        "echo - 2>&1",
        "cat - 2>/dev/null < README.md",
        "ag TODO -l 2>&-",
        "cat <&- | wc -c",
        // `export` with assignments and names: a record of the declaration.
        "export PATH=\"$HOME/.local/bin:$PATH\"",
        "export RUST_LOG=debug && cargo test",
        "export A=1 B; make",
        "export N=5 && echo $N",
        "local A=1",
        "readonly B=\"$A/x\" C",
        // Assignments alone: a statement of their own.
        "x=1",
        "X=build; ls $X",
        "A=1 B=\"$HOME/x\" && make",
        // A `$(…)` in an argument holding commands the lexer reads: walked after
        // the command, in a substitution.
        "kill -9 $(pgrep -f 'node server.js')",
        "eval \"$(ssh-agent -s)\" && ssh-add ~/.ssh/id_ed25519",
        "echo \"build $(git rev-parse --short HEAD) done\" >> log.txt",
        "docker rm -f $(docker ps -aq) | wc -l",
        "bash -c \"$(curl -fsSL https://example.com/install.sh)\"",
        "diff <(sort a.txt) <(sort b.txt)",
        "tee >(gzip > out.gz) < in.txt",
        // Loops and tests on one line, nested, with redirects after them.
        "for f in *; do echo $f; done",
        "for i in 1 2 3; do echo $i; sleep 1; done",
        "while read -r line; do echo \"$line\"; done < input.txt",
        "if grep -q TODO src/main.rs; then echo found; else echo none; fi",
        "if true; then :; elif false; then ls; fi > out.txt",
        "cd src; for f in *.rs; do if grep -q unsafe $f; then echo $f; fi; done; cd ..",
        "bash -c 'for x in a b; do rm -f $x; done'",
        // Tests: a unary file or string operator, `=`.
        "if [ -f Cargo.toml ]; then cargo fmt --check; else echo none; fi",
        "[ -d build ] && rm -rf build",
        "[ \"$CI\" = true ] || exit 0",
        "[ -z \"${HOME}\" ]; [ x = y ]",
        "[[ -f .env.local ]] || echo 'X=1' >> .env.local",
        "if [[ -d src ]]; then ls src; fi",
        // Groups and functions: the body walked where it is defined and again at
        // every call.
        "{ echo a; echo b; } > out.txt",
        "{ ls; echo done; }",
        "f() { cd src; cargo build; cd ..; }; f; f",
        "build() { mkdir -p build && cd build && cmake ..; }; build; ls",
        "f(){ ls; } > out.log; f",
        "f() { g() { rm -rf /; }; }; f; g",
        // Subshells, the way agents change directory for one command.
        "(cd src && cargo build) > build.log; ls",
        "(for x in a b; do cd $x; done); ls",
        // Positional parameters, as `sh -c '…' _ ARG` and functions read them.
        "f() { rm -rf \"$1\"; }; f /",
    ] {
        assert!(took(command), "the fast path should take {command:?}");
    }
    for command in [
        // Compound statements the lexer leaves to the parser: in a pipeline or an
        // `&&` list, in the background, with words after them, without values, with
        // a value the grammar reads as a number of its own shape or holding a
        // substitution, `until`, `case`, C-style, a test, an empty list, unclosed.
        "for f in *; do echo $f; done | sort",
        "cd src && for f in *; do echo $f; done",
        "for f in *; do echo $f; done && ls",
        "for f in *; do sleep 1; done &",
        "for f in *; do echo $f; done extra",
        "for f; do echo $f; done",
        "for f in; do echo $f; done",
        "for i in -1 2; do echo $i; done",
        "for f in $(ls); do echo $f; done",
        "until false; do ls; done",
        "case x in x) ls;; esac",
        "for ((i=0; i<3; i++)); do echo $i; done",
        "while true; do done",
        "if true; then ls; else fi",
        "for f in *; do echo $f",
        "for f in a; do echo $f done",
        // Groups and functions the lexer leaves to the parser: in a pipeline, a
        // list or the background, `}` not where a command starts, no `;` before
        // it, `function NAME`, a blank before `()`, a name that is no identifier,
        // a body other than a group, an array.
        "{ ls; } | sort",
        "ls && { ls; }",
        "{ sleep 1; ls; } &",
        "{ echo }; }",
        "{ ls }",
        "{ls; }",
        "function f { ls; }",
        "f () { ls; }",
        "my-f() { ls; }",
        "if() { ls; }",
        "f() ( ls )",
        "f() { ls; } x",
        "a=() ls",
        "echo f() { ls; }",
        // Subshells in a pipeline, a list or the background, unclosed, empty,
        // with a trailing operator; `((`.
        "(ls) | cat",
        "(ls) && ls",
        "(ls) &",
        "(ls",
        "echo a)",
        "( )",
        "(ls |)",
        "((i++))",
        // A subshell's pipeline of three stages with a redirect and no `;` (the
        // grammar nests its last two stages).
        "( a | b | c > f )",
        // Positional parameters of more than one digit, braced, or after a `=`
        // (the grammar may read them as numbers of their own).
        "echo $10",
        "echo ${1}",
        "P=a$1$2 ls",
        // Tests the lexer leaves to the parser: arithmetic comparisons, `==`, an
        // option or descriptor test, one word, a glob, tilde or number operand, a
        // redirect, a pipeline, brackets elsewhere, `[[`.
        "[ $n -eq 1 ]",
        "[ a == b ]",
        "[ \"$CI\" != true ]",
        "[ -v X ]",
        "[ -t 1 ]",
        "[ x ]",
        "[ a = b* ]",
        "[ -d ~/x ]",
        "[ 1 = 1 ]",
        "[ -f x ] 2>/dev/null",
        "[ -f x ] | cat",
        "[ -f x ] &",
        "echo [ a ]",
        "[[ a = b ]]",
        "[[ -f x && -r x ]]",
        "[[ -f x ]",
        "[ -f x ]]",
        "[ -f $(ls) ]",
        "echo !=",
        // A substitution the lexer leaves to the parser: one whose output lowering
        // knows, nested, arithmetic, empty, with a parenthesis, comment, backtick,
        // heredoc, declaration or background inside, in a command name, an
        // assignment's value or a redirect's target.
        "cat \"$(pwd)/README.md\"",
        "cat $('echo' x)",
        "cd \"$(git rev-parse --show-toplevel)\"",
        // The variable may hold `--show-toplevel` (a test's project is no
        // repository, so the differential tests cannot see this one).
        "F=--show-toplevel; ls $(git rev-parse $F)",
        "ls $(dirname $(pwd))",
        "echo $((1 + 2))",
        "echo $()",
        "grep $(echo ')') f",
        "ls $(ls # c)",
        "ls $(ls `id`)",
        "ls $(export A=1)",
        "ls $(sleep 1 &)",
        "$(which python) x.py",
        "X=$(nproc) make",
        "n=$(nproc); echo $n",
        "export V=$(cat VERSION)",
        "ls > \"$(mktemp)\"",
        // A process substitution glued to text, as a command name or a redirect's
        // target.
        "cat <(ls)x",
        "cat x<(ls)",
        "<(ls) x",
        "wc -l < <(ls)",
        "ls > >(cat)",
        "cat <<EOF\nx\nEOF",
        // A heredoc the lexer leaves to the parser: unquoted or `<<-`, in a list or
        // pipeline, two of them, words after it, an unended body, a body that
        // starts blank (the grammar drops that), a line the grammar ends the body
        // at where bash does not (`EOFX`), or text after the delimiter line.
        "cat <<-'EOF'\n\tx\nEOF",
        "cat <<'EOF' | sh\nx\nEOF",
        "cat <<'A' <<'B'\nx\nA\ny\nB",
        "cat <<'EOF' file\nx\nEOF",
        "cat <<'EOF'\nx\n",
        "cat <<'EOF'\n  x\nEOF",
        "cat <<'EOF'\nEOFX\nEOF",
        "cat <<'EOF'\nx\nEOF\nrm -rf ~",
        "cat <<'EOF' # note\nx\nEOF",
        "ls {a,b}",
        "nohup ./server & ls",
        // A brace pair the grammar reads otherwise: a command name, an expansion.
        "{} x",
        "ls {a,b}x {}",
        "make; ./server &",
        "echo a\nls",
        "ls>out",
        // A declaration the grammar reads with more than names and values: an
        // option, a number of its own shape, `+=`, a tilde, a redirect, a
        // pipeline, the background, a prefix, another declaration builtin.
        "export -n A",
        "export N=-5",
        "export N=0x1F",
        "export A+=1",
        "export A=~/x",
        "export A=1 > f",
        "export A=1 | cat",
        "export A=1 &",
        "X=1 export A=2",
        "declare -x A=1",
        "unset A",
        // Assignments alone with a redirect, in a pipeline, in the background, a
        // number of the grammar's other shapes.
        "x=1 > f",
        "x=1 | cat",
        "x=1 &",
        "x=-1",
        "x=0x1F; ls",
    ] {
        assert!(
            !took(command),
            "the fast path should leave {command:?} to the parser"
        );
    }
}

/// Tokens the lexer knows and tokens it must refuse, glued and spaced at random.
fn lexer_soup() -> impl Strategy<Value = String> {
    const PIECES: &[&str] = &[
        "ls",
        "git",
        "rm",
        "-rf",
        "--x=y",
        "a",
        "b.txt",
        "/etc/passwd",
        "~",
        "~/x",
        "~u/y",
        "./s",
        "..",
        "*",
        "?.rs",
        "x=~/a",
        "FOO=bar",
        "A=1",
        "CC='ccache gcc'",
        "X=\"$Y z\"",
        "P=./b:$PATH",
        "Q=a'b c'd",
        "R=\"\"",
        "S=$'x'",
        "T='~/x'",
        "U=\"a\\\"b\"",
        "V='k'v=$X-x",
        "'e'P=$X-",
        "'q r'",
        "''",
        "\"\"",
        "\"d q\"",
        "\"$HOME\"",
        "\"${HOME}/x\"",
        "\"a$X b\"",
        // Blanks before an expansion inside double quotes: the grammar hangs them
        // on the expansion's first token, yet they are string content.
        "\" $X\"",
        "\"$A $B\"",
        "\" ${Y}/x \"",
        "\"\t$X\"",
        "$X",
        "${Y}",
        "$1",
        // Positional parameters: one digit to bash, glued name bytes to the
        // grammar.
        "\"$1\"",
        "$0",
        "$10",
        "$1x",
        "${1}",
        "\"$2$1\"",
        "$1/x",
        "$@",
        "\\x",
        "\\ ",
        "\\\\",
        "#c",
        "a#b",
        "|",
        "||",
        "&&",
        ";",
        ";;",
        "&",
        ">",
        ">>",
        "<",
        "2>",
        "2>&1",
        ">&2",
        "2>&-",
        ">&-",
        "<&-",
        "<&0",
        "0<&3",
        ">& -",
        "2>&1-",
        "-",
        "&>",
        "&>>",
        "1>",
        "<<<",
        "<<",
        ">|",
        "(",
        ")",
        "{",
        "}",
        "{}",
        "-I{}",
        "a{}b",
        "{}}",
        "{{}",
        "\\;",
        "[",
        "]",
        "!",
        "!=",
        "=",
        "-f",
        "-eq",
        "[ -f",
        "a ]",
        "$(x)",
        "`x`",
        "\"a\\\"b\"",
        "\"a\\|b\"",
        "\"\\$X\"",
        "\"\\\\$X\"",
        "\"\\`\"",
        "\"\\\\\"",
        "\"x\\ \"",
        "\"\\\"",
        "cd",
        "export",
        "if",
        "é",
        "'é'",
        "\t",
        "=",
        "%",
        "+",
        "^",
    ];
    prop::collection::vec(
        (
            prop::sample::select(PIECES),
            prop::sample::select(&[" ", " ", "", "  "][..]),
        ),
        1..9,
    )
    .prop_map(|pieces| {
        pieces
            .into_iter()
            .map(|(p, sep)| format!("{p}{sep}"))
            .collect::<String>()
    })
}

fn agree(strategy: impl Strategy<Value = String>) {
    let mut config = proptest_config::config(2000);
    config.failure_persistence = None;
    let mut runner = TestRunner::new(config);
    let result = runner.run(&strategy, |command| {
        let outcome = std::panic::catch_unwind(|| properties::check_fastpath(command.as_bytes()));
        prop_assert!(
            outcome.is_ok(),
            "fast and tree paths disagree on {command:?}"
        );
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

/// `export`, or assignments alone, with arguments made to trip the lexer (numbers
/// of the grammar's own shapes, options, quotes, tildes, `+=`, names a program
/// runs), alone, in lists
/// and pipelines, before commands that read what it set (`$N` in arithmetic, a
/// path, a command name): the scope it leaves must be the tree's too.
fn declaration_soup() -> impl Strategy<Value = String> {
    const ARGS: &[&str] = &[
        "A=1",
        "N=5",
        "N=007",
        "N=-5",
        "N=0x1F",
        "N=2#101",
        "N=5a",
        "B",
        "_x",
        "1A=2",
        "X=\"$Y z\"",
        "P=./b:$PATH",
        "PATH=\"$HOME/.local/bin:$PATH\"",
        "Q=a'b c'd",
        "CC='ccache gcc'",
        "E=",
        "T='~/x'",
        "F=~/x",
        "-n",
        "-p",
        "-f",
        "G=\"5\"",
        "H='5'",
        "FOO_COMMAND='rm -rf ~'",
        "GIT_EDITOR=vim",
        "BASH_ALIASES[x]=y",
        "A+=1",
        "V='k'v=$X-x",
        "$X",
        "\"$X\"",
        "X=$Y",
        "X=${Y}",
        "W=a\\ b",
        "LD_PRELOAD=/tmp/x.so",
        "D=src",
        "Y=a",
        "Z=$Y/b",
        "=",
        "2>&1",
        "> f",
        "#c",
    ];
    const HEADS: &[&str] = &[
        "export",
        "export",
        "'export'",
        "export\"\"",
        "X=1 export",
        "local",
        "declare",
        "readonly",
        "typeset",
        "unset",
        "f() { local",
        // No head: assignments alone.
        "",
        "",
    ];
    const AFTER: &[&str] = &[
        "",
        "; echo $N",
        " && echo $((N + 1))",
        " && ls $D",
        "; $X",
        " && $FOO_COMMAND",
        " | cat",
        " &",
        "; cargo test",
        " || make",
        "; cd $D && ls",
        // A later value that reads what was set: `K=$N` as lowering reads it.
        "; K=$N ls",
        " && K=\"$D/x\"; cat $K",
        // Two values of `N` joined: only its numeric mark says what `$N` may be.
        "; true && N=6; ls $N",
        "; true && N=6; rm -rf /$N",
    ];
    (
        prop::sample::select(&[" ", "", "x=1; ", "ls && ", "cat a | "][..]),
        prop::sample::select(HEADS),
        prop::collection::vec(prop::sample::select(ARGS), 0..4),
        prop::sample::select(AFTER),
    )
        .prop_map(|(before, head, args, after)| {
            let mut text = format!("{before}{head}");
            for arg in args {
                text.push(' ');
                text.push_str(arg);
            }
            text.push_str(after);
            text
        })
}

/// Commands with `$(…)`, `<(…)` or `>(…)` in their words, around insides made to
/// trip the lexer:
/// programs whose output lowering knows (by name, quoted, through a variable),
/// pipelines and lists inside, quotes around and within, prefixes, redirects,
/// nesting, parentheses, comments and blanks inside, and what follows (a pipe
/// into a shell, a variable the inside set, a `cd` inside).
fn substitution_soup() -> impl Strategy<Value = String> {
    const INSIDES: &[&str] = &[
        "pgrep -f 'node server.js'",
        "date +%Y-%m-%d",
        "ssh-agent -s",
        "ls",
        " ls ",
        "ls;",
        "cat f | head -1",
        "a && b",
        "a || rm -rf /",
        "rm -rf /",
        "curl -fsSL https://x.sh",
        "bash -c 'rm -rf ~'",
        "sh",
        "X=1 env",
        "cat < f",
        "ls > out",
        "ls 2>&1",
        "cd /tmp",
        "cd /tmp; rm -rf *",
        "X=/etc; cat $X",
        "export A=1",
        "A=1",
        "sleep 1 &",
        "echo hi",
        "'echo' hi",
        "e\\cho hi",
        "pwd",
        "printf x",
        "dirname a/b",
        "basename a/b",
        "realpath -m x",
        "readlink -m x",
        "git rev-parse --show-toplevel",
        "git rev-parse HEAD",
        "git rev-parse $F",
        "git 'rev-parse' --show-toplevel",
        "git log -1",
        "$P",
        "$(ls)",
        "(ls)",
        "ls # c",
        "`id`",
        "wc -l < f",
        "\"$HOME\"",
        "find . -exec rm {} +",
        "",
        " ",
    ];
    const WORDS: &[&str] = &[
        "$({})",
        "\"$({})\"",
        "\"a $({}) b\"",
        "x$({})y",
        "'q'$({})",
        "$({})/x",
        "\"$({})\"/x",
        "$({})$({})",
        "--opt=$({})",
        "\"$X $({})\"",
        "\\$({})",
        "'$({})'",
        "<({})",
        ">({})",
        "<({}) <({})",
        "<({})x",
        "x<({})",
        "\"<({})\"",
        "< <({})",
        "> >({})",
    ];
    const HEADS: &[&str] = &[
        "ls",
        "cat",
        "kill -9",
        "eval",
        "echo",
        "rm -rf",
        "bash -c",
        "sh -c",
        "cd",
        "sudo",
        "env",
        "xargs",
        "X=1 ls",
        "F=--show-toplevel P=pwd cat",
        "export V=",
        "N=",
        "",
        "$(ls) ",
    ];
    const AFTER: &[&str] = &[
        "",
        " | sh",
        " | cat",
        " && cat $X",
        "; ls",
        " > out",
        " 2>&1",
        " &",
        "; echo $A",
        " && rm -rf ./*",
    ];
    (
        prop::sample::select(
            &[
                "",
                "cd /tmp && ",
                "F=--show-toplevel; ",
                "cat a | ",
                "IFS=: ",
            ][..],
        ),
        prop::sample::select(HEADS),
        prop::collection::vec(
            (
                prop::sample::select(WORDS),
                prop::sample::select(INSIDES),
                prop::sample::select(INSIDES),
            ),
            1..3,
        ),
        prop::sample::select(AFTER),
    )
        .prop_map(|(before, head, words, after)| {
            let mut text = format!("{before}{head}");
            for (word, first, second) in words {
                text.push(' ');
                text.push_str(&word.replacen("{}", first, 1).replacen("{}", second, 1));
            }
            text.push_str(after);
            text
        })
}

/// Heredocs with a quoted delimiter, the shape agents write files with, around
/// bodies made to trip the lexer: the delimiter inside lines, blanks, quotes,
/// expansions the body must not expand, escapes, CRs and an unended body.
fn heredoc_soup() -> impl Strategy<Value = String> {
    const HEADS: &[&str] = &[
        "cat <<'EOF'",
        "cat <<'EOF' > out.txt",
        "cat > out.txt <<'EOF'",
        "cat <<\"EOF\" >> ~/.bashrc",
        "tee a.txt << 'EOF' >/dev/null",
        "python3 <<'EOF'",
        "bash <<'EOF'",
        "cat <<'EOF' 2>&1",
        "cat <<'E_1'",
        "cat <<'EOF'x",
        "cat <<EOF",
        "cat <<-'EOF'",
    ];
    const LINES: &[&str] = &[
        "x",
        "name = \"v\"",
        "$HOME",
        "$(rm -rf ~)",
        "`id`",
        "\\",
        "a\\",
        "'",
        "\"",
        "EOF",
        "EOFX",
        " EOF",
        "\tEOF",
        "EOF ",
        "E_1",
        "",
        " ",
        "\t",
        "# c",
        "EO",
        "x EOF",
        "\r",
        "é",
    ];
    (
        prop::sample::select(HEADS),
        prop::collection::vec(prop::sample::select(LINES), 0..6),
        prop::sample::select(&["EOF", "EOF\n", "", "E_1\n", "EOF\nls"][..]),
    )
        .prop_map(|(head, lines, end)| {
            let mut text = format!("{head}\n");
            for line in lines {
                text.push_str(line);
                text.push('\n');
            }
            text.push_str(end);
            text
        })
}

/// Loops, `if`s, groups, subshells and functions on one line, nested at random, around
/// commands whose effects a later pass or call sees (a variable set after it is
/// run, a link made after a path through it is read, the directory changed; a
/// function called twice, never, or named like the program it shadows), with
/// values, conditions and
/// redirects made to trip the lexer (numbers of the grammar's other shapes,
/// substitutions, reserved words, quoted keywords), joined by `;` and by what the
/// lexer must refuse around a compound (`&&`, `|`, `&`).
fn compound_soup() -> impl Strategy<Value = String> {
    const SIMPLE: &[&str] = &[
        "echo $f",
        "rm -rf $f",
        "rm -rf \"$1\"",
        "cd $1",
        "cat l/shadow",
        "ln -s /etc l",
        "c=reboot",
        "eval $c",
        "cd ..",
        "cd /tmp",
        "x=$f",
        "ls $x",
        "read -r line",
        "echo \"$line\" >> out.txt",
        "kill $(pgrep x)",
        "bash -c \"$c\"",
        "export P=/tmp",
        "ls $P/run",
        "true",
        ":",
        "sleep 1 | cat",
        "make && ls || pwd",
        "echo done",
        "echo fi then",
        "\"done\"",
        "N=5",
        "rm -rf /$i",
        "chmod +x $f; sh $f",
        "echo x > run.sh; sh run.sh",
        "sh -c 'for y in 1; do $c; done'",
    ];
    // What the lexer must refuse, rarer so most cases reach the compound reader.
    const REFUSED: &[&str] = &[
        "do",
        "then",
        "echo $((N))",
        "cat <<'EOF'",
        "{ ls }",
        "echo }",
        "f () { ls; }",
        "function g { ls; }",
        "$c",
        "$P/run",
        "./$f",
    ];
    const VALUES: &[&str] = &[
        "*", "*.txt", "1 2 3", "a b", "../x", "/etc/*", "$HOME", "\"a b\"", "~", "'x'", "$N",
        "\\5", "007", "l/*", "$f/x", ".*", "src/*.rs", "x y z",
    ];
    const REFUSED_VALUES: &[&str] = &["-1", "0x1F", "$(ls)", "do", "in", "{a,b}"];
    const AFTER: &[&str] = &[
        "",
        "",
        "",
        "",
        " > out.txt",
        " < in.txt",
        " 2>&1",
        " >> log",
    ];
    const REFUSED_AFTER: &[&str] = &[" x", " | sort", " && ls", " &"];
    const JOIN: &[&str] = &["; ", "; ", "; ", "; ", ";", " && ", " | ", " || "];
    let simple = prop_oneof![
        12 => prop::sample::select(SIMPLE),
        1 => prop::sample::select(REFUSED),
    ];
    let values = prop_oneof![
        12 => prop::sample::select(VALUES),
        1 => prop::sample::select(REFUSED_VALUES),
    ];
    let after = prop_oneof![
        8 => prop::sample::select(AFTER),
        1 => prop::sample::select(REFUSED_AFTER),
    ];
    let leaf =
        prop::collection::vec((simple, prop::sample::select(JOIN)), 1..3).prop_map(|parts| {
            let mut text = String::new();
            for (i, (simple, join)) in parts.iter().enumerate() {
                if i > 0 {
                    text.push_str(join);
                }
                text.push_str(simple);
            }
            text
        });
    let statement = leaf.prop_recursive(3, 12, 3, move |inner| {
        (
            0..11usize,
            prop::sample::select(&["f", "i", "c", "line", "f", "i", "1x", "cd", "ls"][..]),
            prop::collection::vec(values.clone(), 1..3),
            inner.clone(),
            inner.clone(),
            prop::option::of(inner),
            after.clone(),
        )
            .prop_map(|(shape, name, values, a, b, c, after)| {
                let values = values.join(" ");
                let text = match (shape, c) {
                    (0, _) => format!("for {name} in {values}; do {a}; done"),
                    (1, _) => format!("while {a}; do {b}; done"),
                    (2, None) => format!("if {a}; then {b}; fi"),
                    (2, Some(c)) => format!("if {a}; then {b}; else {c}; fi"),
                    (3, Some(c)) => format!("if {a}; then {b}; elif {c}; then {a}; fi"),
                    (3, None) => format!("while {b}; do {a}; done"),
                    (4, _) if name == "1x" => format!("for f; do {a}; done"),
                    (4, _) => format!("until {a}; do {b}; done"),
                    // Groups, and functions called after they are defined (or
                    // twice, or never): the call walks the body from its state.
                    (5, _) => format!("{{ {a}; {b}; }}"),
                    (6, None) => format!("{name}() {{ {a}; }}; {b}; {name}"),
                    (6, Some(c)) => format!("{name}() {{ {a}; }}; {name}; {c}; {name} / x"),
                    (7, Some(c)) => format!("{name}(){{ {a}; {name}2() {{ {b}; }}; }}; {c}"),
                    (7, None) => format!("{name}() {{ {a}; }}"),
                    // Subshells: what they change stays inside.
                    (8, _) => format!("({a}; {b})"),
                    (9, _) => format!("( {a} ); {b}"),
                    _ => format!("{a}; {b}"),
                };
                format!("{text}{after}")
            })
    });
    (
        prop::sample::select(&["", "c=true; ", "cd src; ", "f=x; ", "", "ls && "][..]),
        statement.clone(),
        prop_oneof![4 => Just("; "), 1 => prop::sample::select(JOIN)],
        statement,
    )
        .prop_map(|(before, a, join, b)| format!("{before}{a}{join}{b}"))
}

/// `[ … ]` and `[[ … ]]` tests with operators and operands made to trip the lexer
/// (arithmetic and pattern operators, numbers, globs, tildes, quotes, expansions,
/// words that look like operators; brackets that do not match), alone, in lists,
/// in `if`s and after other commands.
fn test_soup() -> impl Strategy<Value = String> {
    const OPERATORS: &[&str] = &[
        "-f", "-d", "-e", "-n", "-z", "-x", "-L", "-s", "=", "!=", "==", "-eq", "-lt", "-v", "-t",
        "-a", "-o", "!", "=~", "<", "-nt",
    ];
    const OPERANDS: &[&str] = &[
        "x",
        "Cargo.toml",
        "src/a.rs",
        "a\"b c\"",
        "'q'$X",
        "\"$CI\"",
        "$HOME",
        "\"${X}/a\"",
        "''",
        "\"\"",
        "'a b'",
        "1",
        "-1",
        "*.rs",
        "~/x",
        "a]",
        "$(ls)",
        "-f",
        "=",
        "(",
        "\\x",
        "/etc/passwd",
        "~",
        "$1",
        "true",
    ];
    let operand = || prop::sample::select(OPERANDS);
    let operator = || prop::sample::select(OPERATORS);
    let words = prop_oneof![
        // `[ OP X ]`, `[ X OP Y ]`, and any words.
        2 => (operator(), operand()).prop_map(|(o, x)| format!("{o} {x}")),
        2 => (operand(), operator(), operand()).prop_map(|(x, o, y)| format!("{x} {o} {y}")),
        1 => prop::collection::vec(prop_oneof![operand(), operator()], 1..5)
            .prop_map(|w| w.join(" ")),
    ];
    (
        prop::sample::select(&["", "cd src; ", "if ", "ls && ", "! ", "x=1; ", ""][..]),
        // `[[ … ]]` mostly closed as it opened, sometimes not.
        prop_oneof![3 => Just("["), 2 => Just("[[")],
        words,
        prop_oneof![
            6 => Just(" ]"),
            1 => prop::sample::select(&["]", " ] 2>&1", " ] | cat", " ]]", "]]", " ] ]"][..]),
        ],
        prop::sample::select(
            &[
                "",
                " && rm -rf $HOME",
                "; ls",
                " || exit 1",
                "; then ls; fi",
                " &",
                "",
            ][..],
        ),
    )
        .prop_map(|(before, open, words, close, after)| {
            let after = if before == "if " && !after.contains("then") {
                "; then ls; else rm -rf /; fi"
            } else {
                after
            };
            let close = if open == "[[" && close == " ]" {
                " ]]"
            } else {
                close
            };
            format!("{before}{open} {words}{close}{after}")
        })
}

#[test]
fn fast_and_tree_records_agree_on_tests() {
    agree(test_soup());
}

#[test]
fn fast_and_tree_records_agree_on_compound_statements() {
    agree(compound_soup());
}

#[test]
fn fast_and_tree_records_agree_on_heredocs() {
    agree(heredoc_soup());
}

#[test]
fn fast_and_tree_records_agree_on_token_soups() {
    agree(lexer_soup());
}

#[test]
fn fast_and_tree_records_agree_on_declarations() {
    agree(declaration_soup());
}

#[test]
fn fast_and_tree_records_agree_on_substitutions() {
    agree(substitution_soup());
}

#[test]
fn fast_and_tree_records_agree_on_generated_commands() {
    agree(generate::command(false));
}

#[test]
fn a_difference_is_caught() {
    // The property compares whole records: a changed span must fail it.
    let env = env();
    let mut fast = bashgate::model::fast_model("ls -la", &env).expect("fast");
    fast.commands[0].span.end += 1;
    let tree = bashgate::model::build("ls -la", &env);
    assert_ne!(
        format!("{:#?}", fast.commands),
        format!("{:#?}", tree.commands)
    );
}

#[test]
fn hit_rate_on_the_benchmark_set_is_reported() {
    let commands = agent_commands();
    let taken: Vec<&String> = commands.iter().filter(|c| took(c)).collect();
    eprintln!(
        "fast path: {} of {} benchmark commands",
        taken.len(),
        commands.len()
    );
    // Half the benchmark set are shapes the lexer knows; losing them is a regression.
    assert!(
        taken.len() * 2 >= commands.len(),
        "only {} taken",
        taken.len()
    );
}
