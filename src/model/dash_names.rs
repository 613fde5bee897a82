//! Globs that can expand to option-looking names. `touch -- --checkpoint-action=x;
//! tar cf a.tar *` passes `--checkpoint-action=x` to tar as an option: a file whose
//! name starts with `-` turns a glob into options the gate never sees. The walker
//! notes the folders where the command creates such names ([`created_dash_name`]);
//! [`option_glob`] says whether a glob word may expand to one, from those notes or
//! from one `readdir` of the folder it matches in.

pub use super::command::DashName;
use super::command::SimpleCommand;
use super::path_roles::path_uses;
use super::paths::normalize_lexically;
use super::word::{Part, Word};
use crate::catalogue::{self, Entry, Fact, Role, Values};
use std::path::Path;

/// Most folder entries read when looking for names that start with `-`.
const MAX_SCAN: usize = 4096;

/// A cheap test before [`created_dash_name`] (the walker runs it for every
/// command): false only where that finds nothing. A name that starts with `-`
/// comes from a redirect to it (`> -e`), from an operand that cannot be an option
/// (after `--`, or with a folder: `./-x`, `cp sub/-x .`), or, when the program may
/// write a path by the catalogue's roles, from an option's value (glued: `-o-x`,
/// `--output=-x`, `of=-x`, `-o:-x`; or the word after an option: `sort -o -x`)
/// or from a source whose names only the run knows (`cp "$F" .`, `cp d/* .`,
/// `cp -r d/. .`); and from a program that writes the names its input holds
/// (`tar -x`, `unzip`).
pub fn may_create(record: &SimpleCommand) -> bool {
    if record
        .redirects
        .iter()
        .any(|r| r.writes() && r.target.as_ref().and_then(Word::value).is_some_and(dashed))
    {
        return true;
    }
    // A value that starts with `-` (glued, or the word after an option), and a
    // source whose names only the run knows.
    let mut after_option = false;
    let mut dashed_value = false;
    let mut named_by_run = false;
    for value in record.words.iter().skip(1).map(Word::value) {
        let Some(value) = value else {
            named_by_run = true;
            after_option = false;
            continue;
        };
        if value == "--" {
            return true;
        }
        let bytes = value.as_bytes();
        let option = bytes.first() == Some(&b'-');
        // One pass over the bytes, at each `-` after the first byte: after a `/`
        // it names a file (`./-x`), after `=` or `:` it starts a value (`of=-x`,
        // `-o:-x`), after another byte of an option a glued value (`-o-x`).
        for pair in bytes.windows(2).filter(|w| w[1] == b'-') {
            match pair[0] {
                b'/' => return true,
                b'=' | b':' => dashed_value = true,
                b'-' => {}
                _ => dashed_value |= option,
            }
        }
        dashed_value |= option && after_option;
        named_by_run |= bytes.ends_with(b"/.");
        after_option = option;
    }
    if record.words.len() < 2 {
        return false;
    }
    if !record.wrappers.is_empty() || record.shadowed {
        return dashed_value || named_by_run;
    }
    record
        .program_str()
        .and_then(catalogue::lookup)
        .is_some_and(|entry| {
            dashed_value && entry.mentions(&WRITES) && writes_dashed_value(entry, record.args())
                || named_by_run && copies_into_folder(entry, record)
                || may_write_input_names(entry, record)
        })
}

/// Most words an option takes (`bwrap --overlay RW WORK DEST`: three); a unit test holds
/// every catalogue option to it.
const MAX_OPTION_VALUES: usize = 3;

