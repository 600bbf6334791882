//! `hoyito serve`: the web app (JSON API, WebSocket live updates, browser UI).

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use hoyito_server::{Rate, ServerLimits};

/// Arguments of `hoyito serve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Address to listen on (port 0 picks a free port, printed at start).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Database holding every game and move: an SQLite file (created if
    /// missing), or a PostgreSQL URL (postgres://user@host/db, with
    /// ?sslmode=verify-full&sslrootcert=CA.pem for TLS), which several
    /// `hoyito serve` nodes may share.
    #[arg(long, default_value = "./hoyito.db", value_name = "FILE|URL")]
    pub db: PathBuf,
    /// A file holding the PostgreSQL password (its first line), rather than
    /// the URL, which the process list shows (else PGPASSWORD is used).
    #[arg(long, value_name = "FILE")]
    pub db_password_file: Option<PathBuf>,
    /// Endgame tablebases for the level-10 engine, hints and exact values
    /// (default: ./tablebases). Unless --no-default-tables, the server
    /// builds every 2x4 position and every 2x6 position with up to 16 seeds
    /// in play, in the three variants, there in the background.
    #[arg(long, value_name = "DIR")]
    pub tablebases: Option<PathBuf>,
    /// Do not build the default tables in the background (only tables
    /// already in the directory are used; without --tablebases, only if
    /// ./tablebases exists).
    #[arg(long)]
    pub no_default_tables: bool,
    /// Keep the default tables as one-byte files (faster probes outside
    /// the cache, about three times the disk) rather than converting each
    /// set to compact files once built.
    #[arg(long)]
    pub byte_tables: bool,
    /// Open HTTP connections at most (WebSockets count separately).
    #[arg(long, default_value_t = ServerLimits::default().max_connections, value_name = "N")]
    pub max_connections: usize,
    /// Open HTTP connections per client IP address at most (0: no cap).
    #[arg(long, default_value_t = ServerLimits::default().max_connections_per_ip, value_name = "N")]
    pub max_connections_per_ip: usize,
    /// Open WebSockets at most.
    #[arg(long, default_value_t = ServerLimits::default().max_websockets, value_name = "N")]
    pub max_websockets: usize,
    /// Open WebSockets per client IP address at most (0: no cap).
    #[arg(long, default_value_t = ServerLimits::default().max_websockets_per_ip, value_name = "N")]
    pub max_websockets_per_ip: usize,
    /// Open WebSockets per client IP address on one game at most (0: no cap).
    #[arg(long, default_value_t = ServerLimits::default().max_websockets_per_ip_per_game, value_name = "N")]
    pub max_websockets_per_ip_per_game: usize,
    /// An origin (`https://example.org`) whose pages may open the game's
    /// WebSockets besides the server's own (repeat for several).
    #[arg(long = "allowed-origin", value_name = "ORIGIN")]
    pub allowed_origins: Vec<String>,
    /// The most steps a game may have: moves past it and longer imported records are refused.
    #[arg(long, default_value_t = ServerLimits::default().max_steps, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_steps: u64,
    /// Games held in memory at most (the least recently used idle ones are
    /// dropped from memory first; they stay stored).
    #[arg(long, default_value_t = ServerLimits::default().max_games_in_memory, value_name = "N")]
    pub max_games_in_memory: usize,
    /// New games (and imports) per client IP: N a minute, or N,BURST; 0: no limit.
    #[arg(long, default_value_t = ServerLimits::default().create_rate, value_name = "N[,BURST]")]
    pub create_rate: Rate,
    /// Games (new and imported) stored per client IP in 24 hours at most (0: no quota).
    #[arg(long, default_value_t = ServerLimits::default().create_quota, value_name = "N")]
    pub create_quota: u32,
    /// Delete online games still waiting for their second player and
    /// unchanged for this many days (0: never).
    #[arg(long, default_value_t = ServerLimits::default().expire_waiting_days, value_name = "DAYS")]
    pub expire_waiting_days: u32,
    /// Moves per client IP: N a minute, or N,BURST; 0: no limit.
    #[arg(long, default_value_t = ServerLimits::default().move_rate, value_name = "N[,BURST]")]
    pub move_rate: Rate,
    /// Hints per client IP: N a minute, or N,BURST; 0: no limit.
    #[arg(long, default_value_t = ServerLimits::default().hint_rate, value_name = "N[,BURST]")]
    pub hint_rate: Rate,
    /// Chat messages per client IP: N a minute, or N,BURST; 0: no limit.
    #[arg(long, default_value_t = ServerLimits::default().chat_rate, value_name = "N[,BURST]")]
    pub chat_rate: Rate,
    /// Draw offers, takeback requests (made or answered) and rematch
    /// requests per client IP: N a minute, or N,BURST; 0: no limit.
    #[arg(long, default_value_t = ServerLimits::default().offer_rate, value_name = "N[,BURST]")]
    pub offer_rate: Rate,
    /// Seats taken in online games (joins) per client IP: N a minute, or N,BURST; 0: no limit.
    #[arg(long, default_value_t = ServerLimits::default().join_rate, value_name = "N[,BURST]")]
    pub join_rate: Rate,
    /// Sign-ins, sign-ups and recoveries per client IP: N a minute, or N,BURST; 0: no limit.
    #[arg(long, default_value_t = ServerLimits::default().sign_in_rate, value_name = "N[,BURST]")]
    pub sign_in_rate: Rate,
    /// Sign-in and recovery attempts per username: N a minute, or N,BURST; 0: no limit.
    #[arg(long, default_value_t = ServerLimits::default().account_sign_in_rate, value_name = "N[,BURST]")]
    pub account_sign_in_rate: Rate,
    /// The server is reached over HTTPS (a proxy in front ends TLS): the
    /// session cookie is marked Secure, so a browser never sends it over
    /// plain HTTP.
    #[arg(long)]
    pub behind_tls: bool,
    /// The origin the site is reached at (`https://example.org`), behind a
    /// proxy: passkeys are bound to its host (their relying party). Without
    /// it, the origin of the page that asks, whose host must be the
    /// request's Host.
    #[arg(long, value_name = "ORIGIN", value_parser = hoyito_server::passkeys::parse_public_origin)]
    pub public_origin: Option<String>,
    /// Seats of public games that go on one client IP may hold, taken from the lobby (0: no cap).
    #[arg(long, default_value_t = ServerLimits::default().open_seats_per_ip, value_name = "N")]
    pub open_seats_per_ip: usize,
    /// Seconds before a declined draw offer or takeback request may be made again in the same game.
    #[arg(long, default_value_t = ServerLimits::default().offer_cooldown.as_secs(), value_name = "SECONDS")]
    pub offer_cooldown: u64,
    /// Engine jobs (deep engine moves, hints, answers to draw offers,
    /// analyses) queued or running per client IP at most (0: no cap).
    #[arg(long, default_value_t = ServerLimits::default().engine_jobs_per_ip, value_name = "N")]
    pub engine_jobs_per_ip: usize,
    /// Seconds a player of an online game with a clock of minutes must be
    /// disconnected before the other may claim the win or call a draw.
    #[arg(long, default_value_t = ServerLimits::default().claim_after.as_secs(), value_name = "SECONDS",
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub claim_after: u64,
    /// Do not serve GET /metrics (Prometheus text format, on the same address).
    #[arg(long)]
    pub no_metrics: bool,
}

