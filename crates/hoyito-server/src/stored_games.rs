//! The games of a database, read back as the core's games
//! ([`stored_games`]): for programs that learn from what was played on a
//! server, such as `hoyito puzzles generate --db`.

use hoyito_core::{Game, Rules};

use crate::room::live::LiveGame;
use crate::store::{Store, StoreError};

/// Game ids read from the database at once.
const PAGE: u32 = 500;

/// Why [`stored_games`] stopped.
#[derive(Debug, thiserror::Error)]
pub enum StoredGamesError {
    /// The database failed.
    #[error("reading the stored games: {0}")]
    Store(#[from] StoreError),
}

/// What [`stored_games`] read.
#[derive(Debug, Default, Clone)]
pub struct StoredGames {
    /// The games of `rules` (every round of a match), oldest game first.
    pub games: Vec<Game>,
    /// Games over read from the database, of any rules.
    pub read: u64,
    /// Games over that could not be replayed (a step this version refuses),
    /// left out.
    pub unreadable: u64,
}

/// The games over in `store` (public or not) on `rules`, oldest first,
/// at most `max` of them: each game a game of the core, as
/// `GET /api/games/{id}/record` writes it (a match gives its rounds).
///
/// # Errors
/// If the database fails.
pub fn stored_games(store: &Store, rules: &Rules, max: usize) -> Result<StoredGames, StoredGamesError> {
    let mut out = StoredGames::default();
    let mut offset = 0u64;
    while out.games.len() < max {
        let ids = store.over_game_ids(PAGE, offset)?;
        if ids.is_empty() {
            break;
        }
        offset += ids.len() as u64;
        for id in ids {
            let Some(stored) = store.load(&id)? else {
                // Deleted since it was listed.
                continue;
            };
            out.read += 1;
            if stored.meta.rules != *rules {
                continue;
            }
            match LiveGame::restore(stored) {
                Ok(g) => {
                    let games = g.room.contest().rounds();
                    let room = max - out.games.len();
                    out.games.extend(games.iter().take(room).cloned());
                }
                Err(_) => out.unreadable += 1,
            }
            if out.games.len() >= max {
                break;
            }
        }
    }
    Ok(out)
}
