//! `bashgate mcp --http`: loopback only, a bearer token, loopback browser origins;
//! with them a session initialises and a tools/call works (plain HTTP/1.1 here, so
//! the test sees exactly what goes over the wire).

use super::*;
use std::io::Read;
use std::net::TcpStream;
use std::time::Duration;

/// A running HTTP server: the child, its address and the token it printed.
struct HttpServer {
    child: std::process::Child,
    addr: String,
    token: String,
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(root: &std::path::Path, extra: &[&str], env: &[(&str, &str)]) -> HttpServer {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bashgate"))
        .args(server_args(root))
        .args(["--http", "127.0.0.1:0"])
        .args(extra)
        .env("XDG_CONFIG_HOME", root.join("no-config"))
        .env_remove("BASHGATE_MCP_TOKEN")
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
    let serving = lines.next().expect("a line").expect("read");
    let addr = serving
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.strip_suffix("/mcp"))
        .unwrap_or_else(|| panic!("{serving}"))
        .to_string();
    let token = if env.iter().any(|(k, _)| *k == "BASHGATE_MCP_TOKEN") || extra.contains(&"--token")
    {
        String::new()
    } else {
        let line = lines.next().expect("the token line").expect("read");
        line.rsplit(' ').next().expect("token").to_string()
    };
    // Keep draining stderr so the server never blocks on it.
    std::thread::spawn(move || for _ in lines {});
    HttpServer { child, addr, token }
}

/// One POST to /mcp; returns the status code, the headers and the body.
fn post(addr: &str, headers: &[(&str, &str)], body: &str) -> (u16, String, String) {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .expect("timeout");
    let mut request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nConnection: close\r\n\
         Content-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    stream.write_all(request.as_bytes()).expect("send");
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    let response = String::from_utf8_lossy(&response).into_owned();
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, head.to_string(), body.to_string())
}

/// The JSON-RPC message in a response body (an SSE `data:` line or plain JSON).
fn message(body: &str) -> Value {
    body.lines()
        .filter_map(|line| line.strip_prefix("data: "))
        .chain(std::iter::once(body.trim()))
        .find_map(|data| serde_json::from_str::<Value>(data).ok())
        .unwrap_or_else(|| panic!("no JSON-RPC message in {body:?}"))
}

fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        key.eq_ignore_ascii_case(name).then(|| value.trim())
    })
}

const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw-http","version":"0"}}}"#;

#[test]
fn non_loopback_addresses_and_weak_tokens_are_refused() {
    let root = fresh_project("http-refuse");
    for (addr, token) in [
        ("0.0.0.0:0", None),
        ("[::]:0", None),
        ("192.0.2.1:8080", None),
        ("127.0.0.1:0", Some("short")),
    ] {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_bashgate"));
        cmd.args(server_args(&root)).args(["--http", addr]);
        if let Some(token) = token {
            cmd.args(["--token", token]);
        }
        let out = cmd
            .env("XDG_CONFIG_HOME", root.join("no-config"))
            .stdin(Stdio::null())
            .output()
            .expect("run");
        assert_eq!(out.status.code(), Some(64), "{addr}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        let expected = if token.is_some() {
            "at least"
        } else {
            "non-loopback"
        };
        assert!(stderr.contains(expected), "{addr}: {stderr}");
    }
}

#[test]
fn requests_need_the_token_and_a_loopback_origin() {
    let root = fresh_project("http-auth");
    let server = start(&root, &[], &[]);
    assert_eq!(server.token.len(), 64, "a generated token is printed");
    let bearer = format!("Bearer {}", server.token);
    let wrong = format!("Bearer {}x", &server.token[1..]);

    let (status, head, _) = post(&server.addr, &[], INIT);
    assert_eq!(status, 401, "no token");
    assert_eq!(header(&head, "www-authenticate"), Some("Bearer"));
    assert_eq!(
        post(&server.addr, &[("Authorization", &wrong)], INIT).0,
        401
    );
    assert_eq!(
        post(&server.addr, &[("Authorization", &server.token)], INIT).0,
        401,
        "the token without the Bearer scheme"
    );
    for origin in [
        "https://evil.example",
        "http://localhost.evil.example",
        "null",
    ] {
        let (status, _, _) = post(
            &server.addr,
            &[("Authorization", &bearer), ("Origin", origin)],
            INIT,
        );
        assert_eq!(status, 403, "{origin}");
    }

    // With the token (and a loopback origin, or none) a session works.
    let (status, head, body) = post(
        &server.addr,
        &[
            ("Authorization", &bearer),
            ("Origin", "http://localhost:5173"),
        ],
        INIT,
    );
    assert_eq!(status, 200, "{head}\n{body}");
    let init = message(&body);
    assert_eq!(init["result"]["serverInfo"]["name"], "bashgate", "{init}");
    let session = header(&head, "mcp-session-id")
        .expect("a session id")
        .to_string();
    let with_session = [
        ("Authorization", bearer.as_str()),
        ("Mcp-Session-Id", session.as_str()),
        ("Mcp-Protocol-Version", "2025-06-18"),
    ];
    let (status, _, _) = post(
        &server.addr,
        &with_session,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    );
    assert_eq!(status, 202);
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "run_command",
        "arguments": {"command": "echo over http > http.txt; cat http.txt", "description": "x"}}});
    let (status, _, body) = post(&server.addr, &with_session, &call.to_string());
    assert_eq!(status, 200, "{body}");
    let result = message(&body);
    assert_eq!(
        result["result"]["structuredContent"]["output"], "over http\n",
        "{result}"
    );
    assert!(root.join("http.txt").exists());
    // The same call without the token is refused and runs nothing.
    std::fs::remove_file(root.join("http.txt")).expect("remove");
    let (status, _, _) = post(&server.addr, &with_session[1..], &call.to_string());
    assert_eq!(status, 401);
    assert!(!root.join("http.txt").exists());
}

#[test]
fn a_given_token_is_used() {
    let root = fresh_project("http-given");
    let token = "given-token-0123456789";
    for server in [
        start(&root, &["--token", token], &[]),
        start(&root, &[], &[("BASHGATE_MCP_TOKEN", token)]),
    ] {
        let bearer = format!("Bearer {token}");
        let (status, _, body) = post(&server.addr, &[("Authorization", &bearer)], INIT);
        assert_eq!(status, 200, "{body}");
        assert_eq!(message(&body)["id"], 1);
    }
}
