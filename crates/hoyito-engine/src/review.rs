//! Post-game review: the score of every move of a position, the seeds a
//! played move lost against the best one, and its mark (best, inaccuracy,
//! mistake, blunder), with each side's totals. The server's analysis and
//! `hoyito analyze --annotate` both use it, so a move gets the same mark
//! wherever it is shown.
//!
//! A mark is decided by what the move changed ([`Mark::judge`]): the
//! result first — a move that turns a win into a draw or a loss, or a draw
//! into a loss, is a blunder whatever the seeds — then the seeds of final
//! margin it lost, on its variant's own scale ([`Scale::of`]). Every
//! capture takes 4 seeds, so a casa taken by one side rather than the other
//! moves the final margin by 8: proved losses come in steps of 8 (4 when
//! the seeds left are shared), and the thresholds count casas.
//!
//! ```
//! use hoyito_core::{Rules, Variant};
//! use hoyito_engine::review::{Mark, Scale};
//! let scale = Scale::of(&Rules::standard(Variant::I));
//! // Ahead by 16 either way: one casa less is an inaccuracy.
//! assert_eq!(Mark::judge(scale, (24, true), (16, true)), Mark::Inaccuracy);
//! // A won game drawn: a blunder, though it lost only 8.
//! assert_eq!(Mark::judge(scale, (8, true), (0, true)), Mark::Blunder);
//! ```

use crate::clock::Instant;
use std::sync::atomic::AtomicBool;

use hoyito_core::{Game, Move, Position, Rules, Side, Variant};

use crate::{Engine, Limits};

/// Seeds of final margin that one casa (4 seeds) taken by one side rather
/// than the other is worth: the step of a proved margin.
pub const CASA_SWING: i32 = 8;

/// The thresholds of the marks of one variant, in seeds of final margin
/// lost against the best move (a move that changes the result is a blunder
/// whatever it lost).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Scale {
    /// Fewest seeds lost that make a move an inaccuracy.
    pub inaccuracy: i32,
    /// Fewest seeds lost that make a move a mistake.
    pub mistake: i32,
    /// Fewest seeds lost that make a move a blunder.
    pub blunder: i32,
    /// An estimated score nearer 0 than this is read as a draw when
    /// deciding whether a move changed the result (a proved score is read
    /// by its sign).
    pub even: i32,
}

impl Scale {
    /// The scale of `rules`' variant. Hoyito I captures every casa made
    /// during a sowing, several a move, so its margins swing widely: one
    /// casa (8) lost is an inaccuracy, two (16) a mistake, three (24) a
    /// blunder. Hoyito II and III capture only with the last seed of a
    /// lap: less than a casa lost (an estimate's difference) is an
    /// inaccuracy, a casa (8) a mistake, two (16) a blunder.
    pub const fn of(rules: &Rules) -> Scale {
        Scale::of_variant(rules.variant())
    }

    /// The scale of `variant` (see [`Scale::of`]).
    pub const fn of_variant(variant: Variant) -> Scale {
        match variant {
            Variant::I => Scale {
                inaccuracy: 1,
                mistake: 2 * CASA_SWING,
                blunder: 3 * CASA_SWING,
                even: CASA_SWING / 2,
            },
            Variant::II | Variant::III => Scale {
                inaccuracy: 1,
                mistake: CASA_SWING,
                blunder: 2 * CASA_SWING,
                even: CASA_SWING / 2,
            },
        }
    }

    /// The mark of a move that lost `loss` seeds without changing the
    /// result (a negative loss, which a search cut short may report, counts
    /// as none).
    pub const fn of_loss(self, loss: i32) -> Mark {
        if loss >= self.blunder {
            Mark::Blunder
        } else if loss >= self.mistake {
            Mark::Mistake
        } else if loss >= self.inaccuracy {
            Mark::Inaccuracy
        } else {
            Mark::Best
        }
    }

    /// The result a final margin `score` for the mover means: loss, draw or
    /// win. A proved score by its sign; an estimate within [`Scale::even`]
    /// of 0 is a draw.
    pub const fn result(self, score: i32, exact: bool) -> Standing {
        let even = if exact { 1 } else { self.even };
        if score >= even {
            Standing::Win
        } else if score <= -even {
            Standing::Loss
        } else {
            Standing::Draw
        }
    }
}

/// What a score means for the mover's result, worst first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Standing {
    /// Losing.
    Loss,
    /// Drawing (or, for an estimate, about even).
    Draw,
    /// Winning.
    Win,
}

