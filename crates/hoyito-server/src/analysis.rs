//! Post-game analysis: the engine reviews every position of a game off the
//! request path, on at most [`analysis_workers`] blocking threads at a time,
//! and the result is stored with the game (table `analyses`) so that a
//! second visit gets it at once.
//!
//! A request for a game already being analysed joins that analysis; each
//! client address may have [`RUNNING_PER_IP`] analysis running and start
//! [`STARTS_PER_IP`] per [`STARTS_WINDOW`]. Positions are reviewed by
//! [`hoyito_engine::review`], which also gives the marks.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hoyito_core::{Game, Move, Position, Side};
use hoyito_engine::review::{self, Mark, PositionReview, SideStats};
use hoyito_engine::{Engine, EngineKind, Limits};
use serde::{Deserialize, Serialize};
use tokio::sync::Semaphore;

use crate::error::ApiError;
use crate::live::LiveGame;
use crate::state::AppState;

/// Engine time per position unless the request asks for another.
pub const DEFAULT_MOVETIME_MS: u64 = 250;
/// Least engine time per position a request may ask for.
pub const MIN_MOVETIME_MS: u64 = 20;
/// Most engine time per position a request may ask for.
pub const MAX_MOVETIME_MS: u64 = 2000;
/// Analyses one client address may have running at once.
pub const RUNNING_PER_IP: usize = 1;
/// Analyses one client address may start per [`STARTS_WINDOW`].
pub const STARTS_PER_IP: usize = 30;
/// The window of [`STARTS_PER_IP`].
pub const STARTS_WINDOW: Duration = Duration::from_secs(3600);
/// Analyses running or waiting on the whole server before new ones get 503.
pub const MAX_RUNNING: usize = 8;
/// How long a finished analysis stays in memory (for requests that raced
/// with its end), after which it is read from the database.
const KEEP_FINISHED: Duration = Duration::from_secs(120);
/// Transposition table of each analysis's engine, in MiB (kept from one
/// position to the next of a game).
const HASH_MB: usize = 8;
/// Most positions one analysis reviews (a longer game is refused).
pub const MAX_POSITIONS: usize = 2000;

/// Blocking threads reviewing positions at once: half the engine threads
/// (at least one), so that live games always keep the other half.
pub fn analysis_workers(engine_threads: usize) -> usize {
    (engine_threads / 2).max(1)
}

/// `POST /api/games/{id}/analysis`: every field optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalysisRequest {
    /// Engine time per position, [`MIN_MOVETIME_MS`] to [`MAX_MOVETIME_MS`]
    /// (default [`DEFAULT_MOVETIME_MS`]).
    #[serde(default)]
    pub movetime_ms: Option<u64>,
}

/// `GET /api/games/{id}/analysis` query.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalysisQuery {
    /// Send the plies from this one on (those before were received already).
    #[serde(default)]
    pub from: Option<usize>,
}

/// A legal move with its score.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveScore {
    /// The move's token.
    pub token: String,
    /// Expected final margin for the mover after this move, in seeds.
    pub score: i32,
    /// Whether `score` is proved.
    pub exact: bool,
}

/// The move that led to a ply, judged against the best move of the
/// position it was played in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayedMove {
    /// The mover.
    pub side: Side,
    /// Its token.
    pub token: String,
    /// Its score for the mover.
    pub score: i32,
    /// Seeds lost against the best move (0 for a best move).
    pub loss: i32,
    /// `best`, `inaccuracy`, `mistake` or `blunder`.
    pub mark: String,
    /// The best move of that position, and its score.
    pub best: String,
    /// The best move's score.
    pub best_score: i32,
    /// The comment written after the move in an annotated record.
    pub comment: String,
}

/// One move of the best line, with the position after it (for showing
/// the line on the board).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineStep {
    /// The mover.
    pub side: Side,
    /// The move's token.
    pub token: String,
    /// The board after it.
    pub board: Vec<u8>,
    /// `[south, north]` captured after it.
    pub captured: [u8; 2],
}

/// Longest best line sent with a ply.
pub const MAX_LINE: usize = 16;

