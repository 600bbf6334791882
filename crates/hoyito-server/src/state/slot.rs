//! [`Slot`]: a game held in memory, the room behind its lock, with its
//! live-update channel and the messages it carries; and which games leave
//! memory when it is full ([`make_room`]). The games are kept in
//! [`crate::state::AppState`]; loading one on first use is
//! [`crate::jobs::load`].

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::Arc;

use serde::Serialize;
use tokio::sync::broadcast;

use crate::room::live::LiveGame;
use crate::room::view::{GameView, MoveEvent};

/// Messages buffered per game for slow WebSocket clients; a client that
/// falls further behind gets a fresh state instead. The channel keeps its
/// last messages (each a full game view) in memory, so this stays small.
const CHANNEL_CAPACITY: usize = 16;

/// A game in memory, with its live-update channel.
pub struct Slot {
    pub(crate) game: tokio::sync::Mutex<LiveGame>,
    /// The live-update channel, made when the first watcher subscribes: a
    /// game nobody watches costs no channel.
    tx: std::sync::OnceLock<broadcast::Sender<Arc<str>>>,
    pub(crate) last_used: AtomicI64,
    /// A hint is being searched for this game (one at a time per game).
    pub(crate) hinting: AtomicBool,
}

impl Slot {
    /// `game` in a slot, used now, with no channel yet.
    pub(crate) fn new(game: LiveGame) -> Slot {
        Slot {
            game: tokio::sync::Mutex::new(game),
            tx: std::sync::OnceLock::new(),
            last_used: AtomicI64::new(crate::store::now()),
            hinting: AtomicBool::new(false),
        }
    }

    /// A receiver of the game's live updates.
    pub(crate) fn subscribe(&self) -> broadcast::Receiver<Arc<str>> {
        self.tx
            .get_or_init(|| broadcast::channel(CHANNEL_CAPACITY).0)
            .subscribe()
    }

    /// Sends a live update to the game's watchers (none if nobody ever
    /// subscribed).
    pub(crate) fn send(&self, msg: Arc<str>) {
        if let Some(tx) = self.tx.get() {
            let _ = tx.send(msg);
        }
    }

    /// How many receivers of the game's live updates are open.
    pub(crate) fn watchers(&self) -> usize {
        self.tx.get().map_or(0, broadcast::Sender::receiver_count)
    }
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub(crate) enum WsMessage<'a> {
    State {
        game: &'a GameView,
    },
    Move {
        r#move: &'a MoveEvent,
        game: &'a GameView,
    },
    Chat {
        message: &'a crate::store::ChatMessage,
    },
    Presence {
        presence: &'a crate::room::presence::PresenceView,
    },
}

/// How every chat message sent to watchers begins (`serde` writes the tag
/// first): a socket that may not read the game's chat skips these.
pub(crate) const CHAT_PREFIX: &str = r#"{"type":"chat","#;

/// Sends a chat message to the game's watchers.
pub(crate) fn broadcast_chat(slot: &Slot, message: &crate::store::ChatMessage) {
    let msg = serde_json::to_string(&WsMessage::Chat { message }).expect("serialise");
    slot.send(msg.into());
}

/// Sends who has the game open (and the claim against a player who left)
/// to its watchers.
pub(crate) fn broadcast_presence(slot: &Slot, presence: &crate::room::presence::PresenceView) {
    let msg = serde_json::to_string(&WsMessage::Presence { presence }).expect("serialise");
    slot.send(msg.into());
}

/// Sends the game's new state to its watchers.
pub(crate) fn broadcast_state(slot: &Slot, game: &GameView) {
    let msg = serde_json::to_string(&WsMessage::State { game }).expect("serialise");
    slot.send(msg.into());
}

/// Sends a move as it was played, with the game after it, to the game's watchers.
pub(crate) fn broadcast_move(slot: &Slot, ev: &MoveEvent, game: &GameView) {
    let msg = serde_json::to_string(&WsMessage::Move { r#move: ev, game }).expect("serialise");
    slot.send(msg.into());
}

/// Drops the least recently used games nobody uses from `map` if it holds
/// `cap` games or more, down to nine tenths of `cap`. False if it still
/// holds `cap` games (all in use).
pub(crate) fn make_room(map: &mut HashMap<String, Arc<Slot>>, cap: usize) -> bool {
    let cap = cap.max(1);
    if map.len() < cap {
        return true;
    }
    let keep = cap - cap.div_ceil(10);
    let mut idle: Vec<(i64, String)> = map
        .iter()
        .filter(|(_, slot)| evictable(slot))
        .map(|(k, slot)| (slot.last_used.load(Ordering::Relaxed), k.clone()))
        .collect();
    idle.sort_unstable();
    let excess = map.len().saturating_sub(keep);
    for (_, k) in idle.into_iter().take(excess) {
        map.remove(&k);
    }
    map.len() < cap
}

/// Whether a game may leave memory: nobody watches it, no request or
/// engine search holds it.
pub(crate) fn evictable(slot: &Arc<Slot>) -> bool {
    // One reference in the map: no request or task holds it.
    Arc::strong_count(slot) == 1
        && slot.watchers() == 0
        // A game whose clock runs keeps its timer in memory.
        && slot
            .game
            .try_lock()
            .is_ok_and(|g| !g.thinking && g.deadline().is_none())
}
