//! [`LiveGame::view`]: a game shown as the API sends it, a [`GameView`]
//! whole or from a step on (the types are [`crate::room::view`]).

use hoyito_core::Side;
use hoyito_room::{Absence, Host};

use crate::room::live::LiveGame;
use crate::room::presence::{ClaimView, ConnectedView, PresenceView};
use crate::room::view::{GameView, SeatsView};
use crate::store::Mode;

impl LiveGame {
    /// The full view.
    pub fn view(&self) -> GameView {
        self.show(None)
    }

    /// A delta: the view with only the steps from index `from` on in its
    /// history (0-based; every step if `from` is 0, none past the last).
    /// What a move's answer and WebSocket message carry, so that their size
    /// does not grow with the game.
    pub fn view_since(&self, from: u64) -> GameView {
        self.show(Some(from))
    }

    /// What the room's host, this server, knows beside the room at `now`:
    /// who is seated, the offers, who is away, whether the engine is
    /// thinking, whether the game has a clock. The room decides with it
    /// what each seat may do ([`hoyito_room::Room::may`]).
    pub fn host(&self, now: i64) -> Host<'_> {
        let engine = self.meta.engine_side;
        Host {
            seated: [Side::South, Side::North].map(|side| {
                engine == Some(side)
                    || match side {
                        Side::South => self.meta.tokens.south.is_some(),
                        Side::North => self.meta.tokens.north.is_some(),
                    }
            }),
            offers: Some(&self.offers),
            absence: self.absence(now),
            thinking: self.thinking,
            timed: self.meta.clock.is_some(),
        }
    }

    fn show(&self, from: Option<u64>) -> GameView {
        let now = crate::store::now();
        let host = self.host(now);
        let mut room = self.room.view_with(from, &host);
        room.status = self.summary().status;
        let engine = self.meta.engine_side;
        GameView {
            id: self.meta.id.clone(),
            level: self.meta.level,
            seats: SeatsView {
                south: self.meta.tokens.south.is_some() || engine == Some(Side::South),
                north: self.meta.tokens.north.is_some() || engine == Some(Side::North),
            },
            draw_offer: self.pending_draw(),
            takeback_offer: self.pending_takeback(),
            names: crate::room::names::NamesView::of(&self.meta),
            clock: self.clock_view(now),
            thinking: self.thinking,
            presence: self.presence_view(now),
            rematch: self.rematch.clone(),
            created_ms: self.meta.created_ms,
            public: self.meta.public,
            rated: self.meta.rated,
            rating: self.rating,
            room,
        }
    }
}

impl LiveGame {
    /// Who is away and for how long at `now`, for the room's claim rule.
    pub fn absence(&self, now: i64) -> Option<Absence> {
        let p = &self.presence;
        let after = p.claim_after_ms?;
        let away = |k: usize| p.away_since[k].map(|t| (now - t).max(0) as u64);
        Some(Absence {
            realtime_clock: self.meta.clock.is_some_and(|c| c.days == 0),
            away_ms: [away(0), away(1)],
            claim_after_ms: after,
        })
    }

    /// The side that may claim and in how many milliseconds (0: now); none
    /// while no claim can come (both players seated, one connected, the
    /// other away, in a game where claims apply).
    pub fn claim_window(&self, now: i64) -> Option<(Side, u64)> {
        let seated = self.meta.tokens.south.is_some() && self.meta.tokens.north.is_some();
        if self.meta.mode != Mode::Online || !seated {
            return None;
        }
        self.room.claim_window(&self.absence(now)?)
    }

    /// The presence as the API sends it, at `now`.
    pub fn presence_view(&self, now: i64) -> PresenceView {
        let p = &self.presence;
        PresenceView {
            connected: ConnectedView {
                south: p.connected(Side::South),
                north: p.connected(Side::North),
            },
            spectators: p.spectators,
            claim: self.claim_window(now).map(|(by, wait)| ClaimView {
                by,
                at_ms: now + wait as i64,
                ready: wait == 0,
            }),
        }
    }
}
