//! `GET /api/tablebase`: a position's exact value and every legal move's,
//! from the server's tablebases (`crate::tables`): the seeds the side to
//! move gains from here on with perfect play, as `hoyito tablebase probe`
//! prints them. A position above the tables (more seeds in play than they
//! hold) is solved by the exact search down to them
//! ([`hoyito_tablebase::ExactSearch`]), one search at a time on the server,
//! within [`SEARCH_LIMIT`]; the answer says which proved it (`proved`).

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::State;
use axum::Json;
use hoyito_core::{Position, Rules, RulesSpec};
use hoyito_tablebase::search::ExactSearch;
use hoyito_tablebase::{Tablebase, TablebaseError};
use tokio::sync::Semaphore;

use crate::error::ApiError;
use crate::http::extract::ApiQuery;
use crate::http::wire::{MoveValue, TablebaseAnswer};
use crate::state::AppState;

/// Seconds a client waits before asking again while tables are built.
const BUILDING_RETRY_AFTER: u64 = 30;

/// How long the exact search above the tables may run for one request.
pub const SEARCH_LIMIT: Duration = Duration::from_secs(2);

/// The exact search's transposition table: 2^20 slots (32 MiB).
const SEARCH_ENTRIES: usize = 1 << 20;

/// One exact search at a time on this server: the others are answered
/// 503 `search_busy` at once.
static SEARCHES: Semaphore = Semaphore::const_new(1);

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
            return Ok(Probed::Answer(answer(&pos, 0, Vec::new(), Proved::Tables)));
        }
        match (tb.value(&pos), tb.move_values(&pos)) {
            (Ok(value), Ok(moves)) => Ok(Probed::Answer(answer(&pos, value, moves, Proved::Tables))),
            (Err(e), _) | (_, Err(e)) => {
                let above = matches!(e, TablebaseError::Missing { .. })
                    && tables.building(&rules).is_none_or(|max| pos.in_play() as u32 > max);
                if above {
                    Ok(Probed::Above(tb))
                } else {
                    Err(outside(e))
                }
            }
        }
    })
    .await?;
    match answer {
        Probed::Answer(a) => Ok(Json(a)),
        Probed::Above(tb) => search(tb, pos).await.map(Json),
    }
}

/// What the tables said of a position.
enum Probed {
    /// Its values.
    Answer(TablebaseAnswer),
    /// It has more seeds than they hold: for the exact search on them.
    Above(Arc<Tablebase>),
}

/// What proved the values.
#[derive(Debug, Clone, Copy)]
enum Proved {
    Tables,
    Search,
}

fn answer(
    pos: &Position,
    value: i32,
    moves: Vec<(hoyito_core::Move, i32)>,
    proved: Proved,
) -> TablebaseAnswer {
    TablebaseAnswer {
        value,
        moves: moves
            .into_iter()
            .map(|(m, value)| MoveValue {
                token: pos.move_token(m).to_string(),
                value,
            })
            .collect(),
        seeds: pos.in_play() as u32,
        proved: match proved {
            Proved::Tables => "tables",
            Proved::Search => "search",
        },
    }
}

/// The exact values of `pos`, above the tables `tb`, by the exact search
/// within [`SEARCH_LIMIT`].
///
/// # Errors
/// 503 `search_busy` while another search runs; 422 `not_proved` if the
/// search did not finish in time.
async fn search(tb: Arc<Tablebase>, pos: Position) -> Result<TablebaseAnswer, ApiError> {
    let Ok(_permit) = SEARCHES.try_acquire() else {
        return Err(ApiError::unavailable(
            "search_busy",
            "another position is being searched on this server: ask again in a few seconds",
        )
        .retry_after(SEARCH_LIMIT.as_secs().max(1)));
    };
    let top = tb.layers().last().copied().unwrap_or(0);
    let seeds = pos.in_play();
    let result = tokio::task::spawn_blocking(move || {
        let mut search = ExactSearch::new(&tb, SEARCH_ENTRIES);
        search.set_deadline(Some(Instant::now() + SEARCH_LIMIT));
        search.run(|s| Ok::<_, TablebaseError>((s.value(&pos)?, s.move_values(&pos)?)))
    })
    .await
    .map_err(|e| ApiError::internal(format!("the exact search failed: {e}")))?;
    match result {
        Ok((value, moves)) => Ok(answer(&pos, value, moves, Proved::Search)),
        Err(TablebaseError::Deadline | TablebaseError::NodeLimit { .. }) => Err(ApiError::unprocessable(
            "not_proved",
            format!(
                "this position has {seeds} seeds in play, above the tables (up to {top}), and the exact search \
                 did not prove its values within {} s",
                SEARCH_LIMIT.as_secs()
            ),
        )),
        Err(e) => Err(ApiError::unprocessable("not_in_tablebases", e.to_string())),
    }
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
