//! The binding's logic in plain Rust (no JavaScript types), so that it is
//! tested natively: options, a game or match with its sowing traces, the
//! engine under the server's time limits, random playouts.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use hoyito_core::{
    playout, ByPlayer, Contest, Game, GameResult, MoveError, Position, Record, RepetitionTracker,
    RoundSummary, Rules, Setup, Side, State, TracedMove, MAX_TRACE_EVENTS,
};
use hoyito_engine::{Engine, Limits};
use hoyito_tablebase::Tablebase;
use rand::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

use crate::Error;

/// Longest time the engine thinks about one move, as on the server.
pub use hoyito_engine::PLAY_MOVETIME as ENGINE_MOVETIME;

/// The longest `timeMs` `analyze` accepts.
pub const MAX_ANALYZE_MS: u32 = 60_000;

pub use crate::options::parse_options;

/// A match's result.
#[derive(Debug, Clone, Serialize)]
pub struct MatchResult {
    /// `south`, `north` or `draw`.
    pub winner: &'static str,
    /// Rounds played.
    pub rounds: u32,
}

/// One move's score in an analysis.
#[derive(Debug, Clone, Serialize)]
pub struct MoveScore {
    /// The move's token.
    #[serde(rename = "move")]
    pub token: String,
    /// Its score in seeds (final captured margin, reserves included) from
    /// the side to move's view.
    pub score: i32,
    /// Its principal variation, starting with the move.
    pub pv: Vec<String>,
}

/// What `analyze` returns.
#[derive(Debug, Clone, Serialize)]
pub struct Analysis {
    /// The best move, or null once the game is over.
    pub best: Option<String>,
    /// Its score in seeds.
    pub score: Option<i32>,
    /// Every legal move's score, best first.
    pub moves: Vec<MoveScore>,
}

/// Totals of `randomPlayouts`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct PlayoutTotals {
    /// Games played.
    pub games: u64,
    /// Moves played in all of them.
    pub plies: u64,
    /// Games South won.
    pub south_wins: u64,
    /// Games North won.
    pub north_wins: u64,
    /// Drawn games.
    pub draws: u64,
}

/// What `Game.fromSetup` reads: a board, its closed holes, who moves.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SetupArgs {
    board: Vec<u8>,
    #[serde(default)]
    closed: Vec<usize>,
    #[serde(default = "south")]
    to_move: Side,
    /// Seeds captured so far, South's then North's.
    #[serde(default)]
    captured: [u8; 2],
}

fn south() -> Side {
    Side::South
}

/// A single game or a match, with what the JavaScript classes need.
#[derive(Debug, Clone)]
pub struct Play {
    contest: Contest,
    tables: EngineTables,
}

/// The endgame tables the engine of a [`Play`] uses as its oracle, if any
/// (the tablebase of a [`crate::tables::OfflineTables`] set, shared).
#[derive(Clone, Default)]
pub struct EngineTables(pub Option<Arc<Tablebase>>);

impl std::fmt::Debug for EngineTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("EngineTables")
            .field(&self.0.as_ref().map(|t| t.layers()))
            .finish()
    }
}

/// Checks an engine level (1 to 10).
pub fn check_level(level: u8) -> Result<u8, Error> {
    if (1..=10).contains(&level) {
        Ok(level)
    } else {
        Err(Error::Level(level))
    }
}

impl Play {
    /// A new single game.
    pub fn game(rules: Rules) -> Play {
        Play {
            contest: Contest::new_game(rules),
            tables: EngineTables::default(),
        }
    }

    /// A single game from a position given by `setup` (the JSON text of
    /// `{board, closed, to_move, captured}`: seeds per hole in index
    /// order, the closed holes' indices, `"south"` or `"north"`, the seeds
    /// captured by South and North; all but `board` may be left out),
    /// validated by the core's [`Position::from_setup`].
    pub fn from_setup(rules: Rules, setup: &str) -> Result<Play, Error> {
        let s: SetupArgs = serde_json::from_str(setup).map_err(|e| Error::Setup(e.to_string()))?;
        let mut full = Setup::start(&rules);
        full.board = s.board;
        full.closed = s.closed;
        full.to_move = s.to_move;
        full.captured = ByPlayer::new(s.captured[0], s.captured[1]);
        full.opening = false;
        let pos = Position::from_setup(rules, &full).map_err(|e| Error::Setup(e.to_string()))?;
        Ok(Play {
            contest: Contest::Game(Game::from_position(pos)),
            tables: EngineTables::default(),
        })
    }

