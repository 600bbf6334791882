//! The thread of a [`Postgres`](super::postgres::Postgres) node that
//! follows the other nodes' announcements on [`CHANNEL`] (`LISTEN`) and
//! passes them on as [`Change`]s, reconnecting when the connection drops.

use std::time::Duration;

use ::postgres::Client;

use super::postgres_conn::Connector;
use super::Change;

/// The `LISTEN`/`NOTIFY` channel of the nodes' [`Change`]s.
pub(super) const CHANNEL: &str = "hoyito_changes";

/// Follows [`CHANNEL`] until `to` closes, reconnecting when the connection
/// drops. After a reconnection, a change of every game (`game: "*"`) is
/// sent: announcements made while disconnected are lost.
pub(super) fn listen(
    mut client: Client,
    connector: &Connector,
    node: &str,
    to: &tokio::sync::mpsc::UnboundedSender<Change>,
) {
    let mut first = true;
    loop {
        if client.batch_execute(&format!("LISTEN {CHANNEL}")).is_ok() {
            if !first {
                tracing::warn!("listening to the other nodes again: every game in memory is reloaded");
                if to
                    .send(Change {
                        node: String::new(),
                        game: "*".into(),
                        chat: None,
                    })
                    .is_err()
                {
                    return;
                }
            }
            first = false;
            loop {
                if to.is_closed() {
                    return;
                }
                let mut broken = false;
                {
                    let mut notes = client.notifications();
                    let mut iter = notes.timeout_iter(Duration::from_millis(500));
                    loop {
                        match ::postgres::fallible_iterator::FallibleIterator::next(&mut iter) {
                            Ok(Some(n)) => {
                                let Ok(change) = serde_json::from_str::<Change>(n.payload()) else {
                                    tracing::warn!(
                                        payload = n.payload(),
                                        "an unreadable change announcement"
                                    );
                                    continue;
                                };
                                if change.node != node && to.send(change).is_err() {
                                    return;
                                }
                            }
                            Ok(None) => break,
                            Err(e) => {
                                tracing::error!(error = %e, "the connection listening to the other nodes dropped");
                                broken = true;
                                break;
                            }
                        }
                    }
                }
                if broken || client.is_closed() {
                    break;
                }
            }
        }
        // Reconnect, once a second, until `to` closes.
        loop {
            if to.is_closed() {
                return;
            }
            std::thread::sleep(Duration::from_secs(1));
            match connector.connect_plain() {
                Ok(c) => {
                    client = c;
                    break;
                }
                Err(e) => tracing::error!(error = %e, "cannot reconnect to PostgreSQL to listen"),
            }
        }
    }
}
