//! Runs a closure on a 2 MiB thread stack: deep inputs must not overflow it (the
//! walker does not recurse on the tree), and a panic fails the calling test.

/// `f()` on a thread with a 2 MiB stack.
pub fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("no stack overflow or panic")
}
