//! The records the workers exchange through timely, and their sizes.

use serde::{Deserialize, Serialize};

/// Most entries in one [`Body::Want`] or [`Body::Update`] record, so that no
/// record holds more than 8 MiB.
pub(crate) const MAX_ENTRIES: usize = 1 << 20;

/// One record from worker `from` to worker `to`, routed by `to`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Packet {
    pub to: u32,
    pub from: u32,
    pub body: Body,
}

/// What a record carries.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) enum Body {
    /// The children of the sender's part that the receiver owns, as offsets
    /// in the receiver's part, sorted; entries `start..` of the list. The
    /// receiver sends the states of these positions back by their index in
    /// this list.
    Want { start: u64, offsets: Vec<u32> },
    /// New states of positions the receiver wanted: `index << 16 | state`,
    /// with `index` the position's place in the receiver's list.
    Update(Vec<u64>),
    /// The sender's report at the end of a round (one to every worker).
    Done(Report),
}

/// A worker's report at the end of a round.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    /// Whether the worker's work of the round succeeded.
    pub ok: bool,
    /// Positions whose state changed in its sweep.
    pub changed: u64,
    /// Positions it evaluated.
    pub evaluated: u64,
    /// State updates it sent to other workers (one per changed position
    /// and worker that holds it as a child).
    pub updates: u64,
    /// Records (`Body::Want`, `Body::Update`: ghost lists and state
    /// updates) it sent to other workers.
    pub records: u64,
    /// Their bytes as serialized for the network (see [`record_bytes`]).
    pub bytes: u64,
}

impl std::ops::Add for Report {
    type Output = Report;

    /// The sum of `self` and `other` (`ok` if both are).
    fn add(self, other: Report) -> Report {
        Report {
            ok: self.ok && other.ok,
            changed: self.changed + other.changed,
            evaluated: self.evaluated + other.evaluated,
            updates: self.updates + other.updates,
            records: self.records + other.records,
            bytes: self.bytes + other.bytes,
        }
    }
}

/// Bytes of a record with `entries` entries of `width` bytes as timely
/// serializes it (bincode 1, fixed-width integers): `to`, `from` and the
/// variant (4 each), a `Want`'s start (8), the list's length (8), the
/// entries. Timely adds a 48-byte header to each message it sends, a
/// message holding one or more records.
pub fn record_bytes(entries: usize, width: usize, want: bool) -> u64 {
    (12 + 8 * want as usize + 8 + entries * width) as u64
}
