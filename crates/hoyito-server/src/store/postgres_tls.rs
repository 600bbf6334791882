//! TLS to PostgreSQL with rustls, as libpq's `sslmode` asks: `prefer`
//! and `require` encrypt without checking the server's certificate,
//! `verify-ca` checks that a trusted authority signed it, `verify-full`
//! also that it is for the host name connected to. The trusted
//! authorities are those of `sslrootcert` (a PEM file), or the system's.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::WebPkiServerVerifier;
use rustls::crypto::WebPkiSupportedAlgorithms;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{CertificateError, ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme};
use tokio_postgres_rustls::MakeRustlsConnect;

/// What is checked of the server's certificate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Check {
    /// Nothing (`sslmode=prefer`, `require`).
    Nothing,
    /// That a trusted authority signed it (`verify-ca`, and `require`
    /// with a root certificate, as libpq does).
    Authority,
    /// That a trusted authority signed it for the host name connected to
    /// (`verify-full`).
    AuthorityAndName,
}

/// Why TLS cannot be set up.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    /// The root certificate file cannot be read, or holds no certificate.
    #[error("cannot read sslrootcert {}: {reason}", .path.display())]
    RootCert {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// The TLS library failed to set up.
    #[error("cannot set up TLS: {0}")]
    Library(String),
}

/// The connector that makes `check` of the server's certificate, trusting
/// the authorities of the PEM file `root_cert` if given, else the system's.
///
/// # Errors
/// [`TlsError::RootCert`] if the file cannot be read or holds no
/// certificate; [`TlsError::Library`] if the TLS library cannot be set up.
pub(super) fn connector(check: Check, root_cert: Option<&Path>) -> Result<MakeRustlsConnect, TlsError> {
    // ring builds with a C compiler alone (aws-lc-rs, rustls's other
    // provider, needs more and carries the OpenSSL licence); rustls marks
    // it deprecated for want of post-quantum key exchange, which the
    // connections to the database go without.
    #[allow(deprecated)]
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let verifier: Arc<dyn ServerCertVerifier> = if check == Check::Nothing {
        Arc::new(Unchecked(provider.signature_verification_algorithms))
    } else {
        let roots = Arc::new(match root_cert {
            Some(path) => roots_of(path)?,
            None => system_roots(),
        });
        let webpki = WebPkiServerVerifier::builder_with_provider(roots, provider.clone())
            .build()
            .map_err(|e| TlsError::Library(e.to_string()))?;
        if check == Check::AuthorityAndName {
            webpki
        } else {
            Arc::new(AnyName(webpki))
        }
    };
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| TlsError::Library(e.to_string()))?
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth();
    Ok(MakeRustlsConnect::new(config))
}

/// The certificates of the PEM file at `path`.
fn roots_of(path: &Path) -> Result<RootCertStore, TlsError> {
    let failed = |reason: String| TlsError::RootCert {
        path: PathBuf::from(path),
        reason,
    };
    let certs = CertificateDer::pem_file_iter(path)
        .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
        .map_err(|e| failed(e.to_string()))?;
    let mut roots = RootCertStore::empty();
    let (added, _) = roots.add_parsable_certificates(certs);
    if added == 0 {
        return Err(failed("it holds no certificate".into()));
    }
    Ok(roots)
}

/// The system's trusted authorities (those it can read).
fn system_roots() -> RootCertStore {
    let found = rustls_native_certs::load_native_certs();
    for e in &found.errors {
        tracing::warn!(error = %e, "a system certificate cannot be read");
    }
    let mut roots = RootCertStore::empty();
    roots.add_parsable_certificates(found.certs);
    roots
}

/// `sslmode=verify-ca`: the certificate's authority is checked, not the
/// name it is for.
#[derive(Debug)]
struct AnyName(Arc<WebPkiServerVerifier>);

impl ServerCertVerifier for AnyName {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        match self
            .0
            .verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now)
        {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_verify_schemes()
    }
}

/// `sslmode=prefer` and `require`: encrypted, the certificate not checked
/// (the handshake's signatures are, with the certificate's key).
#[derive(Debug)]
struct Unchecked(WebPkiSupportedAlgorithms);

impl ServerCertVerifier for Unchecked {
    fn verify_server_cert(
        &self,
        _: &CertificateDer<'_>,
        _: &[CertificateDer<'_>],
        _: &ServerName<'_>,
        _: &[u8],
        _: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.0)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.0)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_check_builds_and_a_bad_root_file_is_refused() {
        for check in [Check::Nothing, Check::Authority, Check::AuthorityAndName] {
            assert!(connector(check, None).is_ok(), "{check:?}");
        }
        let dir = tempfile::tempdir().unwrap();
        let empty = dir.path().join("empty.pem");
        std::fs::write(&empty, "no certificate here\n").unwrap();
        let Err(e) = connector(Check::AuthorityAndName, Some(&empty)) else {
            panic!("a root file without a certificate is refused");
        };
        assert!(e.to_string().contains("holds no certificate"), "{e}");
        let Err(e) = connector(Check::Authority, Some(Path::new("/nonexistent/ca.pem"))) else {
            panic!("a missing root file is refused");
        };
        assert!(
            e.to_string()
                .starts_with("cannot read sslrootcert /nonexistent/ca.pem"),
            "{e}"
        );
    }
}
