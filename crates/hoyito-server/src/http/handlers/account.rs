//! Accounts and sessions: signing up, in and out, the account signed in,
//! its games, its export, recovery with a recovery code, deletion, and a
//! seat of the account's handed to a device where it is signed in.
//!
//! Every write here checks that it comes from the server's own pages
//! ([`session::same_origin`]); sign-ins and recoveries are limited per
//! address (the route's limit) and per username
//! ([`crate::ServerLimits::account_sign_in_rate`]); password hashes run on
//! the bounded password workers ([`AppState::password_work`]).

use std::sync::Arc;

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

use crate::auth::{hash_secret, random_id, random_token};
use crate::error::ApiError;
use crate::http::extract::{ApiJson, ApiPath, ApiQuery};
use crate::http::session::{self, same_origin};
use crate::http::wire::{
    AccountGamesQuery, AccountGamesResponse, AccountView, Credentials, DeleteAccountRequest, RecoverRequest,
    SeatResponse, SignUpResponse, WhoAmI,
};
use crate::passwords::{
    check_strength, dummy_hash, hash_password, normalize_code, recovery_codes, session_token, verify_password,
};
use crate::room::lookalike::fold;
use crate::state::{broadcast_state, AppState};
use crate::store::{Account, Mode};

/// 401 `bad_credentials`: the one answer to a wrong password, an unknown
/// username and a wrong recovery code.
fn bad_credentials() -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        "bad_credentials",
        "the username or the password (or recovery code) is wrong",
    )
}

/// The account as its owner sees it.
pub(super) async fn view(st: &AppState, account: &Account) -> Result<AccountView, ApiError> {
    let id = account.id.clone();
    let (left, ratings, passkeys) = st
        .db(move |s| {
            Ok((
                s.accounts().recovery_codes_left(&id)?,
                s.ratings().account_ratings(&id)?,
                s.passkeys().account_passkeys(&id)?.len() as u64,
            ))
        })
        .await?;
    Ok(AccountView {
        username: account.username.clone(),
        created_ms: account.created_ms,
        recovery_codes_left: left,
        password: !account.password_hash.is_empty(),
        passkeys,
        ratings: ratings.into_iter().map(Into::into).collect(),
    })
}

/// Makes a new session of `account` (deleting the request's former one,
/// if any: a sign-in never keeps a session id the browser had before);
/// the `Set-Cookie` value that gives it.
pub(super) async fn start_session(
    st: &AppState,
    account: &str,
    headers: &HeaderMap,
) -> Result<axum::http::HeaderValue, ApiError> {
    let token = session_token();
    let hash = hash_secret(&token);
    let old = session::token(headers).map(hash_secret);
    let now = crate::store::now();
    let expires = now + st.limits.session_lifetime.as_millis() as i64;
    let account = account.to_string();
    st.db(move |s| {
        if let Some(old) = old {
            s.accounts().delete_session(&old)?;
        }
        s.accounts().insert_session(&hash, &account, now, expires)
    })
    .await?;
    Ok(session::set_cookie(&token, &st.limits))
}

/// The username as given, checked by the nickname rules.
pub(super) fn check_username(username: &str) -> Result<String, ApiError> {
    crate::room::names::check_name(Some(username))?
        .ok_or_else(|| ApiError::unprocessable("invalid_name", "the username is empty"))
}

/// 409 `username_taken`.
pub(super) fn username_taken() -> ApiError {
    ApiError::conflict(
        "username_taken",
        "an account has this username, or one that looks the same: choose another",
    )
}

/// 409 `username_taken` if an account's username has `skeleton`.
pub(super) async fn check_free(st: &AppState, skeleton: &str) -> Result<(), ApiError> {
    let sk = skeleton.to_string();
    match st.db(move |s| s.accounts().account_by_skeleton(&sk)).await? {
        Some(_) => Err(username_taken()),
        None => Ok(()),
    }
}