/// Serves until Ctrl-C or SIGTERM. Prints `listening on http://ADDR` once bound.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let config = hoyito_server::Config {
        addr: args.addr,
        db: args.db,
        db_options: hoyito_server::store::DbOptions {
            password_file: args.db_password_file,
        },
        tablebases: args
            .tablebases
            .or_else(|| Some(PathBuf::from("tablebases")).filter(|d| !args.no_default_tables || d.is_dir())),
        build_tables: !args.no_default_tables,
        byte_tables: args.byte_tables,
        limits: ServerLimits {
            max_connections: args.max_connections,
            max_connections_per_ip: args.max_connections_per_ip,
            max_websockets: args.max_websockets,
            max_websockets_per_ip: args.max_websockets_per_ip,
            max_websockets_per_ip_per_game: args.max_websockets_per_ip_per_game,
            allowed_origins: args.allowed_origins,
            max_steps: args.max_steps,
            max_games_in_memory: args.max_games_in_memory,
            create_rate: args.create_rate,
            create_quota: args.create_quota,
            expire_waiting_days: args.expire_waiting_days,
            move_rate: args.move_rate,
            hint_rate: args.hint_rate,
            chat_rate: args.chat_rate,
            offer_rate: args.offer_rate,
            join_rate: args.join_rate,
            open_seats_per_ip: args.open_seats_per_ip,
            sign_in_rate: args.sign_in_rate,
            account_sign_in_rate: args.account_sign_in_rate,
            secure_cookies: args.behind_tls,
            public_origin: args.public_origin,
            offer_cooldown: std::time::Duration::from_secs(args.offer_cooldown),
            engine_jobs_per_ip: args.engine_jobs_per_ip,
            metrics: !args.no_metrics,
            claim_after: std::time::Duration::from_secs(args.claim_after),
            ..ServerLimits::default()
        },
    };
    hoyito_server::run(config, |addr| {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "listening on http://{addr}");
        let _ = out.flush();
    })?;
    Ok(ExitCode::SUCCESS)
}
