//! Handlers that change a game: moves, undo, the next round, resigning,
//! joining, and hints.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use hoyito_core::{DirectionRule, Rules, Side};

use crate::ai;
use crate::auth::{hash_secret, random_token, secret_matches};
use crate::error::ApiError;
use crate::http::client_ip::ClientIp;
use crate::http::extract::{ApiJson, ApiJsonOpt, ApiPath};
use crate::http::seat::seat;
use crate::http::wire::{
    HintResponse, JoinRequest, MoveAnswer, MoveRequest, MoveResponse, ResignRequest, ResignScope,
    SeatResponse, UndoRequest,
};
use crate::jobs::engine::{kick_engine, kick_engine_for};
use crate::room::live::LiveGame;
use crate::room::view::GameView;
use crate::state::broadcast_state;
use crate::state::{commit_stored, store_last_step, AppState, Slot};
use crate::store::Mode;
use hoyito_room::Stop;
use hoyito_room::{prepare_move, NEXT_ROUND};

pub(crate) async fn post_move(
    State(st): State<Arc<AppState>>,
    ApiPath(id): ApiPath<String>,
    ClientIp(client): ClientIp,
    headers: HeaderMap,
    ApiJson(req): ApiJson<MoveRequest>,
) -> Result<MoveAnswer, ApiError> {
    let slot = st.slot(&id).await?;
    // The rules work runs on a blocking thread without the game's lock; if
    // the game changed meanwhile, the move is checked again.
    let mut tries = 0;
    let (mut g, prepared) = loop {
        let input = {
            let mut g = slot.game.lock().await;
            let seat = seat(&g, &headers)?;
            if let Some(expect) = req.seq {
                if expect != g.room.seq() {
                    return Err(ApiError::conflict(
                        "stale",
                        format!("the game has {} steps, not {expect}: reload it", g.room.seq()),
                    ));
                }
            }
            refuse_after_flag(&st, &slot, &mut g).await?;
            crate::room::live::check_room_for_step(g.room.seq(), st.limits.max_steps)?;
            // The seat's turn, the engine not searching, a timed game's
            // seats both taken (nobody's clock runs for an empty seat).
            g.room.check_move(seat, &g.host(crate::store::now()))?;
            refuse_fixed_suffix(&g.meta.rules, &req.token)?;
            g.room.move_input()?
        };
        let token = req.token.clone();
        let prepared =
            AppState::rules(move || Ok(prepare_move(input, &token, LiveGame::TRACE_LIMIT, true)?)).await?;
        let mut g = slot.game.lock().await;
        if g.room.seq() == input.seq && g.room.epoch() == input.epoch && !g.thinking {
            // The mover's time may have run out while the move was checked.
            refuse_after_flag(&st, &slot, &mut g).await?;
            break (g, prepared);
        }
        tries += 1;
        if tries == 3 {
            return Err(ApiError::conflict("stale", "the game keeps changing: reload it"));
        }
    };
    // The engine's reply is this client's engine job.
    let held = st.reserve_engine(&g, client)?;
    let event = commit_stored(&st, &mut g, prepared).await?;
    crate::jobs::clock::arm(st.clone(), slot.clone(), &mut g);
    // A delta: the client has the steps before this move.
    let view = g.view_since(event.seq - 1);
    drop(g);
    // Written once, for the answer and the watchers.
    let answer = MoveAnswer::new(&MoveResponse { event, game: view });
    if slot.watchers() > 0 {
        slot.send(answer.ws_message().into());
    }
    kick_engine_for(st.clone(), slot.clone(), held);
    Ok(answer)
}

