//! The room's own checks: every kind of step, replay, undo and the view.

use hoyito_core::{Rules, Side};

use crate::{Mode, Room, RoomError, Seat, Setup, Stop};

fn setup(mode: Mode, is_match: bool) -> Setup {
    Setup {
        mode,
        rules: Rules::default(),
        is_match,
        engine_side: (mode == Mode::Engine).then_some(Side::North),
        start: None,
    }
}

/// Plays the first legal move until the round is over.
fn play_out(room: &mut Room) {
    while !room.position().is_over() {
        let t = room.legal_tokens()[0].clone();
        room.step(&t, 0).unwrap();
    }
}

#[test]
fn a_step_refused_changes_nothing() {
    let mut room = Room::new(setup(Mode::Hotseat, false), 0).unwrap();
    let before = room.view();
    for (token, code) in [
        ("1+2", "illegal_move"),
        ("9", "bad_move"),
        ("zz", "bad_move"),
        ("next", "no_next_round"),
        ("resign:east", "bad_step"),
        ("concede:up", "bad_step"),
    ] {
        let e = room.step(token, 0).unwrap_err();
        assert_eq!(e.code(), code, "{token}: {e}");
        assert_eq!(room.view().history, before.history);
        assert_eq!(room.view().state, before.state);
    }
    assert_eq!(room.undo_target(), Err(RoomError::NothingToUndo));
}

#[test]
fn replay_rebuilds_the_same_room_and_names_a_bad_step() {
    let mut room = Room::new(setup(Mode::Hotseat, true), 0).unwrap();
    play_out(&mut room);
    room.step("next", 0).unwrap();
    let t = room.legal_tokens()[0].clone();
    room.step(&t, 0).unwrap();
    room.step("concede:south", 0).unwrap();
    let again = Room::replay(setup(Mode::Hotseat, true), 0, &room.tokens()).unwrap();
    assert_eq!(again.view().history, room.view().history);
    assert_eq!(again.view().rounds, room.view().rounds);

    let mut bad = room.tokens();
    bad.push("99".into());
    let e = Room::replay(setup(Mode::Hotseat, true), 0, &bad).unwrap_err();
    assert!(
        matches!(&e, RoomError::BadStep { step, .. } if *step == bad.len()),
        "{e}"
    );
}

#[test]
fn undo_against_the_engine_goes_back_to_the_human_to_move() {
    let mut room = Room::new(setup(Mode::Engine, false), 0).unwrap();
    // South (the human) moves, then North (the engine) until South is to move again.
    let t = room.legal_tokens()[0].clone();
    room.step(&t, 0).unwrap();
    while !room.position().is_over() && room.position().to_move() == Side::North {
        let t = room.legal_tokens()[0].clone();
        room.step(&t, 0).unwrap();
    }
    assert_eq!(room.undo_target(), Ok(0));
    let undone = room.undone(0);
    assert_eq!((undone.seq(), undone.epoch()), (0, 1));
    assert_eq!(undone.position(), &hoyito_core::Position::new(Rules::default()));
}

#[test]
fn an_undo_sent_before_the_engine_replied_still_takes_back_the_humans_move() {
    let mut room = Room::new(setup(Mode::Engine, false), 0).unwrap();
    let t = room.legal_tokens()[0].clone();
    room.step(&t, 0).unwrap();
    // The human saw this view and asked for an undo; the engine replied meanwhile.
    let seen = room.seq();
    assert!(room.undo_still_means(seen));
    while !room.position().is_over() && room.position().to_move() == Side::North {
        let t = room.legal_tokens()[0].clone();
        room.step(&t, 0).unwrap();
    }
    assert!(room.seq() > seen);
    assert!(room.undo_still_means(seen));
    assert_eq!(room.undo_target(), Ok(0));
    // A view from before the human's own move would undo another move.
    assert!(!room.undo_still_means(0));
    // A view with more steps than the room has is not one of its views.
    assert!(!room.undo_still_means(room.seq() + 1));
    // Hot-seat and online games have no engine whose replies are skipped.
    let mut hotseat = Room::new(setup(Mode::Hotseat, false), 0).unwrap();
    let t = hotseat.legal_tokens()[0].clone();
    hotseat.step(&t, 0).unwrap();
    assert!(!hotseat.undo_still_means(0));
    assert!(hotseat.undo_still_means(1));
}

