//! The root of an alpha-beta search: iterative deepening over the root
//! moves with principal variation search, and, among moves of equal value,
//! the one that gives a fallible opponent the most chances to err.

use crate::clock::Instant;
use std::sync::atomic::AtomicBool;

use hoyito_core::{Game, Move, Position, Side};

use crate::eval::to_seeds;
use crate::search::{Searcher, INF, MAX_PLY};
use crate::{zobrist, Engine, Info, Limits, SearchResult};

/// A move of the root with what the search knows of it.
struct RootMove {
    mv: Move,
    /// The position after the move.
    pos: Position,
    /// Board hash of `pos`.
    hb: u64,
    /// Seeds the move captured.
    captured: u8,
    /// Score in internal units (an upper bound for moves that failed low).
    score: i32,
    /// Principal variation, starting with `mv`.
    pv: Vec<Move>,
}

impl Engine {
    /// Iterative deepening. With `all_exact`, every root move is searched with
    /// a full window, so every root score is exact at the completed depth.
    /// Returns the root moves (internal units), best first, and the result.
    pub(crate) fn alpha_beta(
        &mut self,
        game: &Game,
        limits: Limits,
        stop: &AtomicBool,
        all_exact: bool,
        on_info: &mut dyn FnMut(&Info),
    ) -> (Vec<(Move, i32, Vec<Move>)>, SearchResult) {
        let start = Instant::now();
        let root = *game.position();
        let me = root.to_move();
        if limits.depth_only() {
            self.new_game();
        }
        self.tt.new_search();
        let salt = salt(&root);
        let history = game.positions();
        let mut s = Searcher::new(
            &mut self.tt,
            &mut self.history,
            self.oracle.as_deref(),
            self.weights,
            salt,
            stop,
            &history,
        );
        s.use_tt = self.use_tt;
        s.incremental = self.incremental_hash;
        s.node_limit = limits.node_limit();
        s.deadline = limits.movetime.map(|t| start + t);
        s.push_root(&root);
        let root_hb = zobrist::board_hash(&root);
        let mut roots: Vec<RootMove> = root
            .legal_moves()
            .iter()
            .map(|&m| {
                let mut p = root;
                let (played, hb) = zobrist::play_hashed(&mut p, root_hb, m).expect("a legal move");
                RootMove {
                    mv: m,
                    pos: p,
                    hb,
                    captured: played.captured,
                    score: -INF,
                    pv: vec![m],
                }
            })
            .collect();
        // Captures first in the first iteration.
        roots.sort_by_key(|r| std::cmp::Reverse(r.captured));
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        let mut completed = 0u32;
        for depth in 1..=max_depth {
            s.horizon = false;
            let mut alpha = -INF;
            let mut scores: Vec<Option<(i32, Vec<Move>)>> = vec![None; roots.len()];
            for (i, r) in roots.iter().enumerate() {
                let d = depth as i32 - 1;
                let v = if all_exact || i == 0 {
                    s.child_value(&r.pos, r.hb, me, r.captured, d, 1, -INF, INF)
                } else {
                    let v = s.child_value(&r.pos, r.hb, me, r.captured, d, 1, alpha, alpha + 1);
                    if v > alpha && !s.aborted {
                        s.child_value(&r.pos, r.hb, me, r.captured, d, 1, alpha, INF)
                    } else {
                        v
                    }
                };
                if s.aborted {
                    break;
                }
                let mut pv = vec![r.mv];
                pv.extend_from_slice(s.pv(1));
                // Moves that fail low under PVS keep an upper bound as their score.
                scores[i] = Some((v, pv));
                alpha = alpha.max(v);
            }
            let finished = !s.aborted;
            // A partial iteration still tells a better move if one was proven better
            // than the previous best (searched first).
            let better_partial = !finished
                && scores[0].is_some()
                && scores.iter().enumerate().skip(1).any(|(_, x)| {
                    x.as_ref()
                        .is_some_and(|(v, _)| *v > scores[0].as_ref().map_or(INF, |y| y.0))
                });
            if finished || better_partial {
                for (r, sc) in roots.iter_mut().zip(scores) {
                    if let Some((v, pv)) = sc {
                        r.score = v;
                        r.pv = pv;
                    } else if !finished {
                        r.score = r.score.min(alpha - 1);
                    }
                }
                roots.sort_by_key(|r| std::cmp::Reverse(r.score));
            }
            if !finished {
                break;
            }
            completed = depth;
            s.can_abort = true;
            let ms = start.elapsed().as_millis() as u64;
            on_info(&Info {
                depth,
                score: to_seeds(roots[0].score),
                nodes: s.nodes,
                nps: s.nodes * 1000 / ms.max(1),
                time_ms: ms,
                pv: roots[0].pv.clone(),
            });
            if !s.horizon {
                break; // Solved: every line ended.
            }
            if let Some(t) = limits.movetime {
                if roots.len() == 1 || start.elapsed() * 2 > t {
                    break;
                }
            }
            if let Some(b) = limits.node_budget {
                if roots.len() == 1 || s.nodes * 2 > b {
                    break;
                }
            }
            if s.nodes >= s.node_limit || stop.load(std::sync::atomic::Ordering::Relaxed) {
                break;
            }
        }
        if !all_exact && completed >= 3 && roots.len() > 1 && !s.aborted {
            // Among the moves as good as the best, prefer the one that gives a
            // fallible opponent the most chances to go wrong.
            let d = completed as i32;
            let best = roots[0].score;
            let mut tied = vec![0usize];
            for (i, r) in roots.iter().enumerate().skip(1) {
                // PVS scores of later moves are upper bounds: test them.
                if r.score >= best
                    && !s.aborted
                    && s.child_value(&r.pos, r.hb, me, r.captured, d - 1, 1, best - 1, best) >= best
                {
                    tied.push(i);
                }
            }
            if tied.len() > 1 && !s.aborted {
                let mut choice = (0usize, f64::NEG_INFINITY);
                for &i in &tied {
                    let r = &roots[i];
                    let chance = error_chance(&mut s, me, &r.pos, r.hb, best, d);
                    if s.aborted {
                        break;
                    }
                    if chance > choice.1 {
                        choice = (i, chance);
                    }
                }
                if !s.aborted && choice.0 != 0 {
                    let i = choice.0;
                    roots[i].score = best;
                    if roots[i].pv.first() != Some(&roots[i].mv) {
                        roots[i].pv = vec![roots[i].mv];
                    }
                    let r = roots.remove(i);
                    roots.insert(0, r);
                }
            }
        }
        let nodes = s.nodes;
        let time_ms = start.elapsed().as_millis() as u64;
        let best = &roots[0];
        let result = SearchResult {
            best: Some(best.mv),
            score: to_seeds(best.score),
            pv: best.pv.clone(),
            depth: completed,
            nodes,
            time_ms,
        };
        (roots.into_iter().map(|r| (r.mv, r.score, r.pv)).collect(), result)
    }
}

