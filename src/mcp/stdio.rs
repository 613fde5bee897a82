//! The stdio transport: one JSON-RPC message per line on stdin and stdout, with the
//! errors JSON-RPC asks for on bad input. A line that is not JSON gets a parse error
//! (-32700), JSON that is not a request an MCP server takes gets an invalid-request
//! error (-32600, with its id when it has one), an oversized line is skipped with
//! an error; the server goes on serving after each. Only one task writes stdout, so
//! these errors never interleave with responses.

use rmcp::RoleServer;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

/// Longest message line accepted (bytes); longer lines are refused, not buffered.
pub const MAX_LINE_BYTES: usize = 4 * 1024 * 1024;

/// JSON-RPC's parse error code.
const PARSE_ERROR: i64 = -32700;
/// JSON-RPC's invalid request code.
const INVALID_REQUEST: i64 = -32600;

/// A line transport over a reader and a writer (stdin and stdout in the server).
pub struct LineTransport<R> {
    reader: BufReader<R>,
    out: mpsc::UnboundedSender<String>,
    /// The line read so far. It lives here, not in the read future: the service
    /// drops a pending `receive` when it has something else to do, and a partly
    /// read line must survive that.
    line: Vec<u8>,
    /// Inside an oversized line: its rest is read and dropped.
    skipping: bool,
}

/// The task that owns the writer; it ends when every sender is gone, after writing
/// everything sent.
pub type Writer = tokio::task::JoinHandle<()>;

impl<R: AsyncRead + Unpin + Send + 'static> LineTransport<R> {
    /// A transport reading `reader` and writing `writer` (one task owns it).
    pub fn new<W: AsyncWrite + Unpin + Send + 'static>(reader: R, mut writer: W) -> (Self, Writer) {
        let (out, mut rx) = mpsc::unbounded_channel::<String>();
        let task = tokio::spawn(async move {
            while let Some(line) = rx.recv().await {
                if writer.write_all(line.as_bytes()).await.is_err()
                    || writer.write_all(b"\n").await.is_err()
                    || writer.flush().await.is_err()
                {
                    break;
                }
            }
        });
        let transport = LineTransport {
            reader: BufReader::new(reader),
            out,
            line: Vec::new(),
            skipping: false,
        };
        (transport, task)
    }

    fn error(&self, id: Value, code: i64, message: &str) {
        let error =
            json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}});
        let _ = self.out.send(error.to_string());
    }

    /// The next line, `None` at end of input, `Err(())` for a line over the limit
    /// (consumed). Cancel-safe: what was read stays in `self`.
    async fn next_line(&mut self) -> Option<Result<Vec<u8>, ()>> {
        loop {
            let room = (MAX_LINE_BYTES + 1).saturating_sub(self.line.len()) as u64;
            let before = self.line.len();
            let n = (&mut self.reader)
                .take(room.max(1))
                .read_until(b'\n', &mut self.line)
                .await
                .ok()?;
            let complete = self.line.last() == Some(&b'\n');
            if n == 0 && before == self.line.len() {
                // End of input: a last line without a newline still counts.
                if self.line.is_empty() || self.skipping {
                    return None;
                }
                return Some(Ok(std::mem::take(&mut self.line)));
            }
            if self.skipping {
                self.line.clear();
                if complete {
                    self.skipping = false;
                    return Some(Err(()));
                }
                continue;
            }
            if complete {
                return Some(Ok(std::mem::take(&mut self.line)));
            }
            if self.line.len() > MAX_LINE_BYTES {
                self.line.clear();
                self.skipping = true;
            }
        }
    }
}

impl<R: AsyncRead + Unpin + Send + 'static> Transport<RoleServer> for LineTransport<R> {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let result = serde_json::to_string(&item)
            .map_err(std::io::Error::other)
            .and_then(|line| {
                self.out
                    .send(line)
                    .map_err(|_| std::io::Error::other("the output is closed"))
            });
        std::future::ready(result)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            let line = match self.next_line().await? {
                Ok(line) => line,
                Err(()) => {
                    let message = format!("message longer than {MAX_LINE_BYTES} bytes");
                    self.error(Value::Null, INVALID_REQUEST, &message);
                    continue;
                }
            };
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let value: Value = match serde_json::from_slice(&line) {
                Ok(value) => value,
                Err(e) => {
                    self.error(Value::Null, PARSE_ERROR, &format!("parse error: {e}"));
                    continue;
                }
            };
            let id = value.get("id").cloned().unwrap_or(Value::Null);
            match serde_json::from_value::<RxJsonRpcMessage<RoleServer>>(value) {
                Ok(message) => return Some(message),
                Err(e) => self.error(id, INVALID_REQUEST, &format!("invalid request: {e}")),
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }
}