/// How good a played move was: first whether it changed the result, then
/// the seeds of final margin it lost against the best move of its position,
/// on its variant's [`Scale`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mark {
    /// Lost nothing: as good as the best move.
    Best,
    /// Lost [`Scale::inaccuracy`] up to [`Scale::mistake`]` - 1` seeds.
    Inaccuracy,
    /// Lost [`Scale::mistake`] up to [`Scale::blunder`]` - 1` seeds.
    Mistake,
    /// Lost [`Scale::blunder`] seeds or more, or made the result worse
    /// (a win a draw or a loss, a draw a loss).
    Blunder,
}

impl Mark {
    /// Every mark, from best to worst.
    pub const ALL: [Mark; 4] = [Mark::Best, Mark::Inaccuracy, Mark::Mistake, Mark::Blunder];

    /// The mark of a move scored `played` (its final margin for the mover
    /// and whether it is proved) where the best move scored `best`: a
    /// blunder if the result it leads to is worse than the best move's
    /// ([`Scale::result`]), else by the seeds it lost ([`Scale::of_loss`]).
    pub const fn judge(scale: Scale, best: (i32, bool), played: (i32, bool)) -> Mark {
        let loss = best.0 - played.0;
        if loss <= 0 {
            return Mark::Best;
        }
        if (scale.result(played.0, played.1) as u8) < (scale.result(best.0, best.1) as u8) {
            return Mark::Blunder;
        }
        scale.of_loss(loss)
    }

    /// The name written in records and sent by the server: `best`,
    /// `inaccuracy`, `mistake`, `blunder`.
    pub const fn name(self) -> &'static str {
        match self {
            Mark::Best => "best",
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }

    /// The index of this mark in [`Mark::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl std::fmt::Display for Mark {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One legal move of a reviewed position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoredMove {
    /// The move.
    pub mv: Move,
    /// The expected final margin for the mover after it, in seeds
    /// (as [`Position::margin`], captures so far included).
    pub score: i32,
    /// The principal variation, starting with the move.
    pub pv: Vec<Move>,
    /// Whether `score` is proved (the game ends with the move, or
    /// perfect-play knowledge gave or proved the value), not estimated.
    pub exact: bool,
}

/// The review of one position: every legal move with its score, best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionReview {
    /// The side to move.
    pub to_move: Side,
    /// Every legal move, best first (empty once the game is over).
    pub moves: Vec<ScoredMove>,
    /// The marks' scale of the position's variant.
    pub scale: Scale,
    /// The depth the search completed, in plies (0 once the game is over).
    pub depth: u32,
}

impl PositionReview {
    /// The best move, `None` once the game is over.
    pub fn best(&self) -> Option<&ScoredMove> {
        self.moves.first()
    }

    /// The scored move `m`, if legal here.
    pub fn get(&self, m: Move) -> Option<&ScoredMove> {
        self.moves.iter().find(|s| s.mv == m)
    }

    /// The seeds move `m` loses against the best move (0 for a best move),
    /// `None` if `m` is not one of the reviewed moves.
    pub fn loss(&self, m: Move) -> Option<i32> {
        let best = self.best()?.score;
        Some((best - self.get(m)?.score).max(0))
    }

    /// The mark of move `m` ([`Mark::judge`] of its score against the
    /// best move's), `None` if `m` is not one of the reviewed moves.
    pub fn mark(&self, m: Move) -> Option<Mark> {
        let best = self.best()?;
        let own = self.get(m)?;
        Some(Mark::judge(
            self.scale,
            (best.score, best.exact),
            (own.score, own.exact),
        ))
    }
}

/// The expected final margin for South of `pos` reviewed as `review`, and
/// whether it is exact: the best move's score from South's view, or the
/// final margin once the game is over.
pub fn margin_for_south(pos: &Position, review: &PositionReview) -> (i32, bool) {
    match review.best() {
        None => (pos.margin(Side::South), true),
        Some(b) if review.to_move == Side::South => (b.score, b.exact),
        Some(b) => (-b.score, b.exact),
    }
}

/// Each side's totals over a game: moves, seeds lost, and how many of each mark.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideStats {
    /// Moves reviewed.
    pub moves: u32,
    /// Seeds lost against the best moves, in all.
    pub loss: u64,
    /// How many moves got each mark, in [`Mark::ALL`] order.
    pub counts: [u32; 4],
}

