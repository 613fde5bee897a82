//! Network cases: a loopback listener the test starts is unreachable with
//! `network = "off"` (the default), reachable with `"on"` or its port listed.

use super::*;
use std::io::Write;
use std::net::TcpListener;

/// A listener on 127.0.0.1 that greets every connection.
fn listener() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let _ = stream.write_all(b"hello-from-listener\n");
        }
    });
    port
}

fn connect(port: u16) -> String {
    format!("exec 3<>/dev/tcp/127.0.0.1/{port} && head -1 <&3")
}

#[test]
fn loopback_is_unreachable_when_network_is_off() {
    if !sandbox_available() {
        return;
    }
    let f = Fixture::new();
    let port = listener();
    let alone = f.sandbox_alone(&connect(port));
    assert!(!output(&alone).contains("hello-from-listener"), "{alone}");
    assert!(output(&alone).contains("Permission denied"), "{alone}");
    assert_ne!(alone["exit_code"], 0);
    // A bind is refused too (by the kernel: the system's Python starts and is told
    // no).
    if let Some(python) = system_python() {
        let bind = f.sandbox_alone(&format!("{python} -c 'import socket; s=socket.socket(); s.bind((\"127.0.0.1\", 0)); print(\"bound\")'"));
        assert!(!output(&bind).contains("bound"), "{bind}");
        assert!(output(&bind).contains("PermissionError"), "{bind}");
    }
}

#[test]
fn loopback_is_reachable_with_network_on_or_the_port_listed() {
    if !sandbox_available() {
        return;
    }
    let f = Fixture::new();
    let port = listener();
    let on = f.config("[sandbox]\nnetwork = \"on\"\n");
    let on = on.to_str().unwrap();
    let (json, _) = f.exec(
        &["--no-gate", "--sandbox", "require", "--config", on],
        &connect(port),
    );
    assert_eq!(output(&json), "hello-from-listener\n", "{json}");
    assert_eq!(json["sandbox"]["network"], "on");

    let listed = f.config(&format!("[sandbox]\nnetwork = {{ connect = [{port}] }}\n"));
    let listed = listed.to_str().unwrap();
    let (json, _) = f.exec(
        &["--no-gate", "--sandbox", "require", "--config", listed],
        &connect(port),
    );
    assert_eq!(output(&json), "hello-from-listener\n", "{json}");
    let other = listener();
    let (json, _) = f.exec(
        &["--no-gate", "--sandbox", "require", "--config", listed],
        &connect(other),
    );
    assert!(!output(&json).contains("hello-from-listener"), "{json}");
}