    /// A single game from a position in the notation of NOTATION.md,
    /// read by the core's [`Position::from_notation`].
    pub fn from_notation(rules: Rules, text: &str) -> Result<Play, Error> {
        let pos = Position::from_notation(rules, text).map_err(|e| Error::Setup(e.to_string()))?;
        Ok(Play {
            contest: Contest::Game(Game::from_position(pos)),
            tables: EngineTables::default(),
        })
    }

    /// A new match.
    pub fn new_match(rules: Rules) -> Play {
        Play {
            contest: Contest::new_match(rules),
            tables: EngineTables::default(),
        }
    }

    /// The game or match.
    pub fn contest(&self) -> &Contest {
        &self.contest
    }

    fn position(&self) -> &Position {
        self.contest.position()
    }

    /// Legal move tokens of the player to move (none once over).
    pub fn legal_moves(&self) -> Vec<String> {
        if self.contest.is_over() || self.position().is_over() {
            return Vec::new();
        }
        self.position().legal_tokens()
    }

    /// Plays `token`, returning what the move did (the core's
    /// [`TracedMove`], serialised as the server's move event without its
    /// `seq` and `epoch`); on an error nothing changes.
    pub fn play(&mut self, token: &str) -> Result<TracedMove, Error> {
        self.contest.play_traced(token, MAX_TRACE_EVENTS).map_err(|e| {
            Error::Move(match e {
                MoveError::RoundOver { .. } => "this round is over: start the next round".into(),
                MoveError::GameOver { .. } | MoveError::MatchOver { .. } => "the game is over".into(),
                e => e.to_string(),
            })
        })
    }

    /// `side` (`south` or `north`) concedes the game (a match: the current
    /// round): the seeds in play go to the other side and it is counted.
    pub fn concede(&mut self, side: &str) -> Result<(), Error> {
        let side = match side {
            "south" => Side::South,
            "north" => Side::North,
            _ => {
                return Err(Error::Move(format!(
                    "{side:?} is no side: expected south or north"
                )))
            }
        };
        self.contest
            .concede(side)
            .map_err(|_| Error::Move("the game (round) is over: nothing to concede".into()))
    }

    /// Whether the player to move chooses the sowing direction.
    pub fn direction_choice(&self) -> bool {
        !self.contest.is_over() && !self.position().is_over() && self.position().direction_is_choice()
    }

    /// The current position as the RULES.md §7 state.
    pub fn state(&self) -> State {
        State::from_position(self.position())
    }

    /// Whether the game (or the whole match) is over.
    pub fn is_over(&self) -> bool {
        self.contest.is_over()
    }

    /// The current position's notation.
    pub fn notation(&self) -> String {
        self.position().to_notation()
    }

    /// The tokens of the current round's moves.
    pub fn tokens(&self) -> Vec<String> {
        self.contest.current().tokens()
    }

    /// Takes back the current round's last move; returns its token.
    pub fn undo(&mut self) -> Option<String> {
        let game = match &mut self.contest {
            Contest::Game(g) => g,
            Contest::Match(_) => return None,
        };
        let before = game.positions();
        let m = game.undo()?;
        let at = before[before.len() - 2];
        Some(at.move_token(m).to_string())
    }

    /// Every round so far.
    pub fn rounds(&self) -> Vec<RoundSummary> {
        self.contest.round_summaries()
    }

    /// The result of the game or match once it is over.
    pub fn result(&self) -> Option<GameResult> {
        self.contest.result()
    }

    /// The match result once the match is over (`None` for a single game).
    pub fn match_result(&self) -> Option<MatchResult> {
        let o = self.contest.as_match()?.outcome()?;
        Some(MatchResult {
            winner: o.result().name(),
            rounds: o.rounds,
        })
    }

    /// Whether the current round of a match is over and the next can start.
    pub fn can_start_next_round(&self) -> bool {
        self.contest.can_start_next_round()
    }

    /// Starts the next round of a match.
    pub fn start_next_round(&mut self) -> Result<(), Error> {
        if self.contest.start_next_round() {
            Ok(())
        } else {
            Err(Error::NextRound)
        }
    }

    /// The game or match as a record (the text `hoyito replay` reads).
    pub fn record(&self) -> String {
        Record::from(self.contest.clone()).write()
    }

    /// The rules of the game or match.
    pub fn rules(&self) -> &Rules {
        self.contest.rules()
    }

    /// Makes the engine use `tables` as its oracle from now on (`None`:
    /// none), as the server's engine uses its tablebases.
    pub fn set_tables(&mut self, tables: Option<Arc<Tablebase>>) {
        self.tables = EngineTables(tables);
    }