/// `POST /api/account`: signs up (and in).
pub(crate) async fn sign_up(
    State(st): State<Arc<AppState>>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<Credentials>,
) -> Result<Response, ApiError> {
    same_origin(&headers, &st.limits.allowed_origins)?;
    let username = check_username(&req.username)?;
    check_strength(&req.password, &username)
        .map_err(|e| ApiError::unprocessable("weak_password", e.to_string()))?;
    let skeleton = fold(&username);
    check_free(&st, &skeleton).await?;
    let password = req.password;
    let password_hash = st
        .password_work(move || hash_password(&password))
        .await?
        .map_err(|e| ApiError::internal(e.to_string()))?;
    let codes = recovery_codes();
    let hashes: Vec<String> = codes.iter().map(|c| hash_secret(&normalize_code(c))).collect();
    let account = Account {
        id: random_id(12),
        username,
        skeleton,
        password_hash,
        created_ms: crate::store::now(),
    };
    let stored = account.clone();
    if !st
        .db(move |s| s.accounts().insert_account(&stored, &hashes))
        .await?
    {
        return Err(username_taken());
    }
    let cookie = start_session(&st, &account.id, &headers).await?;
    let body = SignUpResponse {
        account: view(&st, &account).await?,
        recovery_codes: codes,
    };
    Ok((StatusCode::CREATED, [(header::SET_COOKIE, cookie)], Json(body)).into_response())
}

/// Counts a sign-in attempt for `username` (by its skeleton: the same
/// count whether or not the account exists) and finds its account.
pub(super) async fn attempt(st: &AppState, username: &str) -> Result<Option<Account>, ApiError> {
    let skeleton = fold(username.trim());
    st.rates.account_sign_ins.check(skeleton.clone())?;
    st.db(move |s| s.accounts().account_by_skeleton(&skeleton)).await
}

/// Whether `password` is `account`'s; with no account, or an account
/// without a password (passkeys only), the same work against a dummy hash,
/// and `false`.
async fn password_matches(
    st: &AppState,
    account: Option<&Account>,
    password: String,
) -> Result<bool, ApiError> {
    let stored = account.map(|a| a.password_hash.clone()).filter(|h| !h.is_empty());
    st.password_work(move || {
        let dummy = dummy_hash();
        let matches = verify_password(&password, stored.as_deref().unwrap_or(dummy));
        matches && stored.is_some()
    })
    .await
}

/// `POST /api/session`: signs in.
pub(crate) async fn sign_in(
    State(st): State<Arc<AppState>>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<Credentials>,
) -> Result<Response, ApiError> {
    same_origin(&headers, &st.limits.allowed_origins)?;
    let account = attempt(&st, &req.username).await?;
    if !password_matches(&st, account.as_ref(), req.password).await? {
        return Err(bad_credentials());
    }
    let account = account.ok_or_else(bad_credentials)?;
    let cookie = start_session(&st, &account.id, &headers).await?;
    let body = WhoAmI {
        account: Some(view(&st, &account).await?),
    };
    Ok(([(header::SET_COOKIE, cookie)], Json(body)).into_response())
}

/// `POST /api/account/recover`: a recovery code sets a new password; every
/// session of the account ends, and a new one starts.
pub(crate) async fn recover(
    State(st): State<Arc<AppState>>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<RecoverRequest>,
) -> Result<Response, ApiError> {
    same_origin(&headers, &st.limits.allowed_origins)?;
    check_strength(&req.password, req.username.trim())
        .map_err(|e| ApiError::unprocessable("weak_password", e.to_string()))?;
    let account = attempt(&st, &req.username).await?;
    // The new password is hashed whether or not the account exists.
    let password = req.password;
    let password_hash = st
        .password_work(move || hash_password(&password))
        .await?
        .map_err(|e| ApiError::internal(e.to_string()))?;
    let Some(account) = account else {
        return Err(bad_credentials());
    };
    let code = hash_secret(&normalize_code(&req.code));
    let id = account.id.clone();
    if !st
        .db(move |s| s.accounts().recover(&id, &code, &password_hash))
        .await?
    {
        return Err(bad_credentials());
    }
    let cookie = start_session(&st, &account.id, &headers).await?;
    let body = WhoAmI {
        account: Some(view(&st, &account).await?),
    };
    Ok(([(header::SET_COOKIE, cookie)], Json(body)).into_response())
}

