//! Monte-Carlo tree search: UCT over the game tree with uniformly random
//! playouts to the end of the game and score-aware rewards (a win is worth
//! most, a larger margin a little more).

use crate::clock::Instant;
use std::sync::atomic::{AtomicBool, Ordering};

use hoyito_core::{Game, Move, Position, RepetitionTracker, Side};
use rand::rngs::SmallRng;
use rand::Rng;

use crate::{Info, Limits, SearchResult};

/// Exploration constant of UCT.
const UCT_C: f64 = 0.9;
/// Tree nodes beyond which leaves are no longer expanded (memory cap, about 100 MB).
const MAX_TREE: usize = 1 << 20;
/// Playout plies after which the game is adjudicated as a shared end.
const MAX_PLAYOUT: u32 = 400;
/// Playouts per unit of `Limits::depth`.
pub(crate) const PLAYOUTS_PER_DEPTH: u64 = 1000;

struct Node {
    pos: Position,
    /// The move into this node (`None` for the root and for a pass).
    mv: Option<Move>,
    /// The player who moved into this node, whose view `reward` takes.
    mover: Side,
    first_child: u32,
    n_children: u32,
    expanded: bool,
    visits: u32,
    reward: f64,
    margin: f64,
}

impl Node {
    fn new(pos: Position, mv: Option<Move>, mover: Side) -> Node {
        Node {
            pos,
            mv,
            mover,
            first_child: 0,
            n_children: 0,
            expanded: false,
            visits: 0,
            reward: 0.0,
            margin: 0.0,
        }
    }
}

/// Reward in `[0, 1]` of a final margin for the player whose margin it is.
fn reward(margin: i32, total: i32) -> f64 {
    let sign = margin.signum() as f64;
    0.5 + 0.4 * sign + 0.1 * (margin as f64 / total.max(1) as f64).clamp(-1.0, 1.0)
}

/// A uniformly random game from `pos` to its end (repetition rule applied,
/// adjudicated as a shared end after [`MAX_PLAYOUT`] plies).
pub(crate) fn playout(pos: &Position, rng: &mut SmallRng, tracker: &mut RepetitionTracker) -> Position {
    let mut pos = *pos;
    tracker.clear();
    let mut plies = 0;
    while !pos.is_over() {
        if plies >= MAX_PLAYOUT || tracker.push(&pos) >= 3 {
            pos.end_by_repetition();
            break;
        }
        match random_move(&pos, rng) {
            Some((_, p)) => pos = p,
            None => pos.pass(),
        }
        plies += 1;
    }
    pos
}

/// A uniformly random legal move and the position after it (cheap passes),
/// or `None` if every sowing is endless.
pub(crate) fn random_move(pos: &Position, rng: &mut SmallRng) -> Option<(Move, Position)> {
    if pos.opening_pending() {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            return None;
        }
        let m = legal[rng.random_range(0..legal.len())];
        let mut p = *pos;
        p.play_unchecked(m).ok()?;
        return Some((m, p));
    }
    let mut cands = pos.candidates();
    while !cands.is_empty() {
        let i = rng.random_range(0..cands.len());
        let mut p = *pos;
        if p.play_unchecked(cands[i]).is_ok() {
            return Some((cands[i], p));
        }
        cands.swap_remove(i);
    }
    None
}

