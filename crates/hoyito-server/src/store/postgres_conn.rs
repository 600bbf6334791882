//! How a node connects to PostgreSQL ([`Connector`]): over TLS as the
//! URL's `sslmode` asks (`require`, `verify-ca`, `verify-full`, with the
//! certificate authorities of `sslrootcert`), with the password from the
//! URL, a file (`--db-password-file`) or `PGPASSWORD`, and with the
//! timeouts that keep a database that stops answering from holding
//! requests: each connection's statements and lock waits are bounded, a
//! pooled connection is checked within [`VALIDATE_WAIT`] before use.

use std::path::{Path, PathBuf};
use std::time::Duration;

use ::postgres::{Client, Config, NoTls};
use tokio_postgres_rustls::MakeRustlsConnect;

use super::postgres_tls::{Check, TlsError};

/// A statement (and the wait for its locks) that runs longer is cancelled
/// by the server (`statement_timeout`): the request answers 503.
pub const STATEMENT_TIMEOUT: Duration = Duration::from_secs(4);

/// A wait for a row lock held by another node longer than this fails
/// (`lock_timeout`): the request answers 503.
pub const LOCK_TIMEOUT: Duration = Duration::from_secs(2);

/// A session left inside a transaction longer than this is ended by the
/// server (`idle_in_transaction_session_timeout`), freeing its locks: a
/// node that froze in a transaction does not hold the game's row for ever.
pub const IDLE_IN_TRANSACTION_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a pooled connection has to answer a trivial query before use;
/// one that does not is dropped and another one is tried or opened.
pub const VALIDATE_WAIT: Duration = Duration::from_secs(1);

/// Sent data left unacknowledged this long closes the connection
/// (`TCP_USER_TIMEOUT`, on Linux), unless the URL sets its own.
pub const TCP_USER_TIMEOUT: Duration = Duration::from_secs(10);

/// How the server connects to PostgreSQL, besides its URL.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DbOptions {
    /// A file holding the password (its first line), so that it is not in
    /// the URL, which the process list shows.
    pub password_file: Option<PathBuf>,
}

/// The TLS of the URL's `sslmode`, as libpq reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SslMode {
    /// No TLS (also when the URL gives no `sslmode`).
    Disable,
    /// TLS if the server offers it, its certificate not checked.
    Prefer,
    /// TLS or no connection, the certificate not checked (checked against
    /// `sslrootcert` as in `verify-ca` when one is given, as libpq does).
    Require,
    /// TLS with a certificate signed by a trusted authority.
    VerifyCa,
    /// TLS with a certificate signed by a trusted authority, for the host
    /// name connected to.
    VerifyFull,
}

/// Why the PostgreSQL connection cannot be set up.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// The URL is malformed.
    #[error("the URL cannot be read: {0}")]
    Url(#[source] ::postgres::Error),
    /// `sslmode` has an unknown value.
    #[error("sslmode={0:?} is none of disable, prefer, require, verify-ca, verify-full")]
    SslMode(String),
    /// `sslrootcert` cannot be read, or TLS cannot be set up.
    #[error(transparent)]
    Tls(#[from] TlsError),
    /// The password file cannot be read.
    #[error("cannot read the password file {}: {source}", .path.display())]
    PasswordFile {
        /// The file.
        path: PathBuf,
        /// The failure.
        source: std::io::Error,
    },
    /// The password file is empty.
    #[error("the password file {} is empty", .0.display())]
    EmptyPasswordFile(PathBuf),
    /// The URL holds a password and a password file is given too.
    #[error(
        "the URL holds a password and --db-password-file gives one too: give it once, in the file \
         (a URL is seen in the process list)"
    )]
    PasswordTwice,
}

/// Connects to one PostgreSQL database, over TLS or not; the pool's
/// connection manager.
#[derive(Clone)]
pub struct Connector {
    config: Config,
    tls: Option<MakeRustlsConnect>,
    mode: SslMode,
}

impl std::fmt::Debug for Connector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connector")
            .field("mode", &self.mode)
            .finish_non_exhaustive()
    }
}

