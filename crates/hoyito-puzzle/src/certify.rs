//! The criterion: when a position is a puzzle, proved by the tables.
//!
//! A **step** is a position where exactly one move keeps the best result
//! for the side to move, and the result is a win or a draw: every other
//! move either gives a worse result (a win becomes a draw or a loss, a draw
//! a loss) or, keeping a win, ends at least [`CLEAR_MARGIN`] seeds worse
//! under perfect play; and the result is at stake: at least one other move
//! gives a worse result (a game already won whatever is played is no
//! puzzle). A **puzzle** is a step, followed while play
//! alternates by the opponent's forced reply (their only move keeping their
//! best value) and the solver's next step, up to [`MAX_SOLVER_MOVES`]
//! solver moves. The line stops before a reply that is not forced, a
//! position that is not a step, an extra turn or a pass (so the solution's
//! moves alternate solver and opponent), and at the end of the game.

use hoyito_core::{Game, Move, Position, Side, TracedMove, MAX_TRACE_EVENTS};
use hoyito_tablebase::{Tablebase, TablebaseError};

use crate::rating::rating;
use crate::theme::Theme;

/// Seeds by which every other move that still wins must fall short of the
/// solution: two casas. A casa is 4 seeds, so one casa less is a matter of
/// taste in many endgames; two casas less is a mistake a player sees on the
/// scoreboard.
pub const CLEAR_MARGIN: i32 = 8;

/// Most solver moves in a puzzle's solution.
pub const MAX_SOLVER_MOVES: usize = 3;

/// The result the side to move gets with perfect play, from its final margin.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outlook {
    /// Fewer seeds than the opponent.
    Loss,
    /// As many seeds.
    Draw,
    /// More seeds.
    Win,
}

impl Outlook {
    /// The result of a final margin.
    pub fn of_margin(margin: i32) -> Outlook {
        match margin.signum() {
            1 => Outlook::Win,
            0 => Outlook::Draw,
            _ => Outlook::Loss,
        }
    }

    /// `win`, `draw` or `loss`.
    pub const fn name(self) -> &'static str {
        match self {
            Outlook::Loss => "loss",
            Outlook::Draw => "draw",
            Outlook::Win => "win",
        }
    }
}

/// A position that is a step ([module docs](self)): its only good move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The only move keeping the result.
    pub best: Move,
    /// Its value: the net seeds the mover gains from here with perfect play.
    pub value: i32,
    /// The result it keeps.
    pub outlook: Outlook,
    /// Every legal move with its value, in the order of the legal moves.
    pub moves: Vec<(Move, i32)>,
}

/// Whether `pos` is a step ([module docs](self)), from the tables' values.
///
/// # Errors
/// [`TablebaseError`] if the tables do not answer the position or one of
/// its moves (a layer not built, other rules).
pub fn step(tb: &Tablebase, pos: &Position) -> Result<Option<Step>, TablebaseError> {
    if pos.is_over() {
        return Ok(None);
    }
    let moves = tb.move_values(pos)?;
    if moves.len() < 2 {
        return Ok(None);
    }
    let value = moves.iter().map(|&(_, v)| v).max().unwrap_or(i32::MIN);
    let mut best = moves.iter().filter(|&&(_, v)| v == value);
    let (Some(&(m, _)), None) = (best.next(), best.next()) else {
        return Ok(None);
    };
    let margin = pos.margin(pos.to_move());
    let outlook = Outlook::of_margin(margin + value);
    if outlook == Outlook::Loss {
        return Ok(None);
    }
    let others = || moves.iter().filter(|&&(o, _)| o != m).map(|&(_, v)| v);
    let worse = |v: i32| Outlook::of_margin(margin + v) < outlook;
    let clear = others().all(|v| worse(v) || value - v >= CLEAR_MARGIN);
    let at_stake = others().any(worse);
    Ok((clear && at_stake).then_some(Step {
        best: m,
        value,
        outlook,
        moves,
    }))
}

/// The opponent's only move keeping their best value in `pos`, if it is unique.
fn forced_reply(tb: &Tablebase, pos: &Position) -> Result<Option<Move>, TablebaseError> {
    let moves = tb.move_values(pos)?;
    let value = moves.iter().map(|&(_, v)| v).max();
    let mut best = moves.iter().filter(|&&(_, v)| Some(v) == value);
    Ok(match (best.next(), best.next()) {
        (Some(&(m, _)), None) => Some(m),
        _ => None,
    })
}

/// A puzzle proved by the tables: a position and its solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    /// The position, the solver to move.
    pub position: Position,
    /// The solution: moves alternating solver and opponent, starting and
    /// ending with the solver's.
    pub solution: Vec<Move>,
    /// The solution's tokens, each in the position it is played in.
    pub tokens: Vec<String>,
    /// The themes of the solver's moves, in [`Theme::ALL`]'s order.
    pub themes: Vec<Theme>,
    /// The position's value for the solver (net seeds gained from here with
    /// perfect play).
    pub value: i32,
    /// The result the solution keeps.
    pub outlook: Outlook,
    /// The difficulty estimate ([`rating`]).
    pub rating: u32,
}

impl Puzzle {
    /// The solver: the side to move in the position.
    pub fn solver(&self) -> Side {
        self.position.to_move()
    }

    /// The number of solver moves in the solution.
    pub fn solver_moves(&self) -> usize {
        self.solution.len().div_ceil(2)
    }
}

/// Plays `m` in `game`, traced, returning the move as committed.
fn play(game: &mut Game, m: Move) -> TracedMove {
    let t = game
        .position()
        .prepare(m, MAX_TRACE_EVENTS)
        .expect("moves from the tables' move list are legal");
    game.commit(t).expect("prepared in the game's position")
}

