//! Pins, the handshake (PROTOCOL.md §2-§3) and the key schedule (§4): ClientHello, ServerHello
//! verification (transcript hash, S_0, key confirmation), epoch keys and nonces, on `nen-core`.
//!
//! Pitfalls: the ServerHello length, version, KEM and STATIC flag are checked before any key
//! material is used; `confirm` is compared in constant time; a granted lifetime longer than the
//! one requested fails the handshake; the ephemeral key is dropped (zeroized by `nen-core`) as
//! soon as the handshake completes or fails.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use nen_core::aead::Aead;
use nen_core::hkdf::{hkdf_expand_into, hkdf_extract};
use nen_core::hpke::{Kem, PrivateKey, PublicKey};
use nen_core::sha256::{hmac_sha256, sha256};
use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

/// Secret bytes, zeroized on drop.
pub(crate) type Secret = Zeroizing<Vec<u8>>;

use crate::error::{Error, codes};

pub(crate) const INFO_E: &[u8] = b"nen/1 ephemeral";
pub(crate) const INFO_S: &[u8] = b"nen/1 static";
pub(crate) const EXPORT: &[u8] = b"nen/1 export";
const TRANSCRIPT: &[u8] = b"nen/1 transcript";
pub(crate) const CONFIRM: &[u8] = b"nen/1 confirm";
const FLAG_STATIC: u8 = 0x01;
const SERVER_HELLO_HEAD: usize = 36;

/// Strict base64url without padding (RFC 4648 §5; non-zero trailing bits rejected).
pub(crate) fn b64u_decode(s: &str) -> Option<Vec<u8>> {
    URL_SAFE_NO_PAD.decode(s).ok()
}

/// base64url without padding.
pub(crate) fn b64u(b: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(b)
}

/// A pinned server key: `kid:base64url(publicKey)`; the KEM follows from the key length.
#[derive(Clone)]
pub struct Pin {
    kid: String,
    key: PublicKey,
}

impl std::fmt::Debug for Pin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pin").field("kid", &self.kid).field("kem", &kem_name(self.kem())).finish()
    }
}

fn valid_kid(kid: &str) -> bool {
    (1..=32).contains(&kid.len()) && kid.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-')
}

impl Pin {
    /// Parses `kid:base64url(publicKey)` (split at the first `:`): `NEN_BAD_SERVER_KEY` otherwise.
    pub fn parse(pin: &str) -> Result<Self, Error> {
        let bad = |why: &str| Error::new(codes::BAD_SERVER_KEY, format!("the pin {why}"));
        let (kid, key) = pin.trim().split_once(':').ok_or_else(|| bad("is not kid:base64url(publicKey)"))?;
        if !valid_kid(kid) {
            return Err(bad("has an invalid key id"));
        }
        let raw = b64u_decode(key).ok_or_else(|| bad("key is not strict base64url"))?;
        let kem = match raw.len() {
            n if n == Kem::XWing.public_key_len() => Kem::XWing,
            n if n == Kem::MlKem768.public_key_len() => Kem::MlKem768,
            _ => return Err(bad("key is neither an X-Wing nor an ML-KEM-768 public key")),
        };
        let key = PublicKey::from_bytes(kem, &raw).map_err(|e| bad("key is invalid").with_cause(e))?;
        Ok(Self { kid: kid.to_owned(), key })
    }

    /// The key id.
    pub fn kid(&self) -> &str {
        &self.kid
    }

    /// The KEM of the pinned key.
    pub fn kem(&self) -> Kem {
        self.key.kem()
    }
}

/// `"xwing"` or `"mlkem768"`.
pub fn kem_name(kem: Kem) -> &'static str {
    match kem {
        Kem::XWing => "xwing",
        _ => "mlkem768",
    }
}

/// HKDF-Expand(prk, label, N).
pub(crate) fn expand<const N: usize>(prk: &[u8], label: &[u8]) -> Result<[u8; N], Error> {
    let mut out = [0u8; N];
    hkdf_expand_into(prk, &[label], &mut out).map_err(crypto)?;
    Ok(out)
}

pub(crate) fn crypto(e: nen_core::Error) -> Error {
    Error::new(codes::HANDSHAKE_FAILED, "a cryptographic operation failed").with_cause(e)
}

/// A ClientHello sent and the state needed to verify its answer.
pub(crate) struct HelloState {
    kem: Kem,
    lifetime: u32,
    pinned: bool,
    pub(crate) hello: Vec<u8>,
    eph: PrivateKey,
    exported_s: Option<Secret>,
}

/// What a verified ServerHello yields.
pub(crate) struct Established {
    pub sid: [u8; 16],
    pub lifetime: u32,
    pub server_time: u64,
    pub s0: Secret,
}

impl HelloState {
    /// A fresh ephemeral key pair and the ClientHello (with `enc_static` when pinned).
    pub(crate) fn start(kem: Kem, lifetime: u32, pin: Option<&Pin>) -> Result<Self, Error> {
        let kem = pin.map_or(kem, Pin::kem);
        let eph = kem.generate_key_pair().map_err(crypto)?;
        let mut hello = Vec::with_capacity(8 + kem.public_key_len() + 33 + kem.enc_len());
        hello.push(1);
        hello.extend_from_slice(&kem.id().to_be_bytes());
        hello.push(if pin.is_some() { FLAG_STATIC } else { 0 });
        hello.extend_from_slice(&lifetime.to_be_bytes());
        hello.extend_from_slice(&eph.public_key_bytes());
        let mut exported_s = None;
        if let Some(pin) = pin {
            let (enc, ctx) = pin.key.setup_base_s(INFO_S).map_err(crypto)?;
            exported_s = Some(Zeroizing::new(ctx.export(EXPORT, 32).map_err(crypto)?));
            hello.push(pin.kid.len() as u8);
            hello.extend_from_slice(pin.kid.as_bytes());
            hello.extend_from_slice(&enc);
        }
        Ok(Self { kem, lifetime, pinned: pin.is_some(), hello, eph, exported_s })
    }

