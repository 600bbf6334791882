//! Loading a game from the store ([`AppState::load_game`]: read, replayed
//! off the async executor), and on first use ([`AppState::slot`]): held in
//! memory, its engine and its clock's timer started again.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use crate::error::ApiError;
use crate::jobs::engine::kick_engine;
use crate::room::live::LiveGame;
use crate::state::{AppState, Slot};

impl AppState {
    /// The game with this id, loaded from the store (and replayed) on first use.
    pub(crate) async fn slot(self: &Arc<Self>, id: &str) -> Result<Arc<Slot>, ApiError> {
        if let Some(s) = self.cached(id) {
            s.last_used.store(crate::store::now(), Ordering::Relaxed);
            return Ok(s);
        }
        if id.is_empty() || id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(ApiError::no_game(id));
        }
        self.make_room()?;
        let Some(game) = self.load_game(id).await? else {
            return Err(ApiError::no_game(id));
        };
        let timed = game.meta.clock.is_some();
        let slot = self.insert(id.to_string(), game);
        kick_engine(self.clone(), slot.clone());
        if timed {
            let mut g = slot.game.lock().await;
            if g.clock_timer.is_none() {
                crate::jobs::clock::arm(self.clone(), slot.clone(), &mut g);
            }
        }
        Ok(slot)
    }

    /// Game `id` as stored, or `None` if there is no such game: read from
    /// the store, replayed off the async executor (its room warmed for the
    /// first view), with its steps' times if it has a clock. Used to load a
    /// game on first use and to reload one another node changed.
    pub(crate) async fn load_game(&self, id: &str) -> Result<Option<LiveGame>, ApiError> {
        let key = id.to_string();
        let Some(stored) = self.db(move |s| s.load(&key)).await? else {
            return Ok(None);
        };
        let timed = stored.meta.clock.is_some();
        let key = id.to_string();
        let mut game = AppState::rules(move || {
            let game = LiveGame::restore(stored)
                .map_err(|e| ApiError::internal(format!("game {key} does not replay: {}", e.message)))?;
            game.room.warm();
            Ok(game)
        })
        .await?;
        if timed {
            let key = id.to_string();
            game.times = self.db(move |s| s.step_times(&key)).await?;
        }
        self.rate_if_over(&mut game).await;
        Ok(Some(game))
    }
}
