//! Allocations per `Gate::check` on the 42 agent commands, counted with a counting
//! global allocator: the figure the README reports, and a ceiling so a change that
//! makes the hot path allocate much more fails here. (Counts, not time: they do not
//! depend on the machine.)

use bashgate::Gate;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards every call to the system allocator unchanged; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn allocations_per_check_stay_bounded() {
    let commands: Vec<String> =
        serde_json::from_str(include_str!("../benches/agent-commands.json")).expect("json");
    let root = std::env::temp_dir().join("bashgate-alloc-root");
    std::fs::create_dir_all(&root).expect("root");
    let gate = Gate::builder().root(&root).build().expect("gate");
    // Warm up: the thread's parser and lazily built tables.
    for command in &commands {
        gate.check(command);
    }
    let mut counts = Vec::new();
    for command in &commands {
        let before = ALLOCATIONS.load(Ordering::Relaxed);
        std::hint::black_box(gate.check(command));
        counts.push(ALLOCATIONS.load(Ordering::Relaxed) - before);
    }
    let mut sorted = counts.clone();
    sorted.sort_unstable();
    let median = sorted[sorted.len() / 2];
    let total: usize = counts.iter().sum();
    eprintln!(
        "allocations per check: median {median}, mean {:.1}, max {} (42 agent commands)",
        total as f64 / counts.len() as f64,
        sorted[sorted.len() - 1]
    );
    let plain = counts[0];
    eprintln!("`ls -la`: {plain} allocations");
    // Ceilings a little above today's figures (median 42, `ls -la` 9): a change
    // that makes the hot path allocate noticeably more fails here.
    assert!(median <= 46, "median {median} allocations per check");
    assert!(plain <= 10, "`ls -la` made {plain} allocations");
}
