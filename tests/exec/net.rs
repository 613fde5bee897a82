//! Network cases: a loopback listener the test starts is unreachable with
//! `network = "off"` (the default), reachable with `"on"` or its port listed.

use super::*;
use std::io::Write;
use std::net::TcpListener;
use std::process::Command;

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

/// A Python command that connects to `port` over a socket of `protocol` (262:
/// MPTCP) and prints what it hears, or the error's name.
fn connect_with(python: &str, protocol: u32, port: u16) -> String {
    format!(
        "{python} -c 'import socket\ns = socket.socket(socket.AF_INET, socket.SOCK_STREAM, {protocol})\ns.connect((\"127.0.0.1\", {port}))\nprint(s.recv(100).decode())'"
    )
}

/// A Python command that sends one UDP datagram to `port`.
fn send_datagram(python: &str, port: u16) -> String {
    format!(
        "{python} -c 'import socket\nsocket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b\"leak\", (\"127.0.0.1\", {port}))\nprint(\"sent\")'"
    )
}

#[test]
fn mptcp_and_udp_do_not_get_round_network_off() {
    let Some(python) = sandbox_and_python() else {
        return;
    };
    let f = Fixture::new();
    let port = listener();
    // Multipath TCP falls back to TCP with a plain listener; Landlock's TCP rule
    // let it through on Linux 6.18.
    let alone = f.sandbox_alone(&connect_with(python, 262, port));
    assert!(!output(&alone).contains("hello-from-listener"), "{alone}");
    assert!(output(&alone).contains("PermissionError"), "{alone}");

    let receiver = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    receiver
        .set_read_timeout(Some(std::time::Duration::from_millis(300)))
        .unwrap();
    let udp_port = receiver.local_addr().unwrap().port();
    let alone = f.sandbox_alone(&send_datagram(python, udp_port));
    assert!(output(&alone).contains("PermissionError"), "{alone}");
    let mut buf = [0u8; 16];
    assert!(receiver.recv(&mut buf).is_err(), "a datagram got out");
}

#[test]
fn a_port_list_keeps_udp_for_lookups_and_refuses_mptcp() {
    let Some(python) = sandbox_and_python() else {
        return;
    };
    let f = Fixture::new();
    let port = listener();
    let listed = f.config(&format!("[sandbox]\nnetwork = {{ connect = [{port}] }}\n"));
    let flags = [
        "--no-gate",
        "--sandbox",
        "require",
        "--config",
        listed.to_str().unwrap(),
    ];
    let (json, _) = f.exec(&flags, &connect_with(python, 0, port));
    assert_eq!(output(&json), "hello-from-listener\n\n", "{json}");
    let (json, _) = f.exec(&flags, &connect_with(python, 262, port));
    assert!(output(&json).contains("PermissionError"), "{json}");
    let (json, _) = f.exec(&flags, &send_datagram(python, 9));
    assert_eq!(output(&json), "sent\n", "{json}");
    assert_eq!(
        json["sandbox"]["syscall_filter"]["enforced"],
        serde_json::json!([
            "unix_socket_create",
            "io_uring",
            "keyrings",
            "mptcp",
            "raw_sockets"
        ])
    );

    // With the network on, MPTCP works where the kernel has it.
    let unconfined = Command::new("bash")
        .args(["-c", &connect_with(python, 262, port)])
        .output()
        .unwrap();
    if String::from_utf8_lossy(&unconfined.stdout).contains("hello-from-listener") {
        let on = f.config("[sandbox]\nnetwork = \"on\"\n");
        let (json, _) = f.exec(
            &[
                "--no-gate",
                "--sandbox",
                "require",
                "--config",
                on.to_str().unwrap(),
            ],
            &connect_with(python, 262, port),
        );
        assert_eq!(output(&json), "hello-from-listener\n\n", "{json}");
    }
}
