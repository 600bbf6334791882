//! `hoyito serve` on PostgreSQL over TLS, its password outside the URL: a
//! throwaway server of the test's own (`scripts/postgres.sh --tls
//! --password`) that refuses connections without TLS and asks a password,
//! with a certificate for `localhost` signed by a certificate authority the
//! test makes (openssl). `sslmode=require` and `verify-ca` connect,
//! `verify-full` connects to `localhost` with the right authority and
//! refuses a wrong authority or a host name the certificate is not for;
//! the password comes from `PGPASSWORD` or `--db-password-file`, never the
//! command line. Each refusal is one line saying why, exit code 2.

use std::path::Path;
use std::process::Command;

use crate::process::{fails_to_start, request, serve, PgCluster, TempDir};
use serde_json::json;

const PASSWORD: &str = "correct horse";

/// Makes `name.pem` (a certificate authority) in `dir`, and if `server`,
/// `server.crt` and `server.key` signed by it for `localhost` only.
fn make_certificates(dir: &Path, name: &str, server: bool) {
    let openssl = |args: &[&str]| {
        let out = Command::new("openssl")
            .args(args)
            .current_dir(dir)
            .output()
            .expect("run openssl");
        assert!(out.status.success(), "openssl {args:?}: {out:?}");
    };
    let (key, pem) = (format!("{name}.key"), format!("{name}.pem"));
    let subject = format!("/CN=hoyito test {name}");
    openssl(&[
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-keyout", &key, "-out", &pem,
        "-subj", &subject,
    ]);
    if server {
        openssl(&[
            "req",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            "server.key",
            "-out",
            "server.csr",
            "-subj",
            "/CN=localhost",
        ]);
        std::fs::write(dir.join("san.cnf"), "subjectAltName=DNS:localhost\n").unwrap();
        openssl(&[
            "x509",
            "-req",
            "-in",
            "server.csr",
            "-CA",
            &pem,
            "-CAkey",
            &key,
            "-CAcreateserial",
            "-days",
            "2",
            "-out",
            "server.crt",
            "-extfile",
            "san.cnf",
        ]);
    }
}

#[test]
#[ignore = "starts its own PostgreSQL (scripts/postgres.sh) with TLS: run by scripts/test.sh"]
fn postgresql_over_tls_with_the_password_outside_the_url() {
    let dir = TempDir::new("pg-tls");
    let certs = dir.0.join("certs");
    std::fs::create_dir_all(&certs).unwrap();
    make_certificates(&certs, "ca", true);
    make_certificates(&certs, "other", false);
    let cert = certs.join("server.crt");
    let key = certs.join("server.key");
    let pg = PgCluster::start(
        &dir.0.join("pg"),
        &[
            "--tls",
            cert.to_str().unwrap(),
            key.to_str().unwrap(),
            "--password",
            PASSWORD,
        ],
    );
    let port = pg.port();
    let ca = certs.join("ca.pem");
    let other = certs.join("other.pem");
    let (ca, other) = (ca.to_str().unwrap(), other.to_str().unwrap());
    let by_ip = format!("postgres://hoyito@127.0.0.1:{port}/postgres");
    let by_name = format!("postgres://hoyito@localhost:{port}/postgres");
    let password_file = dir.0.join("password");
    std::fs::write(&password_file, format!("{PASSWORD}\n")).unwrap();
    let file_arg = ["--db-password-file", password_file.to_str().unwrap()];
    let env = [("PGPASSWORD", PASSWORD), ("HOYITO_LOG", "off")];
    let no_env = [("HOYITO_LOG", "off")];

    let accepted = [
        (format!("{by_ip}?sslmode=require"), &[][..], &env[..]),
        (
            format!("{by_ip}?sslmode=verify-ca&sslrootcert={ca}"),
            &file_arg[..],
            &no_env[..],
        ),
        (
            format!("{by_name}?sslmode=verify-full&sslrootcert={ca}"),
            &[][..],
            &env[..],
        ),
        (
            format!("{by_name}?sslmode=verify-full&sslrootcert={ca}"),
            &file_arg[..],
            &no_env[..],
        ),
    ];
    for (db, args, envs) in accepted {
        let server = serve(&dir.0, db.as_ref(), args, envs);
        let health = request(&server.addr, "GET", "/api/health", None, None);
        assert_eq!(health.status, 200, "{db} {args:?}: {health:?}");
        let created = request(
            &server.addr,
            "POST",
            "/api/games",
            None,
            Some(&json!({ "mode": "hotseat" })),
        );
        assert_eq!(created.status, 201, "{db} {args:?}: {created:?}");
        let cmdline = std::fs::read(format!("/proc/{}/cmdline", server.child.id())).unwrap();
        assert!(
            !String::from_utf8_lossy(&cmdline).contains(PASSWORD),
            "the password is not on the command line"
        );
    }

    let refused = [
        // The server takes no connection without TLS.
        (
            format!("{by_ip}?sslmode=disable"),
            &[][..],
            &env[..],
            "no encryption",
        ),
        (by_ip.clone(), &[][..], &env[..], "no encryption"),
        // A certificate signed by another authority, or for another host.
        (
            format!("{by_name}?sslmode=verify-full&sslrootcert={other}"),
            &[][..],
            &env[..],
            "invalid peer certificate: UnknownIssuer",
        ),
        (
            format!("{by_ip}?sslmode=verify-full&sslrootcert={ca}"),
            &[][..],
            &env[..],
            "certificate not valid for name \"127.0.0.1\"",
        ),
        (
            format!("{by_ip}?sslmode=verify-ca&sslrootcert={other}"),
            &[][..],
            &env[..],
            "invalid peer certificate: UnknownIssuer",
        ),
        // No password, a wrong one, or one given twice.
        (
            format!("{by_ip}?sslmode=require"),
            &[][..],
            &no_env[..],
            "password missing",
        ),
        (
            format!("{by_ip}?sslmode=require"),
            &[][..],
            &[("PGPASSWORD", "wrong")][..],
            "password authentication failed",
        ),
        (
            format!("postgres://hoyito:{PASSWORD}@127.0.0.1:{port}/postgres?sslmode=require"),
            &file_arg[..],
            &no_env[..],
            "give it once",
        ),
        (
            format!("{by_ip}?sslmode=verify"),
            &[][..],
            &env[..],
            "sslmode=\"verify\" is none of",
        ),
    ];
    for (db, args, envs, why) in refused {
        let (code, stderr) = fails_to_start(&dir.0, db.as_ref(), args, envs);
        assert_eq!(code, Some(2), "{db} {args:?}: {stderr}");
        let lines: Vec<&str> = stderr.lines().collect();
        assert_eq!(lines.len(), 1, "{db} {args:?}: one line: {stderr}");
        assert!(lines[0].starts_with("hoyito: PostgreSQL at "), "{db}: {stderr}");
        assert!(lines[0].contains(why), "{db} {args:?}: {why:?} in {stderr}");
        assert!(
            !lines[0].contains(PASSWORD),
            "{db}: the password is never shown: {stderr}"
        );
    }
}
