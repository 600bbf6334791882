//! Post-game analysis: the engine reviews every position of a game off the
//! request path, on a few blocking threads at a time, and the result is
//! stored with the game (table `analyses`) so that a second visit gets it
//! at once. What is sent and stored is [`crate::room::analysis`].
//!
//! Unless the request sets the engine's time, an analysis makes two passes:
//! a quick one within the game's budget ([`GAME_BUDGET_MS`]), whose steps
//! show at once, then a deeper one ([`REFINE_BUDGET_MS`], up to
//! [`DEFAULT_MOVETIME_MS`] a position) whose steps replace them one by one.
//!
//! A request for a game already being analysed joins that analysis; the
//! analyses in memory, the worker threads and each client address's budget
//! are [`crate::state::analyses`]. Positions are reviewed by
//! [`hoyito_engine::review`], which also gives the marks.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hoyito_core::{Game, Move, Position, Rules, Side};
use hoyito_engine::review::{self, Mark, PositionReview, Scale, SideStats};
use hoyito_engine::{Engine, EngineKind, Limits};
use hoyito_room::MoveHoles;

use crate::error::ApiError;
use crate::room::analysis::{
    AnalysisView, LineStep, MoveScore, PlayedMove, SideSummary, StepAnalysis, Thresholds, MAX_LINE,
};
use crate::room::live::LiveGame;
use crate::state::analyses::{IpGuard, Job};
use crate::state::AppState;

/// Most engine time per position of the first pass, and the time of the
/// second (deeper) pass unless its budget ([`REFINE_BUDGET_MS`]) gives less:
/// the game's budget ([`GAME_BUDGET_MS`]) is shared among its positions,
/// from [`AUTO_MIN_MOVETIME_MS`] to this.
pub const DEFAULT_MOVETIME_MS: u64 = 250;
/// Engine time for a whole game's second, deeper pass: shared among its
/// positions, from the first pass's time to [`DEFAULT_MOVETIME_MS`] (a
/// 40-ply game: 250 ms a position, about 10 s).
pub const REFINE_BUDGET_MS: u64 = 20_000;
/// Engine time for a whole game's first, quick pass unless the request sets
/// the time per position: a 40-ply game's first marks come in about 1.6 s.
/// The marks still move with the depth (`scripts/analysis-marks.sh`,
/// README), so a deeper pass follows ([`REFINE_BUDGET_MS`]).
pub const GAME_BUDGET_MS: u64 = 1600;
/// Least engine time per position the game's budget gives.
pub const AUTO_MIN_MOVETIME_MS: u64 = 30;
/// Least engine time per position a request may ask for.
pub const MIN_MOVETIME_MS: u64 = 20;
/// Most engine time per position a request may ask for.
pub const MAX_MOVETIME_MS: u64 = 2000;
/// Analyses running or waiting on the whole server before new ones get 503.
pub const MAX_RUNNING: usize = 8;
/// Transposition table of each analysis's engine, in MiB (kept from one
/// position to the next of a game).
const HASH_MB: usize = 8;
/// Most positions one analysis reviews (a longer game is refused).
pub const MAX_POSITIONS: usize = 2000;

/// One position to review: the game up to it, and the step that led to it.
#[derive(Clone)]
struct Frame {
    game: Game,
    played: Option<(Side, Move, String)>,
}

/// The positions of `g`: the start, then one after each stored step.
fn frames(g: &LiveGame) -> Vec<Frame> {
    let rounds = g.room.contest().rounds();
    let mut round = 0;
    let mut index = 0;
    let mut prefix = Game::from_position(*rounds[0].start());
    let mut out = vec![Frame {
        game: prefix.clone(),
        played: None,
    }];
    for s in g.room.steps() {
        let mut played = None;
        match s.kind {
            hoyito_room::StepKind::Round => {
                round += 1;
                index = 0;
                if let Some(r) = rounds.get(round) {
                    prefix = Game::from_position(*r.start());
                }
            }
            hoyito_room::StepKind::Move => {
                if let Some(&m) = rounds.get(round).and_then(|r| r.moves().get(index)) {
                    let side = prefix.position().to_move();
                    let token = prefix.position().move_token(m).to_string();
                    if prefix.play(m).is_ok() {
                        played = Some((side, m, token));
                    }
                }
                index += 1;
            }
            _ => {}
        }
        out.push(Frame {
            game: prefix.clone(),
            played,
        });
    }
    out
}

