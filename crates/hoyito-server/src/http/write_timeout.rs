//! [`WriteTimeout`]: a connection whose writes must make progress within a
//! bound. Every HTTP connection, and the WebSocket it may become, is served
//! through one (`crate::http::listen`): a client that stops reading fills
//! the kernel's send buffer, the server's next write waits, and after
//! [`crate::ServerLimits::write_timeout`] without progress the write fails
//! and the connection is closed, instead of holding its buffers forever.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;

/// `io`, whose writes, flushes and shutdown fail with
/// [`io::ErrorKind::TimedOut`] once they have waited `timeout` without
/// progress.
#[derive(Debug)]
pub struct WriteTimeout<S> {
    io: S,
    timeout: Duration,
    /// Set while a write waits: when it must have made progress by.
    waiting: Option<Pin<Box<Sleep>>>,
}

impl<S> WriteTimeout<S> {
    /// `io` with writes bounded by `timeout`.
    pub fn new(io: S, timeout: Duration) -> WriteTimeout<S> {
        WriteTimeout {
            io,
            timeout,
            waiting: None,
        }
    }

    /// Ready: progress, the wait is over. Pending: arms the deadline (on the
    /// first wait) and fails once it passed.
    fn bound<T>(&mut self, cx: &mut Context<'_>, poll: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        match poll {
            Poll::Ready(r) => {
                self.waiting = None;
                Poll::Ready(r)
            }
            Poll::Pending => {
                let timeout = self.timeout;
                let sleep = self
                    .waiting
                    .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
                match sleep.as_mut().poll(cx) {
                    Poll::Ready(()) => {
                        self.waiting = None;
                        Poll::Ready(Err(io::Error::new(
                            io::ErrorKind::TimedOut,
                            "the client did not read in time",
                        )))
                    }
                    Poll::Pending => Poll::Pending,
                }
            }
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for WriteTimeout<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for WriteTimeout<S> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.io).poll_write(cx, buf);
        self.bound(cx, poll)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.io).poll_write_vectored(cx, bufs);
        self.bound(cx, poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.io).poll_flush(cx);
        self.bound(cx, poll)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.io).poll_shutdown(cx);
        self.bound(cx, poll)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncWriteExt;

    #[tokio::test]
    async fn a_write_the_peer_does_not_read_fails_after_the_timeout() {
        // A pipe with a small buffer, never read.
        let (client, _server) = tokio::io::duplex(1024);
        let mut w = WriteTimeout::new(client, Duration::from_millis(50));
        let err = w.write_all(&[0u8; 64 * 1024]).await.unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
    }

    #[tokio::test]
    async fn writes_that_make_progress_go_through() {
        let (client, mut server) = tokio::io::duplex(1024);
        let reader = tokio::spawn(async move {
            let mut got = Vec::new();
            tokio::io::AsyncReadExt::read_to_end(&mut server, &mut got)
                .await
                .unwrap();
            got.len()
        });
        let mut w = WriteTimeout::new(client, Duration::from_secs(30));
        w.write_all(&[1u8; 64 * 1024]).await.unwrap();
        w.shutdown().await.unwrap();
        drop(w);
        assert_eq!(reader.await.unwrap(), 64 * 1024);
    }
}
