//! `hoyito play`: a game or match in the terminal, human against the engine
//! or two humans, as a line interface that reads stdin line by line (so a
//! script can drive it).

mod trace;

use std::fmt::Write as _;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::Context;
use clap::ValueEnum;
use hoyito_core::{
    ByPlayer, Contest, Game, Match, Move, MoveError, Record, Side, TracedMove, MAX_TRACE_EVENTS,
};
use hoyito_engine::ugi::explain_illegal as explain;
use hoyito_engine::{Engine, Limits};

use super::common::side_name;
use super::common::{board_text, legal_tokens, read_file, write_file_atomic, RulesArgs};

/// Play in the terminal: against the engine, or two humans.
#[derive(clap::Args)]
#[command(after_help = HELP)]
pub struct Args {
    #[command(flatten)]
    rules: RulesArgs,
    /// Engine strength, 1 (weakest) to 10 (strongest).
    #[arg(long, value_name = "1-10", default_value_t = 5, value_parser = clap::value_parser!(u8).range(1..=10))]
    level: u8,
    /// Longest engine think per move, in milliseconds (levels 1 to 9 usually
    /// stop earlier at their depth).
    #[arg(long, value_name = "MS", default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..))]
    movetime: u64,
    /// Your side against the engine (South moves first).
    #[arg(long, value_enum, default_value = "south")]
    side: SideArg,
    /// Two humans at the keyboard, no engine moves (`hint` still asks the engine).
    #[arg(long, conflicts_with = "side")]
    humans: bool,
    /// Play a match: rounds with refills and closed holes until a player
    /// is left with too few seeds (RULES.md §5).
    #[arg(long = "match")]
    as_match: bool,
    /// Start from a saved game record (its rules replace the rule options).
    #[arg(long, value_name = "FILE")]
    load: Option<PathBuf>,
    #[command(flatten)]
    tablebases: super::common::TablebaseArgs,
}

/// `--side` values.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum SideArg {
    South,
    North,
}

const HELP: &str = "\
Commands at the prompt:
  <move>      a move token: 3 (your hole 3, counted from your left), 3R (clockwise,
              where the direction is a choice), 2+5 (two-hole opening)
  moves       list the legal moves
  hint        the engine's move here, at the chosen --level
  undo        take back your last move (and the engine's reply)
  concede     end the game (in a match: this round) at once; the seeds in
              play go to your opponent (with two players: the player to move concedes)
  save FILE   save the game record to FILE
  load FILE   load a game record from FILE
  help        this text
  quit        leave (end of input quits too)";

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rules = args.rules.rules()?;
    let humans = if args.humans {
        ByPlayer::new(true, true)
    } else {
        match args.side {
            SideArg::South => ByPlayer::new(true, false),
            SideArg::North => ByPlayer::new(false, true),
        }
    };
    let play = if args.as_match {
        Contest::Match(Match::new(rules))
    } else {
        Contest::Game(Game::new(rules))
    };
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut ui = Ui {
        input: stdin.lock(),
        out: stdout.lock(),
        play,
        history: Vec::new(),
        humans,
        level: args.level,
        movetime: Duration::from_millis(args.movetime),
        engine: None,
        tablebases: args.tablebases.clone(),
        shown: false,
        echo: !stdin.is_terminal(),
    };
    if let Some(path) = &args.load {
        // A record that cannot be read at start-up is a usage error (exit 2).
        ui.load(path)?;
    }
    ui.run()?;
    Ok(ExitCode::SUCCESS)
}

/// The terminal session.
struct Ui<R: BufRead, W: Write> {
    input: R,
    out: W,
    play: Contest,
    /// The game before each ply, with the player who made it (for `undo`).
    history: Vec<(Contest, Side)>,
    /// Which sides a human plays.
    humans: ByPlayer<bool>,
    level: u8,
    movetime: Duration,
    engine: Option<Engine>,
    tablebases: super::common::TablebaseArgs,
    /// The current position has been shown.
    shown: bool,
    /// Echo each input line after the prompt (input is not a terminal).
    echo: bool,
}

/// What to do after a command.
enum Next {
    Continue,
    Quit,
}