/// The analysis of step `seq`, from its review (searched `movetime_ms` a
/// position) and the review of the position before it.
fn step_analysis(
    seq: usize,
    frame: &Frame,
    r: &PositionReview,
    before: Option<(&Frame, &PositionReview)>,
    movetime_ms: u64,
) -> StepAnalysis {
    let pos = frame.game.position();
    let (eval, exact) = review::margin_for_south(pos, r);
    let best = r.best();
    let played = match (&frame.played, before) {
        (Some((side, m, token)), Some((bf, br))) => {
            let bpos = bf.game.position();
            match (br.best(), br.get(*m), br.loss(*m), br.mark(*m)) {
                (Some(b), Some(own), Some(loss), Some(mark)) => Some(PlayedMove {
                    side: *side,
                    token: token.clone(),
                    score: own.score,
                    loss,
                    mark: mark.name().to_string(),
                    best: bpos.move_token(b.mv).to_string(),
                    best_score: b.score,
                    comment: review::annotation(bpos, br, *m).unwrap_or_default(),
                }),
                _ => None,
            }
        }
        _ => None,
    };
    StepAnalysis {
        seq,
        to_move: (!pos.is_over()).then(|| pos.to_move()),
        eval,
        exact,
        best: best.map(|b| pos.move_token(b.mv).to_string()),
        best_holes: best
            .map(|b| MoveHoles::of(b.mv, String::new()).holes)
            .unwrap_or_default(),
        best_dir: best.map(|b| b.mv.direction().suffix()),
        pv: best.map(|b| pos.line_tokens(&b.pv)).unwrap_or_default(),
        line: best.map(|b| line(pos, &b.pv)).unwrap_or_default(),
        moves: r
            .moves
            .iter()
            .map(|s| {
                let sown = MoveHoles::of(s.mv, pos.move_token(s.mv).to_string());
                MoveScore {
                    token: sown.token,
                    score: s.score,
                    exact: s.exact,
                    holes: sown.holes,
                    dir: Some(sown.dir),
                }
            })
            .collect(),
        played,
        depth: r.depth,
        movetime_ms,
    }
}

/// The first [`MAX_LINE`] moves of `pv` from `pos`, with the position after each.
fn line(pos: &Position, pv: &[Move]) -> Vec<LineStep> {
    let mut p = *pos;
    let mut out = Vec::new();
    for &m in pv.iter().take(MAX_LINE) {
        if p.is_over() {
            break;
        }
        let side = p.to_move();
        let sown = MoveHoles::of(m, p.move_token(m).to_string());
        if p.play(m).is_err() {
            break;
        }
        out.push(LineStep {
            side,
            token: sown.token,
            holes: sown.holes,
            board: p.board().to_vec(),
            captured: {
                let c = p.captured();
                [c.south, c.north]
            },
        });
    }
    out
}

/// Each side's totals over the steps.
fn summary(steps: &[StepAnalysis]) -> HashMap<String, SideSummary> {
    let mut stats = [SideStats::default(); 2];
    for m in steps.iter().filter_map(|p| p.played.as_ref()) {
        let mark = Mark::ALL
            .into_iter()
            .find(|k| k.name() == m.mark)
            .unwrap_or(Mark::Best);
        stats[usize::from(m.side == Side::North)].add(m.loss, mark);
    }
    [("south", stats[0]), ("north", stats[1])]
        .into_iter()
        .map(|(k, s)| (k.to_string(), s.into()))
        .collect()
}

/// The marks' thresholds of `rules`' variant ([`Scale::of`]).
fn thresholds(rules: &Rules) -> Thresholds {
    let s = Scale::of(rules);
    Thresholds {
        inaccuracy: s.inaccuracy,
        mistake: s.mistake,
        blunder: s.blunder,
        even: s.even,
    }
}

/// The stored analysis of game `id`, if any.
pub(crate) async fn stored(st: &AppState, id: &str) -> Result<Option<AnalysisView>, ApiError> {
    let key = id.to_string();
    let Some((_, _, data)) = st.db(move |s| s.load_analysis(&key)).await? else {
        return Ok(None);
    };
    serde_json::from_str(&data)
        .map(Some)
        .map_err(|e| ApiError::internal(format!("stored analysis of {id} is corrupt: {e}")))
}

/// The analysis of game `id` running or stored (any steps), from step `from`.
pub(crate) async fn current(st: &AppState, id: &str, from: usize) -> Result<Option<AnalysisView>, ApiError> {
    if let Some(job) = st.analyses.job(id) {
        return Ok(Some(job.view().steps_from(from)));
    }
    Ok(stored(st, id).await?.map(|v| v.steps_from(from)))
}