/// The analysis of one ply: the position after step `ply` of the game (0:
/// the start).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlyAnalysis {
    /// The step after which this position stands (0: the start).
    pub ply: usize,
    /// The side to move, `null` once the game (or round) is over.
    pub to_move: Option<Side>,
    /// The expected final margin for South, in seeds.
    pub eval: i32,
    /// Whether `eval` is proved (tablebases, the exact search, or the end).
    pub exact: bool,
    /// The best move, `null` once over.
    pub best: Option<String>,
    /// Its principal variation, starting with it.
    pub pv: Vec<String>,
    /// The first [`MAX_LINE`] moves of the principal variation with the
    /// position after each.
    pub line: Vec<LineStep>,
    /// Every legal move with its score, best first.
    pub moves: Vec<MoveScore>,
    /// The move that led here, if step `ply` was a move.
    pub played: Option<PlayedMove>,
}

/// A side's totals: moves, average loss, marks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SideSummary {
    /// Moves reviewed.
    pub moves: u32,
    /// Seeds lost per move on average.
    pub average_loss: f64,
    /// How many moves got each mark.
    pub counts: HashMap<String, u32>,
}

impl From<SideStats> for SideSummary {
    fn from(s: SideStats) -> SideSummary {
        SideSummary {
            moves: s.moves,
            average_loss: (s.average_loss() * 100.0).round() / 100.0,
            counts: Mark::ALL
                .iter()
                .map(|&m| (m.name().to_string(), s.count(m)))
                .collect(),
        }
    }
}

/// The thresholds of the marks, in seeds lost.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Thresholds {
    /// Fewest seeds lost for an inaccuracy.
    pub inaccuracy: i32,
    /// For a mistake.
    pub mistake: i32,
    /// For a blunder.
    pub blunder: i32,
}

/// An analysis as the API sends (and the database stores) it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnalysisView {
    /// Identifies this run of the analysis: requests that joined it see the same.
    pub id: String,
    /// `running` or `done`.
    pub status: String,
    /// The game's undo count and steps when the analysis started.
    pub epoch: u64,
    /// Steps analysed: plies 0 to `seq`.
    pub seq: u64,
    /// Engine time per position.
    pub movetime_ms: u64,
    /// When it started (ms since the epoch).
    pub created_ms: i64,
    /// Plies in all (`seq + 1`).
    pub total: usize,
    /// Plies analysed so far.
    pub done: usize,
    /// The first ply in `plies` (the `from` of the request).
    pub from: usize,
    /// The plies analysed, from `from`.
    pub plies: Vec<PlyAnalysis>,
    /// Each side's totals, once done.
    pub summary: Option<HashMap<String, SideSummary>>,
    /// The thresholds of the marks.
    pub thresholds: Thresholds,
}

impl AnalysisView {
    /// This view with only the plies from `from` on.
    fn plies_from(&self, from: usize) -> AnalysisView {
        let from = from.min(self.plies.len());
        AnalysisView {
            from,
            plies: self.plies[from..].to_vec(),
            ..self.clone()
        }
    }

    /// The comment of each move of each round (for the annotated record).
    pub fn comments(&self, game: &LiveGame) -> Vec<Vec<Option<String>>> {
        let mut out: Vec<Vec<Option<String>>> = vec![Vec::new()];
        for s in game.steps.iter().take(self.seq as usize) {
            match s.kind {
                "round" => out.push(Vec::new()),
                "move" => {
                    let ply = self.plies.get(s.seq as usize);
                    let comment = ply.and_then(|p| p.played.as_ref()).map(|m| m.comment.clone());
                    out.last_mut().expect("a round").push(comment);
                }
                _ => {}
            }
        }
        out
    }
}

/// One position to review: the game up to it, and the step that led to it.
#[derive(Clone)]
struct Frame {
    game: Game,
    played: Option<(Side, Move, String)>,
}

