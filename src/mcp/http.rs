//! `bashgate mcp --http 127.0.0.1:PORT`: the same server over Streamable HTTP
//! (rmcp's service, served by hyper) at `http://ADDR/mcp`.
//!
//! A server that runs commands must not be reachable by anyone else, so:
//!
//! - **Loopback only.** [`parse_bind`] refuses any address that is not a loopback
//!   address (127.0.0.0/8 or ::1), with a clear error; nothing is bound then.
//! - **A bearer token** on every request (`Authorization: Bearer TOKEN`): given with
//!   `--token` or `BASHGATE_MCP_TOKEN`, or generated at start (128 random bits twice,
//!   hex) and printed to stderr. Without it, or with another: 401.
//! - **Browser origins.** A request with an `Origin` header is served only when that
//!   origin is loopback (`http(s)://localhost|127.0.0.1|[::1][:port]`); any other:
//!   403. This stops a web page the user visits from driving the server (DNS
//!   rebinding is stopped by rmcp's `Host` check, which admits loopback hosts only).
//!
//! Background shells are shared by all sessions of the server and killed when it
//! exits (SIGTERM, SIGINT, SIGHUP).

use super::{BashgateServer, McpError, ServerOptions};
use crate::Gate;
use bytes::Bytes;
use http_body_util::{BodyExt, Full, combinators::BoxBody};
use hyper::body::Incoming;
use hyper::{Request, Response, StatusCode};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

/// The path the server answers on.
pub const MCP_PATH: &str = "/mcp";
/// The environment variable that can hold the bearer token.
pub const TOKEN_ENV: &str = "BASHGATE_MCP_TOKEN";
/// Shortest token accepted from the user.
pub const MIN_TOKEN_LEN: usize = 16;

/// Where and how the HTTP server listens.
#[derive(Clone, Debug)]
pub struct HttpOptions {
    /// A loopback address ([`parse_bind`]).
    pub addr: SocketAddr,
    /// The bearer token every request must carry.
    pub token: String,
    /// Whether the token was generated (then it is printed to stderr at start).
    pub token_generated: bool,
}

/// Parses `127.0.0.1:PORT` (or `[::1]:PORT`, `localhost:PORT`) and refuses any
/// address that is not loopback.
pub fn parse_bind(text: &str) -> Result<SocketAddr, String> {
    let addr: SocketAddr = match text.strip_prefix("localhost:") {
        Some(port) => format!("127.0.0.1:{port}").parse(),
        None => text.parse(),
    }
    .map_err(|e| format!("--http {text:?}: not an address:port ({e}); use 127.0.0.1:PORT"))?;
    if !addr.ip().is_loopback() {
        return Err(format!(
            "--http {text}: refusing to listen on a non-loopback address; the server runs \
             commands, so it binds only 127.0.0.1 or ::1 (use 127.0.0.1:{})",
            addr.port()
        ));
    }
    Ok(addr)
}

/// Checks a token the user gave.
pub fn check_token(token: &str) -> Result<(), String> {
    if token.len() < MIN_TOKEN_LEN {
        return Err(format!(
            "the MCP bearer token must be at least {MIN_TOKEN_LEN} characters"
        ));
    }
    if !token.chars().all(|c| c.is_ascii_graphic()) {
        return Err("the MCP bearer token must be printable ASCII without spaces".into());
    }
    Ok(())
}

/// A fresh random token: two random UUIDs' hex (244 random bits).
pub fn generate_token() -> String {
    format!(
        "{}{}",
        uuid::Uuid::new_v4().simple(),
        uuid::Uuid::new_v4().simple()
    )
}

/// Whether an `Origin` header names a loopback origin.
pub fn loopback_origin(origin: &str) -> bool {
    let Some(rest) = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
    else {
        return false;
    };
    let host = if let Some(v6) = rest.strip_prefix('[') {
        match v6.split_once(']') {
            Some((host, "")) => host,
            Some((host, port)) if port.strip_prefix(':').is_some_and(is_port) => host,
            _ => return false,
        }
    } else {
        match rest.split_once(':') {
            Some((host, port)) if is_port(port) => host,
            Some(_) => return false,
            None => rest,
        }
    };
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

fn is_port(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) && text.parse::<u16>().is_ok()
}

