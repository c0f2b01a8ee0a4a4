//! Checks the conformance kit's vector files (`conformance/vectors/README.md` in the repository)
//! with this crate's own implementation: handshakes (decapsulation, transcript, S_0, confirm,
//! the client's completion step, epoch keys), sealed requests and responses and the rejects,
//! record streams (intact and broken, fed in small pieces), the error classification, the retry
//! rules and the request-target canonicalisation. The conformance driver reports the results.
//!
//! Pitfalls: the kit's encapsulations used fresh randomness, so the client side is checked by
//! decapsulating with the given private keys, never by re-encapsulating; a vector file this
//! module does not know is reported as failed ("unsupported"), never skipped. This client does
//! not compress; the compressed vectors are checked by opening and inflating (raw DEFLATE).

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use nen_core::hpke::{Kem, PrivateKey};
use serde_json::Value;

use crate::error::Error;
use crate::retry::{Decision, RETRY_HORIZON, decide};

mod messages;
use crate::schedule::{self, EpochKeys, HelloState, expand};
use crate::target;

/// One vector's outcome, named as the kit's README says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VectorResult {
    /// The vector file name.
    pub file: String,
    /// The vector's name.
    pub name: String,
    /// Whether it passed.
    pub ok: bool,
    /// Why not.
    pub detail: Option<String>,
}

pub(super) type Check = Result<(), String>;

pub(super) struct SessionVector {
    pub(super) sid: [u8; 16],
    pub(super) epochs: Vec<Arc<EpochKeys>>,
}

#[derive(Default)]
pub(super) struct Checker {
    results: Vec<VectorResult>,
    pub(super) sessions: HashMap<String, SessionVector>,
    pub(super) requests: HashMap<String, Value>,
}

pub(super) fn hex(v: &Value) -> Result<Vec<u8>, String> {
    let s = v.as_str().ok_or("not a hex string")?;
    if s.len() % 2 != 0 {
        return Err("odd hex length".into());
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2).ok_or("bad hex")?, 16).map_err(|e| e.to_string()))
        .collect()
}

pub(super) fn string(v: &Value, k: &str) -> String {
    v.get(k).and_then(Value::as_str).unwrap_or("").to_owned()
}

pub(super) fn num(v: &Value, k: &str) -> u64 {
    v.get(k).and_then(Value::as_u64).unwrap_or(0)
}

pub(super) fn same(what: &str, got: &[u8], want: &[u8]) -> Check {
    if got == want { Ok(()) } else { Err(format!("{what} differs")) }
}

pub(super) fn kem_of(name: &str) -> Kem {
    if name == "mlkem768" { Kem::MlKem768 } else { Kem::XWing }
}

pub(super) fn inflate(b: &[u8]) -> Result<Vec<u8>, String> {
    miniz_oxide::inflate::decompress_to_vec_with_limit(b, 4 << 20).map_err(|e| format!("inflate: {e:?}"))
}

/// Checks every `*.vectors.json` file in `dir` (handshakes first: the others name its sessions).
pub fn check_vectors(dir: &Path) -> Result<Vec<VectorResult>, String> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".vectors.json"))
        .collect();
    files.sort_by_key(|p| (!p.to_string_lossy().ends_with("handshake.vectors.json"), p.clone()));
    let mut c = Checker::default();
    for f in files {
        let name = f.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let parsed: Result<Value, String> = std::fs::read(&f)
            .map_err(|e| e.to_string())
            .and_then(|raw| serde_json::from_slice(&raw).map_err(|e| e.to_string()));
        let v = match parsed {
            Ok(v) => v,
            Err(e) => {
                c.report(&name, &name, Err(e));
                continue;
            }
        };
        match name.as_str() {
            "handshake.vectors.json" => c.handshakes(&name, &v),
            "messages.vectors.json" => c.messages(&name, &v),
            "streams.vectors.json" => c.streams(&name, &v),
            "errors.vectors.json" => c.errors(&name, &v),
            "retry.vectors.json" => c.retries(&name, &v),
            "canonical-target.vectors.json" => c.targets(&name, &v),
            _ => c.report(&name, &name, Err("unsupported".into())),
        }
    }
    Ok(c.results)
}