impl SideStats {
    /// Counts one more move that lost `loss` seeds and got `mark`.
    pub fn add(&mut self, loss: i32, mark: Mark) {
        let loss = loss.max(0);
        self.moves += 1;
        self.loss += loss as u64;
        self.counts[mark.index()] += 1;
    }

    /// Seeds lost per move on average (0 with no move).
    pub fn average_loss(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.loss as f64 / self.moves as f64
        }
    }

    /// How many moves got `mark`.
    pub fn count(&self, mark: Mark) -> u32 {
        self.counts[mark.index()]
    }
}

/// Slots of the exact search's transposition table when a review proves values.
const PROOF_TABLE_ENTRIES: usize = 1 << 16;

impl Engine {
    /// Reviews the current position of `game`: every legal move searched to
    /// `limits` ([`Engine::analyze`]), best first. With perfect-play
    /// knowledge ([`Engine::set_oracle`]), a move whose resulting position
    /// it answers gets that exact value, and if the oracle proves, the
    /// values of all moves are then proved within half of `limits`' time
    /// (or a quarter of its nodes) where possible; moves that end the game
    /// are exact too. The best move is first; between equal scores, exact
    /// ones first.
    pub fn review(&mut self, game: &Game, limits: Limits, stop: &AtomicBool) -> PositionReview {
        let pos = *game.position();
        let to_move = pos.to_move();
        let scale = Scale::of(game.rules());
        if pos.is_over() {
            return PositionReview {
                to_move,
                moves: Vec::new(),
                scale,
                depth: 0,
            };
        }
        let started = Instant::now();
        let proved = self.prove_moves(&pos, limits, started);
        let rest = match limits.movetime {
            Some(t) if proved.is_some() => Limits {
                movetime: Some(
                    t.saturating_sub(started.elapsed())
                        .max(std::time::Duration::from_millis(1)),
                ),
                ..limits
            },
            _ => limits,
        };
        let (searched, summary) = self.analyze_search(game, rest, stop);
        let mut moves: Vec<ScoredMove> = searched
            .into_iter()
            .map(|(mv, score, pv)| ScoredMove {
                mv,
                score,
                pv,
                exact: false,
            })
            .collect();
        for s in &mut moves {
            if let Some(&(_, v)) = proved.as_ref().and_then(|p| p.iter().find(|(m, _)| *m == s.mv)) {
                s.score = v;
                s.exact = true;
                continue;
            }
            let mut next = pos;
            if next.play(s.mv).is_err() {
                continue;
            }
            if next.is_over() {
                s.score = next.margin(to_move);
                s.exact = true;
            } else if let Some(v) = self.oracle.as_deref().and_then(|o| o.final_margin(&next)) {
                s.score = if next.to_move() == to_move { v } else { -v };
                s.exact = true;
            }
        }
        // Stable: the search's order stays among equal scores.
        moves.sort_by_key(|s| (-s.score, !s.exact));
        PositionReview {
            to_move,
            moves,
            scale,
            depth: summary.depth,
        }
    }

    /// The final margin of every move of `pos` for its mover, proved by the
    /// oracle's exact search within part of `limits`; `None` without a
    /// proving oracle or if the proof does not finish.
    fn prove_moves(&self, pos: &Position, limits: Limits, started: Instant) -> Option<Vec<(Move, i32)>> {
        let oracle = self.oracle.as_deref()?;
        if pos.closed_mask() != 0 {
            return None;
        }
        let mut prover = oracle.prover(PROOF_TABLE_ENTRIES)?;
        let nodes = limits.node_budget.or(limits.nodes).map(|n| n / 4);
        let deadline = limits.movetime.map(|t| started + t / 2);
        if nodes.is_none() && deadline.is_none() {
            prover.set_budget(Some(200_000), None);
        } else {
            prover.set_budget(nodes, deadline);
        }
        let me = pos.to_move();
        let mut out = None;
        prover.run(&mut |p| out = p.move_values(pos).ok());
        out.map(|values| values.into_iter().map(|(m, v)| (m, pos.margin(me) + v)).collect())
    }
}