/// Compares without stopping at the first difference.
fn same_token(given: &[u8], expected: &[u8]) -> bool {
    given.len() == expected.len()
        && given
            .iter()
            .zip(expected)
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

/// Why a request is refused before it reaches the MCP service, if it is.
fn refusal(request: &Request<Incoming>, token: &str) -> Option<(StatusCode, &'static str)> {
    if request.uri().path() != MCP_PATH {
        return Some((StatusCode::NOT_FOUND, "not found: the MCP endpoint is /mcp"));
    }
    if let Some(origin) = request.headers().get(http::header::ORIGIN)
        && !origin.to_str().is_ok_and(loopback_origin)
    {
        return Some((StatusCode::FORBIDDEN, "forbidden: foreign Origin"));
    }
    let bearer = request
        .headers()
        .get(http::header::AUTHORIZATION)
        .and_then(|v| v.as_bytes().strip_prefix(b"Bearer "));
    match bearer {
        Some(given) if same_token(given, token.as_bytes()) => None,
        _ => Some((
            StatusCode::UNAUTHORIZED,
            "unauthorized: bearer token required",
        )),
    }
}

fn plain(status: StatusCode, text: &'static str) -> Response<BoxBody<Bytes, Infallible>> {
    let mut response = Response::new(Full::new(Bytes::from_static(text.as_bytes())).boxed());
    *response.status_mut() = status;
    if status == StatusCode::UNAUTHORIZED {
        response.headers_mut().insert(
            http::header::WWW_AUTHENTICATE,
            http::HeaderValue::from_static("Bearer"),
        );
    }
    response
}

/// The loopback origins rmcp's own Origin check admits (ours runs first).
fn allowed_origins() -> Vec<String> {
    let mut origins = Vec::new();
    for scheme in ["http", "https"] {
        for host in ["localhost", "127.0.0.1", "[::1]"] {
            origins.push(format!("{scheme}://{host}:*"));
        }
    }
    origins
}

/// Serves `gate` over Streamable HTTP until a signal ends the server; then every
/// background shell's process group is killed.
pub fn serve_http(gate: Gate, options: ServerOptions, http: HttpOptions) -> Result<(), McpError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| McpError(format!("cannot start the async runtime: {e}")))?;
    let server = BashgateServer::new(gate, options);
    let shells = server.shells().clone();
    let served = runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(http.addr)
            .await
            .map_err(|e| McpError(format!("cannot listen on {}: {e}", http.addr)))?;
        let local = listener
            .local_addr()
            .map_err(|e| McpError(format!("cannot listen on {}: {e}", http.addr)))?;
        eprintln!("bashgate mcp: serving Streamable HTTP at http://{local}{MCP_PATH}");
        if http.token_generated {
            eprintln!("bashgate mcp: bearer token: {}", http.token);
        }
        let config = StreamableHttpServerConfig::default().with_allowed_origins(allowed_origins());
        let stop = config.cancellation_token.clone();
        let service = StreamableHttpService::new(
            move || Ok(server.clone()),
            Arc::new(LocalSessionManager::default()),
            config,
        );
        let token: Arc<str> = Arc::from(http.token.as_str());
        loop {
            let (stream, _) = tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok(accepted) => accepted,
                    Err(e) => {
                        eprintln!("bashgate mcp: accept: {e}");
                        continue;
                    }
                },
                signal = super::termination() => {
                    eprintln!("bashgate mcp: stopped by {signal}; killing background shells");
                    break;
                }
            };
            let service = service.clone();
            let token = Arc::clone(&token);
            tokio::spawn(async move {
                let handler = hyper::service::service_fn(move |request: Request<Incoming>| {
                    let service = service.clone();
                    let token = Arc::clone(&token);
                    async move {
                        Ok::<_, Infallible>(match refusal(&request, &token) {
                            Some((status, text)) => plain(status, text),
                            None => service.handle(request).await,
                        })
                    }
                });
                let io = hyper_util::rt::TokioIo::new(stream);
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(io, handler)
                    .await;
            });
        }
        stop.cancel();
        Ok::<(), McpError>(())
    });
    shells.kill_all();
    runtime.shutdown_background();
    served
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_addresses_are_bound() {
        assert!(parse_bind("127.0.0.1:8080").is_ok());
        assert!(parse_bind("127.0.0.2:0").is_ok());
        assert!(parse_bind("[::1]:8080").is_ok());
        assert_eq!(
            parse_bind("localhost:9").unwrap(),
            "127.0.0.1:9".parse().unwrap()
        );
        for bad in [
            "0.0.0.0:8080",
            "[::]:8080",
            "192.168.1.2:80",
            "8.8.8.8:53",
            "example.com:80",
            "8080",
            "",
        ] {
            assert!(parse_bind(bad).is_err(), "{bad}");
        }
        assert!(
            parse_bind("0.0.0.0:1")
                .unwrap_err()
                .contains("non-loopback")
        );
    }

    #[test]
    fn only_loopback_origins_pass() {
        for good in [
            "http://localhost",
            "http://localhost:3000",
            "https://127.0.0.1:8443",
            "http://[::1]:80",
            "http://[::1]",
        ] {
            assert!(loopback_origin(good), "{good}");
        }
        for bad in [
            "null",
            "http://example.com",
            "https://evil.localhost.example",
            "http://localhost.evil.com",
            "http://127.0.0.1.nip.io",
            "http://localhost:80@evil.com",
            "file://localhost",
            "http://[::2]:80",
            "http://localhost:x",
        ] {
            assert!(!loopback_origin(bad), "{bad}");
        }
    }

    #[test]
    fn tokens_compare_exactly() {
        assert!(same_token(b"abcdef0123456789", b"abcdef0123456789"));
        assert!(!same_token(b"abcdef0123456788", b"abcdef0123456789"));
        assert!(!same_token(b"abcdef012345678", b"abcdef0123456789"));
        assert!(!same_token(b"", b"abcdef0123456789"));
        let token = generate_token();
        assert_eq!(token.len(), 64);
        assert!(check_token(&token).is_ok());
        assert_ne!(token, generate_token());
        assert!(check_token("short").is_err());
        assert!(check_token("has a space in it ok").is_err());
    }
}