pub(super) fn list<'a>(v: &'a Value, k: &str) -> &'a [Value] {
    v.get(k).and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

impl Checker {
    pub(super) fn report(&mut self, file: &str, name: &str, r: Check) {
        self.results.push(VectorResult { file: file.into(), name: name.into(), ok: r.is_ok(), detail: r.err() });
    }

    fn handshakes(&mut self, file: &str, v: &Value) {
        for h in list(v, "vectors") {
            let name = string(h, "name");
            let r = self.handshake(h).map(|s| {
                self.sessions.insert(name.clone(), s);
            });
            self.report(file, &name, r);
        }
    }

    fn handshake(&self, h: &Value) -> Result<SessionVector, String> {
        let kem = kem_of(&string(h, "kem"));
        let e = |e: nen_core::Error| e.code().to_owned();
        let seed = hex(&h["clientEphemeralSeed"])?;
        let derived = kem.derive_key_pair(&hex(&h["clientEphemeralIkm"])?);
        same("clientEphemeralSeed (DeriveKeyPair)", &derived.to_bytes(), &seed)?;
        let eph = PrivateKey::from_bytes(kem, &seed).map_err(e)?;
        same("clientEphemeralPublicKey", &eph.public_key_bytes(), &hex(&h["clientEphemeralPublicKey"])?)?;
        let hello = hex(&h["clientHello"])?;
        let sh = hex(&h["serverHello"])?;
        let n = kem.enc_len();
        let pinned = h["pinned"].as_bool().unwrap_or(false);
        let mut want_hello = vec![1];
        want_hello.extend_from_slice(&kem.id().to_be_bytes());
        want_hello.push(u8::from(pinned));
        want_hello.extend_from_slice(&(num(h, "requestedLifetime") as u32).to_be_bytes());
        want_hello.extend_from_slice(&eph.public_key_bytes());
        let mut exported_s = None;
        if pinned {
            let pin = schedule::Pin::parse(&string(h, "pin")).map_err(|e| e.to_string())?;
            if pin.kid() != string(h, "kid") || pin.kem() != kem {
                return Err("pin kid or KEM differs".into());
            }
            let kid = string(h, "kid");
            want_hello.push(kid.len() as u8);
            want_hello.extend_from_slice(kid.as_bytes());
            want_hello.extend_from_slice(&hex(&h["encStatic"])?);
            let sk = PrivateKey::from_bytes(kem, &hex(&h["serverStaticSeed"])?).map_err(e)?;
            same("serverStaticPublicKey", &sk.public_key_bytes(), &hex(&h["serverStaticPublicKey"])?)?;
            let ctx = sk.setup_base_r(&hex(&h["encStatic"])?, schedule::INFO_S).map_err(e)?;
            let x = ctx.export(schedule::EXPORT, 32).map_err(e)?;
            same("exportedS", &x, &hex(&h["exportedS"])?)?;
            exported_s = Some(zeroize::Zeroizing::new(x));
        }
        same("clientHello", &hello, &want_hello)?;
        same("encEph", &sh[36..36 + n], &hex(&h["encEph"])?)?;
        let ctx = eph.setup_base_r(&sh[36..36 + n], schedule::INFO_E).map_err(e)?;
        same("exportedE", &ctx.export(schedule::EXPORT, 32).map_err(e)?, &hex(&h["exportedE"])?)?;
        same("th", &schedule::transcript_hash(&hello, &sh[..36 + n]), &hex(&h["th"])?)?;
        same("confirm", &sh[36 + n..], &hex(&h["confirm"])?)?;
        let s0 = hex(&h["s0"])?;
        same("confirmKey", &expand::<32>(&s0, schedule::CONFIRM).map_err(|e| e.to_string())?, &hex(&h["confirmKey"])?)?;
        let lifetime = num(h, "requestedLifetime") as u32;
        let st = HelloState::from_parts(kem, lifetime, hello, eph, exported_s);
        let est = st.finish(&sh).map_err(|e| e.to_string())?;
        same("s0 (client completion)", &est.s0, &s0)?;
        same("sessionId", &est.sid, &hex(&h["sessionId"])?)?;
        if schedule::b64u(&est.sid) != string(h, "sessionIdB64u") || u64::from(est.lifetime) != num(h, "lifetime") {
            return Err("session id text or lifetime differs".into());
        }
        let mut epochs = Vec::new();
        let mut secret = s0;
        for ep in list(h, "epochs") {
            same("epoch secret", &secret, &hex(&ep["secret"])?)?;
            for (label, k) in [("nen/1 c2s key", "c2sKey"), ("nen/1 s2c key", "s2cKey")] {
                same(k, &expand::<32>(&secret, label.as_bytes()).map_err(|e| e.to_string())?, &hex(&ep[k])?)?;
            }
            for (label, k) in [("nen/1 c2s iv", "c2sIv"), ("nen/1 s2c iv", "s2cIv")] {
                same(k, &expand::<12>(&secret, label.as_bytes()).map_err(|e| e.to_string())?, &hex(&ep[k])?)?;
            }
            epochs.push(Arc::new(EpochKeys::derive(&secret).map_err(|e| e.to_string())?));
            secret = expand::<32>(&secret, b"nen/1 rekey").map_err(|e| e.to_string())?.to_vec();
        }
        Ok(SessionVector { sid: est.sid, epochs })
    }

