//! # The partitioned layer solver
//!
//! The same fixpoint as `hoyito_tablebase::solve` and its stream solver
//! (`secure`/`concede` states packed in 16 bits, monotone updates from 0,
//! values `secure` or `−concede`), with the positions of a layer split
//! among the `W` workers of a timely computation.
//!
//! **Partition.** Worker `w` owns the contiguous rank range
//! `⌊N·w/W⌋..⌊N·(w+1)/W⌋` of the layer's `N` positions. Contiguous ranges
//! keep the part's positions in rank order, so a worker walks its range
//! with `Indexer::next` (no ranking) and its values are one contiguous
//! slice of the layer file. A hash partition would not spread the
//! children any better: a position's children (its board sown on) lie all
//! over the layer either way, so with `W` parts about `(W−1)/W` of the
//! inner edges cross to another worker whatever the partition, and
//! contiguous parts of equal size are balanced in positions and, measured,
//! within a few per cent in edges.
//!
//! **What a worker holds** for its part of `n` positions: the packed
//! state (2 bytes a position), its exits' bounds (2), its count of inner
//! edges (1), two change bits (¼), and the inner edges (4 bytes each: a
//! 30-bit index, a flag "held by another worker" and the flip bit). An edge
//! to a child of its own part indexes its state; an edge to a child owned
//! by another worker indexes a *ghost*: a copy of that child's state
//! (2 bytes and a bit per distinct such child). For each other worker it
//! also keeps the list of its own positions that worker holds as ghosts
//! (4 bytes an entry).
//!
//! **Rounds.** Every round is one timely epoch: each worker sends its
//! records at the epoch, ends them with a report to every worker, advances
//! its input, and steps the dataflow until the probe has passed the epoch,
//! when every record of the epoch has been received everywhere (timely's
//! progress tracking is the sweep boundary). A layer takes:
//!
//! 1. The first sweep: each worker generates its positions' moves with
//!    hoyito-core, keeps the inner edges, values the exits from the lower
//!    layers' files (memory-mapped) and evaluates each position once, with
//!    its ghosts at 0.
//! 2. Round 0: each worker sends every other worker the list of that
//!    worker's positions it holds as ghosts.
//! 3. Round `k` (for sweep `k ≥ 1`): each worker sends, to every worker
//!    that holds it, the state of each of its positions that changed in
//!    sweep `k` (8 bytes an update), and its count of changed positions.
//!    The receiving operator applies updates to the ghosts as they arrive
//!    (monotone: the larger of the two states), and marks them. If no
//!    position changed anywhere, the states are the least fixpoint: every
//!    position's equation holds with current children. Else sweep `k + 1`
//!    evaluates, in place, every position with a child changed since its
//!    last evaluation (a marked ghost, or a child of its own part changed
//!    in this sweep or the one before), as the stream solver does.
//! 4. Each worker writes its part's values to a part file; once all are
//!    written, worker 0 concatenates them into the layer file in the
//!    normal format (written under a temporary name and renamed, so a
//!    failed build leaves no layer file), removes the parts, and a last
//!    round tells everyone the layer is there for the next layers.
//!
//! Updates are monotone and every state stays between 0 and the least
//! fixpoint whatever the order of evaluation, so the files are
//! byte-identical to the single-process solvers'.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use hoyito_core::Rules;
use hoyito_tablebase::file::{self, LayerFile};
use hoyito_tablebase::graph::{Edge, Expander};
use hoyito_tablebase::solve::{next_state, state_value, ExitBounds, LowerValues};
use hoyito_tablebase::Indexer;
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::generic::operator::Operator;
use timely::dataflow::operators::Probe;
use timely::dataflow::{InputHandleVec, ProbeHandle};
use timely::worker::Worker;

use crate::error::ClusterError;
use crate::wire::{record_bytes, Body, Packet, Report, MAX_ENTRIES};

/// Largest local or ghost index of an edge (30 bits).
const MAX_INDEX: u64 = 1 << 30;
const GHOST: u32 = 2;
const FLIP: u32 = 1;

