//! The engine behind engine games and hints, run on blocking threads.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use hoyito_core::Game;
use hoyito_engine::{Engine, Limits};

pub use crate::tables::Tablebases;

pub use hoyito_engine::{HINT_LEVEL, HINT_MOVETIME, PLAY_MOVETIME};

/// The engine's move at `level` for the side to move, as a token, with its
/// score in seeds; `None` if the game is over. With `tablebases`, the
/// tables of the game's rules (if any) score every position they cover
/// exactly: level-10 engine moves and hints use them. Blocks: call from a
/// blocking thread.
pub fn choose(
    game: &Game,
    level: u8,
    tablebases: Option<&Tablebases>,
    movetime: Duration,
    stop: &AtomicBool,
) -> Option<(String, i32)> {
    let mut engine = Engine::with_level(level);
    engine.set_seed(rand::random());
    // Rules or positions the tables do not cover are simply searched.
    if let Some(tb) = tablebases.and_then(|t| t.for_rules(*game.rules())) {
        engine.set_tablebase(tb);
    }
    let limits = Limits {
        movetime: Some(movetime),
        ..Limits::default()
    };
    let res = engine.search(game, limits, stop, &mut |_| {});
    let m = res.best?;
    Some((game.position().move_token(m).to_string(), res.score))
}

#[cfg(test)]
mod tests {
    use super::*;
    use hoyito_core::{Rules, Variant};

    #[test]
    fn engine_moves_are_legal() {
        let mut game = Game::new(Rules::standard(Variant::II));
        let stop = AtomicBool::new(false);
        for level in [1, 3, 5] {
            let (token, _) = choose(&game, level, None, Duration::from_millis(200), &stop).expect("a move");
            game.play_token(&token).expect("legal");
        }
    }

    /// Hints use the tablebases: even a search cut after a millisecond
    /// reports the exact value of a covered position.
    #[test]
    fn hints_use_the_tablebases() {
        let rules = Rules::new(Variant::II, 4).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let tb =
            hoyito_tablebase::Tablebase::build(rules, dir.path(), 16, Default::default(), |_| {}).unwrap();
        let tablebases = Tablebases::new(dir.path().to_path_buf());
        let stop = AtomicBool::new(false);
        let mut checked = 0;
        for text in [
            "3,0,1,2/2,4,0,0 s 8-12",
            "0,5,2,1/3,0,4,1 n 8-8",
            "1,1,6,0/0,2,0,6 s 4-12",
        ] {
            let pos = hoyito_core::Position::from_notation(rules, text).unwrap();
            let game = Game::from_position(pos);
            let best = tb.best_moves(&pos).unwrap();
            let exact = best.iter().map(|&(_, v)| v).max().unwrap();
            let (token, score) = choose(
                &game,
                HINT_LEVEL,
                Some(&tablebases),
                Duration::from_millis(1),
                &stop,
            )
            .unwrap();
            let m = pos.parse_move(&token).unwrap();
            assert!(
                best.iter().any(|&(b, v)| b == m && v == exact),
                "{text}: hint {token} not best: {best:?}"
            );
            assert_eq!(score, pos.margin(pos.to_move()) + exact, "{text}");
            checked += 1;
        }
        assert_eq!(checked, 3);
        // The tables were opened once, for the one rule set asked.
        assert_eq!(tablebases.opened.lock().unwrap().len(), 1);
    }
}