/// `DELETE /api/session`: signs out (this session ends).
pub(crate) async fn sign_out(
    State(st): State<Arc<AppState>>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    same_origin(&headers, &st.limits.allowed_origins)?;
    let ended = match session::token(&headers).map(hash_secret) {
        Some(hash) => st.db(move |s| s.accounts().delete_session(&hash)).await?,
        None => false,
    };
    let cookie = session::clear_cookie(&st.limits);
    Ok((
        [(header::SET_COOKIE, cookie)],
        Json(serde_json::json!({ "ended": ended })),
    )
        .into_response())
}

/// `DELETE /api/sessions`: signs out everywhere (every session of the
/// account ends).
pub(crate) async fn sign_out_everywhere(
    State(st): State<Arc<AppState>>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    same_origin(&headers, &st.limits.allowed_origins)?;
    let account = session::require(&st, &headers).await?;
    let ended = st.db(move |s| s.accounts().delete_sessions(&account.id)).await?;
    let cookie = session::clear_cookie(&st.limits);
    Ok((
        [(header::SET_COOKIE, cookie)],
        Json(serde_json::json!({ "ended": ended })),
    )
        .into_response())
}

/// `GET /api/account`: the account signed in, or `null`.
pub(crate) async fn who_am_i(
    State(st): State<Arc<AppState>>,
    headers: HeaderMap,
) -> Result<Json<WhoAmI>, ApiError> {
    let account = match session::signed_in(&st, &headers).await? {
        Some(a) => Some(view(&st, &a).await?),
        None => None,
    };
    Ok(Json(WhoAmI { account }))
}

/// `DELETE /api/account`: deletes the account (the password asked again,
/// or a passkey's answer to a sign-in ceremony for it). Its sessions,
/// recovery codes, passkeys and links to seats go; its games stay, the
/// names of its seats cleared.
pub(crate) async fn delete(
    State(st): State<Arc<AppState>>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<DeleteAccountRequest>,
) -> Result<Response, ApiError> {
    same_origin(&headers, &st.limits.allowed_origins)?;
    let account = session::require(&st, &headers).await?;
    match (req.password, req.ceremony, req.credential) {
        (Some(password), None, None) => {
            if !password_matches(&st, Some(&account), password).await? {
                return Err(bad_credentials());
            }
        }
        (None, Some(ceremony), Some(credential)) => {
            let signer = super::passkeys::confirm(&st, &ceremony, &credential).await?;
            if signer.id != account.id {
                return Err(super::passkeys::refused(
                    "this passkey is another account's: use one of the account signed in",
                ));
            }
        }
        _ => {
            return Err(ApiError::unprocessable(
                "invalid_fields",
                "give the account's password (password), or a passkey's answer to a sign-in \
                 ceremony (ceremony and credential)",
            ))
        }
    }
    let id = account.id.clone();
    let cleared = st.db(move |s| s.accounts().delete_account(&id)).await?;
    // The games in memory lose the names too.
    for seat in cleared {
        let Some(slot) = st.cached(&seat.game) else {
            continue;
        };
        let mut g = slot.game.lock().await;
        for side in sides(&seat.seat) {
            g.meta.names[*side] = None;
        }
        let view = g.view();
        drop(g);
        broadcast_state(&slot, &view);
    }
    let cookie = session::clear_cookie(&st.limits);
    Ok((
        [(header::SET_COOKIE, cookie)],
        Json(serde_json::json!({ "deleted": true })),
    )
        .into_response())
}

/// The sides of a stored seat name.
fn sides(seat: &str) -> &'static [hoyito_core::Side] {
    use hoyito_core::Side;
    match seat {
        "south" => &[Side::South],
        "north" => &[Side::North],
        _ => &[Side::South, Side::North],
    }
}

