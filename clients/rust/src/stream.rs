//! Record streams (PROTOCOL.md §6): a receiver that frames `u32(len) || sealed` records, opens
//! each with the direction's key and `nonce(i, seq)`, learns the final record by authentication
//! (§6.1), and a `Stream` of authenticated plaintext chunks over an HTTP body.
//!
//! Pitfalls: the final flag exists only in the AAD, so a record is tried with final = 0 and 1
//! (1 first for an empty record); anything after the final record is invalid; an end of input
//! before the final record is truncation; buffering is bounded by one record.

use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::{Buf, Bytes, BytesMut};
use futures_core::Stream;
use http_body::Body;
use http_body_util::combinators::UnsyncBoxBody;
use std::collections::VecDeque;
use std::sync::Arc;

use crate::envelope::TAG_LEN;
use crate::error::{BoxError, Error, codes};
use crate::schedule::{EpochKeys, nonce};

const MAX_RECORD_PLAIN: usize = 65536;

/// The receiving side of one record stream (server→client keys, or client→server for an upload).
pub(crate) struct RecordReceiver {
    keys: Arc<EpochKeys>,
    upload: bool,
    seq: u64,
    aad: Vec<u8>,
    base_len: usize,
    index: u32,
    final_seen: bool,
    buf: BytesMut,
    /// An error found after records that opened in the same push: reported after them.
    pending: Option<Error>,
}

fn invalid(m: &str) -> Error {
    Error::new(codes::STREAM_INVALID, m)
}

impl RecordReceiver {
    /// A receiver for the stream of message `seq` whose message AAD is `base_aad`.
    pub(crate) fn new(keys: Arc<EpochKeys>, upload: bool, seq: u64, base_aad: &[u8]) -> Self {
        let mut aad = Vec::with_capacity(base_aad.len() + 5);
        aad.extend_from_slice(base_aad);
        Self {
            keys,
            upload,
            seq,
            aad,
            base_len: base_aad.len(),
            index: 0,
            final_seen: false,
            buf: BytesMut::new(),
            pending: None,
        }
    }

    fn open(&mut self, sealed: &[u8]) -> Option<(Vec<u8>, bool)> {
        let (aead, iv) =
            if self.upload { (&self.keys.c2s, &self.keys.c2s_iv) } else { (&self.keys.s2c, &self.keys.s2c_iv) };
        let n = nonce(iv, self.index, self.seq);
        let first = u8::from(sealed.len() == TAG_LEN);
        for f in [first, 1 - first] {
            self.aad.truncate(self.base_len);
            self.aad.extend_from_slice(&self.index.to_be_bytes());
            self.aad.push(f);
            if let Ok(p) = aead.open(&n, &self.aad, sealed) {
                return Some((p, f == 1));
            }
        }
        None
    }

    /// Feeds wire bytes; returns the plaintexts of the records they completed. An error found
    /// after some records opened is reported by the next call (or by `finish`), so the records
    /// before it are still delivered.
    pub(crate) fn push(&mut self, data: &[u8]) -> Result<Vec<Bytes>, Error> {
        if let Some(e) = self.pending.take() {
            return Err(e);
        }
        self.buf.extend_from_slice(data);
        let mut out = Vec::new();
        match self.frame(&mut out) {
            Ok(()) => Ok(out),
            Err(e) if out.is_empty() => Err(e),
            Err(e) => {
                self.pending = Some(e);
                Ok(out)
            }
        }
    }

    /// An error held back behind delivered records.
    pub(crate) fn take_pending(&mut self) -> Option<Error> {
        self.pending.take()
    }

    fn frame(&mut self, out: &mut Vec<Bytes>) -> Result<(), Error> {
        while self.buf.len() >= 4 {
            if self.final_seen {
                return Err(invalid("data after the final record"));
            }
            let len = u32::from_be_bytes([self.buf[0], self.buf[1], self.buf[2], self.buf[3]]) as usize;
            if !(TAG_LEN..=MAX_RECORD_PLAIN + TAG_LEN).contains(&len) {
                return Err(invalid("bad record length"));
            }
            if self.buf.len() - 4 < len {
                break;
            }
            let record = self.buf.split_to(4 + len);
            let (plain, is_final) = self
                .open(&record[4..])
                .ok_or_else(|| invalid("a record is forged, reordered, duplicated or altered"))?;
            self.index = self.index.checked_add(1).ok_or_else(|| invalid("too many records"))?;
            self.final_seen = is_final;
            if !plain.is_empty() {
                out.push(Bytes::from(plain));
            }
        }
        if self.final_seen && !self.buf.is_empty() {
            return Err(invalid("data after the final record"));
        }
        Ok(())
    }

