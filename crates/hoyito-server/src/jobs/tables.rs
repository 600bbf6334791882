//! Building the default tablebases in the background ([`start`]): on a
//! thread of its own at the lowest priority, stopped when the server
//! shuts down (a layer being solved keeps its state; the next start goes
//! on from there).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::state::AppState;

/// Starts building the server's table plan, if it has one.
pub(crate) fn start(st: &Arc<AppState>) {
    let Some(tables) = st.tablebases.clone().filter(|t| t.has_plan()) else {
        return;
    };
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let mut shutdown = st.shutdown.clone();
    tokio::spawn(async move {
        let _ = shutdown.wait_for(|&down| down).await;
        flag.store(true, Ordering::Relaxed);
    });
    let spawned = std::thread::Builder::new()
        .name("hoyito-tables".into())
        .spawn(move || {
            if let Err(e) = tables.build_plan(&stop) {
                tracing::info!("building the default tables stopped: {e}");
            }
        });
    if let Err(e) = spawned {
        tracing::warn!("the default tables are not built: {e}");
    }
}