/// Most games `GET /api/account/games` answers at once.
pub const MAX_ACCOUNT_GAMES: u32 = 200;

/// `GET /api/account/games`: the account's games, most recently changed first.
pub(crate) async fn games(
    State(st): State<Arc<AppState>>,
    headers: HeaderMap,
    ApiQuery(q): ApiQuery<AccountGamesQuery>,
) -> Result<Json<AccountGamesResponse>, ApiError> {
    let limit = super::page_limit(q.limit, 50, MAX_ACCOUNT_GAMES)?;
    let offset = q.offset.unwrap_or(0);
    let account = session::require(&st, &headers).await?;
    let games = st
        .db(move |s| s.accounts().account_games(&account.id, limit, offset))
        .await?;
    Ok(Json(AccountGamesResponse { games }))
}

/// Most games an export holds.
pub const MAX_EXPORT_GAMES: u32 = 10_000;

/// `GET /api/account/export`: the account and its games with their steps,
/// as one JSON file.
pub(crate) async fn export(
    State(st): State<Arc<AppState>>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let account = session::require(&st, &headers).await?;
    let view = view(&st, &account).await?;
    let id = account.id.clone();
    let (games, puzzle_rating) = st
        .db(move |s| {
            let puzzle_rating = s.ratings().puzzle_rating(&id)?;
            let listed = s.accounts().account_games(&id, MAX_EXPORT_GAMES, 0)?;
            let mut games = Vec::with_capacity(listed.len());
            for g in listed {
                let steps = s.load(&g.game.id)?.map(|stored| stored.steps).unwrap_or_default();
                let mut value = serde_json::to_value(&g).expect("a listed game serialises");
                value["steps"] = serde_json::json!(steps);
                games.push(value);
            }
            Ok((games, puzzle_rating))
        })
        .await?;
    let body = serde_json::json!({ "account": view, "games": games, "puzzle_rating": puzzle_rating });
    let disposition = "attachment; filename=\"hoyito-account.json\"";
    Ok(([(header::CONTENT_DISPOSITION, disposition)], Json(body)).into_response())
}

/// `POST /api/games/{id}/seat`: the seat the account signed in holds in
/// game `id`, with a new token for this device. The seat has one token at
/// a time: the device that held it before holds it no more (signed in
/// there too, it takes it back the same way).
pub(crate) async fn take_seat(
    State(st): State<Arc<AppState>>,
    ApiPath(id): ApiPath<String>,
    headers: HeaderMap,
) -> Result<Json<SeatResponse>, ApiError> {
    same_origin(&headers, &st.limits.allowed_origins)?;
    let account = session::require(&st, &headers).await?;
    let (acc, gid) = (account.id.clone(), id.clone());
    let Some(seat) = st.db(move |s| s.accounts().account_seat(&acc, &gid)).await? else {
        return Err(ApiError::forbidden(
            "your account holds no seat in this game (or there is no such game)",
        ));
    };
    let slot = st.slot(&id).await?;
    let mut g = slot.game.lock().await;
    let token = random_token();
    let hashed = hash_secret(&token);
    let before = g.meta.tokens.clone();
    for side in sides(&seat) {
        g.meta.tokens[*side] = Some(hashed.clone());
    }
    let (gid, stored_seat, h) = (id.clone(), seat.clone(), hashed.clone());
    if let Err(e) = st
        .db(move |s| s.accounts().set_seat_token(&gid, &stored_seat, &h))
        .await
    {
        g.meta.tokens = before;
        return Err(e);
    }
    let view = g.view();
    let seat_name = match (g.meta.mode, seat.as_str()) {
        (Mode::Hotseat, _) | (_, "both") => "both",
        (_, "south") => "south",
        _ => "north",
    };
    Ok(Json(SeatResponse {
        id,
        token,
        seat: seat_name,
        invite: None,
        game: view,
    }))
}
