//! [`LiveGame`]: a game held in memory — its room ([`Room`]: the steps, the
//! checks of every step, undo and the view, shared with the browser) and
//! what the server adds: the seats' tokens, the draw offer and the
//! takeback request, the clocks' times, the engine's search and the chat's flood counts.
//!
//! Changing a game is two-phase so that nothing changes unless the step was
//! stored: the room's `prepare` plays a move once on a copy of the position
//! (recording its sowing trace), the caller stores it, then its `commit`
//! takes the position after it without sowing again, which cannot fail.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use hoyito_core::Side;
use hoyito_room::{OfferKind, Offers, Room, Seat, Setup};

use crate::auth::secret_matches;
use crate::error::ApiError;
use crate::store::{Meta, Mode, StoredGame, Summary};

impl Meta {
    /// What the game's room is opened with.
    pub fn setup(&self) -> Setup {
        Setup {
            mode: self.mode,
            rules: self.rules,
            is_match: self.is_match,
            engine_side: self.engine_side,
            start: self.start.clone(),
        }
    }
}

/// A game in memory.
#[derive(Debug)]
pub struct LiveGame {
    /// What was fixed at creation.
    pub meta: Meta,
    /// The game's steps and their rules.
    pub room: Room,
    /// The engine is searching.
    pub thinking: bool,
    /// Stops the current engine search.
    pub stop: Arc<AtomicBool>,
    /// The draw offer and the takeback request, as stored in the database
    /// (the room decides what an offer does: [`Offers::decide`]).
    pub offers: Offers,
    /// When each stored step was stored (ms since the epoch; `None` for
    /// imported steps), for the clocks.
    pub times: Vec<Option<i64>>,
    /// The timer that ends the game when the running clock runs out.
    pub clock_timer: Option<tokio::task::AbortHandle>,
    /// When each side's last chat messages were sent (the flood limit).
    pub chat_sent: [std::collections::VecDeque<i64>; 2],
    /// The rematch asked for through this node, if any.
    pub rematch: Option<crate::room::view::RematchView>,
    /// Who has the game open on this node (kept by this node only).
    pub presence: crate::room::presence::Presence,
    /// The timer that tells the watchers when a claim against a player who
    /// left may be made.
    pub claim_timer: Option<tokio::task::AbortHandle>,
    /// When each side's draw offer and takeback request were last declined
    /// (ms since the epoch) and at which step, `[draw, takeback][south,
    /// north]`, on this node: the same request at the same step waits for
    /// the cool-down before it is made again.
    pub declined_at: [[Option<(i64, u64)>; 2]; 2],
    /// The players' rating changes, once the rated game ended and was
    /// rated ([`AppState::rate_if_over`](crate::state::AppState)).
    pub rating: Option<crate::store::GameRatingChanges>,
}

/// The most steps a game may have by default
/// ([`crate::ServerLimits::max_steps`]).
pub const MAX_STEPS: u64 = 3000;

/// 422 `game_too_long` if a game of `seq` steps may take no more under a
/// cap of `max` steps.
pub fn check_room_for_step(seq: u64, max: u64) -> Result<(), ApiError> {
    if seq >= max {
        return Err(ApiError::unprocessable(
            "game_too_long",
            format!(
                "this game has {seq} steps, the most a game may have: it can only end (resign, a draw, abort)"
            ),
        ));
    }
    Ok(())
}

impl LiveGame {
    /// A game with no steps.
    ///
    /// # Errors
    /// 422 if the stored start position is not valid notation.
    pub fn new(meta: Meta, epoch: u64) -> Result<LiveGame, ApiError> {
        let room = Room::new(meta.setup(), epoch)?;
        Ok(LiveGame::with_room(meta, room))
    }

