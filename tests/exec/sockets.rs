//! Unix socket cases: a daemon's socket file outside the root (as the Docker
//! daemon's, the session bus, a tmux server or an SSH agent would be) is out of
//! reach with `unix_sockets = "off"` (the default), on the sandbox alone; the calls
//! that would make a socket behind the filter's back (io_uring, x32 numbers) are
//! refused too, and so are the user's keyrings; an anonymous `socketpair` still works, and `"on"` reaches the
//! daemon.

use super::*;
use std::io::Write;
use std::os::unix::net::UnixListener;

/// A daemon listening on a socket file in the decoy folder, greeting every
/// connection; returns the socket's path.
fn daemon(f: &Fixture) -> PathBuf {
    let path = f.decoy.join("daemon.sock");
    let listener = UnixListener::bind(&path).unwrap();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let _ = stream.write_all(b"hello-from-daemon\n");
        }
    });
    path
}

/// A Python command that connects to `socket` and prints what it hears.
fn connect(python: &str, socket: &Path) -> String {
    format!(
        "{python} -c 'import socket; s=socket.socket(socket.AF_UNIX); s.connect(\"{}\"); print(s.recv(100).decode())'",
        socket.display()
    )
}

#[test]
fn a_daemon_socket_outside_is_unreachable_on_the_sandbox_alone() {
    let Some(python) = sandbox_and_python() else {
        return;
    };
    let f = Fixture::new();
    let socket = daemon(&f);
    let alone = f.sandbox_alone(&connect(python, &socket));
    let out = output(&alone);
    assert!(!out.contains("hello-from-daemon"), "{alone}");
    assert!(out.contains("PermissionError"), "{alone}");
    assert_eq!(alone["sandbox"]["unix_sockets"], "off");
    assert_eq!(
        alone["sandbox"]["syscall_filter"]["enforced"],
        serde_json::json!([
            "unix_socket_create",
            "io_uring",
            "keyrings",
            "mptcp",
            "raw_sockets",
            "udp"
        ])
    );
    if have("curl") {
        let command = format!(
            "curl -s --unix-socket {} http://daemon/; echo curl=$?",
            socket.display()
        );
        let alone = f.sandbox_alone(&command);
        assert!(!output(&alone).contains("hello-from-daemon"), "{alone}");
        // 7: could not connect.
        assert!(output(&alone).contains("curl=7"), "{alone}");
    }
    // The gate alone asks before such a connection, too.
    assert_ne!(
        f.gate(&format!(
            "curl --unix-socket {} http://d/",
            socket.display()
        )),
        "allow"
    );
}

#[test]
fn calls_that_would_make_a_socket_behind_the_filter_are_refused() {
    let Some(python) = sandbox_and_python() else {
        return;
    };
    let f = Fixture::new();
    // io_uring_setup(4, params) and, on x86-64, socket(AF_UNIX) in the x32
    // numbering; each prints its result and errno (13: EACCES).
    // keyctl(KEYCTL_GET_KEYRING_ID, KEY_SPEC_USER_KEYRING, 0): the user's keyring,
    // whose keys a confined process could read before (keyctl's number differs
    // by architecture).
    let mut calls = vec![("io_uring_setup", "425, 4, buf")];
    if cfg!(target_arch = "x86_64") {
        calls.push(("x32_socket", "0x40000000 | 41, 1, 1, 0"));
        calls.push(("user_keyring", "250, 0, -4, 0"));
    }
    if cfg!(target_arch = "aarch64") {
        calls.push(("user_keyring", "219, 0, -4, 0"));
    }
    let lines: Vec<String> = calls
        .iter()
        .map(|(name, args)| {
            format!("r = libc.syscall({args}); print(\"{name}\", r, ctypes.get_errno())")
        })
        .collect();
    let command = format!(
        "{python} -c 'import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\nbuf = ctypes.create_string_buffer(120)\n{}'",
        lines.join("\n")
    );
    let alone = f.sandbox_alone(&command);
    for (name, _) in &calls {
        assert!(
            output(&alone).contains(&format!("{name} -1 13")),
            "{name}: {alone}"
        );
    }
}

#[test]
fn a_socketpair_works_and_unix_sockets_on_reaches_the_daemon() {
    let Some(python) = sandbox_and_python() else {
        return;
    };
    let f = Fixture::new();
    let pair = format!(
        "{python} -c 'import socket; a, b = socket.socketpair(); a.send(b\"paired\"); print(b.recv(9).decode())'"
    );
    assert_eq!(output(&f.sandbox_alone(&pair)), "paired\n");

    let socket = daemon(&f);
    let on = f.config("[sandbox]\nunix_sockets = \"on\"\n");
    let (json, _) = f.exec(
        &[
            "--no-gate",
            "--sandbox",
            "require",
            "--config",
            on.to_str().unwrap(),
        ],
        &connect(python, &socket),
    );
    assert_eq!(output(&json), "hello-from-daemon\n\n", "{json}");
    assert_eq!(json["sandbox"]["unix_sockets"], "on");
    // The filter stays for what the network setting needs.
    assert_eq!(
        json["sandbox"]["syscall_filter"]["enforced"],
        serde_json::json!(["io_uring", "keyrings", "mptcp", "raw_sockets", "udp"])
    );
}

#[test]
fn verbose_names_the_filter() {
    if !sandbox_available() {
        return;
    }
    let f = Fixture::new();
    let out = Command::new(env!("CARGO_BIN_EXE_bashgate"))
        .args([
            "exec",
            "--no-config",
            "--no-gate",
            "--sandbox",
            "require",
            "--verbose",
        ])
        .arg("--root")
        .arg(&f.root)
        .args(["--", "true"])
        .current_dir(&f.root)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "unix sockets: off; system-call filter enforced: \
             unix_socket_create, io_uring, keyrings, mptcp, raw_sockets, udp"
        ),
        "{stderr}"
    );
}