/// 422 `bad_move` for a move token with a direction suffix (`3L`, `3R`) in a
/// game whose direction is fixed: there is no direction to choose, so the
/// suffix would say something the stored move does not. (Records are read
/// leniently: the core accepts `3L` there as `3`.)
fn refuse_fixed_suffix(rules: &Rules, token: &str) -> Result<(), ApiError> {
    if rules.direction() != DirectionRule::Fixed {
        return Ok(());
    }
    let token = token.trim();
    match token.strip_suffix(['L', 'l', 'R', 'r']) {
        Some(hole) if !hole.is_empty() => Err(ApiError::unprocessable(
            "bad_move",
            format!(
                "bad move token {token:?}: this game's direction is fixed (counter-clockwise), \
                 so a move has no L or R suffix: expected {hole:?}, the hole number alone"
            ),
        )),
        _ => Ok(()),
    }
}

/// A move after the mover's time ran out is refused (and ends the game if
/// the timer has not yet): 409 `flag_fell`.
async fn refuse_after_flag(st: &Arc<AppState>, slot: &Arc<Slot>, g: &mut LiveGame) -> Result<(), ApiError> {
    crate::jobs::clock::flag_if_due(st, slot, g).await?;
    if let Some(Stop::Flag(side)) = g.room.stop() {
        return Err(ApiError::conflict(
            "flag_fell",
            format!("{side}'s time ran out: the game is over"),
        ));
    }
    Ok(())
}

/// 409 `stale` unless the game is at the undo count and step count the
/// client's request names (those it names), or only the engine moved since
/// the step count named (the undo then takes back the same move).
fn check_seen(g: &LiveGame, req: &UndoRequest) -> Result<(), ApiError> {
    if let Some(epoch) = req.epoch.filter(|&epoch| epoch != g.room.epoch()) {
        return Err(ApiError::conflict(
            "stale",
            format!(
                "the game has had {} undos, not {epoch}: reload it",
                g.room.epoch()
            ),
        ));
    }
    if let Some(seq) = req.seq.filter(|&seq| !g.room.undo_still_means(seq)) {
        return Err(ApiError::conflict(
            "stale",
            format!("the game has {} steps, not {seq}: reload it", g.room.seq()),
        ));
    }
    Ok(())
}

/// `POST /api/games/{id}/undo`, with an optional body `{"seq": N, "epoch": E}`:
/// the view the client undoes from, refused with 409 `stale` if the game
/// has moved on from it.
pub(crate) async fn undo(
    State(st): State<Arc<AppState>>,
    ApiPath(id): ApiPath<String>,
    headers: HeaderMap,
    ApiJsonOpt(req): ApiJsonOpt<UndoRequest>,
) -> Result<Json<GameView>, ApiError> {
    let req = req.unwrap_or_default();
    let slot = st.slot(&id).await?;
    let view = rewind(&st, &slot, |g| {
        seat(g, &headers)?;
        check_seen(g, &req)?;
        Ok(g.room.undo_target()?)
    })
    .await?;
    Ok(Json(view))
}