/// Called by each worker after each of its sweeps with the layer's seeds
/// and the sweep (before the round that reports it).
pub type OnSweep = Arc<dyn Fn(u32, u32) + Send + Sync>;

/// What to build: layers 4, 8, …, `max_seeds` of `rules` into `dir`.
#[derive(Clone)]
pub struct BuildJob {
    /// The rules (checked with `hoyito_tablebase::check_rules`).
    pub rules: Rules,
    /// The tables' directory (their files go to its subdirectory for the
    /// rules, as with `hoyito tablebase build`). All workers must see the
    /// same directory: one machine, or a shared file system.
    pub dir: PathBuf,
    /// The top layer.
    pub max_seeds: u32,
    /// Print each layer's and sweep's figures to stderr (from worker 0).
    pub verbose: bool,
    /// Called after each sweep of each worker.
    pub on_sweep: Option<OnSweep>,
}

impl std::fmt::Debug for BuildJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BuildJob")
            .field("rules", &self.rules)
            .field("dir", &self.dir)
            .field("max_seeds", &self.max_seeds)
            .field("verbose", &self.verbose)
            .finish_non_exhaustive()
    }
}

/// The figures of one sweep, over all workers, with the round that followed it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SweepFigures {
    /// The sweep (1 is the move generation).
    pub sweep: u32,
    /// The sum of the workers' reports of the sweep and its round.
    pub total: Report,
    /// This worker's own sweep time.
    pub seconds_local: Duration,
    /// Wall clock of the sweep and its round at this worker.
    pub seconds: Duration,
}

/// What a worker did for one layer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LayerSummary {
    /// Seeds of the layer.
    pub seeds: u32,
    /// Positions of the layer.
    pub positions: u64,
    /// The layer's file existed and passed its checks; nothing was solved.
    pub reused: bool,
    /// This worker's positions.
    pub part_positions: u64,
    /// This worker's inner edges.
    pub part_edges: u64,
    /// This worker's ghosts (distinct children owned by other workers).
    pub ghosts: u64,
    /// Entries of this worker's lists of positions other workers hold.
    pub subscriptions: u64,
    /// The ghost lists' round: records and bytes over all workers.
    pub setup: Report,
    /// Every sweep, over all workers.
    pub sweeps: Vec<SweepFigures>,
    /// This worker's memory for the layer (states, exits, edges, ghosts, lists).
    pub work_bytes: u64,
    /// Wall clock of the layer, files included.
    pub seconds: Duration,
}

/// The lower layers, memory-mapped from their files.
struct Lower {
    layers: Vec<Option<LayerFile>>,
}

impl LowerValues for Lower {
    #[inline]
    fn value(&self, seeds: u32, rank: u64) -> i8 {
        self.layers[seeds as usize]
            .as_ref()
            .expect("lower layers are built first")
            .value(rank)
    }
}

/// What the receiving operator fills in.
#[derive(Default)]
struct Inbox {
    /// States of this worker's ghosts.
    ghosts: Vec<u16>,
    /// Ghosts updated since the last sweep.
    fresh: Vec<u64>,
    /// `ghost_base[o]..ghost_base[o + 1]`: the ghosts owned by worker `o`.
    ghost_base: Vec<u64>,
    /// For each other worker, the offsets of this worker's positions it holds.
    wants: Vec<Vec<u32>>,
    /// Reports by epoch.
    reports: HashMap<u64, Vec<(u32, Report)>>,
}

