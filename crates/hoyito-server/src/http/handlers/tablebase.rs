//! `GET /api/tablebase`: a position's exact value and every legal move's,
//! from the server's tablebases (`crate::tables`): the seeds the side to
//! move gains from here on with perfect play, as `hoyito tablebase probe`
//! prints them.

use std::sync::Arc;

use axum::extract::State;
use axum::Json;
use hoyito_core::{Position, Rules, RulesSpec};
use hoyito_tablebase::TablebaseError;

use crate::error::ApiError;
use crate::http::extract::ApiQuery;
use crate::http::wire::{MoveValue, TablebaseAnswer};
use crate::state::AppState;

/// Seconds a client waits before asking again while tables are built.
const BUILDING_RETRY_AFTER: u64 = 30;

/// The rules and the position a query names: `position` in the position
/// notation, every other parameter a rules option as the games API takes
/// it (`variant`, `holes`, …; the standard options by default).
fn read_query(query: &[(String, String)]) -> Result<(Rules, Position), ApiError> {
    let mut spec = RulesSpec::default();
    let mut position = None;
    for (name, value) in query {
        if name == "position" {
            if position.replace(value).is_some() {
                return Err(ApiError::bad_request("position is given twice"));
            }
            continue;
        }
        spec.set(name, value)
            .map_err(|e| ApiError::unprocessable("invalid_rules", e.to_string()))?;
    }
    let rules = Rules::try_from(spec).map_err(|e| ApiError::unprocessable("invalid_rules", e.to_string()))?;
    let Some(text) = position else {
        return Err(ApiError::bad_request(
            "position is missing: expected ?position=<notation> (docs/NOTATION.md), e.g. 1,0,3,0/0,2,0,2 s 20-4",
        ));
    };
    let pos = Position::from_notation(rules, text)
        .map_err(|e| ApiError::unprocessable("invalid_position", e.to_string()))?;
    Ok((rules, pos))
}

/// `GET /api/tablebase?variant=…&holes=…&position=…`.
pub(crate) async fn probe(
    State(st): State<Arc<AppState>>,
    ApiQuery(query): ApiQuery<Vec<(String, String)>>,
) -> Result<Json<TablebaseAnswer>, ApiError> {
    let (rules, pos) = read_query(&query)?;
    let Some(tables) = st.tablebases.clone() else {
        return Err(ApiError::unprocessable(
            "not_in_tablebases",
            "this server has no tablebases (hoyito serve --tablebases DIR)",
        ));
    };
    let answer = AppState::rules(move || {
        let Some(tb) = tables.for_rules(rules) else {
            return Err(match tables.building(&rules) {
                Some(max) => building(&rules, max),
                None => ApiError::unprocessable(
                    "not_in_tablebases",
                    format!("this server has no tables for {rules}"),
                ),
            });
        };
        let outside = |e: TablebaseError| {
            let top = tb.layers().last().copied().unwrap_or(0);
            match (e, tables.building(&rules)) {
                (TablebaseError::Missing { .. }, Some(max)) if pos.in_play() as u32 <= max => building(&rules, max),
                (TablebaseError::Missing { .. }, _) => ApiError::unprocessable(
                    "not_in_tablebases",
                    format!(
                        "this position has {} seeds in play: the tables of {rules} cover positions with up to {top}",
                        pos.in_play()
                    ),
                ),
                (e, _) => ApiError::unprocessable("not_in_tablebases", e.to_string()),
            }
        };
        if pos.is_over() {
            return Ok(TablebaseAnswer {
                value: 0,
                moves: Vec::new(),
                seeds: pos.in_play() as u32,
            });
        }
        let value = tb.value(&pos).map_err(outside)?;
        let moves = tb.move_values(&pos).map_err(outside)?;
        Ok(TablebaseAnswer {
            value,
            moves: moves
                .into_iter()
                .map(|(m, value)| MoveValue {
                    token: pos.move_token(m).to_string(),
                    value,
                })
                .collect(),
            seeds: pos.in_play() as u32,
        })
    })
    .await?;
    Ok(Json(answer))
}

/// 503 `tablebase_building`: the tables of `rules` up to `max` seeds are
/// still being built.
fn building(rules: &Rules, max: u32) -> ApiError {
    ApiError::unavailable(
        "tablebase_building",
        format!("the tables of {rules} (up to {max} seeds in play) are being built: ask again in a minute"),
    )
    .retry_after(BUILDING_RETRY_AFTER)
}
