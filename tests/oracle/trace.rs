//! Reads `strace -f -y` output into what the oracle compares: every program started
//! and every file touched, each with the process image that did it.
//!
//! `-y` makes strace print the path behind every descriptor argument, including
//! `AT_FDCWD</cwd>` and returned descriptors (`= 3</etc/hostname>`), so paths come
//! out absolute without tracking working directories by hand.

use std::collections::HashMap;

/// A program started (a successful `execve`).
#[derive(Clone, Debug)]
pub struct Exec {
    /// The file executed, as passed to `execve`.
    pub path: String,
    /// Its argv.
    pub argv: Vec<String>,
    /// The image of the process that executed it (`bash`, `env`, `xargs`...).
    pub launcher: String,
    /// True when the command text started it: its launcher is a shell or wrapper
    /// that the command itself started (not `tar` running `sh -c gzip`).
    pub commanded: bool,
    /// The trace line.
    pub line: String,
}

/// Images that run what the command text says: shells, and the wrappers the gate
/// unwraps. A program started by anything else (`npm` starting `node`, `man`
/// starting `groff`) is that program's own business, not the command's.
pub const RUNS_THE_COMMAND: &[&str] = &[
    "bash", "sh", "dash", "env", "nice", "nohup", "timeout", "stdbuf", "setsid", "xargs", "find",
    "sudo", "doas", "time", "flock", "watch", "parallel", "ionice", "chrt", "taskset", "busybox",
    "su", "chroot", "unshare", "nsenter", "runuser", "script",
];

/// A file opened, created, changed or removed.
#[derive(Clone, Debug)]
pub struct Touch {
    /// Absolute path (not yet checked for symlinks).
    pub path: String,
    /// True for writes, creations, removals, renames and mode changes.
    pub write: bool,
    /// True when opened with `O_CLOEXEC` (what libraries do for their own files).
    pub cloexec: bool,
    /// The image of the process that did it.
    pub image: String,
    /// That process's argv.
    pub argv: Vec<String>,
    /// True when the command text started that process's image (see [`Exec`]).
    pub commanded: bool,
    /// The image that started that process's image.
    pub launcher: String,
    /// That process's working directory when it did it, when the line showed it.
    pub cwd: Option<String>,
    /// The trace line.
    pub line: String,
}

/// Everything the oracle reads from one run.
#[derive(Debug, Default)]
pub struct Trace {
    /// Programs started after the traced bash itself.
    pub execs: Vec<Exec>,
    /// Files touched after the traced bash started.
    pub touches: Vec<Touch>,
}

/// What a process was running from some point on.
#[derive(Clone, Debug, Default)]
struct Image {
    name: String,
    argv: Vec<String>,
    commanded: bool,
    launcher: String,
}

/// Who runs what: per process, the images it executed (with the line index), and
/// the parent and line index of its creation.
#[derive(Default)]
struct Processes {
    images: HashMap<u32, Vec<(usize, Image)>>,
    parents: HashMap<u32, (u32, usize)>,
}

impl Processes {
    /// The image `pid` ran just before line `at` (inherited from the parent at the
    /// fork when it had not executed anything yet).
    fn image_at(&self, pid: u32, at: usize) -> Image {
        let mut pid = pid;
        let mut at = at;
        for _ in 0..10_000 {
            if let Some((_, image)) = self
                .images
                .get(&pid)
                .and_then(|list| list.iter().rev().find(|(i, _)| *i < at))
            {
                return image.clone();
            }
            match self.parents.get(&pid) {
                Some(&(parent, when)) => {
                    pid = parent;
                    at = when;
                }
                None => break,
            }
        }
        Image::default()
    }
}