impl Inbox {
    fn take(&mut self, from: u32, body: Body, epoch: u64) {
        match body {
            Body::Want { start, offsets } => {
                // A worker that has finished a layer may send its lists
                // for the next before this worker has begun it.
                if self.wants.len() <= from as usize {
                    self.wants.resize(from as usize + 1, Vec::new());
                }
                let list = &mut self.wants[from as usize];
                let end = start as usize + offsets.len();
                if list.len() < end {
                    list.resize(end, 0);
                }
                list[start as usize..end].copy_from_slice(&offsets);
            }
            Body::Update(entries) => {
                let base = self.ghost_base[from as usize];
                for x in entries {
                    let g = (base + (x >> 16)) as usize;
                    let (new, old) = (x as u16, self.ghosts[g]);
                    // Both halves only grow; keep the larger if records cross.
                    self.ghosts[g] = (new & 0xff).max(old & 0xff) | (new & 0xff00).max(old & 0xff00);
                    self.fresh[g / 64] |= 1 << (g % 64);
                }
            }
            Body::Done(r) => self.reports.entry(epoch).or_default().push((from, r)),
        }
    }
}

/// A worker's side of the computation: its input, probe and inbox.
struct Node {
    index: usize,
    peers: usize,
    input: InputHandleVec<u64, Packet>,
    probe: ProbeHandle<u64>,
    inbox: Rc<RefCell<Inbox>>,
}

impl Node {
    fn new(worker: &mut Worker) -> Node {
        let mut input = InputHandleVec::new();
        let probe = ProbeHandle::new();
        let inbox = Rc::new(RefCell::new(Inbox::default()));
        let sink = Rc::clone(&inbox);
        worker.dataflow::<u64, _, _>(|scope| {
            use timely::dataflow::operators::Input;
            scope
                .input_from(&mut input)
                .unary::<timely::container::CapacityContainerBuilder<Vec<()>>, _, _, _>(
                    Exchange::new(|p: &Packet| p.to as u64),
                    "Inbox",
                    move |_, _| {
                        move |input, _output| {
                            input.for_each(|cap, data| {
                                let epoch = *cap.least().expect("a total order");
                                let mut inbox = sink.borrow_mut();
                                for p in data.drain(..) {
                                    inbox.take(p.from, p.body, epoch);
                                }
                            });
                        }
                    },
                )
                .probe_with(&probe);
        });
        Node {
            index: worker.index(),
            peers: worker.peers(),
            input,
            probe,
            inbox,
        }
    }

    fn send(&mut self, to: usize, body: Body) {
        self.input.send(Packet {
            to: to as u32,
            from: self.index as u32,
            body,
        });
    }

    /// Ends the round: sends `report` to every worker, advances the epoch
    /// and steps until every record of it has arrived; returns every
    /// worker's report.
    fn round(&mut self, worker: &mut Worker, seeds: u32, report: Report) -> Result<Report, ClusterError> {
        for to in 0..self.peers {
            self.send(to, Body::Done(report));
        }
        let epoch = *self.input.time();
        self.input.advance_to(epoch + 1);
        while self.probe.less_than(self.input.time()) {
            worker.step_or_park(Some(Duration::from_millis(50)));
        }
        let got = self.inbox.borrow_mut().reports.remove(&epoch).unwrap_or_default();
        if got.len() != self.peers {
            return Err(ClusterError::WorkerLost {
                seeds,
                heard: got.len(),
                workers: self.peers,
            });
        }
        if let Some(&(w, _)) = got.iter().find(|(_, r)| !r.ok) {
            return Err(ClusterError::WorkerFailed {
                seeds,
                worker: w as usize,
            });
        }
        Ok(got.iter().fold(
            Report {
                ok: true,
                ..Report::default()
            },
            |a, &(_, r)| a + r,
        ))
    }
}

/// The first rank of worker `w`'s part of a layer of `count` positions.
pub fn part_start(count: u64, w: usize, workers: usize) -> u64 {
    (count as u128 * w as u128 / workers as u128) as u64
}

/// The name of worker `w`'s part file of layer `seeds` (of `workers` parts).
pub fn part_file_name(seeds: u32, w: usize, workers: usize) -> String {
    format!("seeds-{seeds:03}.part-{w:04}-of-{workers:04}")
}