    /// The input ended: fine only after the final record.
    pub(crate) fn finish(&mut self) -> Result<(), Error> {
        if let Some(e) = self.pending.take() {
            return Err(e);
        }
        if self.final_seen && self.buf.is_empty() {
            Ok(())
        } else {
            Err(Error::new(codes::STREAM_TRUNCATED, "the stream ended before its final record"))
        }
    }
}

/// The decrypted body of a Nen response: the whole plaintext, or an authenticated record
/// stream read incrementally. As a [`Stream`] it yields plaintext chunks, each authenticated
/// before it is delivered; a stream that is truncated, reordered or altered ends with an error.
pub struct NenBody {
    kind: Kind,
}

enum Kind {
    Full(Option<Bytes>),
    Records { wire: UnsyncBoxBody<Bytes, BoxError>, receiver: RecordReceiver, queue: VecDeque<Bytes>, done: bool },
}

impl std::fmt::Debug for NenBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self.kind {
            Kind::Full(_) => "NenBody::Full",
            Kind::Records { .. } => "NenBody::Stream",
        })
    }
}

impl NenBody {
    pub(crate) fn full(b: Bytes) -> Self {
        Self { kind: Kind::Full(Some(b)) }
    }

    pub(crate) fn records(wire: UnsyncBoxBody<Bytes, BoxError>, receiver: RecordReceiver) -> Self {
        Self { kind: Kind::Records { wire, receiver, queue: VecDeque::new(), done: false } }
    }

    /// The whole plaintext when it is already in memory (a non-stream response).
    pub fn as_full(&self) -> Option<&Bytes> {
        match &self.kind {
            Kind::Full(b) => b.as_ref(),
            Kind::Records { .. } => None,
        }
    }

    /// `true` for a record stream (a `nen: 1.4` response).
    pub fn is_stream(&self) -> bool {
        matches!(self.kind, Kind::Records { .. })
    }

    /// The next authenticated chunk (`None` at the authenticated end).
    pub async fn chunk(&mut self) -> Option<Result<Bytes, Error>> {
        std::future::poll_fn(|cx| Pin::new(&mut *self).poll_next(cx)).await
    }

    /// Reads the whole body, refusing more than `limit` bytes of plaintext.
    pub async fn collect(mut self, limit: usize) -> Result<Bytes, Error> {
        if let Kind::Full(b) = &mut self.kind {
            return Ok(b.take().unwrap_or_default());
        }
        let mut out = BytesMut::new();
        while let Some(chunk) = self.chunk().await {
            let chunk = chunk?;
            if out.len() + chunk.len() > limit {
                return Err(Error::new(codes::RESPONSE_UNAUTHENTICATED, "the response exceeds the response limit"));
            }
            out.extend_from_slice(&chunk);
        }
        Ok(out.freeze())
    }
}

impl Stream for NenBody {
    type Item = Result<Bytes, Error>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        let (wire, receiver, queue, done) = match &mut this.kind {
            Kind::Full(b) => return Poll::Ready(b.take().filter(|b| !b.is_empty()).map(Ok)),
            Kind::Records { wire, receiver, queue, done } => (wire, receiver, queue, done),
        };
        loop {
            if let Some(b) = queue.pop_front() {
                return Poll::Ready(Some(Ok(b)));
            }
            if *done {
                return Poll::Ready(None);
            }
            if let Some(e) = receiver.take_pending() {
                *done = true;
                return Poll::Ready(Some(Err(e)));
            }
            let result = match std::task::ready!(Pin::new(&mut *wire).poll_frame(cx)) {
                None => {
                    *done = true;
                    receiver.finish().map(|()| Vec::new())
                }
                Some(Err(e)) => Err(Error::new(codes::STREAM_TRUNCATED, "the stream broke off").with_cause(e)),
                Some(Ok(frame)) => match frame.into_data() {
                    Ok(mut data) => receiver.push(&data.copy_to_bytes(data.remaining())),
                    Err(_) => Ok(Vec::new()),
                },
            };
            match result {
                Ok(chunks) => queue.extend(chunks),
                Err(e) => {
                    *done = true;
                    return Poll::Ready(Some(Err(e)));
                }
            }
        }
    }
}
