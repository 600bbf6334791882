//! Who has a game open: each player's WebSockets and the spectators', and
//! since when a player has had none ([`Presence`]); the view of it the API
//! sends ([`PresenceView`]); and what a player who stayed may claim against
//! one who left, by the room's rule ([`hoyito_room::Room::claim_window`]).
//! No I/O: the sockets are counted by `crate::http::ws`, the timer that
//! tells when a claim may be made is `crate::jobs::presence`.

use hoyito_core::Side;
use hoyito_room::Seat;
use serde::Serialize;

/// The open WebSockets of a game, on this server node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Presence {
    /// Sockets opened with each player's token, `[south, north]` (a
    /// hot-seat token counts for both).
    players: [u32; 2],
    /// Sockets opened without a player's token.
    pub(crate) spectators: u32,
    /// Since when each player has had no socket open (ms since the epoch;
    /// the time the game was loaded if they never had one here); `None`
    /// while connected.
    pub(crate) away_since: [Option<i64>; 2],
    /// How long a player must be away before the other may claim; `None`
    /// where claims are off (several server nodes: a player connected to
    /// another node would look away here).
    pub claim_after_ms: Option<u64>,
}

impl Presence {
    /// Nobody connected, since `now`.
    pub fn new(now: i64) -> Presence {
        Presence {
            players: [0, 0],
            spectators: 0,
            away_since: [Some(now), Some(now)],
            claim_after_ms: Some(hoyito_room::CLAIM_AFTER_MS),
        }
    }

    fn sides(seat: Option<Seat>) -> &'static [Side] {
        match seat {
            None => &[],
            Some(Seat::Both) => &[Side::South, Side::North],
            Some(Seat::One(Side::South)) => &[Side::South],
            Some(Seat::One(Side::North)) => &[Side::North],
        }
    }

    /// A socket of `seat` (none: a spectator) opened.
    pub fn join(&mut self, seat: Option<Seat>) {
        if seat.is_none() {
            self.spectators += 1;
        }
        for &side in Presence::sides(seat) {
            let k = side.index();
            self.players[k] += 1;
            self.away_since[k] = None;
        }
    }

    /// A socket of `seat` closed at `now`.
    pub fn leave(&mut self, seat: Option<Seat>, now: i64) {
        if seat.is_none() {
            self.spectators = self.spectators.saturating_sub(1);
        }
        for &side in Presence::sides(seat) {
            let k = side.index();
            self.players[k] = self.players[k].saturating_sub(1);
            if self.players[k] == 0 {
                self.away_since[k] = Some(now);
            }
        }
    }

    /// A player of `seat` tried to open a socket at `now` (perhaps refused):
    /// a page that keeps reconnecting is not away, so the time away of its
    /// sides counts from this attempt.
    pub fn attempt(&mut self, seat: Option<Seat>, now: i64) {
        for &side in Presence::sides(seat) {
            let k = side.index();
            if let Some(since) = &mut self.away_since[k] {
                *since = (*since).max(now);
            }
        }
    }

    /// Whether `side` has the game open.
    pub fn connected(&self, side: Side) -> bool {
        self.players[side.index()] > 0
    }
}

/// Whether each player has the game open.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ConnectedView {
    /// South has the game open.
    pub south: bool,
    /// North has the game open.
    pub north: bool,
}

/// A claim the player who stayed may make against one who left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ClaimView {
    /// The side that may claim (the one connected).
    pub by: Side,
    /// From when it may (ms since the epoch).
    pub at_ms: i64,
    /// Whether it may now.
    pub ready: bool,
}

/// Who has a game open, as the view and the `presence` message send it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PresenceView {
    /// Whether each player has the game open (on this server node).
    pub connected: ConnectedView,
    /// Sockets open without a player's token.
    pub spectators: u32,
    /// The claim against a player who left, while one can come: the other
    /// player away in an online game with a clock of minutes that goes on.
    pub claim: Option<ClaimView>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_player_is_away_once_their_last_socket_closes() {
        let mut p = Presence::new(100);
        let south = Some(Seat::One(Side::South));
        p.join(south);
        p.join(south);
        p.join(None);
        assert!(p.connected(Side::South) && !p.connected(Side::North));
        assert_eq!(p.away_since, [None, Some(100)]);
        p.leave(south, 300);
        assert_eq!(p.away_since, [None, Some(100)], "one socket still open");
        p.leave(south, 400);
        assert_eq!(p.away_since, [Some(400), Some(100)]);
        p.leave(None, 500);
        p.leave(None, 500);
        assert_eq!(p.spectators, 0);
        p.join(Some(Seat::Both));
        assert!(p.connected(Side::South) && p.connected(Side::North));
    }

    #[test]
    fn a_player_trying_to_reconnect_is_away_since_the_last_attempt() {
        let mut p = Presence::new(100);
        let north = Some(Seat::One(Side::North));
        p.attempt(north, 700);
        assert_eq!(p.away_since, [Some(100), Some(700)]);
        p.join(north);
        p.attempt(north, 900);
        assert_eq!(p.away_since, [Some(100), None], "connected stays connected");
        p.attempt(None, 1000);
        assert_eq!(p.away_since, [Some(100), None]);
    }
}