/// Takes the game back to its first `keep` steps, `keep` being what
/// `target` works out from the game (under its lock; an error refuses the
/// request): an undo, or a takeback the other player accepted. The game is
/// rebuilt on a blocking thread without its lock (if it changed meanwhile,
/// `target` is asked again), the later steps are deleted from the store
/// with the waiting offers (one undo more), then the rebuilt game takes the
/// place of the one in memory, keeping what only this node knows and the
/// kept steps' times; the watchers get the new view, and the engine moves
/// if it is to.
pub(crate) async fn rewind(
    st: &Arc<AppState>,
    slot: &Arc<Slot>,
    target: impl Fn(&LiveGame) -> Result<u64, ApiError>,
) -> Result<GameView, ApiError> {
    let mut tries = 0;
    let (mut g, rebuilt) = loop {
        let (keep, kept, meta, seq, epoch) = {
            let g = slot.game.lock().await;
            let keep = target(&g)?;
            (
                keep,
                g.room.step_tokens(keep),
                g.meta.clone(),
                g.room.seq(),
                g.room.epoch(),
            )
        };
        let rebuilt = AppState::rules(move || {
            let g = LiveGame::replay(meta, epoch + 1, &kept)?;
            g.room.warm();
            Ok(g)
        })
        .await?;
        let g = slot.game.lock().await;
        if g.room.seq() == seq && g.room.epoch() == epoch {
            debug_assert_eq!(rebuilt.room.seq(), keep);
            break (g, rebuilt);
        }
        tries += 1;
        if tries == 3 {
            return Err(ApiError::conflict("stale", "the game keeps changing: reload it"));
        }
    };
    let keep = rebuilt.room.seq();
    let summary = rebuilt.summary();
    let gid = g.meta.id.clone();
    st.db(move |s| s.truncate(&gid, keep, &summary)).await?;
    g.stop.store(true, Ordering::Relaxed);
    if let Some(timer) = g.clock_timer.take() {
        timer.abort();
    }
    let old = std::mem::replace(&mut *g, rebuilt);
    g.thinking = old.thinking;
    g.presence = old.presence;
    g.claim_timer = old.claim_timer;
    g.offers = old.offers.withdrawn();
    g.chat_sent = old.chat_sent;
    g.rematch = old.rematch;
    g.times = old.times;
    g.times.truncate(keep as usize);
    crate::jobs::clock::arm(st.clone(), slot.clone(), &mut g);
    let view = g.view();
    drop(g);
    broadcast_state(slot, &view);
    kick_engine(st.clone(), slot.clone());
    Ok(view)
}

pub(crate) async fn next_round(
    State(st): State<Arc<AppState>>,
    ApiPath(id): ApiPath<String>,
    headers: HeaderMap,
) -> Result<Json<GameView>, ApiError> {
    let slot = st.slot(&id).await?;
    let mut g = slot.game.lock().await;
    seat(&g, &headers)?;
    g.room.check_next_round()?;
    crate::room::live::check_room_for_step(g.room.seq(), st.limits.max_steps)?;
    g.room.commit_next_round();
    store_last_step(&st, &mut g, NEXT_ROUND.to_string()).await?;
    crate::jobs::clock::arm(st.clone(), slot.clone(), &mut g);
    let view = g.view();
    drop(g);
    broadcast_state(&slot, &view);
    kick_engine(st.clone(), slot.clone());
    Ok(Json(view))
}

/// `POST /api/games/{id}/resign`: the seat's player (in hot-seat the
/// player to move) resigns, which ends the game, or the whole match, at once
/// with the other side as the winner. Stored as a `resign:<side>` step.
/// With `{"scope": "round"}` the player resigns only a match's current
/// round: the seeds in play go to the other side, the round is counted and
/// the match goes on (a `concede:<side>` step).
pub(crate) async fn resign(
    State(st): State<Arc<AppState>>,
    ApiPath(id): ApiPath<String>,
    headers: HeaderMap,
    ApiJsonOpt(req): ApiJsonOpt<ResignRequest>,
) -> Result<Json<GameView>, ApiError> {
    let slot = st.slot(&id).await?;
    let mut g = slot.game.lock().await;
    let seat = seat(&g, &headers)?;
    let side = g.room.resigner(seat);
    let round = req.unwrap_or_default().scope == ResignScope::Round;
    g.room.resignation_by(seat, round, &g.host(crate::store::now()))?;
    if !round {
        return end_with(&st, &slot, &mut g, Stop::Resign(side)).await;
    }
    crate::jobs::clock::flag_if_due(&st, &slot, &mut g).await?;
    let token = g.room.resignation(seat, true)?;
    g.room.step(&token, 0)?;
    store_last_step(&st, &mut g, token).await?;
    // An engine search under way is of no use any more.
    g.stop.store(true, Ordering::Relaxed);
    let view = g.view();
    drop(g);
    broadcast_state(&slot, &view);
    Ok(Json(view))
}