/// Runs MCTS from the game's position. Returns the result and every root
/// move with its mean final margin (from the root mover's view) and its
/// most-visited line, best (most visited) first.
pub(crate) fn search(
    game: &Game,
    limits: Limits,
    stop: &AtomicBool,
    rng: &mut SmallRng,
    on_info: &mut dyn FnMut(&Info),
) -> (SearchResult, Vec<(Move, i32, Vec<Move>)>) {
    let start = Instant::now();
    let root_pos = *game.position();
    let empty = SearchResult {
        best: None,
        score: 0,
        pv: Vec::new(),
        depth: 0,
        nodes: 0,
        time_ms: 0,
    };
    if root_pos.is_over() {
        return (empty, Vec::new());
    }
    let me = root_pos.to_move();
    let total =
        root_pos.in_play() as i32 + root_pos.captured().south as i32 + root_pos.captured().north as i32;
    let mut tree = vec![Node::new(root_pos, None, me.other())];
    // The root's children: exactly the legal moves, passes settled exactly.
    let legal = root_pos.legal_moves();
    tree[0].first_child = 1;
    tree[0].n_children = legal.len() as u32;
    tree[0].expanded = true;
    for &m in &legal {
        let mut p = root_pos;
        p.play(m).expect("a legal move");
        tree.push(Node::new(p, Some(m), me));
    }
    let max_iter = match (limits.nodes.or(limits.node_budget), limits.depth) {
        (Some(n), _) => n,
        (None, Some(d)) => d as u64 * PLAYOUTS_PER_DEPTH,
        _ => u64::MAX,
    };
    let deadline = limits.movetime.map(|t| start + t);
    let mut tracker = RepetitionTracker::new();
    let mut path: Vec<u32> = Vec::with_capacity(256);
    let mut iters = 0u64;
    let mut next_info = 50_000u64;
    while iters < max_iter.max(1) {
        if iters > 0
            && iters & 63 == 0
            && (stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d))
        {
            break;
        }
        if legal.len() == 1 && (limits.movetime.is_some() || limits.node_budget.is_some()) && iters >= 1 {
            break;
        }
        // Selection.
        path.clear();
        let mut cur = 0u32;
        path.push(cur);
        loop {
            let node = &tree[cur as usize];
            if node.pos.is_over() || !node.expanded || node.n_children == 0 {
                break;
            }
            let ln = (node.visits.max(1) as f64).ln();
            let mut best = f64::NEG_INFINITY;
            let mut pick = node.first_child;
            for c in node.first_child..node.first_child + node.n_children {
                let ch = &tree[c as usize];
                let v = if ch.visits == 0 {
                    1e9 + rng.random::<f64>()
                } else {
                    ch.reward / ch.visits as f64 + UCT_C * (ln / ch.visits as f64).sqrt()
                };
                if v > best {
                    best = v;
                    pick = c;
                }
            }
            cur = pick;
            path.push(cur);
        }
        // Expansion.
        let leaf = cur as usize;
        if !tree[leaf].pos.is_over() && !tree[leaf].expanded && tree.len() < MAX_TREE {
            let pos = tree[leaf].pos;
            let mover = pos.to_move();
            let first = tree.len() as u32;
            for m in pos.candidates() {
                let mut p = pos;
                if p.play_unchecked(m).is_ok() {
                    tree.push(Node::new(p, Some(m), mover));
                }
            }
            if tree.len() as u32 == first {
                let mut p = pos;
                p.pass();
                tree.push(Node::new(p, None, mover));
            }
            let n_children = tree.len() as u32 - first;
            let node = &mut tree[leaf];
            node.expanded = true;
            node.first_child = first;
            node.n_children = n_children;
            let pick = first + rng.random_range(0..node.n_children);
            path.push(pick);
        }
        // Playout.
        let last = *path.last().expect("path has the root") as usize;
        let end = playout(&tree[last].pos, rng, &mut tracker);
        // Backup.
        for &i in &path {
            let node = &mut tree[i as usize];
            let m = end.margin(node.mover);
            node.visits += 1;
            node.reward += reward(m, total);
            node.margin += m as f64;
        }
        iters += 1;
        if iters >= next_info {
            next_info *= 2;
            let (best, score, pv) = principal(&tree, 0);
            let _ = best;
            let ms = start.elapsed().as_millis() as u64;
            on_info(&Info {
                depth: pv.len() as u32,
                score,
                nodes: iters,
                nps: iters * 1000 / ms.max(1),
                time_ms: ms,
                pv,
            });
        }
    }
    let time_ms = start.elapsed().as_millis() as u64;
    let (best, score, pv) = principal(&tree, 0);
    on_info(&Info {
        depth: pv.len() as u32,
        score,
        nodes: iters,
        nps: iters * 1000 / time_ms.max(1),
        time_ms,
        pv: pv.clone(),
    });
    let mut all: Vec<(u32, Move, i32, Vec<Move>)> = (tree[0].first_child
        ..tree[0].first_child + tree[0].n_children)
        .map(|c| {
            let ch = &tree[c as usize];
            let mut line = vec![ch.mv.expect("root children are moves")];
            line.extend(principal(&tree, c).2);
            (ch.visits, line[0], mean_margin(ch), line)
        })
        .collect();
    all.sort_by(|a, b| b.0.cmp(&a.0).then(b.2.cmp(&a.2)));
    let result = SearchResult {
        best,
        score,
        pv,
        depth: 0,
        nodes: iters,
        time_ms,
    };
    let depth = result.pv.len() as u32;
    (
        SearchResult { depth, ..result },
        all.into_iter().map(|(_, m, s, l)| (m, s, l)).collect(),
    )
}

fn mean_margin(n: &Node) -> i32 {
    if n.visits == 0 {
        0
    } else {
        (n.margin / n.visits as f64).round() as i32
    }
}

/// The most-visited line below `from` (passes omitted), the first move,
/// and the mean margin of that first move from its mover's view.
fn principal(tree: &[Node], from: u32) -> (Option<Move>, i32, Vec<Move>) {
    let mut pv = Vec::new();
    let mut cur = from as usize;
    let mut first: Option<(Option<Move>, i32)> = None;
    while tree[cur].expanded && tree[cur].n_children > 0 {
        let node = &tree[cur];
        let best = (node.first_child..node.first_child + node.n_children)
            .max_by_key(|&c| tree[c as usize].visits)
            .expect("children");
        let ch = &tree[best as usize];
        if ch.visits == 0 {
            break;
        }
        if first.is_none() {
            first = Some((ch.mv, mean_margin(ch)));
        }
        if let Some(m) = ch.mv {
            pv.push(m);
        }
        cur = best as usize;
        if pv.len() >= 64 {
            break;
        }
    }
    let (best, score) = first.unwrap_or((None, 0));
    (best, score, pv)
}
