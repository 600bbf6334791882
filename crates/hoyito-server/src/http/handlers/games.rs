//! Handlers that create, import, list, fetch and export games.

use std::sync::Arc;

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use hoyito_core::{ByPlayer, Record, Side};

use crate::auth::{hash_secret, random_id, random_token, Seat};
use crate::error::ApiError;
use crate::http::extract::{ApiJson, ApiPath, ApiQuery};
use crate::http::wire::{CreateRequest, ImportRequest, ListQuery, ListResponse, SeatResponse};
use crate::jobs::engine::kick_engine;
use crate::room::live::LiveGame;
use crate::room::view::GameView;
use crate::state::AppState;
use crate::store::{Meta, Mode};
use hoyito_core::concession_token;
use hoyito_room::NEXT_ROUND;

/// Most seeds per hole the server plays. Up to it, listing the legal moves
/// of the positions of random games took at most a few milliseconds on
/// every board (`examples/legal_cost.rs`, docs/PERFORMANCE.md); with many
/// more, an endless sowing that the core's residue check cannot prove may
/// take minutes to prove by its cycle. The rules work runs on blocking
/// threads, so a slow proof holds up only its own request. The library and
/// the CLI take any count up to the 240-seed total.
pub const SERVED_SEEDS_PER_HOLE: u8 = 8;

/// Refuses rules the server does not play (see [`SERVED_SEEDS_PER_HOLE`]).
fn check_served(rules: &hoyito_core::Rules, code: &'static str) -> Result<(), ApiError> {
    if rules.seeds() > SERVED_SEEDS_PER_HOLE {
        return Err(ApiError::unprocessable(
            code,
            format!(
                "{} seeds per hole: this server plays at most {SERVED_SEEDS_PER_HOLE} \
                 (with more, proving a sowing endless can take minutes)",
                rules.seeds()
            ),
        ));
    }
    Ok(())
}

/// Refuses a record whose `Position` tag has more seeds than the server's
/// rules would ever have: [`SERVED_SEEDS_PER_HOLE`] a hole on the board,
/// counted with the captured seeds and reserves. Reads the tag alone (no
/// sowing), before anything is replayed.
fn check_start_served(rules: &hoyito_core::Rules, record: &str) -> Result<(), ApiError> {
    let tag = record
        .lines()
        .map(str::trim)
        .take_while(|l| l.is_empty() || l.starts_with('['))
        .find_map(|l| l.strip_prefix("[Position"));
    let Some(tag) = tag else {
        return Ok(());
    };
    let (Some(a), Some(b)) = (tag.find('"'), tag.rfind('"')) else {
        return Ok(()); // malformed: the record's reader says why
    };
    let Some(text) = tag.get(a + 1..b) else {
        return Ok(());
    };
    let Ok(pos) = hoyito_core::Position::from_notation(*rules, text) else {
        return Ok(());
    };
    let most = rules.holes() as u32 * 2 * u32::from(SERVED_SEEDS_PER_HOLE);
    let (captured, reserve) = (pos.captured(), pos.reserve());
    let seeds = [
        pos.in_play(),
        captured.south,
        captured.north,
        reserve.south,
        reserve.north,
    ]
    .iter()
    .map(|&n| u32::from(n))
    .sum::<u32>();
    if seeds > most {
        return Err(ApiError::unprocessable(
            "invalid_record",
            format!(
                "the Position tag holds {seeds} seeds: this server plays at most {most} on this board \
                 ({SERVED_SEEDS_PER_HOLE} a hole)"
            ),
        ));
    }
    Ok(())
}

/// The narrowest and widest rating range of a seek, in points either side.
pub const MIN_RATING_RANGE: u16 = 50;
/// See [`MIN_RATING_RANGE`].
pub const MAX_RATING_RANGE: u16 = 1000;

/// The rating (rounded) of account `account` in pool `pool`: the starting
/// rating if it has played no rated game there.
pub(crate) async fn account_rating(
    st: &AppState,
    account: &str,
    pool: Option<String>,
) -> Result<i32, ApiError> {
    let account = account.to_string();
    let ratings = st.db(move |s| s.ratings().account_ratings(&account)).await?;
    let rating = pool
        .and_then(|p| ratings.into_iter().find(|r| r.pool == p))
        .map_or(crate::ratings::Rating::default().rating, |r| r.rating);
    Ok(rating.round() as i32)
}