/// `POST /api/games/{id}/abort`: the seat's player (in hot-seat the player
/// to move) aborts the game before both players have moved: it ends with
/// no winner. Stored as an `abort:<side>` step.
pub(crate) async fn abort(
    State(st): State<Arc<AppState>>,
    ApiPath(id): ApiPath<String>,
    headers: HeaderMap,
) -> Result<Json<GameView>, ApiError> {
    let slot = st.slot(&id).await?;
    let mut g = slot.game.lock().await;
    let seat = seat(&g, &headers)?;
    let stop = Stop::Abort(g.room.resigner(seat));
    end_with(&st, &slot, &mut g, stop).await
}

/// Ends the game with `stop` (checked, stored, told to the watchers).
async fn end_with(
    st: &Arc<AppState>,
    slot: &Arc<Slot>,
    g: &mut LiveGame,
    stop: Stop,
) -> Result<Json<GameView>, ApiError> {
    crate::jobs::clock::flag_if_due(st, slot, g).await?;
    g.room.check_stop(stop)?;
    g.room.commit_stop(stop);
    store_last_step(st, g, stop.token()).await?;
    // An engine search under way, or a clock, is of no use any more.
    g.stop.store(true, Ordering::Relaxed);
    if let Some(timer) = g.clock_timer.take() {
        timer.abort();
    }
    let view = g.view();
    broadcast_state(slot, &view);
    Ok(Json(view))
}

/// 401 `signed_out` unless a rated game's free seat is taken by a
/// signed-in account; 409 `same_account` if that account holds the other
/// seat (nobody is rated against themselves).
async fn check_rated_join(
    st: &AppState,
    game: &str,
    account: Option<&crate::store::Account>,
) -> Result<(), ApiError> {
    let Some(account) = account else {
        return Err(ApiError::new(
            axum::http::StatusCode::UNAUTHORIZED,
            "signed_out",
            "this game is rated: sign in to take its seat (POST /api/session)",
        ));
    };
    let (g, a) = (game.to_string(), account.id.clone());
    if st.db(move |s| s.accounts().account_seat(&a, &g)).await?.is_some() {
        return Err(ApiError::conflict(
            "same_account",
            "your account holds the other seat of this rated game: a rated game is between two accounts",
        ));
    }
    Ok(())
}

/// 409 `out_of_rating_range` unless the account taking a rated game's
/// seat from the lobby has a rating in the game's pool within `range`.
async fn check_range(
    st: &AppState,
    g: &LiveGame,
    range: [i32; 2],
    account: Option<&crate::store::Account>,
) -> Result<(), ApiError> {
    let Some(account) = account else { return Ok(()) };
    let pool = crate::ratings::Pool::of_game(&g.meta.rules, g.meta.clock).map(|p| p.to_string());
    let own = super::games::account_rating(st, &account.id, pool).await?;
    if !(range[0]..=range[1]).contains(&own) {
        return Err(ApiError::conflict(
            "out_of_rating_range",
            format!(
                "this game is open to ratings {} to {}; yours here is {own}",
                range[0], range[1]
            ),
        ));
    }
    Ok(())
}