/// Parses strace's output (`strace -f -y -o …`). The first `execve` of `bash` in the
/// root process marks the
/// start: what the setup (`sh -c 'exec …'`) did before it is not the command's.
///
/// Lines of different processes interleave and a child may print before its
/// parent's `clone` returns, so this reads in two passes: calls with their line
/// index first (an `<unfinished ...>` call keeps the index where it began), then
/// images and touches.
pub fn parse(output: &str) -> Trace {
    let mut calls: Vec<(usize, u32, Call, String)> = Vec::new();
    let mut pending: HashMap<u32, (usize, String)> = HashMap::new();
    for (index, raw) in output.lines().enumerate() {
        let (pid, body) = split_pid(raw);
        let (index, line) = if let Some(head) = body.strip_suffix(" <unfinished ...>") {
            pending.insert(pid, (index, head.to_string()));
            continue;
        } else if body.starts_with("<... ") {
            let Some((began, head)) = pending.remove(&pid) else {
                continue;
            };
            let rest = body.split_once("resumed>").map(|(_, r)| r).unwrap_or("");
            (began, format!("{head}{rest}"))
        } else {
            (index, body.to_string())
        };
        if let Some(call) = Call::parse(&line) {
            calls.push((index, pid, call, line));
        }
    }
    calls.sort_by_key(|(index, ..)| *index);
    let mut processes = Processes::default();
    for (index, pid, call, _) in &calls {
        if matches!(call.name.as_str(), "clone" | "clone3" | "fork" | "vfork")
            && let Ok(child) = call.result.trim().parse::<u32>()
        {
            processes.parents.insert(child, (*pid, *index));
        }
    }
    // The process strace started is nobody's child: call it 0.
    let children: std::collections::HashSet<u32> = processes.parents.keys().copied().collect();
    let root = |pid: u32| if children.contains(&pid) { pid } else { 0 };
    for (parent, _) in processes.parents.values_mut() {
        *parent = root(*parent);
    }
    let mut start = None;
    for (index, pid, call, _) in &calls {
        if !matches!(call.name.as_str(), "execve" | "execveat") || !call.ok() {
            continue;
        }
        let pid = root(*pid);
        let (path_arg, argv_arg) = if call.name == "execve" {
            (0, 1)
        } else {
            (1, 2)
        };
        let path = call.string(path_arg).unwrap_or_default();
        let parent = processes.image_at(pid, *index);
        let mut image = Image {
            name: basename(&path).to_string(),
            argv: call.array(argv_arg),
            commanded: parent.commanded && RUNS_THE_COMMAND.contains(&parent.name.as_str()),
            launcher: parent.name.clone(),
        };
        if start.is_none() && pid == 0 && image.name == "bash" {
            start = Some(*index);
            image.commanded = true;
        }
        processes
            .images
            .entry(pid)
            .or_default()
            .push((*index, image));
    }
    let mut trace = Trace::default();
    let Some(start) = start else {
        return trace;
    };
    for (index, pid, call, line) in &calls {
        if *index <= start {
            continue;
        }
        let pid = root(*pid);
        if matches!(call.name.as_str(), "execve" | "execveat") {
            if call.ok() {
                let path_arg = if call.name == "execve" { 0 } else { 1 };
                let argv_arg = path_arg + 1;
                let parent = processes.image_at(pid, *index);
                trace.execs.push(Exec {
                    path: call.string(path_arg).unwrap_or_default(),
                    argv: call.array(argv_arg),
                    commanded: parent.commanded && RUNS_THE_COMMAND.contains(&parent.name.as_str()),
                    launcher: parent.name,
                    line: line.clone(),
                });
            }
            continue;
        }
        let image = processes.image_at(pid, *index);
        for (path, write, cloexec) in call.touched() {
            trace.touches.push(Touch {
                path,
                write,
                cloexec,
                image: image.name.clone(),
                argv: image.argv.clone(),
                commanded: image.commanded,
                launcher: image.launcher.clone(),
                cwd: call.cwd(),
                line: line.clone(),
            });
        }
    }
    trace
}

/// `12    body` → (12, body). strace writing to `-o` prefixes every line with its
/// pid (without `-o` it leaves the prefix out whenever one process is traced, which
/// would make a lone background job look like the shell).
fn split_pid(line: &str) -> (u32, &str) {
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    match line[..digits].parse() {
        Ok(pid) if digits > 0 => (pid, line[digits..].trim_start()),
        _ => (0, line),
    }
}