/// Starts the analysis of game `id` for client `ip`, or joins the one
/// running, or answers the one stored for the game as it stands. Returns
/// whether it is done, and the view (all steps).
pub(crate) async fn start(
    st: &Arc<AppState>,
    id: &str,
    ip: IpAddr,
    movetime_ms: Option<u64>,
) -> Result<AnalysisView, ApiError> {
    if let Some(ms) = movetime_ms {
        if !(MIN_MOVETIME_MS..=MAX_MOVETIME_MS).contains(&ms) {
            return Err(ApiError::unprocessable(
                "invalid_budget",
                format!("movetime_ms must be {MIN_MOVETIME_MS} to {MAX_MOVETIME_MS}"),
            ));
        }
    }
    let slot = st.slot(id).await?;
    let (epoch, seq, frames) = {
        let g = slot.game.lock().await;
        // The engine's view of a game between two people is for after it.
        if g.meta.mode == crate::store::Mode::Online && !g.room.finished() {
            return Err(ApiError::conflict(
                "game_in_progress",
                "an online game is analysed once it is over",
            ));
        }
        (g.room.epoch(), g.room.seq(), frames(&g))
    };
    // The time asked for makes one pass; else a quick pass, then a deeper one.
    let times = match movetime_ms {
        Some(ms) => vec![ms],
        None => pass_times(frames.len()),
    };
    let rules = *frames[0].game.rules();
    if frames.len() > MAX_POSITIONS {
        return Err(ApiError::unprocessable(
            "game_too_long",
            format!(
                "this game has {} positions; at most {MAX_POSITIONS} are analysed",
                frames.len()
            ),
        ));
    }
    let same = |v: &AnalysisView| v.epoch == epoch && v.seq == seq;
    // A running analysis of the game as it stands is joined.
    if let Some(job) = st.analyses.job(id) {
        let v = job.view();
        if same(&v) || v.status == "running" {
            return Ok(v);
        }
    }
    if let Some(v) = stored(st, id).await? {
        if same(&v) {
            return Ok(v);
        }
    }
    let mut jobs = st.analyses.jobs.lock().unwrap_or_else(|e| e.into_inner());
    // Another request may have started it meanwhile.
    if let Some(job) = jobs.get(id) {
        let v = job.view();
        if same(&v) || v.status == "running" {
            return Ok(v);
        }
    }
    let running = jobs.values().filter(|j| j.view().status == "running").count();
    if running >= MAX_RUNNING {
        return Err(ApiError::unavailable(
            "engine_busy",
            format!("the server is running {MAX_RUNNING} analyses; try again shortly"),
        )
        .retry_after(10));
    }
    // An analysis is an engine job of its address, counted in the one
    // engine queue, for as long as it runs.
    let held = st.reserve_deep(ip)?;
    let guard = (st.analyses.charge(ip)?, held, st.engine_job());
    let view = AnalysisView {
        id: crate::auth::random_id(10),
        status: "running".into(),
        epoch,
        seq,
        movetime_ms: times[0],
        pass: 1,
        passes: times.len() as u32,
        created_ms: crate::store::now(),
        total: frames.len(),
        done: 0,
        from: 0,
        steps: Vec::new(),
        summary: None,
        thresholds: thresholds(&rules),
    };
    let job = Arc::new(Job {
        view: Mutex::new(view.clone()),
        finished: Mutex::new(None),
    });
    jobs.insert(id.to_string(), job.clone());
    drop(jobs);
    tokio::spawn(run(st.clone(), id.to_string(), job, frames, times, guard));
    Ok(view)
}

/// The engine time per position of each pass of a game of `positions`
/// positions when the request sets none: [`auto_movetime_ms`], then, if
/// longer, the second pass's ([`REFINE_BUDGET_MS`] shared among them, at
/// most [`DEFAULT_MOVETIME_MS`]).
pub fn pass_times(positions: usize) -> Vec<u64> {
    let first = auto_movetime_ms(positions);
    let second = (REFINE_BUDGET_MS / positions.max(1) as u64).clamp(first, DEFAULT_MOVETIME_MS);
    if second > first {
        vec![first, second]
    } else {
        vec![first]
    }
}

/// The engine time per position of a game of `positions` positions when the
/// request sets none: [`GAME_BUDGET_MS`] shared among them, from
/// [`AUTO_MIN_MOVETIME_MS`] to [`DEFAULT_MOVETIME_MS`].
pub fn auto_movetime_ms(positions: usize) -> u64 {
    (GAME_BUDGET_MS / positions.max(1) as u64).clamp(AUTO_MIN_MOVETIME_MS, DEFAULT_MOVETIME_MS)
}

