//! The golden games the Node test (`tests/wasm.test.mjs`) replays through the
//! WebAssembly module: games and matches of every variant and option, with
//! pseudo-random moves, and after every ply what the native crates say
//! (notation, legal moves and the move's sowing events, the last two as
//! FNV-1a hashes to keep the file small), and games in rooms as the
//! browser plays them on the device (moves, refused steps, undos, rounds
//! resigned, resignations) with a hash of the room's view after each step.
//! This test rebuilds
//! them natively and fails if `tests/golden.json` differs; with
//! `HOYITO_BLESS=1` it rewrites the file.

use hoyito_core::{CaptureSide, DirectionRule, Game, Repetition, Rules, RulesSpec, State, Variant};
use hoyito_room::{Mode, Room};
use hoyito_wasm::play::{random_playouts, Play};
use hoyito_wasm::room::parse_setup;
use serde_json::{json, Value};

/// FNV-1a of a text (the Node test computes the same of JSON.stringify).
fn fnv(text: &str) -> String {
    let mut h: u32 = 0x811c_9dc5;
    for b in text.bytes() {
        h = (h ^ b as u32).wrapping_mul(0x0100_0193);
    }
    format!("{h:08x}")
}

/// The rule sets: every variant with every option value, on a few boards.
fn rule_sets() -> Vec<RulesSpec> {
    let mut out = Vec::new();
    for (i, variant) in [Variant::I, Variant::II, Variant::III].into_iter().enumerate() {
        let base = RulesSpec {
            variant,
            ..RulesSpec::default()
        };
        out.push(base);
        out.push(RulesSpec {
            holes: 4 + i as u8 * 3,
            seeds: 3,
            ..base
        });
        out.push(RulesSpec {
            skip_origin: true,
            seeds: 6,
            holes: 5,
            ..base
        });
        out.push(RulesSpec {
            direction: DirectionRule::PerPlayer,
            ..base
        });
        out.push(RulesSpec {
            direction: DirectionRule::PerMove,
            holes: 7,
            ..base
        });
        out.push(RulesSpec {
            two_hole_opening: true,
            ..base
        });
        out.push(RulesSpec {
            repetition: Repetition::OwnRow,
            holes: 4,
            seeds: 2,
            ..base
        });
        out.push(RulesSpec {
            capture_side: CaptureSide::Opponent,
            holes: 8,
            ..base
        });
        out.push(RulesSpec {
            holes: 12,
            seeds: 5,
            skip_origin: true,
            direction: DirectionRule::PerMove,
            two_hole_opening: true,
            repetition: Repetition::OwnRow,
            capture_side: CaptureSide::Opponent,
            ..base
        });
    }
    out
}

/// A game (or a match of at most three rounds) with moves drawn from `seed`.
fn golden_game(spec: RulesSpec, as_match: bool, mut seed: u64) -> Value {
    let rules = Rules::try_from(spec).unwrap();
    let mut next = move |k: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as usize % k
    };
    let mut play = if as_match {
        Play::new_match(rules)
    } else {
        Play::game(rules)
    };
    // A second, independent replay through hoyito-core's own Game.
    let mut game = Game::new(rules);
    let mut plies = Vec::new();
    let mut steps = Vec::new();
    let mut rounds = 1;
    for _ in 0..400 {
        if play.is_over() {
            break;
        }
        if play.can_start_next_round() {
            if rounds == 3 {
                break;
            }
            play.start_next_round().unwrap();
            game = play.contest().current().clone();
            rounds += 1;
            steps.push("next".to_string());
            plies.push(json!([
                "next",
                play.notation(),
                fnv(&play.legal_moves().join(" "))
            ]));
            continue;
        }
        let legal = play.legal_moves();
        assert_eq!(legal, game.position().legal_tokens());
        let token = legal[next(legal.len())].clone();
        let played = play.play(&token).unwrap();
        game.play_token(&token).unwrap();
        let state = State::from_position(game.position());
        assert_eq!(play.state(), state);
        let events = serde_json::to_string(&played.trace().events).unwrap();
        steps.push(token.clone());
        // [step, notation, legal moves, events, mover, captured, extra turn, pass, laps, cut, over]
        plies.push(json!([
            token,
            state.notation,
            fnv(&play.legal_moves().join(" ")),
            fnv(&events),
            played.side(),
            played.captured(),
            played.extra_turn(),
            played.passed().is_some(),
            played.trace().laps,
            played.trace().truncated,
            state.over,
        ]));
    }
    json!({
        "options": spec,
        "match": as_match,
        "steps": steps,
        "plies": plies,
        "final_state": play.state(),
        "result": play.result().map(|r| r.name()),
        "rounds": play.rounds(),
        "record": play.record(),
    })
}