/// The last path component.
pub fn basename(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// One system call line: name, raw arguments, result.
struct Call {
    name: String,
    args: Vec<String>,
    result: String,
}

impl Call {
    fn parse(line: &str) -> Option<Call> {
        let open = line.find('(')?;
        let name = &line[..open];
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return None;
        }
        let (args, rest) = split_args(&line[open + 1..])?;
        let result = rest.trim_start().strip_prefix('=')?.trim().to_string();
        Some(Call {
            name: name.to_string(),
            args,
            result,
        })
    }

    fn ok(&self) -> bool {
        !self.result.starts_with('-')
    }

    /// The error name of a failed call (`EROFS`).
    fn error(&self) -> Option<&str> {
        self.result.strip_prefix("-1 ")?.split_whitespace().next()
    }

    fn string(&self, i: usize) -> Option<String> {
        unquote(self.args.get(i)?)
    }

    fn array(&self, i: usize) -> Vec<String> {
        let Some(raw) = self.args.get(i) else {
            return Vec::new();
        };
        let inner = raw.trim().trim_start_matches('[').trim_end_matches(']');
        split_top(inner).iter().filter_map(|s| unquote(s)).collect()
    }

    /// The directory a `*at` descriptor argument stands for: `AT_FDCWD</w>` → `/w`.
    fn dir(&self, i: usize) -> Option<String> {
        fd_path(self.args.get(i)?)
    }

    /// The working directory, when some argument shows `AT_FDCWD</…>`.
    fn cwd(&self) -> Option<String> {
        self.args
            .iter()
            .find(|a| a.starts_with("AT_FDCWD<"))
            .and_then(|a| fd_path(a))
    }

    /// A path argument made absolute against a directory argument (or the cwd).
    fn path_at(&self, dir: Option<usize>, path: usize) -> Option<String> {
        let p = self.string(path)?;
        if p.starts_with('/') {
            return Some(p);
        }
        let base = match dir {
            Some(d) => self.dir(d)?,
            None => self.cwd()?,
        };
        if p.is_empty() {
            return Some(base);
        }
        Some(format!("{}/{p}", base.trim_end_matches('/')))
    }

    /// The files this call touched: (path, write, cloexec). Reads count when they
    /// succeeded or were refused; writes count whatever the result (a sandbox refusal
    /// is still an attempt).
    fn touched(&self) -> Vec<(String, bool, bool)> {
        let write = |p: Option<String>| p.map(|p| (p, true, false));
        let refused = matches!(self.error(), Some("EACCES" | "EPERM"));
        match self.name.as_str() {
            "open" | "openat" | "openat2" | "creat" => {
                let (dir, path, flags) = match self.name.as_str() {
                    "open" => (None, 0, 1),
                    "creat" => (None, 0, usize::MAX),
                    _ => (Some(0), 1, 2),
                };
                let flags = self
                    .args
                    .get(flags)
                    .map(String::as_str)
                    .unwrap_or("O_WRONLY");
                let writes = ["O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND"]
                    .iter()
                    .any(|f| flags.contains(f))
                    || self.name == "creat";
                let cloexec = flags.contains("O_CLOEXEC");
                if !writes && !self.ok() && !refused {
                    return Vec::new();
                }
                // A successful open names the real file in its result.
                let path = fd_path(&self.result).or_else(|| self.path_at(dir, path));
                path.map(|p| vec![(p, writes, cloexec)]).unwrap_or_default()
            }
            "chdir" => {
                if self.ok() {
                    self.path_at(None, 0)
                        .map(|p| vec![(p, false, false)])
                        .unwrap_or_default()
                } else {
                    Vec::new()
                }
            }
            "unlink" | "rmdir" | "mkdir" | "truncate" | "chmod" | "chown" | "lchown" | "mknod" => {
                write(self.path_at(None, 0)).into_iter().collect()
            }
            "unlinkat" | "mkdirat" | "fchmodat" | "fchownat" | "mknodat" | "utimensat"
            | "futimesat" => {
                if self.args.get(1).is_some_and(|a| a == "NULL") {
                    return Vec::new();
                }
                write(self.path_at(Some(0), 1)).into_iter().collect()
            }
            "symlink" => write(self.path_at(None, 1)).into_iter().collect(),
            "symlinkat" => write(self.path_at(Some(1), 2)).into_iter().collect(),
            "rename" => [self.path_at(None, 0), self.path_at(None, 1)]
                .into_iter()
                .filter_map(&write)
                .collect(),
            "renameat" | "renameat2" => [self.path_at(Some(0), 1), self.path_at(Some(2), 3)]
                .into_iter()
                .filter_map(&write)
                .collect(),
            // A hard link reads its source (and exposes it) and writes the new name.
            "link" | "linkat" => {
                let (old, new) = if self.name == "link" {
                    (self.path_at(None, 0), self.path_at(None, 1))
                } else {
                    (self.path_at(Some(0), 1), self.path_at(Some(2), 3))
                };
                let read = old
                    .filter(|_| self.ok() || refused)
                    .map(|p| (p, false, false));
                read.into_iter().chain(write(new)).collect()
            }
            _ => Vec::new(),
        }
    }
}

