//! The request target (PROTOCOL.md §5.3): the path as a WHATWG URL parser leaves it (dot
//! segments resolved, `\` as `/`, unsafe bytes percent-encoded, existing `%XX` kept) and the
//! query in its canonical `application/x-www-form-urlencoded` parse-then-serialise form.
//!
//! Pitfalls: the path is never decoded or case-changed (`/a/%7e` ≠ `/a/~`); the query's canonical
//! form is only for the AAD, the query is sent as given (bytes a URL parser would encode, encoded);
//! ill-formed UTF-8 after percent-decoding becomes U+FFFD per maximal subpart, as WHATWG does.

const UPPER_HEX: &[u8; 16] = b"0123456789ABCDEF";

/// The canonical form of a query (the part after the first `?`, without it).
pub fn canonical_query(query: &str) -> String {
    let q = query.strip_prefix('?').unwrap_or(query);
    let mut out = Vec::with_capacity(q.len());
    for piece in q.split('&').filter(|p| !p.is_empty()) {
        let (name, value) = piece.split_once('=').unwrap_or((piece, ""));
        if !out.is_empty() {
            out.push(b'&');
        }
        serialise_form(&mut out, &repair_utf8(&percent_decode(name)));
        out.push(b'=');
        serialise_form(&mut out, &repair_utf8(&percent_decode(value)));
    }
    // Only ASCII was pushed.
    String::from_utf8_lossy(&out).into_owned()
}

/// The AAD target: the path, then `?` and the canonical query when it is not empty.
pub fn canonical_target(path: &str, query: Option<&str>) -> String {
    match query.map(canonical_query) {
        Some(c) if !c.is_empty() => format!("{path}?{c}"),
        _ => path.to_owned(),
    }
}

fn unhex(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

fn percent_decode(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'+' {
            out.push(b' ');
        } else if c == b'%' && i + 2 < b.len() {
            match (unhex(b[i + 1]), unhex(b[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push(h << 4 | l);
                    i += 3;
                    continue;
                }
                _ => out.push(c),
            }
        } else {
            out.push(c);
        }
        i += 1;
    }
    out
}

/// WHATWG UTF-8 decode with replacement, re-encoded: each maximal ill-formed subpart → U+FFFD.
fn repair_utf8(b: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(b.len());
    for chunk in b.utf8_chunks() {
        out.extend_from_slice(chunk.valid().as_bytes());
        if !chunk.invalid().is_empty() {
            out.extend_from_slice("\u{FFFD}".as_bytes());
        }
    }
    out
}

fn serialise_form(out: &mut Vec<u8>, b: &[u8]) {
    for &c in b {
        match c {
            b' ' => out.push(b'+'),
            b'*' | b'-' | b'.' | b'_' | b'0'..=b'9' | b'A'..=b'Z' | b'a'..=b'z' => out.push(c),
            _ => out.extend_from_slice(&[b'%', UPPER_HEX[usize::from(c >> 4)], UPPER_HEX[usize::from(c & 15)]]),
        }
    }
}

fn percent_encode_where(s: &str, encode: impl Fn(u8) -> bool) -> String {
    if !s.bytes().any(&encode) {
        return s.to_owned();
    }
    let mut out = Vec::with_capacity(s.len() + 16);
    for c in s.bytes() {
        if encode(c) {
            out.extend_from_slice(&[b'%', UPPER_HEX[usize::from(c >> 4)], UPPER_HEX[usize::from(c & 15)]]);
        } else {
            out.push(c);
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The query as sent on the wire: bytes a WHATWG URL parser would encode in a special URL's
/// query are encoded (so the server sees the bytes the client bound).
pub fn wire_query(q: &str) -> String {
    percent_encode_where(q, |c| c <= 0x20 || c >= 0x7f || matches!(c, b'"' | b'#' | b'<' | b'>' | b'\''))
}

fn dot_segment(seg: &str) -> u8 {
    match seg.replace("%2e", ".").replace("%2E", ".").as_str() {
        "." => 1,
        ".." => 2,
        _ => 0,
    }
}

/// The path as a WHATWG URL parser serialises it: `\` → `/`, unsafe bytes encoded, dot
/// segments resolved; an empty path is `/`.
pub fn prepare_path(raw: &str) -> String {
    let p = raw.replace('\\', "/");
    let p = percent_encode_where(&p, |c| {
        c <= 0x20 || c >= 0x7f || matches!(c, b'"' | b'#' | b'<' | b'>' | b'?' | b'`' | b'{' | b'}')
    });
    if p.is_empty() {
        return "/".to_owned();
    }
    if !p.contains('.') && !p.contains("%2") {
        return p;
    }
    let segs: Vec<&str> = p.strip_prefix('/').unwrap_or(&p).split('/').collect();
    let mut out: Vec<&str> = Vec::with_capacity(segs.len());
    for (i, s) in segs.iter().enumerate() {
        let last = i + 1 == segs.len();
        match dot_segment(s) {
            1 => {
                if last {
                    out.push("");
                }
            }
            2 => {
                out.pop();
                if last {
                    out.push("");
                }
            }
            _ => out.push(s),
        }
    }
    format!("/{}", out.join("/"))
}

/// Splits a path-and-query at the first `?` (a fragment is dropped; a bare `?` is no query):
/// (wire path, raw wire query).
pub fn split_target(path_and_query: &str) -> (String, Option<String>) {
    let no_fragment = path_and_query.split_once('#').map_or(path_and_query, |(a, _)| a);
    match no_fragment.split_once('?') {
        Some((p, q)) if !q.is_empty() => (prepare_path(p), Some(wire_query(q))),
        Some((p, _)) => (prepare_path(p), None),
        None => (prepare_path(no_fragment), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protocol_examples() {
        for (sent, bound) in [
            ("/n?q=~", "/n?q=%7E"),
            ("/n?q=a%20b", "/n?q=a+b"),
            ("/n?q=%FF", "/n?q=%EF%BF%BD"),
            ("/n?q=%zz&r=%", "/n?q=%25zz&r=%25"),
            ("/n?a=1&&b=2&", "/n?a=1&b=2"),
            ("/n?&&", "/n"),
            ("/n??a=1", "/n?a=1"),
            ("/a%7e/~?x", "/a%7e/~?x="),
        ] {
            let (p, q) = sent.split_once('?').map_or((sent, None), |(p, q)| (p, Some(q)));
            assert_eq!(canonical_target(p, q), bound, "{sent}");
        }
        assert_eq!(prepare_path("/a/./b/../c"), "/a/c");
    }
}
