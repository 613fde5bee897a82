//! Output cap: 5 MB of output yields 100 KiB plus the truncation marker, and the
//! runner's memory stays bounded while it reads.

use super::*;

#[test]
fn five_megabytes_are_capped_at_100_kib_with_a_marker() {
    if !sandbox_available() {
        return;
    }
    let f = Fixture::new();
    let command = "head -c 5000000 /dev/zero | tr '\\0' a; echo; echo last-line";
    let json = f.both(command);
    assert_eq!(json["exit_code"], 0, "{}", json["sandbox"]);
    let cap = 100 * 1024;
    let total = 5_000_000 + "\nlast-line\n".len();
    assert_eq!(json["output_truncated_bytes"], (total - cap) as u64);
    let out = output(&json);
    let marker = format!(
        "[bashgate: output capped at {cap} bytes; {} bytes left out here]",
        total - cap
    );
    assert!(out.contains(&marker), "no marker");
    assert_eq!(
        out.len(),
        cap + marker.len() + 2,
        "head + marker line + tail"
    );
    assert!(out.ends_with("\nlast-line\n"), "the tail is kept");
}

#[test]
fn the_runner_does_not_buffer_the_whole_output() {
    if !sandbox_available() {
        return;
    }
    let f = Fixture::new();
    // 200 MB through the runner, then a pause during which its peak RSS is read.
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_bashgate"))
        .args([
            "exec",
            "--no-config",
            "--no-gate",
            "--sandbox",
            "require",
            "--root",
        ])
        .arg(&f.root)
        .args(["--", "head -c 200000000 /dev/zero; sleep 2"])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let status = format!("/proc/{}/status", child.id());
    let mut peak_kib = 0u64;
    let mut child = child;
    while child.try_wait().unwrap().is_none() {
        if let Ok(text) = std::fs::read_to_string(&status)
            && let Some(line) = text.lines().find(|l| l.starts_with("VmHWM:"))
        {
            let kib: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
            peak_kib = peak_kib.max(kib);
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(peak_kib > 0, "the runner's memory was never read");
    assert!(
        peak_kib < 64 * 1024,
        "peak RSS {peak_kib} KiB for 200 MB of output"
    );
}