/// True when `entry` may write a path whose name starts with `-` from `args`: a
/// word that may be an option whose value it writes ([`Entry::write_options`],
/// `sort -o`, `git log --output`) with such a value glued on (`-o-x`,
/// `--output=-x`) or in one of the next words (`sort -o -x`), or a setting's
/// value (`dd of=-x`). A word only known at run time may be such an option.
fn writes_dashed_value(entry: &Entry, args: &[Word]) -> bool {
    // Words after a written option (or an unknown word) that may be its values.
    let mut values_left = 0;
    for word in args {
        let Some(value) = word.value() else {
            values_left = MAX_OPTION_VALUES;
            continue;
        };
        if values_left > 0 && like_option(value) {
            return true;
        }
        values_left = values_left.saturating_sub(1);
        if value.starts_with('-') {
            if catalogue::may_spell(value, entry.write_options) {
                if value.trim_start_matches('-').contains('-') {
                    return true;
                }
                values_left = MAX_OPTION_VALUES;
            }
        } else if value
            .as_bytes()
            .windows(2)
            .any(|w| w == b"=-" || w == b":-")
        {
            return true;
        }
    }
    false
}

/// True when some use of `entry` by `record` may write the names its input
/// holds: the entry's masks; for a subcommand named first (`git apply`, not `git
/// status`) that subcommand's; where only a flag makes it so (`tar -x`, not `tar
/// -c`), a word that may give that flag, or settings in the command's
/// environment (`TAR_OPTIONS=-x`).
fn may_write_input_names(entry: &Entry, record: &SimpleCommand) -> bool {
    if !entry.use_may_have(Fact::WritesInputNames) {
        return false;
    }
    if entry.has(Fact::WritesInputNames) {
        return true;
    }
    let args = record.args();
    if entry.subcommands.is_empty() {
        let unpacking = entry
            .flag_facts
            .iter()
            .filter(|f| f.facts.contains(&Fact::WritesInputNames));
        return !record.assignments.is_empty()
            || args.iter().any(|word| match word.value() {
                Some(v) => unpacking.clone().any(|f| catalogue::may_spell(v, f.flags)),
                None => true,
            });
    }
    match args.first().and_then(Word::value) {
        Some(name) if !name.starts_with('-') => entry
            .subcommand(name)
            .is_none_or(|sub| sub.use_may_have(Fact::WritesInputNames)),
        // An option before the subcommand, or a word only known at run time.
        _ => true,
    }
}

/// The roles by which a program writes a path (an operand, an option's value, a
/// settings key) or lets what it runs write one (a bind mount).
const WRITES: [Role; 4] = [
    Role::PathWrite,
    Role::PathDelete,
    Role::PathWriteOrPipe,
    Role::Mount,
];

/// True when the last name of the path `value` starts with `-` (or may: a
/// superset, `a/-x/..` included).
fn dashed(value: &str) -> bool {
    value.starts_with('-') || value.as_bytes().windows(2).any(|w| w == b"/-")
}

/// The files or folders `record` creates whose names start with `-`, resolved from
/// `cwd` (`None`: where is unknown — the working directory is, or the name is
/// only known at run time): a path it writes with such a name (`touch -- -rf`, `>
/// -e`, `mkdir -- --x`, `sort -o -x`); in each path it writes, the last name of an
/// operand that is not an option (after `--`, or with a folder), as a copy, move
/// or link into a folder names its entry (`cp sub/-x .`, `ln -s /x/-y dir`; a
/// superset: a written path that is a file gives a name in no folder); and
/// anything, anywhere, when the names come from the run: a copy of a source only
/// known then (`cp "$F" .`, `cp d/* .`, `cp -r d/. .`), or a program that writes
/// the names its input holds (`tar -x`, `unzip`, `git apply`).
pub fn created_dash_name(record: &SimpleCommand, cwd: Option<&Path>) -> Vec<DashName> {
    // A function or alias of the program's name is not the program.
    let entry = record
        .program_str()
        .and_then(catalogue::lookup)
        .filter(|_| !record.shadowed);
    // Names from an archive or a patch may be anything, anywhere: nothing else
    // the command makes adds to that.
    if entry.is_some_and(|e| writes_input_names(e, record)) {
        return vec![DashName::Unknown];
    }
    let mut out = Vec::new();
    let place = |path: &Path| match (path.is_absolute(), cwd) {
        (true, _) => Some(normalize_lexically(path)),
        (false, Some(cwd)) => Some(normalize_lexically(&cwd.join(path))),
        (false, None) => None,
    };
    let at = |path: &Path| place(path).map_or(DashName::Unknown, DashName::At);
    let (sources, run_named) = operand_names(record);
    let unknown_copied = run_named && entry.is_some_and(|e| copies_into_folder(e, record));
    for usage in path_uses(record) {
        if !usage.access.writes() {
            continue;
        }
        let Some(value) = usage.word.value() else {
            if unknown_copied {
                out.push(DashName::Unknown);
            }
            continue;
        };
        let path = Path::new(value);
        let named = path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(like_option);
        if named {
            out.push(at(path));
        }
        for name in &sources {
            out.push(at(&path.join(name)));
        }
        if unknown_copied {
            out.push(place(path).map_or(DashName::Unknown, DashName::In));
        }
    }
    out
}

