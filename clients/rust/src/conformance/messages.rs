//! The kit's message and stream vectors (`messages.vectors.json`, `streams.vectors.json`):
//! sealed requests rebuilt with the client's own sealing, responses opened with its own
//! opening, the rejects refused, and record streams (intact, resealed, and broken) fed to its
//! own receiver in small pieces.
//!
//! Pitfalls: a vector that is not reproducible (compression) is checked by opening and
//! inflating; responses name the request they answer, so requests are checked first.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;

use super::{Check, Checker, SessionVector, hex, inflate, list, num, same, string};
use crate::envelope::{self, FLAG_COMPRESSED, Prepared, RequestMeta};
use crate::error::Error;
use crate::schedule::{self, EpochKeys, nonce};
use crate::stream::RecordReceiver;
use crate::target;

impl Checker {
    fn keys(&self, v: &Value) -> Result<(&SessionVector, Arc<EpochKeys>), String> {
        let s = self.sessions.get(&string(v, "session")).ok_or("unknown session")?;
        let k = s.epochs.get(num(v, "epoch") as usize).ok_or("unknown epoch")?;
        Ok((s, Arc::clone(k)))
    }

    pub(super) fn messages(&mut self, file: &str, v: &Value) {
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

    pub(super) fn streams(&mut self, file: &str, v: &Value) {
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
}
