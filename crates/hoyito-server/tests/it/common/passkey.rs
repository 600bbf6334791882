//! A software authenticator for the tests: one ES256 passkey that answers
//! the options of the server's passkey ceremonies as a browser and a
//! platform authenticator would (attestation `none`, user verified), on
//! an origin the test chooses, so that the tests can also answer from the
//! wrong one.
#![allow(dead_code)]

use p256::ecdsa::signature::Signer;
use p256::ecdsa::{Signature, SigningKey};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

/// One passkey, as an authenticator keeps it.
pub struct SoftKey {
    key: SigningKey,
    /// The credential id.
    pub credential_id: Vec<u8>,
    /// The user handle of the registration (base64url, as the options gave it).
    pub user_handle: Option<String>,
    /// The RP id it was made for.
    pub rp_id: Option<String>,
    /// Its signature counter (the next sign-in signs one more).
    pub counter: u32,
}

/// `bytes` in base64url without padding.
pub fn b64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..=chunk.len() {
            out.push(A[(n >> (18 - 6 * i)) as usize & 63] as char);
        }
    }
    out
}

/// A CBOR head: major type `major`, argument `n`.
fn head(out: &mut Vec<u8>, major: u8, n: u64) {
    let m = major << 5;
    match n {
        0..=23 => out.push(m | n as u8),
        24..=0xff => out.extend([m | 24, n as u8]),
        0x100..=0xffff => {
            out.push(m | 25);
            out.extend((n as u16).to_be_bytes());
        }
        _ => {
            out.push(m | 26);
            out.extend((n as u32).to_be_bytes());
        }
    }
}

fn cbor_int(out: &mut Vec<u8>, v: i64) {
    if v >= 0 {
        head(out, 0, v as u64);
    } else {
        head(out, 1, (-1 - v) as u64);
    }
}

fn cbor_bytes(out: &mut Vec<u8>, b: &[u8]) {
    head(out, 2, b.len() as u64);
    out.extend(b);
}

fn cbor_text(out: &mut Vec<u8>, s: &str) {
    head(out, 3, s.len() as u64);
    out.extend(s.as_bytes());
}

impl Default for SoftKey {
    fn default() -> Self {
        SoftKey::new()
    }
}

impl SoftKey {
    /// A new passkey: a random key and credential id.
    pub fn new() -> SoftKey {
        let key = loop {
            let secret: [u8; 32] = rand::random();
            if let Ok(k) = SigningKey::from_slice(&secret) {
                break k;
            }
        };
        SoftKey {
            key,
            credential_id: rand::random::<[u8; 16]>().to_vec(),
            user_handle: None,
            rp_id: None,
            counter: 0,
        }
    }

    /// The credential id in base64url.
    pub fn id(&self) -> String {
        b64(&self.credential_id)
    }

    /// The public key as a COSE_Key (EC2, P-256, ES256).
    fn cose_key(&self) -> Vec<u8> {
        let point = self.key.verifying_key().to_sec1_point(false);
        let bytes = point.as_bytes();
        let (x, y) = (&bytes[1..33], &bytes[33..65]);
        let mut out = Vec::new();
        head(&mut out, 5, 5);
        cbor_int(&mut out, 1); // kty: EC2
        cbor_int(&mut out, 2);
        cbor_int(&mut out, 3); // alg: ES256
        cbor_int(&mut out, -7);
        cbor_int(&mut out, -1); // crv: P-256
        cbor_int(&mut out, 1);
        cbor_int(&mut out, -2);
        cbor_bytes(&mut out, x);
        cbor_int(&mut out, -3);
        cbor_bytes(&mut out, y);
        out
    }

    fn client_data(kind: &str, challenge: &Value, origin: &str) -> Vec<u8> {
        json!({ "type": kind, "challenge": challenge, "origin": origin, "crossOrigin": false })
            .to_string()
            .into_bytes()
    }

    /// The answer to a registration's `options` (`{"publicKey": …}`) from a
    /// page of `origin`: `navigator.credentials.create()`'s credential as
    /// JSON.
    pub fn register(&mut self, options: &Value, origin: &str) -> Value {
        let public = &options["publicKey"];
        let rp_id = public["rp"]["id"].as_str().expect("an RP id").to_string();
        self.user_handle = public["user"]["id"].as_str().map(str::to_string);
        let client_data = Self::client_data("webauthn.create", &public["challenge"], origin);
        let mut auth = Sha256::digest(rp_id.as_bytes()).to_vec();
        auth.push(0x45); // user present, user verified, attested credential data
        auth.extend(self.counter.to_be_bytes());
        auth.extend([0u8; 16]); // AAGUID
        auth.extend((self.credential_id.len() as u16).to_be_bytes());
        auth.extend(&self.credential_id);
        auth.extend(self.cose_key());
        let mut attestation = Vec::new();
        head(&mut attestation, 5, 3);
        cbor_text(&mut attestation, "fmt");
        cbor_text(&mut attestation, "none");
        cbor_text(&mut attestation, "attStmt");
        head(&mut attestation, 5, 0);
        cbor_text(&mut attestation, "authData");
        cbor_bytes(&mut attestation, &auth);
        self.rp_id = Some(rp_id);
        json!({
            "id": self.id(),
            "rawId": self.id(),
            "type": "public-key",
            "response": {
                "attestationObject": b64(&attestation),
                "clientDataJSON": b64(&client_data),
            },
            "extensions": {},
        })
    }

