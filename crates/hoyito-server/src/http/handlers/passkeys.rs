//! Passkeys: signing up with one (no password), signing in with one, and
//! the passkeys of the account signed in (adding, listing, removing).
//!
//! Each registration and sign-in is a ceremony of two requests
//! ([`crate::passkeys`]): `…/start` answers the options for the browser's
//! `navigator.credentials.create()` or `.get()` and a ceremony id, kept
//! with its state in the database; `…/finish` brings the authenticator's
//! answer with that id, used once. Every request checks that it comes
//! from the server's own pages ([`same_origin`]); the routes count as
//! sign-ins per address, and a sign-in also per username
//! ([`crate::ServerLimits::account_sign_in_rate`]).

use std::sync::Arc;

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use webauthn_rs::prelude::{DiscoverableAuthentication, Passkey, PasskeyRegistration, PublicKeyCredential};

use super::account::{attempt, check_free, check_username, start_session, username_taken, view};
use crate::auth::{hash_secret, random_id};
use crate::error::ApiError;
use crate::http::extract::{ApiJson, ApiPath};
use crate::http::session::{self, same_origin};
use crate::http::wire::{
    PasskeyChallenge, PasskeyRegistrationFinish, PasskeySignInFinish, PasskeyStart, PasskeyView,
    PasskeysResponse, SignUpResponse, WhoAmI,
};
use crate::passkeys::{base64url, relying_party, user_handle, webauthn};
use crate::passwords::{normalize_code, recovery_codes, session_token};
use crate::room::lookalike::fold;
use crate::state::AppState;
use crate::store::{Account, Ceremony, NewAccount, Removal, StoredPasskey};

/// What a ceremony is for (`passkey_ceremonies.kind`).
const SIGN_UP: &str = "sign_up";
const ADD: &str = "add";
const SIGN_IN: &str = "sign_in";

/// 401 `passkey_refused`: a passkey's answer that signs nobody in.
pub(super) fn refused(why: impl std::fmt::Display) -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        "passkey_refused",
        format!("the passkey was refused: {why}"),
    )
}

/// 400 `challenge_expired`: no ceremony has this id (never started, used
/// already, or expired).
fn challenge_expired(st: &AppState) -> ApiError {
    ApiError::new(
        StatusCode::BAD_REQUEST,
        "challenge_expired",
        format!(
            "this passkey request is unknown, used already or expired (each lasts {} seconds): start again",
            st.limits.passkey_timeout.as_secs()
        ),
    )
}

/// 409 `passkey_taken`: the credential is registered already.
fn passkey_taken() -> ApiError {
    ApiError::conflict(
        "passkey_taken",
        "this passkey is registered already (to this account or another): use another",
    )
}

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError::internal(e.to_string())
}

/// Stores a new ceremony; its id and when it expires.
async fn begin(
    st: &AppState,
    kind: &str,
    account_id: Option<String>,
    username: Option<String>,
    origin: String,
    state: String,
) -> Result<(String, i64), ApiError> {
    // 256 random bits, as a session id.
    let id = session_token();
    let now = crate::store::now();
    let expires_ms = now + st.limits.passkey_timeout.as_millis() as i64;
    let ceremony = Ceremony {
        id_hash: hash_secret(&id),
        kind: kind.to_string(),
        account_id,
        username,
        origin,
        state,
        expires_ms,
    };
    st.db(move |s| s.passkeys().insert_ceremony(&ceremony, now))
        .await?;
    Ok((id, expires_ms))
}

/// Takes the ceremony with id `id` if it is of one of `kinds`.
///
/// # Errors
/// 400 `challenge_expired` if there is none (a ceremony of another kind is
/// used up all the same).
async fn take(st: &AppState, id: &str, kinds: &[&str]) -> Result<Ceremony, ApiError> {
    let hash = hash_secret(id);
    let now = crate::store::now();
    let ceremony = st.db(move |s| s.passkeys().take_ceremony(&hash, now)).await?;
    ceremony
        .filter(|c| kinds.contains(&c.kind.as_str()))
        .ok_or_else(|| challenge_expired(st))
}