    /// A game around `room`, opened for `meta`.
    pub fn with_room(meta: Meta, room: Room) -> LiveGame {
        LiveGame {
            meta,
            room,
            thinking: false,
            stop: Arc::new(AtomicBool::new(false)),
            offers: Offers::default(),
            times: Vec::new(),
            clock_timer: None,
            chat_sent: Default::default(),
            rematch: None,
            presence: crate::room::presence::Presence::new(crate::store::now()),
            claim_timer: None,
            declined_at: [[None; 2]; 2],
            rating: None,
        }
    }

    /// Rebuilds a game by replaying stored steps.
    ///
    /// # Errors
    /// If a stored step does not replay (a corrupt database or an invalid import).
    pub fn replay(meta: Meta, epoch: u64, steps: &[String]) -> Result<LiveGame, ApiError> {
        let room = Room::replay(meta.setup(), epoch, steps)?;
        Ok(LiveGame::with_room(meta, room))
    }

    /// Rebuilds a game as stored: replays its steps and takes its draw
    /// offer and takeback request if they still wait.
    ///
    /// # Errors
    /// As [`LiveGame::replay`].
    pub fn restore(stored: StoredGame) -> Result<LiveGame, ApiError> {
        let mut g = LiveGame::replay(stored.meta, stored.undos, &stored.steps)?;
        g.offers = Offers::stored(stored.draw_offer, stored.takeback_offer, stored.draw_rev, &g.room);
        Ok(g)
    }

    /// The side whose draw offer waits for an answer: offered at the
    /// current step of a game that goes on.
    pub fn pending_draw(&self) -> Option<Side> {
        self.offers.pending(OfferKind::Draw, &self.room)
    }

    /// The side whose takeback request waits for an answer: asked at the
    /// current step of a game that goes on.
    pub fn pending_takeback(&self) -> Option<Side> {
        self.offers.pending(OfferKind::Takeback, &self.room)
    }

    /// The seat a token holds, if any (the game keeps the tokens' hashes).
    pub fn seat_of(&self, token: Option<&str>) -> Option<Seat> {
        let token = token?;
        let t = &self.meta.tokens;
        let south = t.south.as_deref().is_some_and(|h| secret_matches(token, h));
        let north = t.north.as_deref().is_some_and(|h| secret_matches(token, h));
        match (south, north) {
            (true, true) => Some(Seat::Both),
            (true, false) => Some(Seat::One(Side::South)),
            (false, true) => Some(Seat::One(Side::North)),
            (false, false) => None,
        }
    }

    /// Takes the stored state of `fresh` (the same game reloaded from the
    /// database after another server node changed it), keeping what only
    /// this node knows: the engine's search, the clock's timer, the chat
    /// flood counts, the rematch asked for, who has it open. A copy older than this game (fewer steps at the same
    /// undo count, or fewer undos: read before a change this node made
    /// meanwhile) is left out: returns whether the copy was taken. The
    /// copy's draw offer and takeback request are taken if the copy is
    /// further on, or at the same step with at least as many offer changes
    /// stored.
    pub fn refresh(&mut self, fresh: LiveGame) -> bool {
        let theirs = (fresh.room.epoch(), fresh.room.seq());
        let ours = (self.room.epoch(), self.room.seq());
        if theirs < ours {
            return false;
        }
        self.meta = fresh.meta;
        self.room = fresh.room;
        self.times = fresh.times;
        self.offers.refresh(&fresh.offers, theirs > ours, &self.room);
        true
    }

    /// The list summary: the room's, `waiting` while an online game's
    /// second seat is free.
    pub fn summary(&self) -> Summary {
        let mut s = self.room.summary();
        if s.status == "playing"
            && self.meta.mode == Mode::Online
            && (self.meta.tokens.south.is_none() || self.meta.tokens.north.is_none())
        {
            s.status = "waiting";
        }
        s
    }

    /// Goes back to the first `keep` steps (after a failed store).
    pub fn rollback(&mut self, keep: u64) {
        self.room.rollback(keep);
        self.times.truncate(keep as usize);
    }

    /// A trace limit for live moves.
    pub const TRACE_LIMIT: usize = hoyito_core::MAX_TRACE_EVENTS;
}
