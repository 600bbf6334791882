//! The client's IP address ([`ClientIp`], from the connection) and the
//! middleware that counts a request against a [`RateLimit`] of its route.
//!
//! ```text
//! let chat = Arc::new(RateLimit::new("chat", Rate::per_minute(30, 10)));
//! post(send_chat).route_layer(axum::middleware::from_fn_with_state(chat, client_ip::enforce))
//! ```

use std::convert::Infallible;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;

use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::limits::RateLimit;

/// Middleware: counts the request against the [`RateLimit`] of its state
/// and answers 429 (JSON, `Retry-After`) when the client is over it.
pub async fn enforce(State(limit): State<Arc<RateLimit>>, req: Request, next: Next) -> Response {
    let client = client_of(req.extensions());
    match limit.check(client) {
        Ok(()) => next.run(req).await,
        Err(e) => e.into_response(),
    }
}

/// The address requests without a known peer count under (handlers called
/// directly, in tests).
const UNKNOWN: IpAddr = IpAddr::V4(Ipv4Addr::UNSPECIFIED);

pub(crate) fn client_of(ext: &axum::http::Extensions) -> IpAddr {
    ext.get::<ConnectInfo<SocketAddr>>().map_or(UNKNOWN, |c| c.0.ip())
}

/// The client's IP address, from the connection (set by the connection
/// loop); the unspecified address when unknown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientIp(pub IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for ClientIp {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(ClientIp(client_of(&parts.extensions)))
    }
}
