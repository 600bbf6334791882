//! The messaging: each worker's [`Node`] (its timely input, probe and
//! [`Inbox`], the receiving operator's state) and the round that ends an
//! epoch.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::time::Duration;

use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::generic::operator::Operator;
use timely::dataflow::operators::Probe;
use timely::dataflow::{InputHandleVec, ProbeHandle};
use timely::worker::Worker;

use crate::error::ClusterError;
use crate::wire::{Body, Packet, Report};

/// What the receiving operator fills in.
#[derive(Default)]
pub(super) struct Inbox {
    /// States of this worker's ghosts.
    pub(super) ghosts: Vec<u16>,
    /// Ghosts updated since the last sweep.
    pub(super) fresh: Vec<u64>,
    /// `ghost_base[o]..ghost_base[o + 1]`: the ghosts owned by worker `o`.
    pub(super) ghost_base: Vec<u64>,
    /// For each other worker, the offsets of this worker's positions it holds.
    pub(super) wants: Vec<Vec<u32>>,
    /// Reports by epoch.
    pub(super) reports: HashMap<u64, Vec<(u32, Report)>>,
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
pub(super) struct Node {
    pub(super) index: usize,
    pub(super) peers: usize,
    input: InputHandleVec<u64, Packet>,
    probe: ProbeHandle<u64>,
    pub(super) inbox: Rc<RefCell<Inbox>>,
}

impl Node {
    pub(super) fn new(worker: &mut Worker) -> Node {
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

    pub(super) fn send(&mut self, to: usize, body: Body) {
        self.input.send(Packet {
            to: to as u32,
            from: self.index as u32,
            body,
        });
    }

    /// Ends the round: sends `report` to every worker, advances the epoch
    /// and steps until every record of it has arrived; returns every
    /// worker's report.
    pub(super) fn round(
        &mut self,
        worker: &mut Worker,
        seeds: u32,
        report: Report,
    ) -> Result<Report, ClusterError> {
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