/// True when `record` copies, moves or links its operands into a folder its last
/// operand names, as the catalogue reads its words (`cp`, `mv`, `ln`, `install`,
/// `rsync`, `git mv`: their `last` operand role is `path-write`).
fn copies_into_folder(entry: &'static Entry, record: &SimpleCommand) -> bool {
    if entry.subcommands.is_empty() {
        return entry.last == Some(Role::PathWrite);
    }
    let values: Values = record.args().iter().map(Word::value).collect();
    let usage = catalogue::usage(entry, &values);
    usage.subcommand.unwrap_or(entry).last == Some(Role::PathWrite)
}

/// True when `record`, read with its program's `entry`, writes the files its
/// input names (`tar -x`, `unzip`, `git apply`: the catalogue's
/// `writes-input-names`), and no read-only flag says otherwise (`tar -t`).
fn writes_input_names(entry: &'static Entry, record: &SimpleCommand) -> bool {
    if !entry.use_may_have(Fact::WritesInputNames) {
        return false;
    }
    let values: Values = record.args().iter().map(Word::value).collect();
    let usage = catalogue::usage(entry, &values);
    usage.has(Fact::WritesInputNames) && !usage.has(Fact::ReadOnly)
}

/// True for a name a program reads as an option: it starts with `-` and is more
/// than that (`-` alone is standard input or output, as in `wget -O -`).
fn like_option(name: &str) -> bool {
    name.len() > 1 && name.starts_with('-')
}

/// The last names that start with `-` of `record`'s operands that cannot be
/// options (after `--`, or with a folder: `sub/-x`), and whether an operand's
/// names are only known at run time: a word only known then or a glob (`"$F"`,
/// `d/*`), or a folder's contents (`d/.`).
fn operand_names(record: &SimpleCommand) -> (Vec<&str>, bool) {
    let mut after_dashes = false;
    let mut names = Vec::new();
    let mut run_named = false;
    for word in record.args() {
        let Some(value) = word.value() else {
            run_named = true;
            continue;
        };
        if value == "--" && !after_dashes {
            after_dashes = true;
            continue;
        }
        run_named |= value.ends_with("/.");
        if !(after_dashes || value.contains('/')) {
            continue;
        }
        if let Some(name) = Path::new(value).file_name().and_then(|n| n.to_str())
            && like_option(name)
        {
            names.push(name);
        }
    }
    (names, run_named)
}

/// Why the glob `word`, an argument in the folder `cwd`, may expand to a name that
/// starts with `-`: its first component is a pattern that can match such a name,
/// and `created` (such names the command made; `None` where unknown) or the folder
/// itself holds one. `None` when it cannot.
pub fn option_glob(word: &Word, cwd: Option<&Path>, created: &[DashName]) -> Option<String> {
    let pattern = leading_pattern(word)?;
    // Compiled only when a name that starts with `-` gets past a cheap test.
    let mut glob = super::name_glob::NameGlob::new(&pattern);
    let made_here = created.iter().find_map(|c| match (c, cwd) {
        (DashName::At(path), Some(cwd)) => {
            let name = path.file_name()?.to_str()?;
            (path.parent() == Some(cwd) && glob.matches(name.as_ref())).then(|| {
                format!(
                    "`{pattern}` can expand to `{name}`, made by this command, which the program reads as an option"
                )
            })
        }
        // Names only the run knows: any may match.
        (DashName::In(folder), Some(cwd)) if folder != cwd => None,
        (DashName::In(_), _) | (DashName::Unknown, _) => Some(format!(
            "`{pattern}` can expand to names this command makes that only the run knows (an archive's, a copy's), which the program may read as options"
        )),
        // A name made where the gate cannot tell, or a glob run where it cannot.
        (DashName::At(_), None) => Some(format!(
            "`{pattern}` can expand to a name like an option this command makes, in a folder the gate cannot tell"
        )),
    });
    if made_here.is_some() {
        return made_here;
    }
    let cwd = cwd?;
    for (n, entry) in std::fs::read_dir(cwd).ok()?.enumerate() {
        if n >= MAX_SCAN {
            return Some(format!(
                "`{pattern}` matches in a folder too large to check for names like options"
            ));
        }
        let Ok(entry) = entry else { continue };
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if name.starts_with('-') && glob.matches(name.as_ref()) {
            return Some(format!(
                "`{pattern}` expands to `{name}`, which the program reads as an option"
            ));
        }
    }
    None
}

