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

/// Level-10 searches use the tablebases under `dir` (perfect play where
/// they cover the position). Set once, at start.
pub fn use_tablebases(dir: PathBuf) {
    let _ = TABLEBASES.set(dir);
}

/// The engine's move at `level` for the side to move, as a token, with its
/// score in seeds; `None` if the game is over. Blocks: call from a blocking thread.
pub fn choose(game: &Game, level: u8, movetime: Duration, stop: &AtomicBool) -> Option<(String, i32)> {
    let mut engine = Engine::with_level(level);
    engine.set_seed(rand::random());
    if let (10, Some(dir)) = (level, TABLEBASES.get()) {
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
            let (token, _) = choose(&game, level, Duration::from_millis(200), &stop).expect("a move");
            game.play_token(&token).expect("legal");
        }
    }
}