    /// The answer to a sign-in's `options` from a page of `origin`:
    /// `navigator.credentials.get()`'s credential as JSON. The signature
    /// counter goes up by one each time.
    pub fn sign_in(&mut self, options: &Value, origin: &str) -> Value {
        let public = &options["publicKey"];
        let rp_id = public["rpId"].as_str().expect("an RP id");
        let client_data = Self::client_data("webauthn.get", &public["challenge"], origin);
        self.counter += 1;
        let mut auth = Sha256::digest(rp_id.as_bytes()).to_vec();
        auth.push(0x05); // user present, user verified
        auth.extend(self.counter.to_be_bytes());
        let mut signed = auth.clone();
        signed.extend(Sha256::digest(&client_data));
        let signature: Signature = self.key.sign(&signed);
        json!({
            "id": self.id(),
            "rawId": self.id(),
            "type": "public-key",
            "response": {
                "authenticatorData": b64(&auth),
                "clientDataJSON": b64(&client_data),
                "signature": b64(signature.to_der().as_bytes()),
                "userHandle": self.user_handle,
            },
            "extensions": {},
        })
    }
}

/// A page of the server on `http://localhost:PORT` (the server listens on
/// 127.0.0.1; the requests say `Host: localhost:PORT`, as a browser that
/// opened that address does), with its session cookie.
pub struct Page {
    http: reqwest::Client,
    /// `http://127.0.0.1:PORT`: where the requests go.
    pub base: String,
    /// `localhost:PORT`.
    pub host: String,
    /// `http://localhost:PORT`.
    pub origin: String,
    /// The session cookie (`hoyito_session=…`), once signed in.
    pub cookie: Option<String>,
}

impl Page {
    /// A page of the server at `base` (`http://127.0.0.1:PORT`).
    pub fn new(base: &str) -> Page {
        let port = base.rsplit(':').next().expect("a port");
        Page::at(base, &format!("localhost:{port}"))
    }

    /// A page of the server at `base` whose address is `host`.
    pub fn at(base: &str, host: &str) -> Page {
        Page {
            http: reqwest::Client::builder()
                .pool_max_idle_per_host(0)
                .build()
                .expect("an HTTP client"),
            base: base.to_string(),
            host: host.to_string(),
            origin: format!("http://{host}"),
            cookie: None,
        }
    }

    /// A request from this page (its `Host`, `Origin`, `Sec-Fetch-Site`
    /// and cookie); the cookie an answer sets is kept.
    pub async fn call(
        &mut self,
        method: &str,
        path: &str,
        body: Option<Value>,
    ) -> (reqwest::StatusCode, Value) {
        let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let mut req = self
            .http
            .request(method, format!("{}{path}", self.base))
            .header("host", &self.host)
            .header("origin", &self.origin)
            .header("sec-fetch-site", "same-origin");
        if let Some(c) = &self.cookie {
            req = req.header("cookie", c);
        }
        if let Some(b) = body {
            req = req.json(&b);
        }
        let res = req.send().await.expect("request");
        let status = res.status();
        if let Some(set) = res.headers().get("set-cookie") {
            let set = set.to_str().unwrap();
            let pair = set.split(';').next().unwrap().to_string();
            self.cookie = (pair != "hoyito_session=").then_some(pair);
        }
        let text = res.text().await.unwrap();
        let value = if text.is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&text).unwrap_or_else(|_| panic!("{status}: not JSON: {text}"))
        };
        (status, value)
    }

    /// Signs up as `username` with `key`: the answer (account and recovery codes).
    pub async fn sign_up(&mut self, key: &mut SoftKey, username: &str) -> Value {
        let (status, start) = self
            .call(
                "POST",
                "/api/passkeys/register/start",
                Some(json!({ "username": username })),
            )
            .await;
        assert_eq!(status, 200, "{start}");
        let origin = self.origin.clone();
        let credential = key.register(&start["options"], &origin);
        let (status, done) = self
            .call(
                "POST",
                "/api/passkeys/register/finish",
                Some(json!({ "ceremony": start["ceremony"], "credential": credential })),
            )
            .await;
        assert_eq!(status, 201, "{done}");
        done
    }

    /// Signs in with `key` (naming `username`, if given): the status and answer.
    pub async fn sign_in(
        &mut self,
        key: &mut SoftKey,
        username: Option<&str>,
    ) -> (reqwest::StatusCode, Value) {
        let body = match username {
            Some(u) => json!({ "username": u }),
            None => json!({}),
        };
        let (status, start) = self.call("POST", "/api/session/passkey/start", Some(body)).await;
        assert_eq!(status, 200, "{start}");
        let origin = self.origin.clone();
        let credential = key.sign_in(&start["options"], &origin);
        self.call(
            "POST",
            "/api/session/passkey/finish",
            Some(json!({ "ceremony": start["ceremony"], "credential": credential })),
        )
        .await
    }
}
