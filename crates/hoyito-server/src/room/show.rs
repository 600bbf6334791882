//! [`LiveGame::view`]: a game shown as the API sends it, a [`GameView`]
//! whole or from a step on (the types are [`crate::room::view`]).

use hoyito_core::Side;

use crate::room::live::LiveGame;
use crate::room::view::{GameView, RoomView, SeatsView};

impl LiveGame {
    /// The full view.
    pub fn view(&self) -> GameView {
        self.show(self.room.view())
    }

    /// A delta: the view with only the steps from index `from` on in its
    /// history (0-based; every step if `from` is 0, none past the last).
    /// What a move's answer and WebSocket message carry, so that their size
    /// does not grow with the game.
    pub fn view_since(&self, from: u64) -> GameView {
        self.show(self.room.view_since(from))
    }

    fn show(&self, mut room: RoomView) -> GameView {
        room.status = self.summary().status;
        let engine = self.meta.engine_side;
        let now = crate::store::now();
        GameView {
            id: self.meta.id.clone(),
            level: self.meta.level,
            seats: SeatsView {
                south: self.meta.tokens.south.is_some() || engine == Some(Side::South),
                north: self.meta.tokens.north.is_some() || engine == Some(Side::North),
            },
            draw_offer: self.pending_draw(),
            names: crate::room::names::NamesView::of(&self.meta),
            clock: self.clock_view(now),
            thinking: self.thinking,
            presence: self.presence_view(now),
            rematch: self.rematch.clone(),
            created_ms: self.meta.created_ms,
            room,
        }
    }
}
