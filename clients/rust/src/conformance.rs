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

use crate::client::{Decision, RETRY_HORIZON, decide};
use crate::envelope::{self, FLAG_COMPRESSED, Prepared, RequestMeta};
use crate::error::Error;
use crate::schedule::{self, EpochKeys, HelloState, expand, nonce};
use crate::stream::RecordReceiver;
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

type Check = Result<(), String>;

struct SessionVector {
    sid: [u8; 16],
    epochs: Vec<Arc<EpochKeys>>,
}

#[derive(Default)]
struct Checker {
    results: Vec<VectorResult>,
    sessions: HashMap<String, SessionVector>,
    requests: HashMap<String, Value>,
}

fn hex(v: &Value) -> Result<Vec<u8>, String> {
    let s = v.as_str().ok_or("not a hex string")?;
    if s.len() % 2 != 0 {
        return Err("odd hex length".into());
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2).ok_or("bad hex")?, 16).map_err(|e| e.to_string()))
        .collect()
}

fn string(v: &Value, k: &str) -> String {
    v.get(k).and_then(Value::as_str).unwrap_or("").to_owned()
}

fn num(v: &Value, k: &str) -> u64 {
    v.get(k).and_then(Value::as_u64).unwrap_or(0)
}

fn same(what: &str, got: &[u8], want: &[u8]) -> Check {
    if got == want { Ok(()) } else { Err(format!("{what} differs")) }
}

fn kem_of(name: &str) -> Kem {
    if name == "mlkem768" { Kem::MlKem768 } else { Kem::XWing }
}

fn inflate(b: &[u8]) -> Result<Vec<u8>, String> {
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

fn list<'a>(v: &'a Value, k: &str) -> &'a [Value] {
    v.get(k).and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