impl<R: BufRead, W: Write> Ui<R, W> {
    fn say(&mut self, text: &str) -> anyhow::Result<()> {
        writeln!(self.out, "{text}").context("cannot write to stdout")
    }

    fn player_name(&self, side: Side) -> String {
        if self.humans[side] {
            if self.humans[side.other()] {
                side_name(side).to_string()
            } else {
                format!("{} (you)", side_name(side))
            }
        } else {
            format!("{} (engine, level {})", side_name(side), self.level)
        }
    }

    fn run(&mut self) -> anyhow::Result<()> {
        let header = format!(
            "Hoyito: {} {}. {} against {}. Type help for commands.",
            *self.play.rules(),
            if matches!(self.play, Contest::Match(_)) {
                "match"
            } else {
                "game"
            },
            self.player_name(Side::South),
            self.player_name(Side::North)
        );
        self.say(&header)?;
        loop {
            if !self.shown {
                self.show()?;
                self.shown = true;
                if self.next_round()? {
                    continue;
                }
            }
            let pos = *self.play.position();
            if !pos.is_over() && !self.humans[pos.to_move()] {
                self.engine_move()?;
                continue;
            }
            let prompt = if pos.is_over() {
                "> ".to_string()
            } else {
                format!("{} > ", self.player_name(pos.to_move()))
            };
            write!(self.out, "{prompt}")?;
            self.out.flush()?;
            let mut line = Vec::new();
            if self.input.read_until(b'\n', &mut line)? == 0 {
                self.say("")?;
                self.say("End of input: goodbye.")?;
                return Ok(());
            }
            let line = String::from_utf8_lossy(&line).trim().to_string();
            if self.echo {
                // Piped input is not shown by a terminal: echo it so a transcript reads well.
                self.say(&line)?;
            }
            if let Next::Quit = self.command(&line)? {
                self.say("Goodbye.")?;
                return Ok(());
            }
        }
    }

    /// The board, score and round, and the game's end if it is over.
    fn show(&mut self) -> anyhow::Result<()> {
        let pos = *self.play.position();
        let mut s = String::new();
        s.push('\n');
        s.push_str(&board_text(&pos));
        let total = |side: Side| pos.captured()[side] as u32 + pos.reserve()[side] as u32;
        let _ = write!(
            s,
            "  score: South {} - North {}   ply {}",
            total(Side::South),
            total(Side::North),
            self.play.current().moves().len()
        );
        if let Contest::Match(m) = &self.play {
            let _ = write!(s, "   match round {}", m.round());
        }
        s.push('\n');
        if let Some(o) = pos.outcome() {
            let what = if matches!(self.play, Contest::Match(_)) {
                "Round"
            } else {
                "Game"
            };
            let result = match o.winner {
                Some(w) => format!("{} wins", self.player_name(w)),
                None => "a draw".to_string(),
            };
            let _ = writeln!(
                s,
                "{what} over ({}): {result}, {} to {}.",
                o.reason.name().replace('_', " "),
                total(Side::South),
                total(Side::North)
            );
        }
        self.out.write_all(s.as_bytes())?;
        Ok(())
    }

    /// In a match, after a round: the match result, or the next round.
    /// Returns `true` if a new round started.
    fn next_round(&mut self) -> anyhow::Result<bool> {
        let Contest::Match(m) = &mut self.play else {
            return Ok(false);
        };
        if !m.current().is_over() {
            return Ok(false);
        }
        if let Some(o) = m.outcome() {
            let text = match o.winner {
                Some(w) => format!(
                    "Match over after {} round{}: {} wins the match.",
                    o.rounds,
                    if o.rounds == 1 { "" } else { "s" },
                    side_name(w)
                ),
                None => format!(
                    "Match over after {} rounds: nobody can go on; no winner.",
                    o.rounds
                ),
            };
            self.say(&text)?;
            return Ok(false);
        }
        if m.start_next_round() {
            let text = format!(
                "\n== Round {} == {} starts.",
                m.round(),
                side_name(m.current().position().to_move())
            );
            self.say(&text)?;
            self.shown = false;
            return Ok(true);
        }
        Ok(false)
    }