/// The comment written after a reviewed move in an annotated record: the
/// move's expected final margin for its mover (`=` before it when exact),
/// its mark, the seeds lost, and the best move with its score when the
/// played one was not best. `None` if `played` is not among the reviewed
/// moves of `before` (the review of the position it was played in).
///
/// ```
/// use hoyito_engine::review::{annotation, PositionReview, Scale, ScoredMove};
/// use hoyito_core::{Position, Rules, Side, Variant};
/// let pos = Position::new(Rules::standard(Variant::II));
/// let legal = pos.legal_moves();
/// let review = PositionReview {
///     to_move: Side::South,
///     moves: vec![
///         ScoredMove { mv: legal[0], score: 12, pv: vec![legal[0]], exact: false },
///         ScoredMove { mv: legal[1], score: 4, pv: vec![legal[1]], exact: true },
///     ],
///     scale: Scale::of(pos.rules()),
///     depth: 6,
/// };
/// let text = annotation(&pos, &review, legal[1]).unwrap();
/// assert_eq!(text, "=+4 mistake (-8), best 1 +12");
/// ```
pub fn annotation(pos: &Position, before: &PositionReview, played: Move) -> Option<String> {
    let best = before.best()?;
    let own = before.get(played)?;
    let loss = before.loss(played)?;
    let mark = before.mark(played)?;
    let score = |s: &ScoredMove| format!("{}{:+}", if s.exact { "=" } else { "" }, s.score);
    let mut text = format!("{} {mark}", score(own));
    if mark != Mark::Best {
        text.push_str(&format!(
            " (-{loss}), best {} {}",
            pos.move_token(best.mv),
            score(best)
        ));
    }
    Some(text)
}

/// The review of a whole game: one [`PositionReview`] per position (before
/// each move, and the final one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameReview {
    /// The positions of the game, `moves().len() + 1` of them.
    pub positions: Vec<Position>,
    /// The review of each position.
    pub reviews: Vec<PositionReview>,
}

impl GameReview {
    /// Reviews every position of `game` with `engine` to `limits` per
    /// position, calling `on_position(done, total)` after each.
    pub fn of_game(
        engine: &mut Engine,
        game: &Game,
        limits: Limits,
        stop: &AtomicBool,
        on_position: &mut dyn FnMut(usize, usize),
    ) -> GameReview {
        let positions = game.positions();
        let total = positions.len();
        let mut reviews = Vec::with_capacity(total);
        let mut prefix = Game::from_position(*game.start());
        for (i, _) in positions.iter().enumerate() {
            reviews.push(engine.review(&prefix, limits, stop));
            on_position(i + 1, total);
            if let Some(&m) = game.moves().get(i) {
                prefix.play(m).expect("the moves of a game are legal");
            }
        }
        GameReview { positions, reviews }
    }

    /// Each side's totals ([`SideStats`]), `[south, north]`.
    pub fn stats(&self, moves: &[Move]) -> [SideStats; 2] {
        let mut out = [SideStats::default(); 2];
        for (review, &m) in self.reviews.iter().zip(moves) {
            if let (Some(loss), Some(mark)) = (review.loss(m), review.mark(m)) {
                out[usize::from(review.to_move == Side::North)].add(loss, mark);
            }
        }
        out
    }

