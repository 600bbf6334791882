//! A game held in memory ([`live::LiveGame`]: its room — the steps and
//! their rules, shared with the browser through `hoyito-room` — with its
//! seats and draw offer), the views the API sends of it (`view`, `show`,
//! `analysis`), its clock (`clock`) and its players' names (`names`). No
//! I/O: storing a step is `crate::state`, its timers `crate::jobs`.

pub(crate) mod analysis;
pub(crate) mod clock;
pub mod live;
pub(crate) mod lookalike;
pub(crate) mod names;
pub(crate) mod presence;
pub(crate) mod show;
pub(crate) mod view;