/// 422 unless a game of `mode`, `is_match`, `rules` and `clock` may be
/// rated; 401 `signed_out` if its creator is not signed in.
fn check_rated(
    mode: Mode,
    is_match: bool,
    rules: &hoyito_core::Rules,
    clock: Option<crate::clock_spec::ClockSpec>,
    signed_in: bool,
) -> Result<(), ApiError> {
    if mode != Mode::Online {
        return Err(ApiError::unprocessable(
            "invalid_rated",
            "only online games are rated",
        ));
    }
    if is_match {
        return Err(ApiError::unprocessable(
            "invalid_rated",
            "a match is not rated: rated games are single games",
        ));
    }
    if crate::ratings::Pool::of_game(rules, clock).is_none() {
        return Err(ApiError::unprocessable(
            "invalid_rated",
            "rated games are played on the standard 2x6 board with the variant's default rules \
             (4 seeds a hole, every option at its default)",
        ));
    }
    if !signed_in {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "signed_out",
            "a rated game needs you signed in: sign in first (POST /api/session)",
        ));
    }
    Ok(())
}

pub(crate) async fn create(
    State(st): State<Arc<AppState>>,
    headers: axum::http::HeaderMap,
    ApiJson(req): ApiJson<CreateRequest>,
) -> Result<(StatusCode, Json<SeatResponse>), ApiError> {
    let rules = hoyito_core::Rules::try_from(req.rules)
        .map_err(|e| ApiError::unprocessable("invalid_rules", e.to_string()))?;
    check_served(&rules, "invalid_rules")?;
    if !(1..=10).contains(&req.level) {
        return Err(ApiError::unprocessable("invalid_level", "level must be 1 to 10"));
    }
    let name = crate::room::names::check_name(req.name.as_deref())?;
    let clock = req.clock.map(crate::clock_spec::ClockSpec::check).transpose()?;
    if req.mode != Mode::Online && clock.is_some() {
        return Err(ApiError::unprocessable(
            "invalid_clock",
            "clocks are for online games",
        ));
    }
    if req.mode != Mode::Online && req.public {
        return Err(ApiError::unprocessable(
            "invalid_mode",
            "only online games are listed in the lobby",
        ));
    }
    // A signed-in player's seat belongs to the account, and is named
    // after it unless a nickname is given.
    let account = crate::http::session::for_write(&st, &headers).await?;
    if req.rated {
        check_rated(req.mode, req.is_match, &rules, clock, account.is_some())?;
    }
    let rating_range = match (req.rating_range, &account) {
        (None, _) => None,
        (Some(_), _) if !(req.rated && req.public) => {
            return Err(ApiError::unprocessable(
                "invalid_rating_range",
                "a rating range is for rated games in the lobby (rated and public)",
            ))
        }
        (Some(n), _) if !(MIN_RATING_RANGE..=MAX_RATING_RANGE).contains(&n) => {
            return Err(ApiError::unprocessable(
                "invalid_rating_range",
                format!(
                    "a rating range is {MIN_RATING_RANGE} to {MAX_RATING_RANGE} points either side, not {n}"
                ),
            ))
        }
        (Some(n), Some(a)) => {
            let pool = crate::ratings::Pool::of_game(&rules, clock).map(|p| p.to_string());
            let own = account_rating(&st, &a.id, pool).await?;
            Some([own - i32::from(n), own + i32::from(n)])
        }
        (Some(_), None) => None,
    };
    let name = name.or_else(|| account.as_ref().map(|a| a.username.clone()));
    let side = req.side.unwrap_or(Side::South);
    let mut names = ByPlayer::new(None, None);
    if req.mode != Mode::Hotseat {
        names[side] = name;
    }
    let token = random_token();
    let hashed = hash_secret(&token);
    let id = random_id(10);
    let (tokens, engine_side, invite, seat) = match req.mode {
        Mode::Hotseat => (
            ByPlayer::new(Some(hashed.clone()), Some(hashed)),
            None,
            None,
            Seat::Both,
        ),
        Mode::Engine => {
            let mut t = ByPlayer::new(None, None);
            t[side] = Some(hashed);
            (t, Some(side.other()), None, Seat::One(side))
        }
        Mode::Online => {
            let mut t = ByPlayer::new(None, None);
            t[side] = Some(hashed);
            (t, None, Some(random_token()), Seat::One(side))
        }
    };
    let meta = Meta {
        id: id.clone(),
        created_ms: crate::store::now(),
        mode: req.mode,
        rules,
        is_match: req.is_match,
        level: req.level,
        engine_side,
        start: None,
        tokens,
        invite: invite.as_deref().map(hash_secret),
        names,
        clock,
        public: req.public,
        rated: req.rated,
        rating_range,
    };
    let game = LiveGame::new(meta.clone(), 0)?;
    let summary = game.summary();
    st.make_room()?;
    st.db(move |s| s.insert_game(&meta, &summary)).await?;
    if let Some(account) = account {
        crate::http::session::link_seat(&st, &id, seat.name(), &account).await;
    }
    let view = game.view();
    let slot = st.insert(id.clone(), game);
    kick_engine(st.clone(), slot);
    Ok((
        StatusCode::CREATED,
        Json(SeatResponse {
            invite: invite.map(|i| format!("/g/{id}?invite={i}")),
            id,
            token,
            seat: seat.name(),
            game: view,
        }),
    ))
}

