//! The connection loop: [`ServerLimits`] on connections (a cap, header and body
//! read timeouts, WebSocket size and idle limits) and graceful shutdown
//! with a deadline.
//!
//! Connections are served with HTTP/1.1 (and WebSocket upgrades). A
//! connection slot is taken before a connection is accepted, so at the cap
//! new connections wait in the kernel's backlog instead of exhausting file
//! descriptors; the header read timeout, which also bounds a keep-alive
//! connection's idle time, frees slots held by silent clients.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};
use tokio::task::JoinSet;
use tower::ServiceExt;

use crate::limits::{PerClient, ServerLimits};

/// Largest WebSocket message (and frame) read from a client: the protocol's
/// only client message is `ping`.
pub const WS_MAX_MESSAGE: usize = 1024;

/// Serves `app` on `listener` within `limits` until `shutdown` completes;
/// then stops accepting, asks every connection to close after its request in
/// flight, and closes those still open after [`ServerLimits::shutdown_grace`].
///
/// # Errors
/// Never at present: accept errors (e.g. too many open files) are waited out.
pub(crate) async fn serve_connections(
    listener: TcpListener,
    app: Router,
    limits: &ServerLimits,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let slots = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let per_ip = PerClient::new(limits.max_connections_per_ip);
    let (close_tx, close_rx) = watch::channel(false);
    let mut conns = JoinSet::new();
    let write_timeout = limits.write_timeout;
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout)
        .max_headers(crate::http::head::HARD_MAX_HEADERS)
        .max_buf_size(crate::http::head::HARD_MAX_HEAD);
    tokio::pin!(shutdown);
    loop {
        while conns.try_join_next().is_some() {}
        let slot = tokio::select! {
            slot = slots.clone().acquire_owned() => slot.expect("the semaphore is never closed"),
            () = &mut shutdown => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) if is_connection_error(&e) => continue,
                Err(_) => {
                    // Out of file descriptors or memory: wait for some to be freed.
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let Some(held) = per_ip.try_take(peer.ip()) else {
            conns.spawn(refuse(stream, slot));
            continue;
        };
        let service = TowerToHyperService::new(app.clone().map_request(
            move |mut req: axum::extract::Request<hyper::body::Incoming>| {
                req.extensions_mut().insert(ConnectInfo(peer));
                req
            },
        ));
        let conn = http
            .serve_connection(
                TokioIo::new(crate::http::parser_reply::JsonParserErrors::new(
                    crate::http::write_timeout::WriteTimeout::new(stream, write_timeout),
                )),
                service,
            )
            .with_upgrades();
        let mut close = close_rx.clone();
        conns.spawn(async move {
            let (_slot, _held) = (slot, held);
            tokio::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => return,
                _ = close.wait_for(|&c| c) => {}
            }
            conn.as_mut().graceful_shutdown();
            let _ = conn.await;
        });
    }
    let _ = close_tx.send(true);
    drop(listener);
    let drained = tokio::time::timeout(limits.shutdown_grace, async {
        while conns.join_next().await.is_some() {}
    })
    .await;
    if drained.is_err() {
        conns.shutdown().await;
    }
    Ok(())
}

/// The answer to a connection over the per-IP cap.
const REFUSED: &[u8] = b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\n\
retry-after: 5\r\nreferrer-policy: no-referrer\r\nx-content-type-options: nosniff\r\n\
connection: close\r\ncontent-length: 98\r\n\r\n\
{\"error\":\"too many open connections from your address\",\"code\":\"too_many_connections\",\"status\":429}";

/// Answers 429 on a connection over the per-IP cap and closes it, without
/// reading the request (within a second, holding its connection slot).
async fn refuse(mut stream: tokio::net::TcpStream, slot: tokio::sync::OwnedSemaphorePermit) {
    use tokio::io::AsyncWriteExt;
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        stream.write_all(REFUSED).await?;
        stream.shutdown().await
    })
    .await;
    drop(slot);
}

fn is_connection_error(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    matches!(e.kind(), ConnectionRefused | ConnectionAborted | ConnectionReset)
}