    /// The engine's move at `level` (1 to 10) within `time` (the server's
    /// limit unless given), with the tables of [`Play::set_tables`] as its
    /// oracle; `None` once the game is over.
    pub fn best_move(&self, level: u8, time: Option<Duration>, seed: u64) -> Result<Option<String>, Error> {
        best_move(self.contest.current(), level, time, seed, self.tables.0.clone())
    }

    /// Every legal move's score at `level` within `time`, best first, with
    /// the tables of [`Play::set_tables`] as the engine's oracle.
    pub fn analyze(&self, level: u8, time: Duration) -> Result<Analysis, Error> {
        let level = check_level(level)?;
        let game = self.contest.current();
        let pos = *game.position();
        let mut engine = Engine::with_level(level);
        if let Some(tb) = &self.tables.0 {
            engine.set_tablebase(Arc::clone(tb));
        }
        let limits = Limits {
            movetime: Some(time),
            ..Limits::default()
        };
        let moves: Vec<MoveScore> = engine
            .analyze(game, limits, &AtomicBool::new(false))
            .into_iter()
            .map(|(m, score, pv)| MoveScore {
                token: pos.move_token(m).to_string(),
                score,
                pv: pos.line_tokens(&pv),
            })
            .collect();
        Ok(Analysis {
            best: moves.first().map(|m| m.token.clone()),
            score: moves.first().map(|m| m.score),
            moves,
        })
    }
}

/// The engine's move in `game` at `level` (1 to 10) within `time` (the
/// server's limit unless given), searching with `seed` and with `tables`
/// as its oracle if given (as the server's engine uses its tablebases);
/// `None` once the game is over.
///
/// # Errors
/// [`Error::Level`] for a level outside 1 to 10.
pub fn best_move(
    game: &Game,
    level: u8,
    time: Option<Duration>,
    seed: u64,
    tables: Option<Arc<Tablebase>>,
) -> Result<Option<String>, Error> {
    let level = check_level(level)?;
    let mut engine = Engine::with_level(level);
    engine.set_seed(seed);
    if let Some(tb) = tables {
        engine.set_tablebase(tb);
    }
    let limits = Limits {
        movetime: Some(time.unwrap_or(ENGINE_MOVETIME)),
        ..Limits::default()
    };
    let res = engine.search(game, limits, &AtomicBool::new(false), &mut |_| {});
    Ok(res.best.map(|m| game.position().move_token(m).to_string()))
}

