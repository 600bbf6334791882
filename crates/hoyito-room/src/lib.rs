//! # hoyito-room
//!
//! A game room without I/O: a game or a match as its players play it,
//! step by step. A step is a token, as it is stored: a move's token, `next`
//! (the next round of a match), `concede:<side>` (a round of a match
//! resigned), or a stop — `resign:<side>`, `abort:<side>`, `draw` (agreed),
//! `flag:<side>` (time ran out), `left:<side>` / `left-draw:<side>` (the side
//! left the game; the other claimed the win or called a draw: [`Absence`]).
//! The room checks every step before it
//! changes anything (the `check_*` methods, [`Room::prepare`]), applies it
//! ([`Room::step`], or the two phases `prepare` then [`Room::commit`] for a
//! caller that stores the step in between), works out what an undo takes
//! back ([`Room::undo_target`]) and what a takeback an online opponent
//! accepted takes back ([`Room::takeback_target`]), decides what a draw
//! offer or a takeback request does ([`Offers::decide`]) and shows itself
//! ([`Room::view`]), with what each seat may do now ([`Room::may`]: the
//! same checks, given what its [`Host`] knows).
//!
//! The server (`hoyito-server`) holds one room per live game and adds what
//! needs I/O or a clock: seats bound to tokens, the offers' storage and the
//! engine's answer to a draw offer, clocks, chat, storage. The browser plays games on the device through the same room,
//! compiled to WebAssembly (`hoyito-wasm`'s `Room`), so both show a game
//! the same way.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod absence;
mod error;
mod may;
mod mode;
mod offer;
mod room;
mod show;
mod step;
mod stop;
mod view;

#[cfg(test)]
mod tests;

pub use absence::{Absence, Claim, CLAIM_AFTER_MS};
pub use error::RoomError;
pub use may::Host;
pub use mode::Mode;
pub use offer::{Offer, OfferAction, OfferKind, OfferStep, Offers};
pub use room::{prepare_move, MoveInput, Prepared, Room, Seat, Setup, NEXT_ROUND};
pub use step::{End, StepKind};
pub use stop::Stop;
pub use view::{
    MatchResultView, MayView, MoveEvent, MoveHoles, RoomView, RoundView, SeatActions, StepView, Summary,
};
