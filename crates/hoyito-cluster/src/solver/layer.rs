//! Solving one layer as one worker: the first sweep, the ghost lists'
//! round, the sweeps to the fixpoint, and the part files (see the module
//! docs of [`super`]).

use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use hoyito_tablebase::file;
use hoyito_tablebase::solve::{next_state, state_value};
use hoyito_tablebase::Indexer;
use timely::worker::Worker;

use super::files::{io_at, merge, part_file_name, part_start, Lower};
use super::job::{BuildJob, LayerSummary, SweepFigures};
use super::node::{Inbox, Node};
use super::part::{cumulative, edge_at, generate, ghost_index, ghosts_below, raw, FLIP, GHOST, MAX_INDEX};
use crate::error::ClusterError;
use crate::wire::{record_bytes, Body, Report, MAX_ENTRIES};

#[allow(clippy::too_many_arguments)]
pub(super) fn solve_layer(
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