pub(crate) async fn join(
    State(st): State<Arc<AppState>>,
    ApiPath(id): ApiPath<String>,
    ClientIp(client): ClientIp,
    headers: HeaderMap,
    ApiJson(req): ApiJson<JoinRequest>,
) -> Result<Json<SeatResponse>, ApiError> {
    // A signed-in player's seat belongs to the account, and is named after
    // it unless a nickname is given.
    let account = crate::http::session::for_write(&st, &headers).await?;
    let slot = st.slot(&id).await?;
    let mut g = slot.game.lock().await;
    if g.meta.mode != Mode::Online {
        return Err(ApiError::conflict(
            "not_online",
            "only online games can be joined",
        ));
    }
    let name = crate::room::names::check_name(req.name.as_deref())?
        .or_else(|| account.as_ref().map(|a| a.username.clone()));
    let Some(invite) = g.meta.invite.clone() else {
        return Err(ApiError::conflict("seat_taken", "both seats are taken"));
    };
    if g.meta.rated {
        check_rated_join(&st, &id, account.as_ref()).await?;
    }
    // A game in the lobby is open to anyone; otherwise the invite decides.
    let invited = req.invite.as_deref().is_some_and(|i| secret_matches(i, &invite));
    if !invited && !g.meta.public {
        return Err(ApiError::forbidden("this invite is not valid for this game"));
    }
    // A seat taken from the lobby counts among the address's open seats
    // (this game's lock is held: its own state is not looked at).
    let from_lobby = !invited;
    if from_lobby {
        drop(g);
        st.take_open_seat(client, &id).await?;
        g = slot.game.lock().await;
        if g.meta.invite.is_none() {
            st.release_open_seat(client, &id);
            return Err(ApiError::conflict("seat_taken", "both seats are taken"));
        }
    }
    if let (true, Some(range)) = (from_lobby, g.meta.rating_range) {
        if let Err(e) = check_range(&st, &g, range, account.as_ref()).await {
            st.release_open_seat(client, &id);
            return Err(e);
        }
    }
    let side = if g.meta.tokens.south.is_none() {
        Side::South
    } else {
        Side::North
    };
    crate::room::names::check_beside(name.as_deref(), g.meta.names[side.other()].as_deref())?;
    let token = random_token();
    let hashed = hash_secret(&token);
    g.meta.tokens[side] = Some(hashed.clone());
    g.meta.names[side] = name.clone();
    g.meta.invite = None;
    let summary = g.summary();
    let (gid, tok) = (g.meta.id.clone(), hashed);
    if let Err(e) = st
        .db(move |s| s.bind_seat(&gid, side, &tok, name.as_deref(), &summary))
        .await
    {
        g.meta.tokens[side] = None;
        g.meta.names[side] = None;
        g.meta.invite = Some(invite);
        if from_lobby {
            st.release_open_seat(client, &id);
        }
        return Err(e);
    }
    let view = g.view();
    drop(g);
    broadcast_state(&slot, &view);
    if let Some(account) = account {
        crate::http::session::link_seat(&st, &id, side.name(), &account).await;
    }
    Ok(Json(SeatResponse {
        id,
        token,
        seat: side.name(),
        invite: None,
        game: view,
    }))
}

/// Clears a game's hint flag when dropped.
struct HintFlag(Arc<Slot>);

impl Drop for HintFlag {
    fn drop(&mut self) {
        self.0.hinting.store(false, Ordering::Release);
    }
}

pub(crate) async fn hint(
    State(st): State<Arc<AppState>>,
    ApiPath(id): ApiPath<String>,
    ClientIp(client): ClientIp,
    headers: HeaderMap,
) -> Result<Json<HintResponse>, ApiError> {
    let slot = st.slot(&id).await?;
    let (game, level) = {
        let g = slot.game.lock().await;
        let seat = seat(&g, &headers)?;
        g.room.check_hint(seat, &g.host(crate::store::now()))?;
        (g.room.current().clone(), g.meta.level.max(ai::HINT_LEVEL))
    };
    // One hint per game at a time; the flag is cleared when this request
    // ends, even if the client goes away.
    if slot
        .hinting
        .compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire)
        .is_err()
    {
        return Err(ApiError::too_many(
            "hint_in_progress",
            "a hint for this game is being searched; wait for it",
        )
        .retry_after(1));
    }
    let _hinting = HintFlag(slot.clone());
    let held = st.reserve_deep(client)?;
    let pos = *game.position();
    let movetime = st.engine_movetime.min(ai::HINT_MOVETIME);
    let res = crate::jobs::engine::search_for_request(&st, game, level, movetime, held).await?;
    let (token, score) = res.ok_or_else(|| ApiError::conflict("game_over", "the game is over"))?;
    let sown = hoyito_room::MoveHoles::read(&pos, &token)
        .ok_or_else(|| ApiError::internal(format!("the engine's hint {token:?} is no move")))?;
    Ok(Json(HintResponse {
        token: sown.token,
        score,
        holes: sown.holes,
        dir: sown.dir,
    }))
}
