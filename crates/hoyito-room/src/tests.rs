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
        ("over", Some("abort"), Some(Side::North))
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
