//! The API's JSON errors for the requests the HTTP parser refuses itself.
//!
//! A request head beyond what the parser holds (`HARD_MAX_HEAD` bytes,
//! `HARD_MAX_HEADERS` headers, a URL of 64 KiB) or one it cannot read
//! never reaches the router: hyper answers it on its own with an empty 431,
//! 414 or 400 and closes the connection. [`JsonParserErrors`] wraps a
//! connection and puts the API's answer (`{"error", "code", "status"}`,
//! with the headers every answer has) in place of that empty one. It knows
//! hyper's answer by its exact shape: one of those statuses, `connection:
//! close`, `content-length: 0`, and no `x-content-type-options` (which
//! every answer of the router carries), alone in one write.

use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// A connection whose parser refusals are answered in JSON.
#[derive(Debug)]
pub(crate) struct JsonParserErrors<S> {
    inner: S,
    /// A replacement answer still to write, and how much of it is written.
    pending: Vec<u8>,
    written: usize,
}

impl<S> JsonParserErrors<S> {
    pub(crate) fn new(inner: S) -> JsonParserErrors<S> {
        JsonParserErrors {
            inner,
            pending: Vec::new(),
            written: 0,
        }
    }
}

/// The API's answer in place of `head`, if `head` is one of hyper's own.
pub(crate) fn replacement(head: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(head).ok()?;
    let (status, code, error) = if text.starts_with("HTTP/1.1 431 ") {
        (
            "431 Request Header Fields Too Large",
            "headers_too_large",
            format!(
                "the request's head is over {} KiB or {} headers: at most {} headers of {} KiB in all",
                super::head::HARD_MAX_HEAD / 1024,
                super::head::HARD_MAX_HEADERS,
                super::head::MAX_HEADERS,
                super::head::MAX_HEADER_BYTES / 1024
            ),
        )
    } else if text.starts_with("HTTP/1.1 414 ") {
        (
            "414 URI Too Long",
            "uri_too_long",
            format!(
                "the URL is over 64 KiB: at most {} KiB",
                super::head::MAX_URI / 1024
            ),
        )
    } else if text.starts_with("HTTP/1.1 400 ") {
        (
            "400 Bad Request",
            "bad_request",
            "the request is not HTTP/1.1 that the server can read (its request line or a header)".to_string(),
        )
    } else {
        return None;
    };
    let lower = text.to_ascii_lowercase();
    let hypers = lower.find("\r\n\r\n") == Some(lower.len() - 4)
        && lower.contains("\r\nconnection: close\r\n")
        && lower.contains("\r\ncontent-length: 0\r\n")
        && !lower.contains("x-content-type-options");
    if !hypers {
        return None;
    }
    let code_status: u16 = status[..3].parse().ok()?;
    let body = serde_json::json!({ "error": error, "code": code, "status": code_status }).to_string();
    Some(
        format!(
            "HTTP/1.1 {status}\r\ncontent-type: application/json\r\n\
             referrer-policy: {}\r\nx-content-type-options: nosniff\r\ncache-control: no-store\r\n\
             connection: close\r\ncontent-length: {}\r\n\r\n{body}",
            super::REFERRER_POLICY,
            body.len()
        )
        .into_bytes(),
    )
}

impl<S: AsyncWrite + Unpin> JsonParserErrors<S> {
    /// Writes what is left of a replacement answer.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.written < self.pending.len() {
            let n = ready!(Pin::new(&mut self.inner).poll_write(cx, &self.pending[self.written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.written += n;
        }
        self.pending.clear();
        self.written = 0;
        Poll::Ready(Ok(()))
    }

    /// Takes `head` as written and queues its replacement.
    fn replace(&mut self, cx: &mut Context<'_>, reply: Vec<u8>, taken: usize) -> Poll<io::Result<usize>> {
        self.pending = reply;
        self.written = 0;
        if let Poll::Ready(Err(e)) = self.drain(cx) {
            return Poll::Ready(Err(e));
        }
        Poll::Ready(Ok(taken))
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for JsonParserErrors<S> {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for JsonParserErrors<S> {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        ready!(this.drain(cx))?;
        match replacement(buf) {
            Some(reply) => this.replace(cx, reply, buf.len()),
            None => Pin::new(&mut this.inner).poll_write(cx, buf),
        }
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        ready!(this.drain(cx))?;
        let mut filled = bufs.iter().filter(|b| !b.is_empty());
        if let (Some(only), None) = (filled.next(), filled.next()) {
            if let Some(reply) = replacement(only) {
                return this.replace(cx, reply, only.len());
            }
        }
        Pin::new(&mut this.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.drain(cx))?;
        Pin::new(&mut this.inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.drain(cx))?;
        Pin::new(&mut this.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::replacement;

    #[test]
    fn only_hypers_own_empty_answers_are_replaced() {
        let hyper = |status: &str| {
            format!(
                "HTTP/1.1 {status}\r\nconnection: close\r\ncontent-length: 0\r\n\
                 date: Sat, 05 Dec 2026 12:30:27 GMT\r\n\r\n"
            )
        };
        for (status, code) in [
            ("431 Request Header Fields Too Large", "headers_too_large"),
            ("414 URI Too Long", "uri_too_long"),
            ("400 Bad Request", "bad_request"),
        ] {
            let reply = String::from_utf8(replacement(hyper(status).as_bytes()).unwrap()).unwrap();
            assert!(reply.starts_with(&format!("HTTP/1.1 {status}\r\n")), "{reply}");
            let (head, body) = reply.split_once("\r\n\r\n").unwrap();
            assert!(
                head.contains(&format!("content-length: {}", body.len())),
                "{reply}"
            );
            let v: serde_json::Value = serde_json::from_str(body).unwrap();
            assert_eq!(v["code"], code);
            assert_eq!(v["status"], status[..3].parse::<u16>().unwrap());
        }
        // The router's own answers, other statuses, and anything with a body stay.
        let router = "HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json\r\n\
                      x-content-type-options: nosniff\r\nconnection: close\r\ncontent-length: 0\r\n\r\n";
        assert_eq!(replacement(router.as_bytes()), None);
        assert_eq!(replacement(hyper("200 OK").as_bytes()), None);
        assert_eq!(
            replacement(format!("{}{{}}", hyper("400 Bad Request")).as_bytes()),
            None
        );
        assert_eq!(replacement(b"\x81\x05hello"), None);
    }
}