    fn engine(&mut self) -> &mut Engine {
        if self.engine.is_none() {
            let mut engine = Engine::with_level(self.level);
            if self.level == 10 {
                // Full strength plays perfectly where tablebases cover the position.
                let rules = *self.play.current().rules();
                if let Err(e) = self.tablebases.attach(&mut engine, rules) {
                    eprintln!("hoyito: {e:#}; playing without tablebases");
                }
            }
            self.engine = Some(engine);
        }
        self.engine.as_mut().expect("created above")
    }

    /// The engine's choice in the current position.
    fn think(&mut self) -> Option<(Move, i32, u32)> {
        let game = self.play.current().clone();
        let stop = AtomicBool::new(false);
        let limits = Limits {
            movetime: Some(self.movetime),
            ..Limits::default()
        };
        let result = self.engine().search(&game, limits, &stop, &mut |_| {});
        let legal = game.position().legal_moves();
        let best = result
            .best
            .filter(|m| legal.contains(m))
            .or_else(|| legal.first().copied())?;
        Some((best, result.score, result.depth))
    }

    fn engine_move(&mut self) -> anyhow::Result<()> {
        match self.think() {
            Some((m, _, _)) => {
                let t = self.play.position().prepare(m, MAX_TRACE_EVENTS)?;
                self.make_move(t)
            }
            None => anyhow::bail!("the engine found no move in a position that is not over"),
        }
    }

    /// Plays a move prepared in the current position, describing it.
    fn make_move(&mut self, t: TracedMove) -> anyhow::Result<()> {
        let who = self.player_name(t.side());
        let snapshot = self.play.clone();
        let t = self.play.commit(t)?;
        self.history.push((snapshot, t.side()));
        for l in trace::describe(&who, &t) {
            self.say(&l)?;
        }
        self.shown = false;
        Ok(())
    }

    fn command(&mut self, line: &str) -> anyhow::Result<Next> {
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        match word.to_ascii_lowercase().as_str() {
            "" => {}
            "quit" | "exit" | "q" => return Ok(Next::Quit),
            "help" | "?" => self.say(HELP)?,
            "moves" => {
                let pos = *self.play.position();
                let text = if pos.is_over() {
                    "The game is over: no legal moves.".to_string()
                } else {
                    format!("Legal moves: {}", legal_tokens(&pos))
                };
                self.say(&text)?;
            }
            "hint" => {
                if self.play.position().is_over() {
                    self.say("The game is over: no hint.")?;
                } else if let Some((m, score, depth)) = self.think() {
                    let pos = *self.play.position();
                    let text = format!(
                        "Hint: {} (engine level {}, score {score:+}, depth {depth})",
                        pos.move_token(m),
                        self.level
                    );
                    self.say(&text)?;
                }
            }
            "undo" => self.undo()?,
            "concede" | "resign" => self.concede()?,
            "save" => {
                if rest.is_empty() {
                    self.say("save needs a file name: save FILE")?;
                } else if let Err(e) = self.save(Path::new(rest)) {
                    self.say(&format!("Not saved: {e:#}"))?;
                }
            }
            "load" => {
                if rest.is_empty() {
                    self.say("load needs a file name: load FILE")?;
                } else if let Err(e) = self.load(Path::new(rest)) {
                    self.say(&format!("Not loaded: {e:#}; the game goes on unchanged."))?;
                }
            }
            _ if word.starts_with(|c: char| c.is_ascii_digit()) && rest.is_empty() => {
                self.human_move(word)?
            }
            _ => {
                let text = format!(
                    "Unknown command {:?}: type a move like 3, or moves, hint, undo, concede, save FILE, load FILE, help, quit.",
                    line.chars().take(40).collect::<String>()
                );
                self.say(&text)?;
            }
        }
        Ok(Next::Continue)
    }

