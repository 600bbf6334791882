//! Several server nodes on one PostgreSQL database: what another node
//! changes in a game this node holds in memory is reloaded from the
//! database and sent to this node's watchers, as if it had been played here.
//!
//! Nodes hear of each other's changes through PostgreSQL `NOTIFY`
//! ([`crate::store::Storage::follow`]). A move, undo, seat taken, resignation,
//! draw offer (or its answer) or other stored step reloads the game; a chat
//! message is read and sent on.
//! A step a node tries to store after another node stored one at the same
//! place is refused by the database ([`crate::store::StoreError::Conflict`]):
//! the client gets 409 `stale` and the game is reloaded at once.

use std::sync::Arc;

use crate::error::ApiError;
use crate::state::{broadcast_chat, broadcast_state};
use crate::state::{AppState, Slot};
use crate::store::{Change, StoreResult};

/// Follows the other nodes' changes (nothing to follow on SQLite): returns
/// the task applying them, which ends when the state's store stops
/// announcing, or when aborted.
///
/// # Errors
/// If the database cannot be listened to.
pub(crate) async fn follow(st: Arc<AppState>) -> StoreResult<tokio::task::JoinHandle<()>> {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Change>();
    let store = st.store.clone();
    let to = tx.clone();
    tokio::task::spawn_blocking(move || store.follow(to))
        .await
        .map_err(|e| crate::store::StoreError::Pool(format!("listening task failed: {e}")))??;
    let _ = st.reloads.set(tx);
    Ok(tokio::spawn(async move {
        while let Some(change) = rx.recv().await {
            apply(&st, change).await;
        }
    }))
}

/// Applies one change announced by another node (or asked for by a
/// refused write on this one).
async fn apply(st: &Arc<AppState>, change: Change) {
    let slots: Vec<(String, Arc<Slot>)> = {
        let games = st.games.lock().unwrap_or_else(|e| e.into_inner());
        if change.game == "*" {
            games.iter().map(|(id, s)| (id.clone(), s.clone())).collect()
        } else {
            games
                .get(&change.game)
                .map(|s| (change.game.clone(), s.clone()))
                .into_iter()
                .collect()
        }
    };
    for (id, slot) in slots {
        let result = match change.chat {
            Some(seq) => send_chat(st, &id, &slot, seq).await,
            None => reload(st, &id, &slot).await,
        };
        if let Err(e) = result {
            tracing::error!(game = %id, error = %e.message, "cannot follow another node's change");
        }
    }
}

/// Sends chat message `seq` of game `id` to this node's watchers.
async fn send_chat(st: &Arc<AppState>, id: &str, slot: &Slot, seq: u64) -> Result<(), ApiError> {
    let key = id.to_string();
    let messages = st.db(move |s| s.chat(&key, 100)).await?;
    if let Some(m) = messages.iter().find(|m| m.seq == seq) {
        broadcast_chat(slot, m);
    }
    Ok(())
}

/// Reloads game `id` from the database into `slot` and sends its view to
/// the watchers.
async fn reload(st: &Arc<AppState>, id: &str, slot: &Arc<Slot>) -> Result<(), ApiError> {
    let Some(fresh) = st.load_game(id).await? else {
        // Deleted (an abandoned game expired): gone from memory too.
        crate::jobs::expiry::forget(st, id);
        return Ok(());
    };
    let timed = fresh.meta.clock.is_some();
    let mut g = slot.game.lock().await;
    if !g.refresh(fresh) {
        return Ok(()); // this node changed the game meanwhile: its copy is newer
    }
    if timed {
        crate::jobs::clock::arm(st.clone(), slot.clone(), &mut g);
    }
    let view = g.view();
    drop(g);
    broadcast_state(slot, &view);
    Ok(())
}