impl Connector {
    /// The connector of `url` (`postgres://user@host:port/db?sslmode=…`)
    /// with `options`.
    ///
    /// # Errors
    /// [`SetupError`]: a malformed URL, an unknown `sslmode`, an unreadable
    /// `sslrootcert` or password file, a password given twice.
    pub fn new(url: &str, options: &DbOptions) -> Result<Connector, SetupError> {
        let (url, ssl) = take_tls_params(url);
        let mut config: Config = url.parse().map_err(SetupError::Url)?;
        let mode = match ssl.mode.as_deref() {
            None | Some("disable") => SslMode::Disable,
            Some("prefer") => SslMode::Prefer,
            Some("require") => SslMode::Require,
            Some("verify-ca") => SslMode::VerifyCa,
            Some("verify-full") => SslMode::VerifyFull,
            Some(other) => return Err(SetupError::SslMode(other.to_string())),
        };
        config.ssl_mode(match mode {
            SslMode::Disable => ::postgres::config::SslMode::Disable,
            SslMode::Prefer => ::postgres::config::SslMode::Prefer,
            _ => ::postgres::config::SslMode::Require,
        });
        let tls = match mode {
            SslMode::Disable => None,
            _ => {
                // As libpq: `require` with a root certificate checks the
                // authority; `system` names the system's authorities.
                let roots = ssl.root_cert.as_deref().filter(|r| *r != "system").map(Path::new);
                let check = match mode {
                    SslMode::VerifyFull => Check::AuthorityAndName,
                    SslMode::VerifyCa => Check::Authority,
                    SslMode::Require if roots.is_some() => Check::Authority,
                    _ => Check::Nothing,
                };
                Some(super::postgres_tls::connector(check, roots)?)
            }
        };
        let from_file = match &options.password_file {
            Some(path) => Some(read_password(path)?),
            None => None,
        };
        match (config.get_password().is_some(), from_file) {
            (true, Some(_)) => return Err(SetupError::PasswordTwice),
            (false, Some(password)) => {
                config.password(password);
            }
            (false, None) => {
                if let Some(password) = std::env::var_os("PGPASSWORD").filter(|p| !p.is_empty()) {
                    config.password(password.as_encoded_bytes());
                }
            }
            (true, None) => {}
        }
        if config.get_tcp_user_timeout().is_none() {
            config.tcp_user_timeout(TCP_USER_TIMEOUT);
        }
        Ok(Connector { config, tls, mode })
    }

    /// The connection's settings (hosts, timeouts…).
    #[cfg(test)]
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Sets the time to connect, if the URL sets none.
    pub fn default_connect_timeout(&mut self, wait: Duration) {
        if self.config.get_connect_timeout().is_none() {
            self.config.connect_timeout(wait);
        }
    }

    /// The TLS the connections use.
    pub fn mode(&self) -> SslMode {
        self.mode
    }

    /// A new connection, with the server's defaults for timeouts.
    ///
    /// # Errors
    /// If the server cannot be reached, refuses the connection, or its
    /// certificate is not the one `sslmode` requires.
    pub fn connect_plain(&self) -> Result<Client, ::postgres::Error> {
        match &self.tls {
            Some(tls) => self.config.connect(tls.clone()),
            None => self.config.connect(NoTls),
        }
    }
}

/// The statement, lock and idle-in-transaction timeouts of a pooled connection.
pub fn session_timeouts() -> String {
    format!(
        "SET statement_timeout = {}; SET lock_timeout = {}; SET idle_in_transaction_session_timeout = {}",
        STATEMENT_TIMEOUT.as_millis(),
        LOCK_TIMEOUT.as_millis(),
        IDLE_IN_TRANSACTION_TIMEOUT.as_millis()
    )
}

/// A failure to open or check a connection, with its causes: the
/// driver's own message is terse ("db error", "error performing TLS
/// handshake"), the server's or the TLS library's says what was wrong.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ConnectError(String);

impl From<::postgres::Error> for ConnectError {
    fn from(e: ::postgres::Error) -> ConnectError {
        let mut text = e.to_string();
        let mut cause = std::error::Error::source(&e);
        while let Some(c) = cause {
            let more = c.to_string();
            if !text.ends_with(&more) {
                text = format!("{text}: {more}");
            }
            cause = c.source();
        }
        ConnectError(text)
    }
}

impl r2d2::ManageConnection for Connector {
    type Connection = Client;
    type Error = ConnectError;

    fn connect(&self) -> Result<Client, ConnectError> {
        let mut client = self.connect_plain()?;
        client.batch_execute(&session_timeouts())?;
        Ok(client)
    }

    fn is_valid(&self, client: &mut Client) -> Result<(), ConnectError> {
        Ok(client.is_valid(VALIDATE_WAIT)?)
    }

    fn has_broken(&self, client: &mut Client) -> bool {
        client.is_closed()
    }
}

/// The first line of the password file at `path`.
fn read_password(path: &Path) -> Result<String, SetupError> {
    let text = std::fs::read_to_string(path).map_err(|source| SetupError::PasswordFile {
        path: path.to_path_buf(),
        source,
    })?;
    let password = text.lines().next().unwrap_or_default();
    if password.is_empty() {
        return Err(SetupError::EmptyPasswordFile(path.to_path_buf()));
    }
    warn_if_readable_by_others(path);
    Ok(password.to_string())
}

