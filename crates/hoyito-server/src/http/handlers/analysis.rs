//! Handlers of post-game analysis (`crate::jobs::analysis`).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;

use axum::extract::{ConnectInfo, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};

use crate::error::ApiError;
use crate::http::extract::{ApiJson, ApiPath, ApiQuery};
use crate::http::wire::{AnalysisQuery, AnalysisRequest};
use crate::jobs::analysis;
use crate::room::analysis::AnalysisView;
use crate::state::AppState;

/// The client's address (set on each connection by the listener; a
/// router served some other way counts every client as one).
fn client_ip(peer: Option<Extension<ConnectInfo<SocketAddr>>>) -> IpAddr {
    peer.map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |Extension(ConnectInfo(a))| {
        a.ip()
    })
}

/// `POST /api/games/{id}/analysis`: starts (or joins) the analysis of the
/// game as it stands: 202 with the view while it runs, 200 once done.
pub(crate) async fn start(
    State(st): State<Arc<AppState>>,
    ApiPath(id): ApiPath<String>,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    ApiJson(req): ApiJson<AnalysisRequest>,
) -> Result<(StatusCode, Json<AnalysisView>), ApiError> {
    let view = analysis::start(&st, &id, client_ip(peer), req.movetime_ms).await?;
    let status = if view.status == "done" {
        StatusCode::OK
    } else {
        StatusCode::ACCEPTED
    };
    Ok((status, Json(view)))
}

/// `GET /api/games/{id}/analysis?from=k`: the analysis running or stored,
/// with the steps from `k` on; 204 without a body if there is none (the
/// game exists but was never analysed: nothing is wrong, so browsers log
/// no error for a page that asks).
pub(crate) async fn get(
    State(st): State<Arc<AppState>>,
    ApiPath(id): ApiPath<String>,
    ApiQuery(q): ApiQuery<AnalysisQuery>,
) -> Result<Response, ApiError> {
    st.slot(&id).await?;
    Ok(match analysis::current(&st, &id, q.from.unwrap_or(0)).await? {
        Some(view) => Json(view).into_response(),
        None => StatusCode::NO_CONTENT.into_response(),
    })
}