/// Reviews every frame in each pass (engine time per position `times`),
/// one blocking task per position (each waiting for a worker), publishing
/// each step as it comes (a later pass's replacing the earlier's), then
/// stores the analysis.
async fn run(
    st: Arc<AppState>,
    id: String,
    job: Arc<Job>,
    frames: Vec<Frame>,
    times: Vec<u64>,
    guard: (IpGuard, crate::limits::Held, crate::state::JobTicket),
) {
    let _guard = guard;
    let rules = *frames[0].game.rules();
    let tablebases = st.tablebases.clone();
    let mut engine = Engine::new(EngineKind::AlphaBeta);
    engine.set_hash_mb(HASH_MB);
    let mut engine = Some(Box::new(engine));
    let stop = Arc::new(AtomicBool::new(false));
    let mut first = true;
    for (pass, &movetime_ms) in times.iter().enumerate() {
        if pass > 0 {
            let mut v = job.view.lock().unwrap_or_else(|e| e.into_inner());
            v.summary = Some(summary(&v.steps));
            v.pass = pass as u32 + 1;
            v.movetime_ms = movetime_ms;
            v.done = 0;
        }
        let movetime = Duration::from_millis(movetime_ms);
        let mut reviews: Vec<PositionReview> = Vec::with_capacity(frames.len());
        for (k, frame) in frames.iter().enumerate() {
            if *st.shutdown.borrow() {
                return; // not stored: the next request starts again
            }
            let Ok(permit) = st.analyses.workers.clone().acquire_owned().await else {
                st.analyses.forget(&id);
                return;
            };
            let game = frame.game.clone();
            let mut eng = engine.take().expect("the engine is back after each position");
            let tb = tablebases.clone().filter(|_| first);
            let stop2 = stop.clone();
            let limits = Limits {
                movetime: Some(movetime),
                ..Limits::default()
            };
            let done = tokio::task::spawn_blocking(move || {
                let _permit = permit;
                if let Some(t) = tb.as_deref().and_then(|t| t.for_rules(rules)) {
                    eng.set_tablebase(t);
                }
                let r = eng.review(&game, limits, &stop2);
                (eng, r)
            })
            .await;
            first = false;
            let Ok((eng, r)) = done else {
                tracing::error!(game = %id, "an analysis task failed");
                st.analyses.forget(&id);
                return;
            };
            engine = Some(eng);
            let before = k.checked_sub(1).map(|b| (&frames[b], &reviews[b]));
            let step = step_analysis(k, frame, &r, before, movetime_ms);
            reviews.push(r);
            let mut v = job.view.lock().unwrap_or_else(|e| e.into_inner());
            if k < v.steps.len() {
                v.steps[k] = step;
            } else {
                v.steps.push(step);
            }
            v.done = k + 1;
        }
    }
    let view = {
        let mut v = job.view.lock().unwrap_or_else(|e| e.into_inner());
        v.summary = Some(summary(&v.steps));
        v.status = "done".into();
        v.clone()
    };
    let data = serde_json::to_string(&view).expect("an analysis serialises");
    let (epoch, seq) = (view.epoch, view.seq);
    let key = id.clone();
    if let Err(e) = st.db(move |s| s.save_analysis(&key, epoch, seq, &data)).await {
        tracing::warn!(game = %id, error = %e.message, "storing an analysis failed");
    }
    *job.finished.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_game_budget_is_shared_among_its_positions_within_bounds() {
        assert_eq!(auto_movetime_ms(41), 39);
        assert!(auto_movetime_ms(41) * 41 <= GAME_BUDGET_MS);
        assert_eq!(auto_movetime_ms(1), DEFAULT_MOVETIME_MS);
        assert_eq!(auto_movetime_ms(0), DEFAULT_MOVETIME_MS);
        assert_eq!(auto_movetime_ms(500), AUTO_MIN_MOVETIME_MS);
        const { assert!(AUTO_MIN_MOVETIME_MS >= MIN_MOVETIME_MS) };
    }

    #[test]
    fn a_second_pass_looks_deeper_within_its_budget() {
        assert_eq!(pass_times(41), vec![39, DEFAULT_MOVETIME_MS]);
        assert_eq!(pass_times(200), vec![AUTO_MIN_MOVETIME_MS, 100]);
        assert!(pass_times(200)[1] * 200 <= REFINE_BUDGET_MS);
        // Short games get the most time at once: one pass.
        assert_eq!(pass_times(5), vec![DEFAULT_MOVETIME_MS]);
        // Very long ones: no deeper pass than the first.
        assert_eq!(pass_times(2000), vec![AUTO_MIN_MOVETIME_MS]);
    }
}