    fn errors(&mut self, file: &str, v: &Value) {
        for (key, prefix, want) in [("wire", "wire ", "code"), ("classification", "classify ", "expect")] {
            for w in list(v, key) {
                let status = num(w, "status") as u16;
                let e = Error::from_answer(status, w["headers"]["nen-error"].as_str(), "no envelope");
                let ok = e.code() == string(w, want) && (key != "wire" || e.status() == Some(status));
                let name = if key == "wire" { string(w, "code") } else { string(w, "name") };
                self.report(
                    file,
                    &format!("{prefix}{name}"),
                    if ok { Ok(()) } else { Err(format!("classified as {}", e.code())) },
                );
            }
        }
    }

    fn retries(&mut self, file: &str, v: &Value) {
        for r in list(v, "rules") {
            let (status, code) = (num(&r["answer"], "status") as u16, string(&r["answer"], "code"));
            let req = string(r, "request");
            let answer = Error::from_answer(status, Some(&code), "no envelope");
            let age = if req == "original-older-than-60s" {
                RETRY_HORIZON + Duration::from_secs(1)
            } else {
                RETRY_HORIZON / 2
            };
            let d = decide(answer, req == "streamed-body", age, req == "retry", true);
            let backoff = r["backoff"].as_bool().unwrap_or(false);
            let res = match (string(r, "action").as_str(), d) {
                ("retry", Decision::Retry { backoff: b }) if b == backoff => Ok(()),
                ("throw", Decision::Throw(e)) if e.code() == string(r, "final") => Ok(()),
                (_, Decision::Throw(e)) => Err(format!("reported {}", e.code())),
                (_, Decision::Retry { .. }) => Err("retried".into()),
            };
            self.report(file, &format!("{code} {req}"), res);
        }
    }

    fn targets(&mut self, file: &str, v: &Value) {
        for t in list(v, "targets") {
            let tg = string(t, "target");
            let (p, q) = tg.split_once('?').map_or((tg.as_str(), None), |(p, q)| (p, Some(q)));
            let got = target::canonical_target(p, q);
            self.report(
                file,
                &string(t, "name"),
                if got == string(t, "canonical") { Ok(()) } else { Err(format!("got {got}")) },
            );
        }
        for u in list(v, "urls") {
            let url = string(u, "url");
            let pq = url.find("://").and_then(|i| url[i + 3..].find('/').map(|j| &url[i + 3 + j..])).unwrap_or("/");
            let (path, query) = target::split_target(pq);
            let wire = match &query {
                Some(q) => format!("{path}?{q}"),
                None => path.clone(),
            };
            let canonical = target::canonical_target(&path, query.as_deref());
            let res = if wire != string(u, "target") {
                Err(format!("target {wire}"))
            } else if canonical != string(u, "canonical") {
                Err(format!("canonical {canonical}"))
            } else {
                Ok(())
            };
            self.report(file, &string(u, "name"), res);
        }
    }
}
