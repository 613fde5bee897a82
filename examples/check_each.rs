//! The driver for instruction counts: checks each command of a JSON array of
//! strings twice with every rule on (a gate rooted at the benchmarks' empty
//! folder), one `Gate::check` per call of `check_one`, so that
//! `valgrind --tool=callgrind` can count a single check (`--dump-after`) or all of
//! them (`--toggle-collect`) exactly, whatever the host's load. The first pass
//! warms the memos as a long-running host's earlier commands would; the second is
//! the one to read. `python3 benches/instructions.py` runs it and summarises.
//!
//! ```sh
//! cargo build --release --example check_each
//! valgrind --tool=callgrind --toggle-collect='check_each::check_one' \
//!     target/release/examples/check_each benches/agent-commands.json
//! ```

use std::hint::black_box;

/// One check, kept out of line so that callgrind can name it.
#[inline(never)]
fn check_one(gate: &bashgate::Gate, command: &str) {
    black_box(gate.check(black_box(command)));
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let file = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "benches/agent-commands.json".to_string());
    let text = std::fs::read_to_string(&file).map_err(|e| format!("{file}: {e}"))?;
    let commands: Vec<String> = serde_json::from_str(&text)
        .map_err(|e| format!("{file}: not a JSON array of strings: {e}"))?;
    let root = std::env::temp_dir().join("bashgate-bench-root");
    std::fs::create_dir_all(&root)?;
    let gate = bashgate::Gate::builder().root(root).build()?;
    for _pass in 0..2 {
        for command in &commands {
            check_one(&gate, command);
        }
    }
    Ok(())
}