#[test]
fn stops_end_the_game_with_their_result() {
    let mut room = Room::new(setup(Mode::Online, false), 0).unwrap();
    assert_eq!(room.undo_target(), Err(RoomError::UndoUnavailable));
    let t = room.legal_tokens()[0].clone();
    room.step(&t, 0).unwrap();
    let mut north = room.clone();
    while north.position().to_move() == Side::South {
        let t = north.legal_tokens()[0].clone();
        north.step(&t, 0).unwrap();
    }
    let t = north.legal_tokens()[0].clone();
    north.step(&t, 0).unwrap();
    assert_eq!(north.step("abort:north", 0), Err(RoomError::TooLateToAbort));

    room.step("abort:north", 0).unwrap();
    let v = room.view();
    assert_eq!(
        (v.status, v.end, v.aborted),
        ("over", Some(crate::End::Abort), Some(Side::North))
    );
    assert!(v.legal.is_empty());
    assert_eq!(room.result(), Some("aborted"));
    assert_eq!(
        room.check_turn(Seat::Both),
        Err(RoomError::Stopped("north aborted".into()))
    );
    assert_eq!(room.step("draw", 0).unwrap_err().code(), "game_over");
    assert_eq!(Stop::parse("flag:south"), Some(Ok(Stop::Flag(Side::South))));
}

#[test]
fn views_serialise_as_the_api_sends_them() {
    let mut room = Room::new(setup(Mode::Hotseat, true), 0).unwrap();
    let t = room.legal_tokens()[0].clone();
    let ev = room.step(&t, 0).unwrap().unwrap();
    assert_eq!((ev.seq, ev.epoch), (1, 0));
    let v = serde_json::to_value(room.view_since(1)).unwrap();
    assert_eq!(v["match"], true);
    assert_eq!(v["mode"], "hotseat");
    assert_eq!(v["history_from"], 1);
    assert_eq!(v["history"].as_array().unwrap().len(), 0);
    let full = serde_json::to_value(room.view()).unwrap();
    assert!(full.get("history_from").is_none());
    assert_eq!(full["history"][0]["kind"], "move");
}

#[test]
fn a_view_tells_whether_resigning_the_round_ends_the_match() {
    let mut room = Room::new(setup(Mode::Hotseat, true), 0).unwrap();
    // At the start, a side that gives its 24 seeds away cannot fill a hole
    // in another round: the match would end.
    assert_eq!(room.view().conceding_ends_match, Some([true, true]));
    let single = Room::new(setup(Mode::Hotseat, false), 0).unwrap();
    assert_eq!(single.view().conceding_ends_match, None);
    room.step("concede:south", 0).unwrap();
    assert!(room.finished());
    assert_eq!(room.result(), Some("north"));
    assert_eq!(room.view().conceding_ends_match, None);
    // Late in a round with captures on both sides, resigning it need not end the match.
    let mut room = Room::new(setup(Mode::Hotseat, true), 0).unwrap();
    let mut seen_false = false;
    for _ in 0..200 {
        if room.position().is_over() {
            break;
        }
        if let Some(ends) = room.view().conceding_ends_match {
            seen_false |= !ends[0] || !ends[1];
        }
        let t = room.legal_tokens()[0].clone();
        room.step(&t, 0).unwrap();
    }
    assert!(
        seen_false,
        "some position of the round can be resigned without losing the match"
    );
}

/// Plays the first legal move.
fn first(room: &mut Room) {
    let t = room.legal_tokens()[0].clone();
    room.step(&t, 0).unwrap();
}

#[test]
fn a_takeback_goes_back_to_before_the_askers_last_move_with_them_to_move() {
    let mut room = Room::new(setup(Mode::Online, false), 0).unwrap();
    assert_eq!(room.takeback_target(Side::South), Err(RoomError::NothingToUndo));
    // South moves (once, or more with extra turns), then North.
    first(&mut room);
    while room.position().to_move() == Side::South {
        first(&mut room);
    }
    let south_done = room.seq();
    // North has not moved: nothing of theirs to take back.
    assert_eq!(room.takeback_target(Side::North), Err(RoomError::NothingToUndo));
    // South's takeback, asked on North's move, removes South's last move.
    let keep = room.takeback_target(Side::South).unwrap();
    assert!(keep < south_done);
    assert_eq!(room.step_tokens(keep).len() as u64, keep);
    let back = room.undone(keep);
    assert_eq!(back.position().to_move(), Side::South);
    assert_eq!(back.epoch(), 1);

    // After North's reply, South's takeback also removes North's move.
    first(&mut room);
    while room.position().to_move() == Side::North {
        first(&mut room);
    }
    assert_eq!(room.takeback_target(Side::South), Ok(keep));
    // North's takeback removes only North's moves.
    let north = room.takeback_target(Side::North).unwrap();
    assert_eq!(north, south_done);
    assert_eq!(room.undone(north).position().to_move(), Side::North);
}