/// Splits `a, "b, c", [d, e]) = 0` into its top-level arguments and the text after
/// the closing parenthesis.
fn split_args(s: &str) -> Option<(Vec<String>, &str)> {
    let bytes = s.as_bytes();
    let mut depth = 0i32;
    let mut angle = 0i32;
    let mut in_str = false;
    let mut i = 0;
    let mut start = 0;
    let mut args = Vec::new();
    while i < bytes.len() {
        let b = bytes[i];
        if in_str {
            match b {
                b'\\' => i += 1,
                b'"' => in_str = false,
                _ => {}
            }
        } else {
            match b {
                b'"' => in_str = true,
                // `3</path>` decorations nest; the `=>` of a resumed call does not.
                b'<' if bytes.get(i + 1) == Some(&b'/') => angle += 1,
                b'>' if angle > 0 => angle -= 1,
                b'[' | b'{' | b'(' => depth += 1,
                b']' | b'}' => depth -= 1,
                b')' if depth == 0 && angle == 0 => {
                    let last = s[start..i].trim();
                    if !last.is_empty() {
                        args.push(last.to_string());
                    }
                    return Some((args, &s[i + 1..]));
                }
                b')' => depth -= 1,
                b',' if depth == 0 && angle == 0 => {
                    args.push(s[start..i].trim().to_string());
                    start = i + 1;
                }
                _ => {}
            }
        }
        i += 1;
    }
    None
}

/// Splits a list's inside on top-level commas.
fn split_top(s: &str) -> Vec<String> {
    match split_args(&format!("{s})")) {
        Some((args, _)) => args,
        None => Vec::new(),
    }
}

/// `3</a/b>` or `AT_FDCWD</a/b>` (also inside a result like `3</a/b>`) → `/a/b`.
fn fd_path(s: &str) -> Option<String> {
    let start = s.find("</")?;
    let end = s.rfind('>')?;
    (end > start + 1).then(|| unescape(&s[start + 1..end]))
}

/// A strace string argument (`"a\"b"`, possibly followed by `...` when cut) → its text.
fn unquote(s: &str) -> Option<String> {
    let s = s.trim();
    let inner = s.strip_prefix('"')?;
    let end = inner.rfind('"')?;
    Some(unescape(&inner[..end]))
}

/// Decodes strace's C-style escapes (`\"`, `\\`, `\n`, `\t`, octal `\33`, `\x1b`).
fn unescape(s: &str) -> String {
    let mut out: Vec<u8> = Vec::with_capacity(s.len());
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' || i + 1 >= b.len() {
            out.push(b[i]);
            i += 1;
            continue;
        }
        i += 1;
        match b[i] {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'r' => out.push(b'\r'),
            b'v' => out.push(0x0b),
            b'f' => out.push(0x0c),
            b'x' => {
                let hex: String = s[i + 1..].chars().take(2).collect();
                out.push(u8::from_str_radix(&hex, 16).unwrap_or(b'?'));
                i += hex.len();
            }
            b'0'..=b'7' => {
                let oct: String = s[i..]
                    .chars()
                    .take(3)
                    .take_while(|c| ('0'..='7').contains(c))
                    .collect();
                out.push(u8::from_str_radix(&oct, 8).unwrap_or(b'?'));
                i += oct.len() - 1;
            }
            other => out.push(other),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_programs_and_touches_with_their_images() {
        let out = r#"5     execve("/usr/bin/sh", ["sh", "-c", "x"], 0x1 /* 3 vars */) = 0
5     openat(AT_FDCWD</w>, "/dev/null", O_RDONLY) = 3</dev/null>
5     execve("/usr/bin/bash", ["bash", "-c", "x"], 0x1 /* 3 vars */) = 0
5     clone(child_stack=NULL, flags=SIGCHLD) = 6
6     openat(AT_FDCWD</w>, "/etc/hostname", O_RDONLY) = 3</etc/hostname>
6     execve("/usr/bin/cat", ["cat", "a, b"], 0x1 /* 3 vars */ <unfinished ...>
6     <... execve resumed>) = 0
6     unlinkat(3</w/d>, "x\"y", 0) = -1 EROFS (Read-only file system)
5     chdir("/tmp")                           = 0
"#;
        let t = parse(out);
        assert_eq!(t.execs.len(), 1);
        assert_eq!(t.execs[0].path, "/usr/bin/cat");
        assert_eq!(t.execs[0].argv, vec!["cat", "a, b"]);
        assert_eq!(t.execs[0].launcher, "bash");
        let paths: Vec<_> = t
            .touches
            .iter()
            .map(|t| (t.path.as_str(), t.write, t.image.as_str()))
            .collect();
        assert_eq!(
            paths,
            vec![
                ("/etc/hostname", false, "bash"),
                ("/w/d/x\"y", true, "cat"),
                ("/tmp", false, "bash"),
            ]
        );
    }
}
