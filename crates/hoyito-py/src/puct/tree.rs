//! The tree of a [`PuctSearch`](super::PyPuctSearch): nodes and their
//! edges (priors, visits, values, the virtual loss of descents under way),
//! the PUCT rule, one descent, backing values up from South's view, a new
//! node's priors, and the root's Dirichlet noise.

use hoyito_core::{Game, Move, Position, Side};
use rand::rngs::SmallRng;
use rand_distr::{Distribution, Gamma};

use crate::actions;

/// No child yet.
pub(super) const NONE: u32 = u32::MAX;

/// A move from a node: its prior and what the descents through it found.
#[derive(Clone, Copy, Debug)]
pub(super) struct Edge {
    pub(super) action: u32,
    pub(super) mv: Move,
    pub(super) prior: f64,
    pub(super) child: u32,
    pub(super) visits: u32,
    /// Descents under way through this edge (the virtual loss).
    pub(super) pending: u32,
    /// Sum of the values backed up, from the view of the node's mover.
    pub(super) value: f64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Kind {
    /// A finished game worth this much to South.
    Terminal(f64),
    /// In the batch, waiting for the evaluator.
    Waiting,
    /// Evaluated: its edges have their priors.
    Expanded,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    pub(super) kind: Kind,
    pub(super) mover: Side,
    pub(super) first_edge: u32,
    pub(super) edges: u32,
    /// 1 (its own evaluation) plus the descents through it, pending ones included.
    pub(super) visits: u32,
}

/// A position waiting for the evaluator.
pub(super) struct Leaf {
    pub(super) node: u32,
    pub(super) path: Vec<(u32, u32)>,
    pub(super) game: Game,
}

/// How a descent ended.
pub(super) enum Descent {
    /// At a position waiting in the batch.
    Leaf(Box<Leaf>),
    /// At a finished game, backed up.
    Terminal,
    /// At a position already in the batch: given up.
    Collision,
}

/// The value of a finished game to South.
pub(super) fn result_value(pos: &Position) -> f64 {
    match pos.outcome().and_then(|o| o.winner) {
        Some(Side::South) => 1.0,
        Some(Side::North) => -1.0,
        None => 0.0,
    }
}

/// `v` (from `side`'s view) from South's view, and back.
pub(super) fn for_side(side: Side, v: f64) -> f64 {
    match side {
        Side::South => v,
        Side::North => -v,
    }
}

pub(super) struct Tree {
    pub(super) nodes: Vec<Node>,
    pub(super) edges: Vec<Edge>,
    pub(super) c_puct: f64,
    /// Values backed up to the root, from its mover's view (its own evaluation included).
    pub(super) root_value: f64,
    pub(super) simulations: u32,
}

impl Tree {
    pub(super) fn new(c_puct: f64) -> Tree {
        Tree {
            nodes: Vec::new(),
            edges: Vec::new(),
            c_puct,
            root_value: 0.0,
            simulations: 0,
        }
    }

    /// Adds the node of `pos` (waiting, or terminal) and its edges.
    pub(super) fn add(&mut self, pos: &Position) -> u32 {
        let id = self.nodes.len() as u32;
        let first_edge = self.edges.len() as u32;
        let kind = if pos.is_over() {
            Kind::Terminal(result_value(pos))
        } else {
            for m in pos.legal_moves() {
                self.edges.push(Edge {
                    action: actions::encode(pos, m) as u32,
                    mv: m,
                    prior: 0.0,
                    child: NONE,
                    visits: 0,
                    pending: 0,
                    value: 0.0,
                });
            }
            Kind::Waiting
        };
        self.nodes.push(Node {
            kind,
            mover: pos.to_move(),
            first_edge,
            edges: self.edges.len() as u32 - first_edge,
            visits: 1,
        });
        id
    }

    pub(super) fn edge_range(&self, node: u32) -> std::ops::Range<usize> {
        let n = &self.nodes[node as usize];
        n.first_edge as usize..(n.first_edge + n.edges) as usize
    }