    fn human_move(&mut self, token: &str) -> anyhow::Result<()> {
        let pos = *self.play.position();
        if pos.is_over() {
            return self.say("The game is over: type undo, save FILE, load FILE or quit.");
        }
        let text = match self.play.prepare_token(token, MAX_TRACE_EVENTS) {
            Ok(t) => return self.make_move(t),
            Err(MoveError::Parse(e)) => format!("Not a move: {e}. Legal moves: {}", legal_tokens(&pos)),
            Err(MoveError::Illegal { error, .. }) => format!(
                "Illegal move {token}: {}. Legal moves: {}",
                explain(&pos, error),
                legal_tokens(&pos)
            ),
            Err(e) => format!("{e}."),
        };
        self.say(&text)
    }

    /// The human (with two humans, the player to move) concedes the game or
    /// the round: the seeds in play go to the other side.
    fn concede(&mut self) -> anyhow::Result<()> {
        let pos = *self.play.position();
        if pos.is_over() {
            return self.say("The game is over: nothing to concede.");
        }
        let side = if self.humans[pos.to_move()] {
            pos.to_move()
        } else {
            pos.to_move().other()
        };
        let snapshot = self.play.clone();
        self.play.concede(side)?;
        self.history.push((snapshot, side));
        let text = format!(
            "{} concedes: the {} seeds in play go to {}.",
            self.player_name(side),
            pos.in_play(),
            side_name(side.other())
        );
        self.say(&text)?;
        self.shown = false;
        Ok(())
    }

    /// Takes back to the human's previous turn (one ply with two humans).
    fn undo(&mut self) -> anyhow::Result<()> {
        let Some(i) = self.history.iter().rposition(|(_, mover)| self.humans[*mover]) else {
            return self.say("Nothing to undo.");
        };
        let (play, mover) = self.history[i].clone();
        let taken = self.history.len() - i;
        self.history.truncate(i);
        self.play = play;
        let text = format!(
            "Took back {taken} pl{}; {} to move.",
            if taken == 1 { "y" } else { "ies" },
            side_name(mover)
        );
        self.say(&text)?;
        self.shown = false;
        Ok(())
    }

    fn save(&mut self, path: &Path) -> anyhow::Result<()> {
        let mut record = Record::from(self.play.clone());
        let who = |side: Side| {
            if self.humans[side] {
                "human".to_string()
            } else {
                format!("hoyito engine level {}", self.level)
            }
        };
        record.tags = vec![
            ("Event".into(), "hoyito play".into()),
            ("South".into(), who(Side::South)),
            ("North".into(), who(Side::North)),
        ];
        write_file_atomic(path, record.write().as_bytes())?;
        let text = format!("Saved {} plies to {}.", self.play.plies(), path.display());
        self.say(&text)
    }

    /// Loads a record and replays it so `undo` works through it.
    fn load(&mut self, path: &Path) -> anyhow::Result<()> {
        let text = read_file(path)?;
        let record = Record::read(&text).with_context(|| path.display().to_string())?;
        let mut history = Vec::new();
        let play = match record.match_() {
            Some(m) => {
                let mut x = Contest::Match(Match::new(*m.rules()));
                for (r, game) in m.rounds().iter().enumerate() {
                    if r > 0 {
                        if let Contest::Match(mm) = &mut x {
                            mm.start_next_round();
                        }
                    }
                    replay(&mut x, game, &mut history)?;
                }
                x
            }
            None => {
                let game = record.game().context("the record holds no game")?;
                let mut x = Contest::Game(Game::from_position(*game.start()));
                replay(&mut x, game, &mut history)?;
                x
            }
        };
        self.play = play;
        self.history = history;
        self.shown = false;
        let text = format!(
            "Loaded {} ({}, {} plies).",
            path.display(),
            *self.play.rules(),
            self.play.plies()
        );
        self.say(&text)
    }
}

/// Replays `game`'s moves into `play`, recording the history for `undo`.
fn replay(play: &mut Contest, game: &Game, history: &mut Vec<(Contest, Side)>) -> anyhow::Result<()> {
    for &m in game.moves() {
        let mover = play.position().to_move();
        history.push((play.clone(), mover));
        play.play(m).context("replaying the record")?;
    }
    if let Some(side) = game.conceded() {
        history.push((play.clone(), side));
        play.concede(side).context("replaying the record's concession")?;
    }
    Ok(())
}