pub(crate) async fn import(
    State(st): State<Arc<AppState>>,
    headers: axum::http::HeaderMap,
    ApiJson(req): ApiJson<ImportRequest>,
) -> Result<(StatusCode, Json<SeatResponse>), ApiError> {
    if req.mode == Some(Mode::Online) {
        return Err(ApiError::unprocessable(
            "invalid_mode",
            "an imported record is played on as hotseat or engine",
        ));
    }
    if req.level.is_some_and(|l| !(1..=10).contains(&l)) {
        return Err(ApiError::unprocessable("invalid_level", "level must be 1 to 10"));
    }
    // The rules first: replaying a record the server does not play could stall it.
    let rules = Record::read_rules(&req.record)
        .map_err(|e| ApiError::unprocessable("invalid_record", e.to_string()))?;
    check_served(&rules, "invalid_record")?;
    check_start_served(&rules, &req.record)?;
    let text = req.record;
    let record = AppState::rules(move || {
        Record::read(&text).map_err(|e| ApiError::unprocessable("invalid_record", e.to_string()))
    })
    .await?;
    let mut steps = Vec::new();
    let mut start = None;
    match &record.body {
        hoyito_core::Contest::Game(g) => {
            if *g.start() != hoyito_core::Position::new(rules) {
                start = Some(g.start().to_notation());
            }
            steps.extend(g.tokens());
            steps.extend(g.conceded().map(concession_token));
        }
        hoyito_core::Contest::Match(m) => {
            for (i, g) in m.rounds().iter().enumerate() {
                if i > 0 {
                    steps.push(NEXT_ROUND.to_string());
                }
                steps.extend(g.tokens());
                steps.extend(g.conceded().map(concession_token));
            }
        }
    }
    if steps.len() as u64 > st.limits.max_steps {
        return Err(ApiError::unprocessable(
            "game_too_long",
            format!(
                "this record has {} steps; a game here has at most {}",
                steps.len(),
                st.limits.max_steps
            ),
        ));
    }
    // How it was played, unless the request says: an engine game goes on
    // against the engine, at its level; it ends as the record says.
    let mut played = RecordedPlay::of(&record)?;
    if let (Some(stop), false) = (played.stop, record.body.is_over()) {
        steps.push(stop.token());
    }
    let mode = req.mode.unwrap_or(if played.engine.is_some() {
        Mode::Engine
    } else {
        Mode::Hotseat
    });
    let level = req.level.or(played.engine.map(|(_, l)| l)).unwrap_or(3);
    let side = req
        .side
        .or(played.engine.map(|(s, _)| s.other()))
        .unwrap_or(Side::South);
    let token = random_token();
    let hashed = hash_secret(&token);
    let id = random_id(10);
    if let Some(e) = engine_side_of(mode, side) {
        played.names[e] = None;
    }
    let (tokens, engine_side, seat) = match mode {
        Mode::Engine => {
            let mut t = ByPlayer::new(None, None);
            t[side] = Some(hashed);
            (t, Some(side.other()), Seat::One(side))
        }
        _ => (
            ByPlayer::new(Some(hashed.clone()), Some(hashed)),
            None,
            Seat::Both,
        ),
    };
    let meta = Meta {
        id: id.clone(),
        created_ms: crate::store::now(),
        mode,
        rules,
        is_match: record.match_().is_some(),
        level,
        engine_side,
        start,
        tokens,
        invite: None,
        names: played.names.clone(),
        clock: None,
        public: false,
        rated: false,
        rating_range: None,
    };
    let (game, meta, steps) = AppState::rules(move || {
        let game = LiveGame::replay(meta.clone(), 0, &steps)?;
        game.room.warm();
        Ok((game, meta, steps))
    })
    .await?;
    let summary = game.summary();
    st.make_room()?;
    // A signed-in player's imported game belongs to the account.
    let account = crate::http::session::for_write(&st, &headers).await?;
    st.db(move |s| s.insert_game_with_steps(&meta, &steps, &summary))
        .await?;
    if let Some(account) = account {
        crate::http::session::link_seat(&st, &id, seat.name(), &account).await;
    }
    let view = game.view();
    let slot = st.insert(id.clone(), game);
    kick_engine(st.clone(), slot);
    Ok((
        StatusCode::CREATED,
        Json(SeatResponse {
            id,
            token,
            seat: seat.name(),
            invite: None,
            game: view,
        }),
    ))
}