/// `POST /api/passkeys/register/start`: with a `username`, signing up with
/// a passkey (the account is made when the passkey is); without, a new
/// passkey for the account signed in.
pub(crate) async fn register_start(
    State(st): State<Arc<AppState>>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<PasskeyStart>,
) -> Result<Json<PasskeyChallenge>, ApiError> {
    same_origin(&headers, &st.limits.allowed_origins)?;
    let origin = relying_party(&headers, &st.limits)?;
    let (kind, account_id, username, exclude) = match req.username {
        Some(username) => {
            let username = check_username(&username)?;
            check_free(&st, &fold(&username)).await?;
            (SIGN_UP, random_id(12), username, Vec::new())
        }
        None => {
            let account = session::require(&st, &headers).await?;
            let id = account.id.clone();
            let keys = st.db(move |s| s.passkeys().account_passkeys(&id)).await?;
            let mut exclude = Vec::with_capacity(keys.len());
            for k in keys {
                let passkey: Passkey = serde_json::from_str(&k.passkey).map_err(internal)?;
                exclude.push(passkey.cred_id().clone());
            }
            (ADD, account.id, account.username, exclude)
        }
    };
    let wa = webauthn(&origin, st.limits.passkey_timeout)?;
    let exclude = (!exclude.is_empty()).then_some(exclude);
    let (challenge, state) = wa
        .start_passkey_registration(user_handle(&account_id), &username, &username, exclude)
        .map_err(internal)?;
    let mut options = serde_json::to_value(&challenge).map_err(internal)?;
    // A passkey the device can find by itself where it can (sign-in
    // without the username), on any device that can keep one.
    if let Some(selection) = options["publicKey"]["authenticatorSelection"].as_object_mut() {
        selection.insert("residentKey".into(), "preferred".into());
    }
    let state = serde_json::to_string(&state).map_err(internal)?;
    let new_username = (kind == SIGN_UP).then_some(username);
    let (ceremony, expires_ms) = begin(&st, kind, Some(account_id), new_username, origin, state).await?;
    Ok(Json(PasskeyChallenge {
        ceremony,
        options,
        expires_ms,
    }))
}

/// `POST /api/passkeys/register/finish`: the new passkey. Signing up, the
/// account is made with it (and recovery codes, shown once) and signed
/// in; else the passkey is the account's signed in.
pub(crate) async fn register_finish(
    State(st): State<Arc<AppState>>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<PasskeyRegistrationFinish>,
) -> Result<Response, ApiError> {
    same_origin(&headers, &st.limits.allowed_origins)?;
    let ceremony = take(&st, &req.ceremony, &[SIGN_UP, ADD]).await?;
    let account_id = ceremony
        .account_id
        .clone()
        .ok_or_else(|| ApiError::internal("a registration without its account"))?;
    let signed_in = if ceremony.kind == ADD {
        let account = session::require(&st, &headers).await?;
        if account.id != account_id {
            return Err(ApiError::forbidden(
                "this passkey request was started for another account than the one signed in",
            ));
        }
        Some(account)
    } else {
        None
    };
    let state: PasskeyRegistration = serde_json::from_str(&ceremony.state).map_err(internal)?;
    let wa = webauthn(&ceremony.origin, st.limits.passkey_timeout)?;
    let passkey = wa
        .finish_passkey_registration(&req.credential, &state)
        .map_err(|e| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "passkey_refused",
                format!("the new passkey was refused: {e}"),
            )
        })?;
    let now = crate::store::now();
    let stored = StoredPasskey {
        id: random_id(12),
        account_id: account_id.clone(),
        credential_id: base64url(passkey.cred_id()),
        passkey: serde_json::to_string(&passkey).map_err(internal)?,
        created_ms: now,
        last_used_ms: None,
    };
    let created = passkey_view(&stored);
    if let Some(account) = signed_in {
        if !st.db(move |s| s.passkeys().insert_passkey(&stored)).await? {
            return Err(passkey_taken());
        }
        let body = serde_json::json!({ "passkey": created, "account": view(&st, &account).await? });
        return Ok((StatusCode::CREATED, Json(body)).into_response());
    }
    let username = ceremony
        .username
        .ok_or_else(|| ApiError::internal("a sign-up without its username"))?;
    let codes = recovery_codes();
    let hashes: Vec<String> = codes.iter().map(|c| hash_secret(&normalize_code(c))).collect();
    let account = Account {
        id: account_id,
        skeleton: fold(&username),
        username,
        password_hash: String::new(),
        created_ms: now,
    };
    let new = account.clone();
    match st
        .db(move |s| s.passkeys().insert_account_with_passkey(&new, &hashes, &stored))
        .await?
    {
        NewAccount::Created => {}
        NewAccount::UsernameTaken => return Err(username_taken()),
        NewAccount::PasskeyTaken => return Err(passkey_taken()),
    }
    let cookie = start_session(&st, &account.id, &headers).await?;
    let body = SignUpResponse {
        account: view(&st, &account).await?,
        recovery_codes: codes,
    };
    Ok((StatusCode::CREATED, [(header::SET_COOKIE, cookie)], Json(body)).into_response())
}