#[test]
fn takeback_and_undo_share_their_refusals() {
    for mode in [Mode::Hotseat, Mode::Engine] {
        let mut room = Room::new(setup(mode, false), 0).unwrap();
        first(&mut room);
        let e = room.takeback_target(Side::South).unwrap_err();
        assert_eq!(
            (e.clone(), e.code(), e.is_conflict()),
            (RoomError::TakebackUnavailable, "takeback_unavailable", true)
        );
    }
    // A stopped game.
    let mut room = Room::new(setup(Mode::Online, false), 0).unwrap();
    first(&mut room);
    room.step("resign:north", 0).unwrap();
    assert_eq!(room.takeback_target(Side::South).unwrap_err().code(), "game_over");
    // A single game played to its end.
    let mut room = Room::new(setup(Mode::Online, false), 0).unwrap();
    play_out(&mut room);
    assert_eq!(
        room.takeback_target(Side::South),
        Err(RoomError::Over { what: "game" })
    );
    // A round of a match over, then nothing to take back in the next round.
    let mut room = Room::new(setup(Mode::Online, true), 0).unwrap();
    play_out(&mut room);
    assert!(room.can_next_round());
    assert_eq!(room.takeback_target(Side::South), Err(RoomError::RoundOver));
    room.step("next", 0).unwrap();
    assert_eq!(room.takeback_target(Side::South), Err(RoomError::NothingToUndo));
    assert_eq!(room.takeback_target(Side::North), Err(RoomError::NothingToUndo));
    // A finished match.
    let mut room = Room::new(setup(Mode::Online, true), 0).unwrap();
    room.step("concede:south", 0).unwrap();
    assert_eq!(
        room.takeback_target(Side::South),
        Err(RoomError::Over { what: "match" })
    );
}

use crate::{OfferAction, OfferKind, OfferStep, Offers};

const DRAW: OfferKind = OfferKind::Draw;
const TAKEBACK: OfferKind = OfferKind::Takeback;
const SOUTH: Seat = Seat::One(Side::South);
const NORTH: Seat = Seat::One(Side::North);

/// Makes `seat`'s offer of `kind` and takes in what it decided, as the
/// server does once it is stored.
fn offer(offers: &mut Offers, room: &Room, kind: OfferKind, seat: Seat) {
    let step = offers.decide(room, kind, seat, OfferAction::Offer, true).unwrap();
    let Seat::One(side) = seat else {
        panic!("a side offers")
    };
    assert_eq!(step, OfferStep::Set(Some(side)));
    offers.set(kind, Some(side), room, offers.rev + 1);
}

#[test]
fn a_draw_offer_waits_for_the_other_player_until_a_step_withdraws_it() {
    let mut room = Room::new(setup(Mode::Online, false), 0).unwrap();
    let mut offers = Offers::default();
    let decide = |o: &Offers, room: &Room, seat, action| o.decide(room, DRAW, seat, action, true);
    assert_eq!(
        decide(&offers, &room, NORTH, OfferAction::Accept)
            .unwrap_err()
            .code(),
        "no_draw_offer"
    );
    offer(&mut offers, &room, DRAW, SOUTH);
    assert_eq!(offers.pending(DRAW, &room), Some(Side::South));
    // The offer waits: South cannot make it again, North may answer it.
    let again = decide(&offers, &room, SOUTH, OfferAction::Offer).unwrap_err();
    assert_eq!((again.code(), again.is_conflict()), ("draw_offered", true));
    assert_eq!(
        decide(&offers, &room, SOUTH, OfferAction::Accept)
            .unwrap_err()
            .code(),
        "no_draw_offer"
    );
    assert_eq!(
        decide(&offers, &room, NORTH, OfferAction::Accept),
        Ok(OfferStep::Draw)
    );
    // North offering too agrees to South's offer.
    assert_eq!(
        decide(&offers, &room, NORTH, OfferAction::Offer),
        Ok(OfferStep::Draw)
    );
    assert_eq!(
        decide(&offers, &room, NORTH, OfferAction::Decline),
        Ok(OfferStep::Set(None))
    );
    offers.set(DRAW, None, &room, offers.rev + 1);
    assert_eq!(offers.pending(DRAW, &room), None);
    // Declined, South may not offer again before a move.
    assert_eq!(
        decide(&offers, &room, SOUTH, OfferAction::Offer)
            .unwrap_err()
            .code(),
        "draw_offered"
    );
    offer(&mut offers, &room, DRAW, NORTH);
    first(&mut room);
    assert_eq!(offers.pending(DRAW, &room), None, "a move withdraws the offer");
    offer(&mut offers, &room, DRAW, SOUTH);
    room.commit_stop(Stop::Resign(Side::North));
    assert_eq!(offers.pending(DRAW, &room), None, "a stop withdraws the offer");
    assert_eq!(
        decide(&offers, &room, SOUTH, OfferAction::Offer)
            .unwrap_err()
            .code(),
        "game_over"
    );
}