/// `n` uniformly random games from the start under `rules`, drawn from a
/// generator seeded with `seed` exactly as `hoyito bench --seed` does, so
/// the same seed gives the same totals natively and in WebAssembly.
pub fn random_playouts(n: u64, rules: Rules, seed: u64) -> PlayoutTotals {
    let start = Position::new(rules);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut below = |k: usize| playout::uniform_below(k, || rng.next_u32());
    let mut tracker = RepetitionTracker::new();
    let mut t = PlayoutTotals::default();
    for _ in 0..n {
        let (end, plies) = playout::random_game(start, &mut below, &mut tracker);
        t.games += 1;
        t.plies += plies;
        match end.outcome().and_then(|o| o.winner) {
            Some(Side::South) => t.south_wins += 1,
            Some(Side::North) => t.north_wins += 1,
            None => t.draws += 1,
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use hoyito_core::{Event, Variant};

    #[test]
    fn a_game_from_a_setup_sows_as_the_core_and_refuses_bad_positions() {
        let rules = Rules::new(Variant::II, 4).unwrap();
        let mut s = Play::from_setup(rules, r#"{"board":[2,3,3,0,1,0,2,0]}"#).unwrap();
        assert_eq!(s.state().to_move, Some(Side::South));
        let moved = s.play("1").unwrap();
        // 2 from hole 0: holes 1 and 2 make casas; II takes the chain back.
        assert_eq!(moved.captured(), 8);
        assert!(moved.extra_turn());
        let north = Play::from_setup(rules, r#"{"board":[1,0,0,0,0,2,0,0],"to_move":"north"}"#).unwrap();
        assert_eq!(north.legal_moves(), ["2"]);
        for bad in [
            r#"{"board":[1,2,3]}"#,
            r#"{"board":[1,0,0,0,0,2,0,0],"closed":[0]}"#,
            r#"{"board":[1,0,0,0,0,2,0,0],"colour":"red"}"#,
            "null",
        ] {
            let e = Play::from_setup(rules, bad).unwrap_err().to_string();
            assert!(e.starts_with("invalid setup: "), "{bad}: {e}");
        }
    }

    #[test]
    fn a_conceded_round_is_the_core_match_conceded() {
        let rules = Rules::standard(Variant::I);
        let mut s = Play::new_match(rules);
        let mut m = hoyito_core::Match::new(rules);
        let first = s.legal_moves()[0].clone();
        s.play(&first).unwrap();
        m.play(m.current().position().parse_move(&first).unwrap())
            .unwrap();
        assert!(s.concede("east").is_err());
        s.concede("north").unwrap();
        m.concede(Side::North).unwrap();
        assert_eq!(s.state(), State::from_position(m.current().position()));
        assert_eq!(s.rounds()[0].reason, Some("conceded"));
        assert_eq!(s.match_result().map(|r| r.winner), Some("south"));
        assert!(s.concede("south").is_err());
        assert!(s.record().contains("concede:north"));
    }

    #[test]
    fn an_illegal_move_is_refused_with_its_reason_and_changes_nothing() {
        let mut s = Play::game(Rules::standard(Variant::II));
        s.play("3").unwrap();
        let before = (s.notation(), s.tokens());
        for (bad, says) in [("9", "hole"), ("x", ""), ("3R", "direction")] {
            let e = s.play(bad).unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
            assert_eq!((s.notation(), s.tokens()), before);
        }
    }

    #[test]
    fn the_trace_replays_to_the_board_after_the_move() {
        let mut s = Play::game(Rules::standard(Variant::III));
        for _ in 0..30 {
            if s.is_over() {
                break;
            }
            let token = s.legal_moves()[0].clone();
            let p = s.play(&token).unwrap();
            let mut board: Vec<u32> = p.before().board().iter().map(|&x| x as u32).collect();
            let mut captured = 0;
            for e in &p.trace().events {
                match *e {
                    Event::Lap(h, n) => {
                        assert_eq!(board[h as usize], n as u32);
                        board[h as usize] = 0;
                    }
                    Event::Seed(h) => board[h as usize] += 1,
                    Event::Capture(h, n) => {
                        board[h as usize] -= n as u32;
                        captured += n as u32;
                    }
                }
            }
            if !s.state().over {
                assert_eq!(
                    board,
                    s.state().board.iter().map(|&x| x as u32).collect::<Vec<_>>()
                );
                assert_eq!(captured, p.captured() as u32);
            }
        }
    }

    #[test]
    fn the_engine_answers_legal_moves_and_scores_every_move() {
        let s = Play::game(Rules::standard(Variant::II));
        for level in [1, 5, 10] {
            let m = s
                .best_move(level, Some(Duration::from_millis(100)), 7)
                .unwrap()
                .unwrap();
            assert!(s.legal_moves().contains(&m), "level {level}: {m}");
        }
        assert!(s.best_move(0, None, 1).is_err() && s.best_move(11, None, 1).is_err());
        let a = s.analyze(6, Duration::from_millis(500)).unwrap();
        let mut tokens: Vec<_> = a.moves.iter().map(|m| m.token.clone()).collect();
        tokens.sort();
        let mut legal = s.legal_moves();
        legal.sort();
        assert_eq!(tokens, legal);
        assert!(a.moves.windows(2).all(|w| w[0].score >= w[1].score));
        assert_eq!(a.best.as_deref(), Some(a.moves[0].token.as_str()));
    }

    #[test]
    fn matches_go_from_round_to_round() {
        let mut s = Play::new_match(Rules::new(Variant::I, 4).unwrap());
        assert!(s.start_next_round().is_err());
        let mut rounds = 1;
        while !s.is_over() && rounds < 4 {
            if s.can_start_next_round() {
                s.start_next_round().unwrap();
                rounds += 1;
                continue;
            }
            let t = s.legal_moves()[0].clone();
            s.play(&t).unwrap();
        }
        assert_eq!(s.rounds().len(), rounds);
        assert!(s.record().contains("[Match \"yes\"]"), "{}", s.record());
    }

    #[test]
    fn playouts_count_every_game() {
        let t = random_playouts(50, Rules::standard(Variant::I), 3);
        assert_eq!(t.games, 50);
        assert_eq!(t.south_wins + t.north_wins + t.draws, 50);
        assert_eq!(t, random_playouts(50, Rules::standard(Variant::I), 3));
    }

    /// The generator is `hoyito bench`'s (SmallRng on this 64-bit machine).
    #[cfg(target_pointer_width = "64")]
    #[test]
    fn the_generator_is_the_one_of_hoyito_bench() {
        let mut ours = Xoshiro256PlusPlus::seed_from_u64(7);
        let mut bench = rand::rngs::SmallRng::seed_from_u64(7);
        for _ in 0..1000 {
            assert_eq!(ours.next_u32(), bench.next_u32());
        }
    }
}