/// The puzzle starting at `pos`, if it is one ([module docs](self)).
///
/// # Errors
/// [`TablebaseError`] if the tables do not answer a position of the line.
pub fn certify(tb: &Tablebase, pos: &Position) -> Result<Option<Puzzle>, TablebaseError> {
    let Some(first) = step(tb, pos)? else {
        return Ok(None);
    };
    let solver = pos.to_move();
    let mut game = Game::from_position(*pos);
    let mut solution = Vec::new();
    let mut tokens = Vec::new();
    let mut themes = Vec::new();
    let mut traced_first = None;
    let mut next = first.clone();
    loop {
        tokens.push(game.position().move_token(next.best).to_string());
        solution.push(next.best);
        let t = play(&mut game, next.best);
        themes.extend(Theme::of_move(&t));
        traced_first.get_or_insert(t);
        if solution.len().div_ceil(2) == MAX_SOLVER_MOVES
            || game.is_over()
            || game.position().to_move() == solver
        {
            break;
        }
        let Some(reply) = forced_reply(tb, game.position())? else {
            break;
        };
        let mut after = game.clone();
        play(&mut after, reply);
        if after.is_over() || after.position().to_move() != solver {
            break;
        }
        let Some(s) = step(tb, after.position())? else {
            break;
        };
        tokens.push(game.position().move_token(reply).to_string());
        solution.push(reply);
        game = after;
        next = s;
    }
    themes.sort_unstable();
    themes.dedup();
    let traced_first = traced_first.expect("the solution has a first move");
    let rating = rating(pos, &first, &traced_first, solution.len().div_ceil(2));
    Ok(Some(Puzzle {
        position: *pos,
        solution,
        tokens,
        themes,
        value: first.value,
        outlook: first.outlook,
        rating,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use hoyito_core::{Rules, Variant};

    fn tables(variant: Variant) -> Tablebase {
        Tablebase::solve_in_memory(Rules::new(variant, 4).unwrap(), 12).unwrap()
    }

    #[test]
    fn outlook_orders_results() {
        assert!(Outlook::Loss < Outlook::Draw && Outlook::Draw < Outlook::Win);
        assert_eq!(Outlook::of_margin(-2), Outlook::Loss);
        assert_eq!(Outlook::of_margin(0), Outlook::Draw);
        assert_eq!(Outlook::of_margin(4), Outlook::Win);
    }

    /// Every step has a unique best move, and every other move loses the
    /// result or at least the clear margin; every line alternates and is
    /// made of best moves; and positions with two best moves are never steps.
    #[test]
    fn the_criterion_holds_on_every_certified_position() {
        for variant in [Variant::I, Variant::II, Variant::III] {
            let tb = tables(variant);
            let rules = *tb.rules();
            let (mut found, mut refused) = (0, 0);
            // Every board of 8 seeds with South to move and even captures.
            let mut board = [8, 0, 0, 0, 0, 0, 0, 0];
            loop {
                let text = format!(
                    "{}/{} s 12-12",
                    board[..4].iter().map(u8::to_string).collect::<Vec<_>>().join(","),
                    board[4..].iter().map(u8::to_string).collect::<Vec<_>>().join(",")
                );
                let pos = Position::from_notation(rules, &text).unwrap();
                match certify(&tb, &pos).unwrap() {
                    Some(p) => {
                        found += 1;
                        let s = step(&tb, &pos).unwrap().unwrap();
                        let margin = pos.margin(pos.to_move());
                        assert!(s
                            .moves
                            .iter()
                            .any(|&(_, v)| Outlook::of_margin(margin + v) < s.outlook));
                        for &(m, v) in &s.moves {
                            if m != s.best {
                                assert!(v < s.value);
                                assert!(
                                    Outlook::of_margin(margin + v) < s.outlook || s.value - v >= CLEAR_MARGIN,
                                    "{text}"
                                );
                            }
                        }
                        assert_eq!(p.solution[0], s.best);
                        assert!(p.solution.len() % 2 == 1 && p.solver_moves() <= MAX_SOLVER_MOVES);
                        let mut g = Game::from_position(pos);
                        for (i, &m) in p.solution.iter().enumerate() {
                            let side = g.position().to_move();
                            assert_eq!(side == pos.to_move(), i % 2 == 0, "{text}: alternation");
                            let best = tb.best_moves(g.position()).unwrap();
                            assert_eq!(best.len(), 1, "{text}: move {i} is the only best");
                            assert_eq!(best[0].0, m);
                            g.play(m).unwrap();
                        }
                    }
                    None => {
                        refused += 1;
                        if let Ok(best) = tb.best_moves(&pos) {
                            if best.len() > 1 {
                                assert!(step(&tb, &pos).unwrap().is_none());
                            }
                        }
                    }
                }
                if !next_board(&mut board) {
                    break;
                }
            }
            assert!(
                found > 0 && refused > 0,
                "{variant}: {found} puzzles, {refused} refused"
            );
        }
    }

    /// Steps through every board of the same number of seeds (compositions,
    /// last hole fastest); false after the last.
    fn next_board(board: &mut [u8; 8]) -> bool {
        let n = board.len();
        // Find the rightmost non-last position that can move a seed right.
        let Some(i) = (0..n - 1).rev().find(|&i| board[i] > 0) else {
            return false;
        };
        let tail: u8 = board[i + 1..].iter().sum();
        board[i] -= 1;
        for b in &mut board[i + 1..] {
            *b = 0;
        }
        board[i + 1] = tail + 1;
        true
    }
}