/// True when a glob among `record`'s arguments may expand to a name like an
/// option, so that the names the command made may change how it is judged: an
/// argument whose expansion starts with a glob match ([`option_glob`] reads no
/// other), or that starts with a loop variable over such globs. A record without
/// one needs no judging again when later parts of the command make such names.
pub fn may_expand_to_options(record: &SimpleCommand) -> bool {
    record.args().iter().any(|word| {
        leading_pattern(word).is_some()
            || matches!(word.parts.first(), Some(Part::Variable { name, .. })
                if record.context.is_confined(name))
    })
}

/// The pattern of a word whose expansion starts with a glob match in the working
/// directory (`*`, `*.txt`, `?x`, `[a-z]*`, `-*`): its first component, when that
/// has an unquoted glob character and can start with `-`. `None` for anything else
/// (`src/*` expands to `src/…`, `'*'` is no glob).
fn leading_pattern(word: &Word) -> Option<String> {
    let text = crate::model::paths::glob_text(word)?;
    let first = text.split('/').next().unwrap_or("");
    let can_start_with_dash = first.starts_with(['*', '?', '[', '-']);
    (first.contains(['*', '?', '[']) && can_start_with_dash).then(|| first.to_string())
}

#[cfg(test)]
mod tests {
    use super::{DashName, MAX_OPTION_VALUES, created_dash_name, leading_pattern, may_create};
    use crate::catalogue::{self, Entry};
    use crate::model::built_in_project;
    use crate::model::word::{Part, Word};
    use crate::verdict::Span;
    use std::path::{Path, PathBuf};

    /// The cheap test's answer and the names the first command of `source` makes
    /// in `/project`.
    fn made(source: &str) -> (bool, Vec<DashName>) {
        let model = built_in_project(source);
        let record = model.commands.first().expect("one command");
        let cwd = Path::new("/project");
        (may_create(record), created_dash_name(record, Some(cwd)))
    }

    #[test]
    fn names_made_by_option_values_and_copies_into_folders_are_found() {
        for (source, name) in [
            ("touch -- -rf", "/project/-rf"),
            ("echo x > -e", "/project/-e"),
            ("sort -o -n a.txt", "/project/-n"),
            ("sort -o-n a.txt", "/project/-n"),
            ("sort --output=--x a.txt", "/project/--x"),
            ("dd if=a.txt of=-n", "/project/-n"),
            ("cp sub/-rf .", "/project/-rf"),
            ("mv sub/-rf ./", "/project/-rf"),
            ("cp -t . sub/-rf", "/project/-rf"),
            ("ln -s /x/-rf .", "/project/-rf"),
            ("cp -- -rf out/", "/project/out/-rf"),
        ] {
            let (cheap, names) = made(source);
            assert!(cheap, "the cheap test passes `{source}`");
            assert!(
                names.contains(&DashName::At(PathBuf::from(name))),
                "`{source}` makes {name}: {names:?}"
            );
        }
    }