#[cfg(unix)]
fn warn_if_readable_by_others(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    if let Ok(meta) = std::fs::metadata(path) {
        if meta.permissions().mode() & 0o077 != 0 {
            tracing::warn!(
                file = %path.display(),
                "the password file can be read by other users: make it readable by its owner only (chmod 600)"
            );
        }
    }
}

#[cfg(not(unix))]
fn warn_if_readable_by_others(_: &Path) {}

/// `url` without its password, for messages.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let user = &url[scheme + 3..at];
            match user.split_once(':') {
                Some((name, _)) => format!("{}{name}:***{}", &url[..scheme + 3], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

/// The TLS parameters of a URL, which the PostgreSQL driver does not read.
#[derive(Debug, Default, PartialEq, Eq)]
struct TlsParams {
    mode: Option<String>,
    root_cert: Option<String>,
}

/// `url` without its `sslmode` and `sslrootcert` parameters, and their
/// values (percent-decoded).
fn take_tls_params(url: &str) -> (String, TlsParams) {
    let Some((base, query)) = url.split_once('?') else {
        return (url.to_string(), TlsParams::default());
    };
    let mut params = TlsParams::default();
    let mut kept = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let decoded = || {
            percent_encoding::percent_decode_str(value)
                .decode_utf8_lossy()
                .into_owned()
        };
        match key {
            "sslmode" => params.mode = Some(decoded()),
            "sslrootcert" => params.root_cert = Some(decoded()),
            _ => kept.push(pair),
        }
    }
    let url = if kept.is_empty() {
        base.to_string()
    } else {
        format!("{base}?{}", kept.join("&"))
    };
    (url, params)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tls_parameters_are_taken_out_of_the_url() {
        let (url, p) = take_tls_params(
            "postgres://h@db:5432/g?application_name=x&sslmode=verify-full&sslrootcert=%2Fetc%2Fca.pem",
        );
        assert_eq!(url, "postgres://h@db:5432/g?application_name=x");
        assert_eq!(p.mode.as_deref(), Some("verify-full"));
        assert_eq!(p.root_cert.as_deref(), Some("/etc/ca.pem"));
        let (url, p) = take_tls_params("postgres://h@db/g?sslmode=require");
        assert_eq!(
            (url.as_str(), p.mode.as_deref()),
            ("postgres://h@db/g", Some("require"))
        );
        assert_eq!(take_tls_params("postgres://h@db/g").0, "postgres://h@db/g");
    }

    #[test]
    fn modes_and_passwords_are_read_or_refused_clearly() {
        let none = DbOptions::default();
        for (url, mode) in [
            ("postgres://h@db/g", SslMode::Disable),
            ("postgres://h@db/g?sslmode=prefer", SslMode::Prefer),
            ("postgres://h@db/g?sslmode=require", SslMode::Require),
            ("postgres://h@db/g?sslmode=verify-full", SslMode::VerifyFull),
        ] {
            assert_eq!(Connector::new(url, &none).unwrap().mode(), mode, "{url}");
        }
        let e = Connector::new("postgres://h@db/g?sslmode=verify", &none).unwrap_err();
        assert_eq!(
            e.to_string(),
            "sslmode=\"verify\" is none of disable, prefer, require, verify-ca, verify-full"
        );
        let e = Connector::new(
            "postgres://h@db/g?sslmode=verify-ca&sslrootcert=/nonexistent/ca.pem",
            &none,
        )
        .unwrap_err();
        assert!(
            e.to_string()
                .starts_with("cannot read sslrootcert /nonexistent/ca.pem"),
            "{e}"
        );

        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("password");
        std::fs::write(&file, "s3cret\n").unwrap();
        let options = DbOptions {
            password_file: Some(file.clone()),
        };
        let c = Connector::new("postgres://h@db/g", &options).unwrap();
        assert_eq!(c.config().get_password(), Some(&b"s3cret"[..]));
        let e = Connector::new("postgres://h:other@db/g", &options).unwrap_err();
        assert!(matches!(e, SetupError::PasswordTwice), "{e}");
        std::fs::write(&file, "").unwrap();
        let e = Connector::new("postgres://h@db/g", &options).unwrap_err();
        assert!(e.to_string().contains("is empty"), "{e}");
    }

    #[test]
    fn passwords_are_left_out_of_messages() {
        assert_eq!(
            redact("postgres://hoyito:secret@db:5432/games"),
            "postgres://hoyito:***@db:5432/games"
        );
        assert_eq!(redact("postgres://hoyito@db/games"), "postgres://hoyito@db/games");
        assert_eq!(redact("postgres:///games"), "postgres:///games");
    }
}