    /// The state of a ClientHello built elsewhere (the conformance vectors' fixed inputs).
    pub(crate) fn from_parts(
        kem: Kem,
        lifetime: u32,
        hello: Vec<u8>,
        eph: PrivateKey,
        exported_s: Option<Secret>,
    ) -> Self {
        let pinned = exported_s.is_some();
        Self { kem, lifetime, pinned, hello, eph, exported_s }
    }

    /// Verifies the ServerHello (§3.3) and derives S_0.
    pub(crate) fn finish(self, sh: &[u8]) -> Result<Established, Error> {
        let fail = |m: &str| Error::new(codes::HANDSHAKE_FAILED, m);
        let n = self.kem.enc_len();
        if sh.len() != SERVER_HELLO_HEAD + n + 32 {
            return Err(fail("the ServerHello has the wrong length"));
        }
        let want_flags = if self.pinned { FLAG_STATIC } else { 0 };
        if sh[0] != 1 || u16::from_be_bytes([sh[1], sh[2]]) != self.kem.id() || sh[3] != want_flags {
            return Err(fail("the ServerHello version, KEM or flags differ"));
        }
        let be32 = |i: usize| u32::from_be_bytes([sh[i], sh[i + 1], sh[i + 2], sh[i + 3]]);
        let lifetime = be32(20);
        if self.lifetime > 0 && lifetime > self.lifetime {
            return Err(fail("the server granted a longer lifetime than requested"));
        }
        let mut server_time = [0u8; 8];
        server_time.copy_from_slice(&sh[28..36]);
        let enc_e = &sh[SERVER_HELLO_HEAD..SERVER_HELLO_HEAD + n];
        let ctx = self.eph.setup_base_r(enc_e, INFO_E).map_err(|e| fail("enc_e does not decapsulate").with_cause(e))?;
        let exported_e = Zeroizing::new(ctx.export(EXPORT, 32).map_err(crypto)?);
        let (s0, confirm) =
            derive_s0(&self.hello, &sh[..SERVER_HELLO_HEAD + n], &exported_e, self.exported_s.as_ref())?;
        if !bool::from(confirm.ct_eq(&sh[SERVER_HELLO_HEAD + n..])) {
            return Err(fail("key confirmation failed (substituted share or server key, or a modified message)"));
        }
        let mut sid = [0u8; 16];
        sid.copy_from_slice(&sh[4..20]);
        Ok(Established { sid, lifetime, server_time: u64::from_be_bytes(server_time), s0 })
    }
}

/// TH = SHA-256(TRANSCRIPT || ClientHello || ServerHello without confirm).
pub(crate) fn transcript_hash(hello: &[u8], server_hello_body: &[u8]) -> [u8; 32] {
    let mut t = Vec::with_capacity(TRANSCRIPT.len() + hello.len() + server_hello_body.len());
    t.extend_from_slice(TRANSCRIPT);
    t.extend_from_slice(hello);
    t.extend_from_slice(server_hello_body);
    sha256(&t)
}

/// TH, S_0 and confirm (§3.2 steps 5-7).
pub(crate) fn derive_s0(
    hello: &[u8],
    server_hello_body: &[u8],
    exported_e: &[u8],
    exported_s: Option<&Secret>,
) -> Result<(Secret, [u8; 32]), Error> {
    let th = transcript_hash(hello, server_hello_body);
    let mut ikm = Zeroizing::new(exported_e.to_vec());
    if let Some(s) = exported_s {
        ikm.extend_from_slice(s);
    }
    let s0 = Zeroizing::new(hkdf_extract(&th, &ikm).to_vec());
    let confirm_key: Zeroizing<[u8; 32]> = Zeroizing::new(expand(&s0, CONFIRM)?);
    let confirm = hmac_sha256(&*confirm_key, &th);
    Ok((s0, confirm))
}

/// One epoch's keys (§4).
pub(crate) struct EpochKeys {
    pub c2s: Aead,
    pub c2s_iv: [u8; 12],
    pub s2c: Aead,
    pub s2c_iv: [u8; 12],
}

impl EpochKeys {
    pub(crate) fn derive(secret: &[u8]) -> Result<Self, Error> {
        let c2s_key = Zeroizing::new(expand::<32>(secret, b"nen/1 c2s key")?);
        let s2c_key = Zeroizing::new(expand::<32>(secret, b"nen/1 s2c key")?);
        Ok(Self {
            c2s: Aead::new(&*c2s_key).map_err(crypto)?,
            c2s_iv: expand(secret, b"nen/1 c2s iv")?,
            s2c: Aead::new(&*s2c_key).map_err(crypto)?,
            s2c_iv: expand(secret, b"nen/1 s2c iv")?,
        })
    }
}

/// `nonce = iv XOR (u32(i) || u64(seq))`.
pub(crate) fn nonce(iv: &[u8; 12], index: u32, seq: u64) -> [u8; 12] {
    let mut n = *iv;
    for (a, b) in n.iter_mut().zip(index.to_be_bytes().iter().chain(seq.to_be_bytes().iter())) {
        *a ^= b;
    }
    n
}
