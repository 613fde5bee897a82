//! Inputs: files, directories (walked recursively in sorted order) and `-` for stdin;
//! gzip-compressed files are read transparently (detected by their magic bytes).

use flate2::read::MultiGzDecoder;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

/// One input to read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// Standard input.
    Stdin,
    /// A file.
    File(PathBuf),
}

impl Input {
    /// The name used in reports (`-` for stdin).
    pub fn name(&self) -> String {
        match self {
            Input::Stdin => "-".to_string(),
            Input::File(p) => p.display().to_string(),
        }
    }
}

/// File names taken from directories: `*.jsonl`, `*.txt`, `*.log`, each optionally
/// `.gz`. Files named on the command line are read whatever their name.
fn wanted(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let name = name.strip_suffix(".gz").unwrap_or(name);
    name.ends_with(".jsonl") || name.ends_with(".txt") || name.ends_with(".log")
}

/// Expands arguments into inputs; an argument that cannot be read is an error naming
/// it (and the rest go on).
pub fn expand_inputs(args: &[String]) -> Vec<Result<Input, String>> {
    let mut out = Vec::new();
    if args.is_empty() {
        out.push(Ok(Input::Stdin));
    }
    for arg in args {
        if arg == "-" {
            out.push(Ok(Input::Stdin));
            continue;
        }
        let path = PathBuf::from(arg);
        if path.is_dir() {
            walk_dir(&path, &mut out);
        } else if path.is_file() {
            out.push(Ok(Input::File(path)));
        } else {
            out.push(Err(format!("{arg}: no such file or directory")));
        }
    }
    out
}

/// Walks a directory tree iteratively, in sorted order.
fn walk_dir(root: &Path, out: &mut Vec<Result<Input, String>>) {
    let mut pending = vec![root.to_path_buf()];
    let mut files = Vec::new();
    while let Some(dir) = pending.pop() {
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) => {
                out.push(Err(format!("{}: {e}", dir.display())));
                continue;
            }
        };
        for entry in entries.flatten() {
            let path = entry.path();
            match entry.file_type() {
                Ok(t) if t.is_dir() => pending.push(path),
                Ok(t) if t.is_file() && wanted(&path) => files.push(path),
                _ => {}
            }
        }
    }
    files.sort();
    out.extend(files.into_iter().map(|p| Ok(Input::File(p))));
}

/// Opens an input for buffered reading, decompressing gzip.
pub fn open_input(input: &Input) -> Result<Box<dyn BufRead + Send>, String> {
    let raw: Box<dyn Read + Send> = match input {
        Input::Stdin => Box::new(std::io::stdin()),
        Input::File(path) => {
            Box::new(File::open(path).map_err(|e| format!("{}: {e}", path.display()))?)
        }
    };
    let mut reader = BufReader::with_capacity(1 << 16, raw);
    let magic = reader
        .fill_buf()
        .map_err(|e| format!("{}: {e}", input.name()))?;
    if magic.starts_with(&[0x1f, 0x8b]) {
        Ok(Box::new(BufReader::with_capacity(
            1 << 16,
            MultiGzDecoder::new(reader),
        )))
    } else {
        Ok(Box::new(reader))
    }
}