fn io_at(path: &Path) -> impl Fn(std::io::Error) -> ClusterError + '_ {
    move |source| ClusterError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Builds the layers of `job` as one worker of a timely computation (every
/// worker calls it, with the same job): the body of [`crate::run`].
///
/// # Errors
/// See [`ClusterError`]; a worker that fails tells the others, which then
/// fail with [`ClusterError::WorkerFailed`] (or, if it is gone,
/// [`ClusterError::WorkerLost`]).
pub fn build_worker(worker: &mut Worker, job: &BuildJob) -> Result<Vec<LayerSummary>, ClusterError> {
    hoyito_tablebase::check_rules(&job.rules)?;
    if job.max_seeds > 127 {
        return Err(ClusterError::Tablebase(
            hoyito_tablebase::TablebaseError::Unsupported(format!(
                "{} seeds (values are stored in i8: at most 127 seeds)",
                job.max_seeds
            )),
        ));
    }
    let mut node = Node::new(worker);
    let sub = file::rules_dir(&job.dir, &job.rules);
    let mut lower = Lower {
        layers: (0..=job.max_seeds).map(|_| None).collect(),
    };
    let mut out = Vec::new();
    let holes = job.rules.board_len();
    for seeds in hoyito_tablebase::layer_seeds(job.max_seeds) {
        let t0 = Instant::now();
        let path = sub.join(file::layer_file_name(seeds));
        let count = Indexer::new(holes, seeds).count();
        // Every worker looks at the same file, which nobody writes now.
        if let Ok(f) = LayerFile::open(&path, &job.rules, seeds, count) {
            lower.layers[seeds as usize] = Some(f);
            if job.verbose && node.index == 0 {
                eprintln!("layer {seeds:>3}: {count} positions, reused");
            }
            out.push(LayerSummary {
                seeds,
                positions: count,
                reused: true,
                part_positions: 0,
                part_edges: 0,
                ghosts: 0,
                subscriptions: 0,
                setup: Report::default(),
                sweeps: Vec::new(),
                work_bytes: 0,
                seconds: t0.elapsed(),
            });
            continue;
        }
        let made = std::fs::create_dir_all(&sub).map_err(io_at(&sub));
        let solved = solve_layer(&mut node, worker, job, seeds, &lower, &sub, made.is_ok());
        made?;
        let mut summary = solved?;
        lower.layers[seeds as usize] = Some(LayerFile::open(&path, &job.rules, seeds, count)?);
        summary.seconds = t0.elapsed();
        if job.verbose && node.index == 0 {
            let s = &summary;
            eprintln!(
                "layer {seeds:>3}: done, {} positions, {} sweeps, {:.2} s",
                s.positions,
                s.sweeps.len(),
                s.seconds.as_secs_f64()
            );
        }
        out.push(summary);
    }
    Ok(out)
}

/// One worker's part of a layer being solved.
struct Part {
    state: Vec<u16>,
    exits: Vec<(i8, i8)>,
    counts: Vec<u8>,
    /// Inner edges, 4 bytes each once translated (see the module).
    edges: Vec<u8>,
    /// Bit `2 (i % 32) + k % 2` of `marks[i / 32]`: position `i` changed in sweep `k`.
    marks: Vec<u64>,
}

impl Part {
    #[inline]
    fn mark(&mut self, i: usize, sweep: u32) {
        self.marks[i / 32] |= 1 << (2 * (i % 32) + sweep as usize % 2);
    }

    #[inline]
    fn changed_in(&self, i: usize, sweep: u32) -> bool {
        self.marks[i / 32] >> (2 * (i % 32) + sweep as usize % 2) & 1 != 0
    }

    #[inline]
    fn recent(&self, i: usize) -> bool {
        self.marks[i / 32] >> (2 * (i % 32)) & 3 != 0
    }
}

/// Generates the part's moves and evaluates each position once (sweep 1);
/// marks in `remote` the children owned by other workers. Edges are raw:
/// `child << 1 | flip` in `width` bytes.
fn generate(
    job: &BuildJob,
    seeds: u32,
    lower: &Lower,
    range: (u64, u64),
    remote: &mut [u64],
    width: usize,
) -> (Part, u64) {
    let (lo, hi) = range;
    let holes = job.rules.board_len();
    let indexers: Vec<Indexer> = (0..=seeds).map(|s| Indexer::new(holes, s)).collect();
    let ix = &indexers[seeds as usize];
    let rank = |s: u32, b: &[u8]| indexers[s as usize].rank(b);
    let n = (hi - lo) as usize;
    let mut part = Part {
        state: vec![0; n],
        exits: Vec::with_capacity(n),
        counts: Vec::with_capacity(n),
        edges: Vec::new(),
        marks: vec![0; n.div_ceil(32)],
    };
    let mut ex = Expander::new(job.rules);
    let mut board = vec![0u8; holes];
    let mut changed = 0;
    if n > 0 {
        ix.unrank(lo, &mut board);
    }
    for i in 0..n {
        let before = part.edges.len();
        let mut bounds = ExitBounds::NONE;
        ex.expand(&board, rank, |_, e| match e {
            Edge::Same { child, flip } => {
                part.edges
                    .extend_from_slice(&((child << 1) | flip as u64).to_le_bytes()[..width]);
                if child < lo || child >= hi {
                    remote[(child / 64) as usize] |= 1 << (child % 64);
                }
            }
            exit => bounds.add(exit.value(|_| unreachable!(), |s, r| lower.value(s, r) as i32)),
        });
        let exits = bounds.packed();
        part.exits.push(exits);
        part.counts.push(((part.edges.len() - before) / width) as u8);
        // Children of other parts are at 0 in this first sweep.
        let new = next_state(
            exits,
            part.edges[before..].chunks_exact(width).map(|b| {
                let (child, flip) = raw(b);
                let st = if child >= lo && child < hi {
                    part.state[(child - lo) as usize]
                } else {
                    0
                };
                (st, flip)
            }),
        );
        if new != 0 {
            part.state[i] = new;
            part.mark(i, 1);
            changed += 1;
        }
        if i + 1 < n {
            ix.next(&mut board);
        }
    }
    (part, changed)
}

#[inline]
fn raw(b: &[u8]) -> (u64, bool) {
    let mut v = [0u8; 8];
    v[..b.len()].copy_from_slice(b);
    let v = u64::from_le_bytes(v);
    (v >> 1, v & 1 != 0)
}

#[inline]
fn edge_at(b: &[u8]) -> u32 {
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

/// Ghost indices by rank: `cum[i]` is the number of marked ranks below `64 i`.
fn cumulative(bits: &[u64]) -> Vec<u64> {
    let mut acc = 0;
    let mut cum = Vec::with_capacity(bits.len() + 1);
    for &w in bits {
        cum.push(acc);
        acc += w.count_ones() as u64;
    }
    cum.push(acc);
    cum
}

#[inline]
fn ghost_index(bits: &[u64], cum: &[u64], r: u64) -> u64 {
    let w = (r / 64) as usize;
    cum[w] + (bits[w] & ((1u64 << (r % 64)) - 1)).count_ones() as u64
}

/// Ghosts below rank `r`.
fn ghosts_below(bits: &[u64], cum: &[u64], r: u64) -> u64 {
    if r / 64 >= bits.len() as u64 {
        return *cum.last().expect("one entry at least");
    }
    ghost_index(bits, cum, r)
}

#[allow(clippy::too_many_arguments)]
fn solve_layer(
    node: &mut Node,
    worker: &mut Worker,
    job: &BuildJob,
    seeds: u32,
    lower: &Lower,
    sub: &Path,
    dir_ok: bool,
) -> Result<LayerSummary, ClusterError> {
    let (me, peers) = (node.index, node.peers);
    let verbose = job.verbose && me == 0;
    let count = Indexer::new(job.rules.board_len(), seeds).count();
    let bounds: Vec<u64> = (0..=peers).map(|w| part_start(count, w, peers)).collect();
    let (lo, hi) = (bounds[me], bounds[me + 1]);
    let n = hi - lo;
    let width = if count <= 1 << 31 { 4 } else { 5 };
    {
        let mut inbox = node.inbox.borrow_mut();
        // The lists of this layer that other workers sent early are kept
        // (the last layer's were taken after its setup round).
        let mut wants = std::mem::take(&mut inbox.wants);
        wants.resize(peers, Vec::new());
        *inbox = Inbox {
            wants,
            reports: std::mem::take(&mut inbox.reports),
            ..Inbox::default()
        };
    }
    if verbose {
        eprintln!("layer {seeds:>3}: {count} positions over {peers} workers");
    }

    // Sweep 1: the moves, and one evaluation of every position.
    let t1 = Instant::now();
    let mut remote = vec![0u64; count.div_ceil(64) as usize];
    let (mut part, changed1) = generate(job, seeds, lower, (lo, hi), &mut remote, width);
    let cum = cumulative(&remote);
    let ghosts = *cum.last().expect("one entry at least");
    let edges = (part.edges.len() / width) as u64;
    let fits = n < MAX_INDEX && ghosts < MAX_INDEX;
    // Translate the edges in place (4 bytes written where `width` were read).
    if fits {
        for e in 0..edges as usize {
            let (child, flip) = raw(&part.edges[e * width..(e + 1) * width]);
            let code = if child >= lo && child < hi {
                ((child - lo) as u32) << 2
            } else {
                (ghost_index(&remote, &cum, child) as u32) << 2 | GHOST
            } | flip as u32;
            part.edges[e * 4..e * 4 + 4].copy_from_slice(&code.to_le_bytes());
        }
        part.edges.truncate(edges as usize * 4);
        part.edges.shrink_to_fit();
    }
    let gen_time = t1.elapsed();

    // Round 0: tell each owner which of its positions this part holds.
    let mut setup = Report {
        ok: fits && dir_ok,
        ..Report::default()
    };
    {
        let mut inbox = node.inbox.borrow_mut();
        inbox.ghost_base = bounds.iter().map(|&b| ghosts_below(&remote, &cum, b)).collect();
        inbox.ghosts = vec![0; ghosts as usize];
        inbox.fresh = vec![0; (ghosts as usize).div_ceil(64)];
    }
    if fits {
        for owner in (0..peers).filter(|&o| o != me) {
            let (a, b) = (bounds[owner], bounds[owner + 1]);
            let mut list = Vec::new();
            let mut start = 0u64;
            let mut flush = |node: &mut Node, list: &mut Vec<u32>, start: &mut u64, worker: &mut Worker| {
                setup.records += 1;
                setup.bytes += record_bytes(list.len(), 4, true);
                let offsets = std::mem::take(list);
                let len = offsets.len() as u64;
                node.send(
                    owner,
                    Body::Want {
                        start: *start,
                        offsets,
                    },
                );
                *start += len;
                worker.step();
            };
            let (wa, wb) = ((a / 64) as usize, (b.div_ceil(64) as usize).min(remote.len()));
            for (w, &word) in remote.iter().enumerate().take(wb).skip(wa) {
                let mut bits = word;
                while bits != 0 {
                    let r = w as u64 * 64 + bits.trailing_zeros() as u64;
                    bits &= bits - 1;
                    if r >= a && r < b {
                        list.push((r - a) as u32);
                        if list.len() == MAX_ENTRIES {
                            flush(node, &mut list, &mut start, worker);
                        }
                    }
                }
            }
            if !list.is_empty() {
                flush(node, &mut list, &mut start, worker);
            }
        }
    }
    drop((remote, cum));
    let setup_total = node.round(worker, seeds, setup);
    if !fits {
        return Err(ClusterError::PartTooLarge {
            seeds,
            worker: me,
            positions: n,
            ghosts,
        });
    }
    if !dir_ok {
        // The caller reports why.
        return Err(ClusterError::WorkerFailed { seeds, worker: me });
    }
    let setup_total = setup_total?;
    let wants = std::mem::take(&mut node.inbox.borrow_mut().wants);
    let subscriptions: u64 = wants.iter().map(|l| l.len() as u64).sum();
    let work_bytes = n * 5
        + part.marks.len() as u64 * 8
        + part.edges.capacity() as u64
        + ghosts * 2
        + ghosts / 8
        + subscriptions * 4;
    if verbose {
        eprintln!(
            "layer {seeds:>3}: worker 0: {n} positions, {edges} inner edges, {ghosts} ghosts, {subscriptions} wanted by others, {:.1} MB; ghost lists: {} records, {} bytes",
            work_bytes as f64 / 1e6,
            setup_total.records,
            setup_total.bytes
        );
    }

    let mut sweeps = Vec::new();
    let mut sweep = 1u32;
    let mut local = Report {
        ok: true,
        changed: changed1,
        evaluated: n,
        ..Report::default()
    };
    let mut sweep_time = gen_time;
    let mut started = t1;
    loop {
        if let Some(f) = &job.on_sweep {
            f(seeds, sweep);
        }
        // Send the states changed in this sweep to the workers holding them.
        for (s, list) in wants.iter().enumerate() {
            let mut batch = Vec::new();
            for (j, &loc) in list.iter().enumerate() {
                if part.changed_in(loc as usize, sweep) {
                    batch.push((j as u64) << 16 | part.state[loc as usize] as u64);
                    if batch.len() == MAX_ENTRIES {
                        local.updates += batch.len() as u64;
                        local.records += 1;
                        local.bytes += record_bytes(batch.len(), 8, false);
                        node.send(s, Body::Update(std::mem::take(&mut batch)));
                        worker.step();
                    }
                }
            }
            if !batch.is_empty() {
                local.updates += batch.len() as u64;
                local.records += 1;
                local.bytes += record_bytes(batch.len(), 8, false);
                node.send(s, Body::Update(batch));
                worker.step();
            }
        }
        let total = node.round(worker, seeds, local)?;
        let fig = SweepFigures {
            sweep,
            total,
            seconds_local: sweep_time,
            seconds: started.elapsed(),
        };
        if verbose {
            eprintln!(
                "layer {seeds:>3} sweep {sweep:>3}: {} changed, {} evaluated, {} updates in {} records ({} bytes), {:.2} s",
                total.changed,
                total.evaluated,
                total.updates,
                total.records,
                total.bytes,
                fig.seconds.as_secs_f64()
            );
        }
        sweeps.push(fig);
        if total.changed == 0 {
            break;
        }
        // The next sweep: positions with a child changed since their last evaluation.
        sweep += 1;
        started = Instant::now();
        let keep = if sweep.is_multiple_of(2) {
            0xaaaa_aaaa_aaaa_aaaa
        } else {
            0x5555_5555_5555_5555
        };
        part.marks.iter_mut().for_each(|w| *w &= keep);
        local = Report {
            ok: true,
            ..Report::default()
        };
        let inbox = node.inbox.borrow();
        let (ghost_state, fresh) = (&inbox.ghosts, &inbox.fresh);
        let mut e = 0usize;
        for i in 0..n as usize {
            let k = part.counts[i] as usize;
            let mine = &part.edges[e * 4..(e + k) * 4];
            e += k;
            let dirty = mine.chunks_exact(4).any(|b| {
                let code = edge_at(b);
                let at = (code >> 2) as usize;
                if code & GHOST != 0 {
                    fresh[at / 64] >> (at % 64) & 1 != 0
                } else {
                    part.recent(at)
                }
            });
            if !dirty {
                continue;
            }
            local.evaluated += 1;
            let new = next_state(
                part.exits[i],
                mine.chunks_exact(4).map(|b| {
                    let code = edge_at(b);
                    let at = (code >> 2) as usize;
                    let st = if code & GHOST != 0 {
                        ghost_state[at]
                    } else {
                        part.state[at]
                    };
                    (st, code & FLIP != 0)
                }),
            );
            if new != part.state[i] {
                debug_assert!(new & 0xff >= part.state[i] & 0xff && new >> 8 >= part.state[i] >> 8);
                part.state[i] = new;
                part.mark(i, sweep);
                local.changed += 1;
            }
        }
        drop(inbox);
        // Ghosts updated from now on are fresh for the next sweep.
        node.inbox.borrow_mut().fresh.fill(0);
        sweep_time = started.elapsed();
    }
    drop(wants);
    // The ghosts' memory is freed; the reports and any next layer's lists
    // that arrive from now on are kept.
    let inbox = std::mem::take(&mut *node.inbox.borrow_mut());
    node.inbox.borrow_mut().reports = inbox.reports;

    // Each worker writes its part; worker 0 joins them into the layer file.
    let part_path = |w: usize| sub.join(part_file_name(seeds, w, peers));
    let mine = part_path(me);
    let written = file::write_atomic(&mine, |f| {
        let mut w = std::io::BufWriter::with_capacity(1 << 20, f);
        for block in part.state.chunks(1 << 16) {
            let bytes: Vec<u8> = block.iter().map(|&s| state_value(s) as u8).collect();
            w.write_all(&bytes)?;
        }
        w.flush()
    });
    drop(part);
    let r = node.round(
        worker,
        seeds,
        Report {
            ok: written.is_ok(),
            ..Report::default()
        },
    );
    written.map_err(io_at(&mine))?;
    r?;
    let merged = if me == 0 {
        merge(job, seeds, count, &bounds, &part_path)
    } else {
        Ok(())
    };
    let r = node.round(
        worker,
        seeds,
        Report {
            ok: merged.is_ok(),
            ..Report::default()
        },
    );
    merged?;
    r?;
    Ok(LayerSummary {
        seeds,
        positions: count,
        reused: false,
        part_positions: n,
        part_edges: edges,
        ghosts,
        subscriptions,
        setup: setup_total,
        sweeps,
        work_bytes,
        seconds: Duration::ZERO,
    })
}

/// Joins the part files into the layer file (atomically) and removes them.
fn merge(
    job: &BuildJob,
    seeds: u32,
    count: u64,
    bounds: &[u64],
    part_path: &dyn Fn(usize) -> PathBuf,
) -> Result<(), ClusterError> {
    let sub = file::rules_dir(&job.dir, &job.rules);
    let path = sub.join(file::layer_file_name(seeds));
    let parts = bounds.len() - 1;
    for w in 0..parts {
        let p = part_path(w);
        let len = std::fs::metadata(&p).map_err(io_at(&p))?.len();
        if len != bounds[w + 1] - bounds[w] {
            return Err(ClusterError::Io {
                path: p,
                source: std::io::Error::other(format!("{len} bytes, expected {}", bounds[w + 1] - bounds[w])),
            });
        }
    }
    let mut current: Option<(usize, BufReader<File>)> = None;
    let mut next_part = 0usize;
    let mut buf = Vec::new();
    file::write_layer_try_with(&path, &job.rules, seeds, count, |_, block| {
        let mut filled = 0;
        while filled < block.len() {
            if current.is_none() {
                let f = File::open(part_path(next_part))?;
                current = Some((next_part, BufReader::with_capacity(1 << 20, f)));
                next_part += 1;
            }
            let (_, r) = current.as_mut().expect("opened above");
            buf.resize(block.len() - filled, 0);
            let got = r.read(&mut buf)?;
            if got == 0 {
                current = None;
                if next_part >= parts {
                    return Err(std::io::Error::other("the parts end before the layer"));
                }
                continue;
            }
            for (v, &b) in block[filled..filled + got].iter_mut().zip(&buf[..got]) {
                *v = b as i8;
            }
            filled += got;
        }
        Ok(())
    })?;
    for w in 0..parts {
        let p = part_path(w);
        std::fs::remove_file(&p).map_err(io_at(&p))?;
    }
    Ok(())
}