    /// The annotation ([`annotation`]) of each move of `moves` (the game's moves).
    pub fn annotations(&self, moves: &[Move]) -> Vec<Option<String>> {
        self.positions
            .iter()
            .zip(&self.reviews)
            .zip(moves)
            .map(|((pos, review), &m)| annotation(pos, review, m))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hoyito_core::{Rules, Variant};

    #[test]
    fn marks_count_seeds_on_each_variants_scale() {
        // Hoyito I: one casa (8) an inaccuracy, two a mistake, three a blunder.
        let one = Scale::of_variant(Variant::I);
        let expected = [
            (-3, Mark::Best),
            (0, Mark::Best),
            (1, Mark::Inaccuracy),
            (8, Mark::Inaccuracy),
            (15, Mark::Inaccuracy),
            (16, Mark::Mistake),
            (23, Mark::Mistake),
            (24, Mark::Blunder),
            (40, Mark::Blunder),
        ];
        for (loss, mark) in expected {
            assert_eq!(one.of_loss(loss), mark, "I, loss {loss}");
        }
        // Hoyito II and III: less than a casa an inaccuracy, one a mistake, two a blunder.
        for v in [Variant::II, Variant::III] {
            let s = Scale::of_variant(v);
            for (loss, mark) in [
                (0, Mark::Best),
                (4, Mark::Inaccuracy),
                (7, Mark::Inaccuracy),
                (8, Mark::Mistake),
                (15, Mark::Mistake),
                (16, Mark::Blunder),
            ] {
                assert_eq!(s.of_loss(loss), mark, "{v}, loss {loss}");
            }
        }
        // Every mark occurs on each variant's proved steps (8 a casa, 4
        // when the seeds left are shared), a won game staying won.
        for v in Variant::ALL {
            let s = Scale::of_variant(v);
            let marks: std::collections::BTreeSet<_> = (0..7)
                .map(|k| Mark::judge(s, (40, true), (40 - 4 * k, true)))
                .collect();
            assert_eq!(marks.len(), 4, "{v}: {marks:?}");
        }
        let names: Vec<_> = Mark::ALL.iter().map(|m| m.to_string()).collect();
        assert_eq!(names, ["best", "inaccuracy", "mistake", "blunder"]);
    }

    #[test]
    fn the_result_comes_before_the_seeds() {
        for v in Variant::ALL {
            let s = Scale::of_variant(v);
            // A win made a draw or a loss, a draw made a loss: blunders,
            // however few seeds they lost.
            assert_eq!(Mark::judge(s, (8, true), (0, true)), Mark::Blunder, "{v}");
            assert_eq!(Mark::judge(s, (4, true), (-4, true)), Mark::Blunder, "{v}");
            assert_eq!(Mark::judge(s, (0, true), (-4, true)), Mark::Blunder, "{v}");
            // The same seeds lost without changing the result.
            assert_eq!(Mark::judge(s, (16, true), (8, true)), s.of_loss(8), "{v}");
            assert_eq!(Mark::judge(s, (-8, true), (-16, true)), s.of_loss(8), "{v}");
            assert_ne!(s.of_loss(8), Mark::Blunder, "{v}");
            // A win by less still wins; a loss by more still loses.
            assert_eq!(Mark::judge(s, (40, true), (8, true)), s.of_loss(32), "{v}");
            // Estimates near 0 are even: +3 to -3 is no change of result.
            assert_eq!(Mark::judge(s, (3, false), (-3, false)), s.of_loss(6), "{v}");
            assert_eq!(Mark::judge(s, (6, false), (-6, false)), Mark::Blunder, "{v}");
            // Nothing lost, nothing marked; a better score than the best (a
            // search cut short) neither.
            assert_eq!(Mark::judge(s, (8, true), (8, false)), Mark::Best, "{v}");
            assert_eq!(Mark::judge(s, (8, false), (12, true)), Mark::Best, "{v}");
        }
        assert!(Standing::Loss < Standing::Draw && Standing::Draw < Standing::Win);
    }

    #[test]
    fn side_stats_count_and_average() {
        let mut s = SideStats::default();
        let scale = Scale::of_variant(Variant::II);
        for loss in [0, 0, 2, 9, -1] {
            s.add(loss, scale.of_loss(loss));
        }
        assert_eq!(s.moves, 5);
        assert_eq!(s.loss, 11);
        assert_eq!(s.counts, [3, 1, 1, 0]);
        assert!((s.average_loss() - 2.2).abs() < 1e-9);
        assert_eq!(SideStats::default().average_loss(), 0.0);
    }

    /// A reviewed game: one review per position, South's view of the margin
    /// flips with the mover, the final position is exact.
    #[test]
    fn a_game_review_covers_every_position() {
        let mut game = Game::new(Rules::new(Variant::II, 4).unwrap());
        for t in ["1", "2", "3"] {
            if game.is_over() {
                break;
            }
            let legal = game.position().legal_tokens();
            let tok = if legal.iter().any(|l| l == t) {
                t.to_string()
            } else {
                legal[0].clone()
            };
            game.play_token(&tok).unwrap();
        }
        let mut engine = Engine::new(crate::EngineKind::AlphaBeta);
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        let review = GameReview::of_game(
            &mut engine,
            &game,
            limits,
            &AtomicBool::new(false),
            &mut |_, _| {},
        );
        assert_eq!(review.reviews.len(), game.moves().len() + 1);
        for (pos, r) in review.positions.iter().zip(&review.reviews) {
            assert_eq!(r.to_move, pos.to_move());
            assert_eq!(r.moves.len(), pos.legal_moves().len());
            let (south, _) = margin_for_south(pos, r);
            let best = r.best().unwrap().score;
            assert_eq!(south, if pos.to_move() == Side::South { best } else { -best });
            // Best first.
            assert!(r.moves.windows(2).all(|w| w[0].score >= w[1].score));
            assert_eq!(r.scale, Scale::of_variant(Variant::II));
            assert!(pos.is_over() || r.depth >= 1, "the depth searched");
        }
        let stats = review.stats(game.moves());
        assert_eq!(
            stats.iter().map(|s| s.moves).sum::<u32>() as usize,
            game.moves().len()
        );
    }
}