    /// The edge the PUCT rule picks at an expanded node (the first of equals).
    pub(super) fn select(&self, node: u32) -> u32 {
        let sqrt_n = f64::from(self.nodes[node as usize].visits).sqrt();
        let mut best = (f64::NEG_INFINITY, 0u32);
        for i in self.edge_range(node) {
            let e = &self.edges[i];
            let n = f64::from(e.visits + e.pending);
            // Each pending descent counts as a visit that was lost.
            let q = if n > 0.0 {
                (e.value - f64::from(e.pending)) / n
            } else {
                0.0
            };
            let score = q + self.c_puct * e.prior * sqrt_n / (1.0 + n);
            if score > best.0 {
                best = (score, i as u32);
            }
        }
        best.1
    }

    /// One descent from the root, playing on a copy of `root`.
    pub(super) fn descend(&mut self, root: &Game) -> Result<Descent, String> {
        let mut game = root.clone();
        let mut path: Vec<(u32, u32)> = Vec::new();
        let mut node = 0u32;
        loop {
            match self.nodes[node as usize].kind {
                Kind::Terminal(v) => {
                    self.back_up(&path, v);
                    return Ok(Descent::Terminal);
                }
                Kind::Waiting => {
                    self.withdraw(&path);
                    return Ok(Descent::Collision);
                }
                Kind::Expanded => {}
            }
            let e = self.select(node);
            self.edges[e as usize].pending += 1;
            self.nodes[node as usize].visits += 1;
            path.push((node, e));
            let edge = self.edges[e as usize];
            if let Err(err) = game.play(edge.mv) {
                self.withdraw(&path);
                return Err(format!("a move of the tree could not be played: {err}"));
            }
            if edge.child == NONE {
                let child = self.add(game.position());
                self.edges[e as usize].child = child;
                if let Kind::Terminal(v) = self.nodes[child as usize].kind {
                    self.back_up(&path, v);
                    return Ok(Descent::Terminal);
                }
                return Ok(Descent::Leaf(Box::new(Leaf {
                    node: child,
                    path,
                    game,
                })));
            }
            node = edge.child;
        }
    }

    /// Backs up `south` (a value to South) along `path`, turning its pending descents into visits.
    pub(super) fn back_up(&mut self, path: &[(u32, u32)], south: f64) {
        for &(node, e) in path {
            let mover = self.nodes[node as usize].mover;
            let edge = &mut self.edges[e as usize];
            edge.pending -= 1;
            edge.visits += 1;
            edge.value += for_side(mover, south);
        }
        self.root_value += for_side(self.nodes[0].mover, south);
        self.simulations += 1;
    }

    /// Takes back the pending descents of `path` (a descent given up).
    pub(super) fn withdraw(&mut self, path: &[(u32, u32)]) {
        for &(node, e) in path {
            self.edges[e as usize].pending -= 1;
            self.nodes[node as usize].visits -= 1;
        }
    }

    /// Gives a waiting node its priors (a row over the action space,
    /// non-negative: the legal actions' share, renormalised; uniform if
    /// they have none) and its value (from its mover's view), and backs it up.
    pub(super) fn expand(&mut self, leaf: &Leaf, priors: &[f64], value: f64) {
        let range = self.edge_range(leaf.node);
        let total: f64 = self.edges[range.clone()]
            .iter()
            .map(|e| priors[e.action as usize])
            .sum();
        let count = range.len() as f64;
        for e in &mut self.edges[range] {
            e.prior = if total > 0.0 {
                priors[e.action as usize] / total
            } else {
                1.0 / count
            };
        }
        let node = &mut self.nodes[leaf.node as usize];
        node.kind = Kind::Expanded;
        let south = for_side(node.mover, value);
        if leaf.path.is_empty() {
            self.root_value += value;
        } else {
            self.back_up(&leaf.path, south);
        }
    }

    /// Mixes Dirichlet noise into the root's priors.
    pub(super) fn add_noise(&mut self, alpha: f64, fraction: f64, rng: &mut SmallRng) {
        let range = self.edge_range(0);
        let Ok(gamma) = Gamma::new(alpha, 1.0) else {
            return;
        };
        let noise: Vec<f64> = range.clone().map(|_| gamma.sample(rng)).collect();
        let sum: f64 = noise.iter().sum();
        if sum <= 0.0 || !sum.is_finite() {
            return;
        }
        for (e, n) in self.edges[range].iter_mut().zip(noise) {
            e.prior = (1.0 - fraction) * e.prior + fraction * n / sum;
        }
    }
}