/// What a record's tags tell of how it was played.
struct RecordedPlay {
    /// The engine's seat and level, for a game against the engine.
    engine: Option<(Side, u8)>,
    /// How it ended before it was played out (its `Termination` tag).
    stop: Option<hoyito_room::Stop>,
    /// The players' nicknames (its `SouthName` and `NorthName` tags).
    names: ByPlayer<Option<String>>,
}

/// The engine's seat when a game is played on in `mode` with the importer at `side`.
fn engine_side_of(mode: Mode, side: Side) -> Option<Side> {
    (mode == Mode::Engine).then(|| side.other())
}

impl RecordedPlay {
    /// # Errors
    /// 422 `invalid_name` (or `reserved_name`) if a name tag is no valid
    /// nickname, `name_taken` if the two look the same.
    fn of(record: &Record) -> Result<RecordedPlay, ApiError> {
        let tag = |name: &str| {
            record
                .tags
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.trim())
        };
        let engine_level = |v: Option<&str>| {
            v.and_then(|v| v.strip_prefix("hoyito engine level "))
                .and_then(|l| l.trim().parse::<u8>().ok())
                .filter(|l| (1..=10).contains(l))
        };
        let engine = if tag("Mode") == Some("engine") {
            engine_level(tag("South"))
                .map(|l| (Side::South, l))
                .or(engine_level(tag("North")).map(|l| (Side::North, l)))
        } else {
            None
        };
        let name = |t| crate::room::names::check_name(tag(t));
        let names = ByPlayer::new(name("SouthName")?, name("NorthName")?);
        crate::room::names::check_beside(names.north.as_deref(), names.south.as_deref())?;
        Ok(RecordedPlay {
            engine,
            stop: tag("Termination").and_then(hoyito_room::Stop::from_termination),
            names,
        })
    }
}

/// Most games `GET /api/games` lists at once.
pub const MAX_LIST_PAGE: u32 = 500;

pub(crate) async fn list(
    State(st): State<Arc<AppState>>,
    ApiQuery(q): ApiQuery<ListQuery>,
) -> Result<Json<ListResponse>, ApiError> {
    let limit = super::page_limit(q.limit, 50, MAX_LIST_PAGE)?;
    if let Some(s) = &q.status {
        if !["waiting", "playing", "over"].contains(&s.as_str()) {
            return Err(ApiError::bad_request("status must be waiting, playing or over"));
        }
    }
    let games = st.db(move |s| s.list(limit, q.status.as_deref())).await?;
    Ok(Json(ListResponse { games }))
}

pub(crate) async fn get_game(
    State(st): State<Arc<AppState>>,
    ApiPath(id): ApiPath<String>,
    ApiQuery(q): ApiQuery<crate::http::wire::GameQuery>,
) -> Result<Json<GameView>, ApiError> {
    let slot = st.slot(&id).await?;
    let g = slot.game.lock().await;
    Ok(Json(match q.history_from {
        Some(from) => g.view_since(from),
        None => g.view(),
    }))
}

pub(crate) async fn record(
    State(st): State<Arc<AppState>>,
    ApiPath(id): ApiPath<String>,
) -> Result<Response, ApiError> {
    let slot = st.slot(&id).await?;
    let analysis = crate::jobs::analysis::stored(&st, &id).await?;
    let g = slot.game.lock().await;
    let mut rec = Record {
        tags: Vec::new(),
        body: g.room.contest().clone(),
    };
    rec.tags.push(("Event".into(), "Hoyito web game".into()));
    rec.tags.push(("Site".into(), format!("/g/{}", g.meta.id)));
    rec.tags.push(("Mode".into(), g.meta.mode.name().into()));
    if let Some(e) = g.meta.engine_side {
        rec.tags.push((
            if e == Side::South { "South" } else { "North" }.into(),
            format!("hoyito engine level {}", g.meta.level),
        ));
    }
    for side in [Side::South, Side::North] {
        if let Some(name) = &g.meta.names[side] {
            let tag = if side == Side::South {
                "SouthName"
            } else {
                "NorthName"
            };
            rec.tags.push((tag.into(), name.clone()));
        }
    }
    if let Some(stop) = g.room.stop() {
        // The moves end before the game did: say why.
        rec.tags.push(("Termination".into(), stop.termination()));
    }
    // With an analysis of the game as it stands: scores and marks as comments.
    let text = match analysis.filter(|a| a.epoch == g.room.epoch() && a.seq == g.room.seq()) {
        Some(a) => {
            rec.tags.push((
                "Annotator".into(),
                format!("hoyito analysis, {} ms per position", a.movetime_ms),
            ));
            rec.write_annotated(&a.comments(&g))
        }
        None => rec.write(),
    };
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"hoyito-{}.txt\"", g.meta.id),
            ),
        ],
        text,
    )
        .into_response())
}
