//! Work off the request path, on the server's state: engine moves
//! (`engine`, with `crate::ai`), clocks' timers (`clock`), post-game
//! analyses (`analysis`), loading a game on first use (`load`), the expiry
//! of abandoned games (`expiry`), the changes of other server nodes
//! (`nodes`), who has a game open (`presence`) and the default
//! tablebases built in the background (`tables`). The HTTP handlers start them; they never call HTTP code.

pub(crate) mod analysis;
pub(crate) mod clock;
pub(crate) mod engine;
pub(crate) mod expiry;
pub(crate) mod load;
pub(crate) mod nodes;
pub(crate) mod presence;
pub(crate) mod tables;