/// How likely an opponent who plays a random move, weighted towards captures
/// (weight 1 + seeds captured), is to reply to `child` (a root child whose
/// exact value for the root's mover is `best`, internal units) with a move
/// that lets the root's mover do better than `best` at depth `d - 2`.
/// A child that is over, or where the root's mover moves again, gives 0.
fn error_chance(s: &mut Searcher<'_>, me: Side, child: &Position, hb: u64, best: i32, d: i32) -> f64 {
    let opp = child.to_move();
    if child.is_over() || opp == me {
        return 0.0;
    }
    let replies = child.legal_moves();
    if replies.is_empty() {
        return 0.0;
    }
    s.push_path(child);
    let (mut total, mut wrong) = (0.0, 0.0);
    for &q in replies.iter() {
        let mut p = *child;
        let Ok((played, h)) = zobrist::play_hashed(&mut p, hb, q) else {
            continue;
        };
        let w = 1.0 + played.captured as f64;
        total += w;
        // The opponent's value after q is below -best: a mistake.
        let v = s.child_value(&p, h, opp, played.captured, d - 2, 2, -best - 1, -best);
        if s.aborted {
            break;
        }
        if v < -best {
            wrong += w;
        }
    }
    s.pop_path();
    if total > 0.0 {
        wrong / total
    } else {
        0.0
    }
}

/// A key salt for what [`Position::fingerprint`] leaves out but is constant within
/// a search: the rules and the last-four award.
fn salt(pos: &Position) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    pos.rules().hash(&mut h);
    pos.last_four().hash(&mut h);
    h.finish()
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use hoyito_core::{Game, Repetition, Variant};
    use rand::rngs::SmallRng;
    use rand::SeedableRng;

    use crate::search::tests::{random_position, rules};
    use crate::{Engine, EngineKind, Limits};

    /// The tie-break among equally good root moves (the one giving a fallible
    /// opponent most chances to err) never plays a move worse than the best:
    /// on random small positions the move chosen scores, by an exact analysis
    /// of every move at the same depth, as much as the best move.
    #[test]
    fn tie_break_keeps_the_best_score() {
        let mut rng = SmallRng::seed_from_u64(99);
        let stop = AtomicBool::new(false);
        let limits = Limits {
            depth: Some(7),
            ..Limits::default()
        };
        let mut changed = 0;
        for variant in Variant::ALL {
            let r = rules(variant, 4, Repetition::Even);
            for _ in 0..40 {
                let game = Game::from_position(random_position(&mut rng, r, 16));
                let mut e = Engine::new(EngineKind::AlphaBeta);
                let chosen = e.search(&game, limits, &stop, &mut |_| {});
                let all = e.analyze(&game, limits, &stop);
                let best = all[0].1;
                let mine = all.iter().find(|x| Some(x.0) == chosen.best).unwrap().1;
                assert_eq!(
                    mine,
                    best,
                    "{}: chose {:?} among {all:?}",
                    game.position().to_notation(),
                    chosen.best
                );
                assert_eq!(chosen.score, best);
                changed += (chosen.best != Some(all[0].0)) as u32;
            }
        }
        // The tie-break does choose other moves than the first best one.
        assert!(changed > 0);
    }
}