/// A room (`setup` as JavaScript gives it) played with steps drawn from
/// `seed`: moves, now and then a step that must be refused, an undo, a
/// round resigned (matches) and at the end a resignation; after each step
/// a hash of the view's JSON.
fn golden_room(setup: Value, mut seed: u64) -> Value {
    let mut next = move |k: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as usize % k
    };
    let (setup_rs, seat) = parse_setup(&setup.to_string()).unwrap();
    let mut room = Room::new(setup_rs.clone(), 0).unwrap();
    let mut ops = Vec::new();
    let view = |room: &Room| fnv(&serde_json::to_string(&room.view()).unwrap());
    for i in 0..120 {
        if room.finished() {
            break;
        }
        let op = if room.can_next_round() {
            room.step("next", 0).unwrap();
            json!({ "step": "next" })
        } else if i % 17 == 16 && room.undo_target().is_ok() {
            room = room.undone(room.undo_target().unwrap());
            json!({ "undo": true })
        } else if i % 11 == 10 {
            let bad = ["9", "next", "concede:east", "1+2", "resign:up"][next(5)];
            let code = room.step(bad, 0).unwrap_err().code();
            json!({ "refuse": bad, "code": code })
        } else if i % 29 == 28 && setup_rs.is_match {
            let token = room.resignation(seat, true).unwrap();
            room.step(&token, 0).unwrap();
            json!({ "step": token })
        } else {
            let legal = room.legal_tokens();
            let token = legal[next(legal.len())].clone();
            room.step(&token, hoyito_core::MAX_TRACE_EVENTS).unwrap();
            json!({ "step": token })
        };
        ops.push(json!([op, view(&room)]));
    }
    if !room.finished() {
        let token = room.resignation(seat, false).unwrap();
        room.step(&token, 0).unwrap();
        ops.push(json!([{ "step": token }, view(&room)]));
    }
    assert_eq!(setup_rs.mode == Mode::Engine, setup_rs.engine_side.is_some());
    json!({ "setup": setup, "ops": ops, "summary": room.summary(), "tokens": room.tokens() })
}

fn golden() -> Value {
    let mut games = Vec::new();
    for (i, spec) in rule_sets().into_iter().enumerate() {
        games.push(golden_game(spec, false, 0x9E37_79B9 + i as u64));
        if i % 3 == 0 {
            games.push(golden_game(spec, true, 0x51ED_0000 + i as u64));
        }
    }
    let playouts: Vec<Value> = [(Variant::I, 6, 7u64), (Variant::II, 5, 11), (Variant::III, 8, 13)]
        .into_iter()
        .map(|(variant, holes, seed)| {
            let spec = RulesSpec {
                variant,
                holes,
                ..RulesSpec::default()
            };
            json!({ "options": spec, "n": 200, "seed": seed,
                    "totals": random_playouts(200, Rules::try_from(spec).unwrap(), seed) })
        })
        .collect();
    let rooms: Vec<Value> = [
        json!({ "mode": "hotseat", "rules": {}, "match": false, "engine_side": null }),
        json!({ "mode": "hotseat", "rules": { "variant": "III", "holes": 5 }, "match": true }),
        json!({ "mode": "engine", "rules": {}, "match": true, "engine_side": "north" }),
        json!({ "mode": "engine", "rules": { "variant": "I", "holes": 5, "seeds": 4 }, "match": false, "engine_side": "south" }),
    ]
    .into_iter()
    .enumerate()
    .map(|(i, setup)| golden_room(setup, 0x7A11 + i as u64))
    .collect();
    json!({ "games": games, "playouts": playouts, "rooms": rooms })
}

#[test]
fn golden_games_match_the_committed_file() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden.json");
    let text = serde_json::to_string(&golden()).unwrap() + "\n";
    if std::env::var_os("HOYITO_BLESS").is_some() {
        std::fs::write(&path, &text).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&path).expect("tests/golden.json: run with HOYITO_BLESS=1");
    assert!(
        committed == text,
        "tests/golden.json differs from what the native crates give: HOYITO_BLESS=1 cargo test -p hoyito-wasm --test golden"
    );
}
