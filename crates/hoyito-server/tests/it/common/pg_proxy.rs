//! A TCP proxy on loopback in front of a database server, which a test cuts
//! to make the database unreachable for the server nodes connected through
//! it, and opens again on the same port.

use std::net::SocketAddr;

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use tokio::task::{JoinHandle, JoinSet};

pub struct Proxy {
    pub addr: SocketAddr,
    target: SocketAddr,
    running: Option<(oneshot::Sender<()>, JoinHandle<()>)>,
}

impl Proxy {
    /// A proxy to `target`, open, on a free port.
    pub async fn start(target: SocketAddr) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind the proxy");
        let mut proxy = Proxy {
            addr: listener.local_addr().unwrap(),
            target,
            running: None,
        };
        proxy.serve(listener);
        proxy
    }

    /// `url` (`postgres://user@host:port/db`) through this proxy.
    pub fn url(&self, url: &str) -> String {
        let (user, rest) = url.split_once('@').expect("a URL with user@host");
        let (_, db) = rest.split_once('/').expect("a URL with a database");
        format!("{user}@{}/{db}", self.addr)
    }

    fn serve(&mut self, listener: TcpListener) {
        let (stop_tx, mut stop) = oneshot::channel::<()>();
        let target = self.target;
        let task = tokio::spawn(async move {
            let mut conns = JoinSet::new();
            loop {
                tokio::select! {
                    accepted = listener.accept() => {
                        let Ok((mut client, _)) = accepted else { continue };
                        conns.spawn(async move {
                            if let Ok(mut server) = TcpStream::connect(target).await {
                                let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                            }
                        });
                    }
                    _ = &mut stop => break,
                }
            }
            // Refuse new connections and close every one open.
            drop(listener);
            conns.shutdown().await;
        });
        self.running = Some((stop_tx, task));
    }

    /// Closes the port and every connection through it; returns once they are closed.
    pub async fn cut(&mut self) {
        if let Some((stop, task)) = self.running.take() {
            let _ = stop.send(());
            task.await.expect("the proxy stops");
        }
    }

    /// Opens the port again.
    pub async fn open(&mut self) {
        assert!(self.running.is_none(), "the proxy is open");
        let listener = TcpListener::bind(self.addr)
            .await
            .expect("bind the proxy's port again");
        self.serve(listener);
    }
}