#[test]
fn offers_are_refused_where_there_is_nobody_to_offer_them_to() {
    let hotseat = Room::new(setup(Mode::Hotseat, false), 0).unwrap();
    let engine = Room::new(setup(Mode::Engine, false), 0).unwrap();
    let online = Room::new(setup(Mode::Online, false), 0).unwrap();
    let o = Offers::default();
    let code = |room: &Room, kind, seat, seated| {
        o.decide(room, kind, seat, OfferAction::Offer, seated)
            .unwrap_err()
            .code()
    };
    assert_eq!(code(&hotseat, DRAW, Seat::Both, true), "draw_unavailable");
    assert_eq!(code(&online, DRAW, Seat::Both, true), "draw_unavailable");
    assert_eq!(code(&hotseat, TAKEBACK, Seat::Both, true), "takeback_unavailable");
    assert_eq!(code(&engine, TAKEBACK, SOUTH, true), "takeback_unavailable");
    assert_eq!(code(&online, DRAW, SOUTH, false), "waiting_for_opponent");
    assert_eq!(code(&online, TAKEBACK, SOUTH, false), "waiting_for_opponent");
    // Between rounds of a match.
    let mut room = Room::new(setup(Mode::Online, true), 0).unwrap();
    play_out(&mut room);
    for kind in [DRAW, TAKEBACK] {
        let e = o
            .decide(&room, kind, SOUTH, OfferAction::Offer, true)
            .unwrap_err();
        assert_eq!(e.code(), "round_over");
        assert!(e.to_string().contains("round is over"), "{e}");
    }
}

#[test]
fn the_engine_is_offered_a_draw_on_the_players_move_once_a_move() {
    // The engine plays North; South moves first.
    let room = Room::new(setup(Mode::Engine, false), 0).unwrap();
    let mut o = Offers::default();
    assert_eq!(room.position().to_move(), Side::South);
    assert_eq!(
        o.decide(&room, DRAW, NORTH, OfferAction::Offer, true)
            .unwrap_err()
            .code(),
        "not_your_turn"
    );
    assert_eq!(
        o.decide(&room, DRAW, SOUTH, OfferAction::Offer, true),
        Ok(OfferStep::AskEngine)
    );
    o.offered_to_engine(Side::South, &room);
    assert_eq!(
        o.decide(&room, DRAW, SOUTH, OfferAction::Offer, true)
            .unwrap_err()
            .code(),
        "draw_offered"
    );
}

#[test]
fn a_takeback_request_is_answered_by_the_other_player_and_takes_the_askers_move_back() {
    let mut room = Room::new(setup(Mode::Online, false), 0).unwrap();
    let mut o = Offers::default();
    let decide = |o: &Offers, room: &Room, seat, action| o.decide(room, TAKEBACK, seat, action, true);
    assert_eq!(
        decide(&o, &room, SOUTH, OfferAction::Offer),
        Err(RoomError::NothingToUndo)
    );
    first(&mut room);
    offer(&mut o, &room, TAKEBACK, SOUTH);
    let mine = decide(&o, &room, SOUTH, OfferAction::Offer).unwrap_err();
    let theirs = decide(&o, &room, NORTH, OfferAction::Offer).unwrap_err();
    assert_eq!(
        (mine.code(), theirs.code()),
        ("takeback_offered", "takeback_offered")
    );
    assert_ne!(mine.to_string(), theirs.to_string());
    assert_eq!(
        decide(&o, &room, SOUTH, OfferAction::Accept).unwrap_err().code(),
        "no_takeback_offer"
    );
    let keep = room.takeback_target(Side::South).unwrap();
    assert_eq!(
        decide(&o, &room, NORTH, OfferAction::Accept),
        Ok(OfferStep::TakeBack { keep })
    );
    assert_eq!(
        decide(&o, &room, NORTH, OfferAction::Decline),
        Ok(OfferStep::Set(None))
    );
    // After the undo every offer is gone; the count of changes goes on.
    let after = o.withdrawn();
    assert_eq!((after.draw, after.takeback, after.rev), (None, None, o.rev));
}

#[test]
fn a_reloaded_copy_brings_its_offers_if_it_is_newer() {
    let mut room = Room::new(setup(Mode::Online, false), 0).unwrap();
    first(&mut room);
    let mut ours = Offers::default();
    offer(&mut ours, &room, DRAW, SOUTH);
    // A copy at the same step with fewer changes is older: ours stay.
    let older = Offers::stored(None, None, 0, &room);
    ours.refresh(&older, false, &room);
    assert_eq!(ours.pending(DRAW, &room), Some(Side::South));
    // A copy further on brings its (no) offers.
    ours.refresh(&older, true, &room);
    assert_eq!(ours.pending(DRAW, &room), None);
    assert_eq!(ours.rev, 1);
}