impl Checker {
    fn report(&mut self, file: &str, name: &str, r: Check) {
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

    fn keys(&self, v: &Value) -> Result<(&SessionVector, Arc<EpochKeys>), String> {
        let s = self.sessions.get(&string(v, "session")).ok_or("unknown session")?;
        let k = s.epochs.get(num(v, "epoch") as usize).ok_or("unknown epoch")?;
        Ok((s, Arc::clone(k)))
    }

    fn messages(&mut self, file: &str, v: &Value) {
        for r in list(v, "requests") {
            let res = self.request(r);
            self.requests.insert(string(r, "name"), r.clone());
            self.report(file, &format!("request {}", string(r, "name")), res);
        }
        for r in list(v, "responses") {
            let res = self.response(r);
            self.report(file, &format!("response {}", string(r, "name")), res);
        }
        for r in list(v, "rejects") {
            let res = self.reject(r);
            self.report(file, &format!("reject {}", string(r, "name")), res);
        }
    }

    fn request(&self, r: &Value) -> Check {
        let (s, keys) = self.keys(r)?;
        let flags = num(r, "flags") as u8;
        let meta =
            RequestMeta { sid: s.sid, epoch: num(r, "epoch") as u32, seq: num(r, "seq"), ts: num(r, "ts"), flags };
        let (path, query) = target::split_target(&string(r, "url"));
        let retry = r.get("retry").and_then(Value::as_str);
        let method = string(r, "method");
        let content_type = string(r, "contentType");
        let headers = &r["headers"];
        if meta.header() != string(headers, "nen") {
            return Err(format!("nen header {}", meta.header()));
        }
        if target::canonical_target(&path, query.as_deref()) != string(r, "aadTarget") && flags & 2 == 0 {
            return Err("aadTarget differs".into());
        }
        let aad = envelope::request_aad(&meta, &method, &string(r, "aadTarget"), &content_type, retry);
        same("aad", &aad, &hex(&r["aad"])?)?;
        same("nonce", &nonce(&keys.c2s_iv, 0, meta.seq), &hex(&r["nonce"])?)?;
        let sealed_want = hex(&r["sealed"])?;
        if flags & FLAG_COMPRESSED != 0 {
            let plain =
                keys.c2s.open(&nonce(&keys.c2s_iv, 0, meta.seq), &aad, &sealed_want).map_err(|e| e.to_string())?;
            same("plaintext", &plain, &hex(&r["plaintext"])?)?;
            return same("inflated body", &inflate(&plain)?, &hex(&r["body"])?);
        }
        let p = Prepared { method, path, query, content_type, body: hex(&r["body"])?.into() };
        let mut m = RequestMeta { flags: 0, ..meta };
        let sealed = envelope::seal(&keys, &p, &mut m, flags & 2 != 0, retry).map_err(|e| e.to_string())?;
        if m.flags != flags || sealed.path_and_query != string(r, "target") {
            return Err(format!("flags {} or target {} differ", m.flags, sealed.path_and_query));
        }
        for (k, val) in &sealed.headers {
            if *k != "nen-body" && string(headers, k) != *val {
                return Err(format!("header {k} differs"));
            }
        }
        let record = match (&sealed.body, sealed.headers.iter().find(|(k, _)| *k == "nen-body")) {
            (Some(b), _) => b.clone(),
            (None, Some((_, b))) => schedule::b64u_decode(b).ok_or("nen-body")?,
            (None, None) => return Err("no record".into()),
        };
        same("sealed", &record, &sealed_want)
    }

    fn response(&self, r: &Value) -> Check {
        let (s, keys) = self.keys(r)?;
        let flags = envelope::parse_response_nen(&string(&r["headers"], "nen")).ok_or("nen header")?;
        if u64::from(flags) != num(r, "flags") {
            return Err("flags differ".into());
        }
        let seq = num(r, "seq");
        let status = num(r, "status") as u16;
        let aad = envelope::response_aad(&s.sid, num(r, "epoch") as u32, seq, status, flags, &string(r, "contentType"));
        same("aad", &aad, &hex(&r["aad"])?)?;
        same("nonce", &nonce(&keys.s2c_iv, 0, seq), &hex(&r["nonce"])?)?;
        let sealed = hex(&r["sealed"])?;
        if flags & FLAG_COMPRESSED != 0 {
            let plain = keys.s2c.open(&nonce(&keys.s2c_iv, 0, seq), &aad, &sealed).map_err(|e| e.to_string())?;
            return same("inflated body", &inflate(&plain)?, &hex(&r["body"])?);
        }
        let method = self.requests.get(&string(r, "request")).map(|q| string(q, "method")).unwrap_or_default();
        let bodiless = envelope::null_body_status(status) || method == "HEAD";
        let nen_body = string(&r["headers"], "nen-body");
        let wire = if bodiless { Vec::new() } else { hex(&r["wireBody"])? };
        let record =
            envelope::response_record(bodiless, &[nen_body.as_str()], r["headers"]["content-type"].as_str(), wire)
                .map_err(|e| e.to_string())?;
        same("sealed", &record, &sealed)?;
        let plain = envelope::open_single(&keys, seq, &aad, flags, &record).map_err(|e| e.to_string())?;
        same("plaintext", &plain, &hex(&r["plaintext"])?)
    }

    fn reject(&self, r: &Value) -> Check {
        let q = self.requests.get(&string(r, "request")).ok_or("unknown request")?;
        let (s, keys) = self.keys(q)?;
        let (seq, flags) = (num(q, "seq"), num(r, "flags") as u8);
        let aad = envelope::response_aad(
            &s.sid,
            num(q, "epoch") as u32,
            seq,
            num(r, "status") as u16,
            flags,
            &string(r, "contentType"),
        );
        match envelope::open_single(&keys, seq, &aad, flags, &hex(&r["sealed"])?) {
            Ok(_) => Err("accepted".into()),
            Err(e) if e.code() == string(r, "expect") => Ok(()),
            Err(e) => Err(format!("refused as {}", e.code())),
        }
    }

    fn streams(&mut self, file: &str, v: &Value) {
        let mut by_name = HashMap::new();
        for st in list(v, "streams") {
            let res = self.stream(st);
            by_name.insert(string(st, "name"), st.clone());
            self.report(file, &string(st, "name"), res);
        }
        for b in list(v, "broken") {
            let res = by_name
                .get(&string(b, "stream"))
                .ok_or_else(|| "unknown stream".to_owned())
                .and_then(|st| self.broken(st, b));
            self.report(file, &format!("broken {}", string(b, "name")), res);
        }
    }

    fn receiver(&self, st: &Value) -> Result<(RecordReceiver, Arc<EpochKeys>, Vec<u8>), String> {
        let (s, keys) = self.keys(st)?;
        let upload = string(st, "direction") == "request";
        let (seq, ct) = (num(st, "seq"), string(st, "contentType"));
        let base = if upload {
            let m = RequestMeta {
                sid: s.sid,
                epoch: num(st, "epoch") as u32,
                seq,
                ts: num(st, "ts"),
                flags: num(st, "flags") as u8,
            };
            envelope::request_aad(&m, &string(st, "method"), &string(st, "target"), &ct, None)
        } else {
            envelope::response_aad(
                &s.sid,
                num(st, "epoch") as u32,
                seq,
                num(st, "status") as u16,
                num(st, "flags") as u8,
                &ct,
            )
        };
        same("baseAad", &base, &hex(&st["baseAad"])?)?;
        Ok((RecordReceiver::new(Arc::clone(&keys), upload, seq, &base), keys, base))
    }

    fn stream(&self, st: &Value) -> Check {
        let (mut rx, keys, base) = self.receiver(st)?;
        let upload = string(st, "direction") == "request";
        let (aead, iv) = if upload { (&keys.c2s, &keys.c2s_iv) } else { (&keys.s2c, &keys.s2c_iv) };
        let mut framed_all = Vec::new();
        for rec in list(st, "records") {
            let i = num(rec, "index") as u32;
            let mut aad = base.clone();
            aad.extend_from_slice(&i.to_be_bytes());
            aad.push(u8::from(rec["final"].as_bool().unwrap_or(false)));
            same("record aad", &aad, &hex(&rec["aad"])?)?;
            let n = nonce(iv, i, num(st, "seq"));
            same("record nonce", &n, &hex(&rec["nonce"])?)?;
            let sealed = aead.seal(&n, &aad, &hex(&rec["plaintext"])?).map_err(|e| e.to_string())?;
            let mut framed = (sealed.len() as u32).to_be_bytes().to_vec();
            framed.extend_from_slice(&sealed);
            same("framed record", &framed, &hex(&rec["framed"])?)?;
            framed_all.extend_from_slice(&framed);
        }
        let body = hex(&st["body"])?;
        same("body", &framed_all, &body)?;
        let mut out = Vec::new();
        for piece in body.chunks(7) {
            out.extend(rx.push(piece).map_err(|e| e.to_string())?.iter().flat_map(|b| b.to_vec()));
        }
        rx.finish().map_err(|e| e.to_string())?;
        same("plaintext", &out, &hex(&st["plaintext"])?)
    }

    fn broken(&self, st: &Value, b: &Value) -> Check {
        let (mut rx, _, _) = self.receiver(st)?;
        let body = hex(&b["body"])?;
        let mut delivered = Vec::new();
        let mut err: Option<Error> = None;
        for piece in body.chunks(5) {
            match rx.push(piece) {
                Ok(chunks) => delivered.extend(chunks.iter().flat_map(|c| c.to_vec())),
                Err(e) => {
                    err = Some(e);
                    break;
                }
            }
        }
        let err = match err {
            Some(e) => e,
            None => rx.finish().err().ok_or("accepted")?,
        };
        if err.code() != string(b, "expect") {
            return Err(format!("reported {}", err.code()));
        }
        same("delivered", &delivered, &hex(&b["delivered"])?)
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
