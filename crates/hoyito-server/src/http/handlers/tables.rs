//! `GET /api/tables` and `GET /api/tables/{set}/{file}`: the default
//! tables' compact layer files for download (`crate::table_files`), so
//! that the web app can keep them on the device. A file's URL holds its
//! checksum: the file at a URL never changes, and is cached for a year.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

use crate::error::ApiError;
use crate::http::wire::{TableFileView, TableSetView, TablesManifest};
use crate::state::AppState;
use crate::table_files::TableDownload;

/// The manifest's view of one set.
fn view(d: &TableDownload) -> TableSetView {
    TableSetView {
        variant: d.rules.variant().to_string(),
        holes: d.rules.holes() as u32,
        max_seeds: d.max_seeds,
        ready: d.ready,
        building: d.building,
        bytes: d.bytes(),
        files: d
            .files
            .iter()
            .map(|f| TableFileView {
                seeds: f.seeds,
                bytes: f.bytes,
                url: format!("/api/tables/{}/{}", d.name, f.download_name()),
            })
            .collect(),
    }
}

/// `GET /api/tables`: every set of the default tables, with its files
/// once built (none on a server without tablebases).
pub(crate) async fn manifest(State(st): State<Arc<AppState>>) -> Result<Response, ApiError> {
    let Some(tables) = st.tablebases.clone() else {
        return Ok(no_store(TablesManifest { sets: Vec::new() }));
    };
    let sets = AppState::rules(move || Ok(tables.downloads().iter().map(view).collect())).await?;
    Ok(no_store(TablesManifest { sets }))
}

/// The manifest, never cached: it changes as the server builds tables.
fn no_store(m: TablesManifest) -> Response {
    ([(header::CACHE_CONTROL, "no-cache")], Json(m)).into_response()
}

/// `GET /api/tables/{set}/{file}`: a compact layer file, immutable.
pub(crate) async fn file(
    State(st): State<Arc<AppState>>,
    Path((set, name)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let unknown = || {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "unknown_table_file",
            "no such table file on this server (see GET /api/tables)",
        )
    };
    let tables = st.tablebases.clone().ok_or_else(unknown)?;
    let fresh_tag = headers.get(header::IF_NONE_MATCH).cloned();
    let found = AppState::rules(move || {
        let Some(file) = tables.download(&set, &name) else {
            return Ok(None);
        };
        let etag = format!("\"{:016x}\"", file.checksum);
        let fresh = fresh_tag
            .as_ref()
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.split(',').any(|t| t.trim() == etag || t.trim() == "*"));
        // Not read when the client has it already.
        let body = if fresh {
            None
        } else {
            Some(
                std::fs::read(&file.path)
                    .map_err(|e| ApiError::internal(format!("{}: {e}", file.path.display())))?,
            )
        };
        Ok(Some((etag, body)))
    })
    .await?;
    let (etag, body) = found.ok_or_else(unknown)?;
    let common = [
        (
            header::CACHE_CONTROL,
            "public, max-age=31536000, immutable".to_string(),
        ),
        (header::ETAG, etag.clone()),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff".to_string()),
    ];
    let Some(body) = body else {
        return Ok((StatusCode::NOT_MODIFIED, common).into_response());
    };
    Ok((common, [(header::CONTENT_TYPE, "application/octet-stream")], body).into_response())
}