/// `POST /api/session/passkey/start`: a sign-in with a passkey. With a
/// `username`, the account's passkeys are offered (401 `no_passkey` if it
/// has none); without, the device offers the passkeys it keeps for this
/// site.
pub(crate) async fn sign_in_start(
    State(st): State<Arc<AppState>>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<PasskeyStart>,
) -> Result<Json<PasskeyChallenge>, ApiError> {
    same_origin(&headers, &st.limits.allowed_origins)?;
    let origin = relying_party(&headers, &st.limits)?;
    let wa = webauthn(&origin, st.limits.passkey_timeout)?;
    let (challenge, state) = wa.start_discoverable_authentication().map_err(internal)?;
    let mut options = serde_json::to_value(&challenge).map_err(internal)?;
    // A sign-in the player asked for, not one waiting in the username field.
    if let Some(o) = options.as_object_mut() {
        o.remove("mediation");
    }
    let account_id = match req.username {
        Some(username) => {
            let account = attempt(&st, &username).await?;
            let keys = match &account {
                Some(a) => {
                    let id = a.id.clone();
                    st.db(move |s| s.passkeys().account_passkeys(&id)).await?
                }
                None => Vec::new(),
            };
            let (Some(account), false) = (account, keys.is_empty()) else {
                return Err(ApiError::new(
                    StatusCode::UNAUTHORIZED,
                    "no_passkey",
                    "no account with this username has a passkey: sign in with the password",
                ));
            };
            let allowed: Vec<serde_json::Value> = keys
                .iter()
                .map(|k| serde_json::json!({ "type": "public-key", "id": k.credential_id }))
                .collect();
            options["publicKey"]["allowCredentials"] = allowed.into();
            Some(account.id)
        }
        None => None,
    };
    let state = serde_json::to_string(&state).map_err(internal)?;
    let (ceremony, expires_ms) = begin(&st, SIGN_IN, account_id, None, origin, state).await?;
    Ok(Json(PasskeyChallenge {
        ceremony,
        options,
        expires_ms,
    }))
}

