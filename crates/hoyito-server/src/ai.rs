//! The engine behind engine games and hints, run on blocking threads.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::OnceLock;
use std::time::Duration;

use hoyito_core::Game;
use hoyito_engine::{Engine, Limits};

/// Longest time the engine thinks about one move. Levels 1–9 stop earlier at
/// their depth; level 10 uses all of it.
pub const ENGINE_MOVETIME: Duration = Duration::from_millis(1500);

/// Level used for hints when the game's own level is lower.
pub const HINT_LEVEL: u8 = 8;

/// The tablebase directory of this process, if any.
static TABLEBASES: OnceLock<PathBuf> = OnceLock::new();

/// Level-10 searches and hints use the tablebases under `dir` (perfect play
/// where they cover the position). Set once, at start.
pub fn use_tablebases(dir: PathBuf) {
    let _ = TABLEBASES.set(dir);
}

/// The engine's move at `level` for the side to move, as a token, with its
/// score in seeds; `None` if the game is over. With `perfect`, the
/// tablebases (if the server has them) score every position they cover
/// exactly: level-10 engine moves and hints use them. Blocks: call from a
/// blocking thread.
pub fn choose(
    game: &Game,
    level: u8,
    perfect: bool,
    movetime: Duration,
    stop: &AtomicBool,
) -> Option<(String, i32)> {
    let mut engine = Engine::with_level(level);
    engine.set_seed(rand::random());
    if let (true, Some(dir)) = (perfect, TABLEBASES.get()) {
        // Rules or positions the tables do not cover are simply searched.
        let _ = engine.load_tablebases(*game.rules(), dir);
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
            let (token, _) = choose(&game, level, false, Duration::from_millis(200), &stop).expect("a move");
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
        use_tablebases(dir.path().to_path_buf());
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
            let (token, score) = choose(&game, HINT_LEVEL, true, Duration::from_millis(1), &stop).unwrap();
            let m = pos.parse_move(&token).unwrap();
            assert!(
                best.iter().any(|&(b, v)| b == m && v == exact),
                "{text}: hint {token} not best: {best:?}"
            );
            assert_eq!(score, pos.margin(pos.to_move()) + exact, "{text}");
            checked += 1;
        }
        assert_eq!(checked, 3);
    }
}