    #[test]
    fn names_only_the_run_knows_are_kept_with_their_folder() {
        for (source, name) in [
            ("tar xf a.tar", DashName::Unknown),
            ("unzip -o a.zip", DashName::Unknown),
            ("cp d/* out/", DashName::In(PathBuf::from("/project/out"))),
            ("cp -r d/. .", DashName::In(PathBuf::from("/project"))),
            ("mv \"$F\" .", DashName::In(PathBuf::from("/project"))),
        ] {
            let (cheap, names) = made(source);
            assert!(cheap, "the cheap test passes `{source}`");
            assert!(
                names.contains(&name),
                "`{source}` makes {name:?}: {names:?}"
            );
        }
        // Listing an archive, making one, deleting or sorting by a glob, writing
        // to standard output: no name.
        for source in [
            "tar tf a.tar",
            "tar cf a.tar src",
            "rm -f *.o",
            "sort -o out.txt *.txt",
            "wget -qO- https://example.com/x",
            "sort -o - a.txt",
        ] {
            assert_eq!(made(source).1, Vec::new(), "`{source}`");
        }
    }

    #[test]
    fn the_cheap_test_passes_every_command_that_makes_such_a_name() {
        // Look-alikes included: the test may pass more than it must, never less.
        for source in [
            "sort -o sorted.txt a.txt",
            "sort -o -n a.txt",
            "gcc -o -x main.c",
            "cp a.txt -- -x",
            "cp sub/-x new.txt",
            "cargo test --release --no-fail-fast 2>&1",
            "ls -la -h > out.txt",
            "git log --oneline -5",
            "mkdir -p out/-x",
            "dd if=a of=-b",
            "tar xf a.tar",
            "git apply x.patch",
            "git -C sub apply x.patch",
            "cp *.txt out/",
            "rm -f *.o",
            "sort -so -x a.txt",
            "sort --outp -x a.txt",
            "sort $OPT -x a.txt",
            "git log --output -x",
            "git log --oneline --output=-x",
            "git format-patch -o -x HEAD~1",
            "docker run --rm -v -x:/y img",
            "tar cf -x b",
            "tar -c -v -f -x b",
            "tar xzf a.tgz",
            "tar -C out --extract -f a.tar",
            "tar --extr -f a.tar",
            "TAR_OPTIONS=-x tar -f a.tar",
            "tar -f a.tar $MODE",
            "bwrap --bind a -x sh",
        ] {
            let (cheap, names) = made(source);
            assert!(cheap || names.is_empty(), "`{source}` makes {names:?}");
        }
        // What the walker spares the full reading of.
        for source in [
            "cargo test --release 2>&1",
            "ls -la > out.txt",
            "git status",
            "git log --oneline -n 20",
            "docker run --rm -v data:/data img",
            "tar -czf out.tgz src",
            "tar cf out.tar src",
            "pytest -q --tb=short -k test_x",
        ] {
            assert!(!made(source).0, "`{source}`");
        }
    }

    #[test]
    fn no_option_takes_more_words_than_the_cheap_test_follows() {
        fn check(entry: &'static Entry) {
            let mode_options = entry.mode_options.iter().flat_map(|m| m.options);
            for option in entry.options.iter().chain(mode_options) {
                assert!(option.more.len() < MAX_OPTION_VALUES, "{}", entry.name);
            }
            entry.subcommands.iter().for_each(check);
        }
        catalogue::entries().iter().for_each(check);
    }

    fn literal(t: &str) -> Word {
        Word::new(vec![Part::Literal(t.into())], Span::default(), false)
    }

    #[test]
    fn only_globs_that_can_start_with_a_dash_count() {
        assert_eq!(leading_pattern(&literal("*")).as_deref(), Some("*"));
        assert_eq!(leading_pattern(&literal("*.txt")).as_deref(), Some("*.txt"));
        assert_eq!(leading_pattern(&literal("-*")).as_deref(), Some("-*"));
        assert_eq!(leading_pattern(&literal("src/*")), None);
        assert_eq!(leading_pattern(&literal("a*")), None);
        assert_eq!(leading_pattern(&literal("plain")), None);
        let quoted = Word::new(vec![Part::Quoted("*".into())], Span::default(), true);
        assert_eq!(leading_pattern(&quoted), None);
    }
}