/// The account whose passkey answered sign-in ceremony `id` with
/// `credential` (the ceremony used up). The passkey's counter and last
/// use are stored.
///
/// # Errors
/// 400 `challenge_expired`; 401 `passkey_refused` for an unknown passkey,
/// another account's than the ceremony's, or an answer that does not
/// verify (signature, challenge, origin, RP id, user verification); 429
/// past the limit per username of a sign-in that named none.
pub(super) async fn confirm(
    st: &AppState,
    id: &str,
    credential: &PublicKeyCredential,
) -> Result<Account, ApiError> {
    let ceremony = take(st, id, &[SIGN_IN]).await?;
    let credential_id = base64url(credential.get_credential_id());
    let found = st
        .db(move |s| s.passkeys().passkey_by_credential(&credential_id))
        .await?;
    let Some((stored, account)) = found else {
        return Err(refused("it is not registered here (or it was removed)"));
    };
    match &ceremony.account_id {
        Some(named) if *named != account.id => {
            return Err(refused("it is not a passkey of the account named"));
        }
        Some(_) => {}
        // Counted per username once the passkey names its account.
        None => st.rates.account_sign_ins.check(account.skeleton.clone())?,
    }
    if let Some(handle) = credential.get_user_unique_id() {
        if handle != user_handle(&account.id).as_bytes() {
            return Err(refused("its user handle is not its account's"));
        }
    }
    let mut passkey: Passkey = serde_json::from_str(&stored.passkey).map_err(internal)?;
    let state: DiscoverableAuthentication = serde_json::from_str(&ceremony.state).map_err(internal)?;
    let wa = webauthn(&ceremony.origin, st.limits.passkey_timeout)?;
    let result = wa
        .finish_discoverable_authentication_v2(credential, state, &passkey)
        .map_err(refused)?;
    let changed = passkey.update_credential(&result) == Some(true);
    let updated = if changed {
        Some(serde_json::to_string(&passkey).map_err(internal)?)
    } else {
        None
    };
    let now = crate::store::now();
    st.db(move |s| s.passkeys().passkey_used(&stored.id, updated.as_deref(), now))
        .await?;
    Ok(account)
}

/// `POST /api/session/passkey/finish`: signs in with the passkey's answer.
pub(crate) async fn sign_in_finish(
    State(st): State<Arc<AppState>>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<PasskeySignInFinish>,
) -> Result<Response, ApiError> {
    same_origin(&headers, &st.limits.allowed_origins)?;
    let account = confirm(&st, &req.ceremony, &req.credential).await?;
    let cookie = start_session(&st, &account.id, &headers).await?;
    let body = WhoAmI {
        account: Some(view(&st, &account).await?),
    };
    Ok(([(header::SET_COOKIE, cookie)], Json(body)).into_response())
}

fn passkey_view(p: &StoredPasskey) -> PasskeyView {
    PasskeyView {
        id: p.id.clone(),
        created_ms: p.created_ms,
        last_used_ms: p.last_used_ms,
    }
}

/// `GET /api/account/passkeys`: the passkeys of the account signed in.
pub(crate) async fn list(
    State(st): State<Arc<AppState>>,
    headers: HeaderMap,
) -> Result<Json<PasskeysResponse>, ApiError> {
    let account = session::require(&st, &headers).await?;
    let keys = st.db(move |s| s.passkeys().account_passkeys(&account.id)).await?;
    Ok(Json(PasskeysResponse {
        passkeys: keys.iter().map(passkey_view).collect(),
    }))
}

/// `DELETE /api/account/passkeys/{id}`: removes a passkey of the account
/// signed in, unless it is its last way to sign in (409 `last_sign_in`).
pub(crate) async fn remove(
    State(st): State<Arc<AppState>>,
    ApiPath(id): ApiPath<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    same_origin(&headers, &st.limits.allowed_origins)?;
    let account = session::require(&st, &headers).await?;
    let acc = account.id.clone();
    match st.db(move |s| s.passkeys().remove_passkey(&acc, &id)).await? {
        Removal::Removed => {}
        Removal::NotFound => {
            return Err(ApiError::new(
                StatusCode::NOT_FOUND,
                "not_found",
                "the account signed in has no such passkey",
            ))
        }
        Removal::LastSignIn => {
            return Err(ApiError::conflict(
                "last_sign_in",
                "this is the account's last way to sign in (it has no password and no other \
                 passkey): add a passkey or set a password with a recovery code first",
            ))
        }
    }
    let body = serde_json::json!({ "removed": true, "account": view(&st, &account).await? });
    Ok(Json(body).into_response())
}