/// The positions of `g`: the start, then one after each stored step.
fn frames(g: &LiveGame) -> Vec<Frame> {
    let rounds = g.play.rounds();
    let mut round = 0;
    let mut index = 0;
    let mut prefix = Game::from_position(*rounds[0].start());
    let mut out = vec![Frame {
        game: prefix.clone(),
        played: None,
    }];
    for s in &g.steps {
        let mut played = None;
        match s.kind {
            "round" => {
                round += 1;
                index = 0;
                if let Some(r) = rounds.get(round) {
                    prefix = Game::from_position(*r.start());
                }
            }
            "move" => {
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

/// The analysis of ply `ply`, from its review and the review of the
/// position before it.
fn ply_analysis(
    ply: usize,
    frame: &Frame,
    r: &PositionReview,
    before: Option<(&Frame, &PositionReview)>,
) -> PlyAnalysis {
    let pos = frame.game.position();
    let (eval, exact) = review::margin_for_south(pos, r);
    let best = r.best();
    let played = match (&frame.played, before) {
        (Some((side, m, token)), Some((bf, br))) => {
            let bpos = bf.game.position();
            match (br.best(), br.get(*m), br.loss(*m)) {
                (Some(b), Some(own), Some(loss)) => Some(PlayedMove {
                    side: *side,
                    token: token.clone(),
                    score: own.score,
                    loss,
                    mark: Mark::of_loss(loss).name().to_string(),
                    best: bpos.move_token(b.mv).to_string(),
                    best_score: b.score,
                    comment: review::annotation(bpos, br, *m).unwrap_or_default(),
                }),
                _ => None,
            }
        }
        _ => None,
    };
    PlyAnalysis {
        ply,
        to_move: (!pos.is_over()).then(|| pos.to_move()),
        eval,
        exact,
        best: best.map(|b| pos.move_token(b.mv).to_string()),
        pv: best.map(|b| pos.line_tokens(&b.pv)).unwrap_or_default(),
        line: best.map(|b| line(pos, &b.pv)).unwrap_or_default(),
        moves: r
            .moves
            .iter()
            .map(|s| MoveScore {
                token: pos.move_token(s.mv).to_string(),
                score: s.score,
                exact: s.exact,
            })
            .collect(),
        played,
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
        let token = p.move_token(m).to_string();
        if p.play(m).is_err() {
            break;
        }
        out.push(LineStep {
            side,
            token,
            board: p.board().to_vec(),
            captured: crate::live::caps(&p),
        });
    }
    out
}

/// Each side's totals over the plies.
fn summary(plies: &[PlyAnalysis]) -> HashMap<String, SideSummary> {
    let mut stats = [SideStats::default(); 2];
    for m in plies.iter().filter_map(|p| p.played.as_ref()) {
        stats[usize::from(m.side == Side::North)].add(m.loss);
    }
    [("south", stats[0]), ("north", stats[1])]
        .into_iter()
        .map(|(k, s)| (k.to_string(), s.into()))
        .collect()
}

/// An analysis running (or just finished) in memory.
struct Job {
    view: Mutex<AnalysisView>,
    finished: Mutex<Option<Instant>>,
}

impl Job {
    fn view(&self) -> AnalysisView {
        self.view.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// What one client address used.
#[derive(Default)]
struct IpUse {
    running: usize,
    starts: VecDeque<Instant>,
}

/// The analyses of a server: those running, the budget of each client
/// address, and the worker threads.
pub struct Analyses {
    jobs: Mutex<HashMap<String, Arc<Job>>>,
    ips: Arc<Mutex<HashMap<IpAddr, IpUse>>>,
    workers: Arc<Semaphore>,
}

impl Analyses {
    /// No analysis yet; `workers` positions reviewed at once.
    pub fn new(workers: usize) -> Analyses {
        Analyses {
            jobs: Mutex::new(HashMap::new()),
            ips: Arc::new(Mutex::new(HashMap::new())),
            workers: Arc::new(Semaphore::new(workers.max(1))),
        }
    }

    /// Drops a failed analysis: the next request starts it again.
    fn forget(&self, id: &str) {
        self.jobs.lock().unwrap_or_else(|e| e.into_inner()).remove(id);
    }

    fn job(&self, id: &str) -> Option<Arc<Job>> {
        let mut jobs = self.jobs.lock().unwrap_or_else(|e| e.into_inner());
        jobs.retain(|_, j| {
            j.finished
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .is_none_or(|t| t.elapsed() < KEEP_FINISHED)
        });
        jobs.get(id).cloned()
    }

    /// Takes one start from `ip`'s budget, or says when to try again.
    fn charge(&self, ip: IpAddr) -> Result<IpGuard, ApiError> {
        let mut ips = self.ips.lock().unwrap_or_else(|e| e.into_inner());
        let u = ips.entry(ip).or_default();
        while u.starts.front().is_some_and(|t| t.elapsed() >= STARTS_WINDOW) {
            u.starts.pop_front();
        }
        if u.running >= RUNNING_PER_IP {
            return Err(ApiError::too_many(
                "analysis_budget",
                format!("this address already has {RUNNING_PER_IP} analysis running: wait for it to finish"),
            )
            .retry_after(5));
        }
        if u.starts.len() >= STARTS_PER_IP {
            let wait = u
                .starts
                .front()
                .map_or(STARTS_WINDOW, |t| STARTS_WINDOW.saturating_sub(t.elapsed()));
            return Err(ApiError::too_many(
                "analysis_budget",
                format!(
                    "this address started {STARTS_PER_IP} analyses in the last {} minutes",
                    STARTS_WINDOW.as_secs() / 60
                ),
            )
            .retry_after(wait.as_secs().max(1)));
        }
        u.running += 1;
        u.starts.push_back(Instant::now());
        Ok(IpGuard {
            ips: self.ips.clone(),
            ip,
        })
    }
}

/// One running analysis counted against an address until dropped.
struct IpGuard {
    ips: Arc<Mutex<HashMap<IpAddr, IpUse>>>,
    ip: IpAddr,
}

impl Drop for IpGuard {
    fn drop(&mut self) {
        let mut ips = self.ips.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(u) = ips.get_mut(&self.ip) {
            u.running = u.running.saturating_sub(1);
        }
    }
}

fn thresholds() -> Thresholds {
    Thresholds {
        inaccuracy: review::INACCURACY,
        mistake: review::MISTAKE,
        blunder: review::BLUNDER,
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

/// The analysis of game `id` running or stored (any steps), from ply `from`.
pub(crate) async fn current(st: &AppState, id: &str, from: usize) -> Result<Option<AnalysisView>, ApiError> {
    if let Some(job) = st.analyses.job(id) {
        return Ok(Some(job.view().plies_from(from)));
    }
    Ok(stored(st, id).await?.map(|v| v.plies_from(from)))
}

/// Starts the analysis of game `id` for client `ip`, or joins the one
/// running, or answers the one stored for the game as it stands. Returns
/// whether it is done, and the view (all plies).
pub(crate) async fn start(
    st: &Arc<AppState>,
    id: &str,
    ip: IpAddr,
    req: AnalysisRequest,
) -> Result<AnalysisView, ApiError> {
    let movetime_ms = req.movetime_ms.unwrap_or(DEFAULT_MOVETIME_MS);
    if !(MIN_MOVETIME_MS..=MAX_MOVETIME_MS).contains(&movetime_ms) {
        return Err(ApiError::unprocessable(
            "invalid_budget",
            format!("movetime_ms must be {MIN_MOVETIME_MS} to {MAX_MOVETIME_MS}"),
        ));
    }
    let slot = st.slot(id).await?;
    let (epoch, seq, frames) = {
        let g = slot.game.lock().await;
        // The engine's view of a game between two people is for after it.
        if g.meta.mode == crate::store::Mode::Online && !g.finished() {
            return Err(ApiError::conflict(
                "game_in_progress",
                "an online game is analysed once it is over",
            ));
        }
        (g.epoch, g.seq(), frames(&g))
    };
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
    let guard = st.analyses.charge(ip)?;
    let view = AnalysisView {
        id: crate::auth::random_id(10),
        status: "running".into(),
        epoch,
        seq,
        movetime_ms,
        created_ms: crate::store::now(),
        total: frames.len(),
        done: 0,
        from: 0,
        plies: Vec::new(),
        summary: None,
        thresholds: thresholds(),
    };
    let job = Arc::new(Job {
        view: Mutex::new(view.clone()),
        finished: Mutex::new(None),
    });
    jobs.insert(id.to_string(), job.clone());
    drop(jobs);
    tokio::spawn(run(st.clone(), id.to_string(), job, frames, guard));
    Ok(view)
}

/// Reviews every frame, one blocking task per position (each waiting for a
/// worker), publishing each ply as it comes, then stores the analysis.
async fn run(st: Arc<AppState>, id: String, job: Arc<Job>, frames: Vec<Frame>, guard: IpGuard) {
    let _guard = guard;
    let (movetime, rules) = {
        let v = job.view();
        (Duration::from_millis(v.movetime_ms), *frames[0].game.rules())
    };
    let tablebases = st.tablebases.clone();
    let mut engine = Engine::new(EngineKind::AlphaBeta);
    engine.set_hash_mb(HASH_MB);
    let mut engine = Some(Box::new(engine));
    let stop = Arc::new(AtomicBool::new(false));
    let mut reviews: Vec<PositionReview> = Vec::with_capacity(frames.len());
    let mut first = true;
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
        let ply = ply_analysis(k, frame, &r, before);
        reviews.push(r);
        let mut v = job.view.lock().unwrap_or_else(|e| e.into_inner());
        v.plies.push(ply);
        v.done = v.plies.len();
    }
    let view = {
        let mut v = job.view.lock().unwrap_or_else(|e| e.into_inner());
        v.summary = Some(summary(&v.plies));
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
