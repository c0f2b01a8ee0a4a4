/**
 * Where a local server process's resident memory is, from /proc/<pid>/smaps (Linux), in bytes:
 *  - wasm:        WebAssembly memories: the committed part (read-write) of a V8 Wasm reservation, a
 *                 read-write mapping directly followed by a PROT_NONE reservation of ≥ 4 GiB
 *                 (V8 reserves 8 GiB + guards per memory on 64-bit); `wasmCommitted` is the sum
 *                 of their sizes (= memory.buffer.byteLength), `wasmRss` what is resident;
 *  - mallocArenas: glibc thread arenas (64 MiB-aligned read-write + PROT_NONE pairs that span
 *                 exactly 64 MiB) plus the main arena `[heap]` (brk): the C++ side of Node, V8's
 *                 external allocations, native addons (Next's SWC), Wasm glue copies;
 *  - files:       file-backed mappings (node, shared libraries, .node addons: code);
 *  - otherAnon:   every other anonymous mapping: the V8 heap (its spaces are mmap'd), code space,
 *                 large ArrayBuffer backing stores, thread stacks.
 *
 * Pitfalls: Linux only (null elsewhere or when the process is gone); reading smaps of a large
 * process takes a few ms, so it is sampled at window boundaries, not per request.
 */
import { readFile } from 'node:fs/promises';

const ARENA = 64 * 2 ** 20;
const HUGE_RESERVATION = 4 * 2 ** 30;

function parse(text) {
  const maps = [];
  let cur = null;
  for (const line of text.split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S{4}) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      cur = { start: Number.parseInt(head[1], 16), end: Number.parseInt(head[2], 16), perm: head[3], name: head[4], rss: 0 };
      maps.push(cur);
    } else if (cur && line.startsWith('Rss:')) {
      cur.rss = Number.parseInt(line.slice(4), 10) * 1024;
    }
  }
  return maps;
}

/** The breakdown of `pid`'s resident memory, or null when smaps cannot be read. */
export async function smapsBreakdown(pid) {
  try {
    return breakdown(await readFile(`/proc/${pid}/smaps`, 'utf8'));
  } catch {
    return null;
  }
}

/** The breakdown of one smaps text (bytes). */
export function breakdown(text) {
  const maps = parse(text);
  const out = { rss: 0, wasmRss: 0, wasmCommitted: 0, wasmMemories: 0, mallocArenas: 0, files: 0, otherAnon: 0 };
  for (let i = 0; i < maps.length; i++) {
    const m = maps[i];
    const next = maps[i + 1];
    out.rss += m.rss;
    const rw = m.perm.startsWith('rw');
    const followedByNone = next && next.start === m.end && next.perm.startsWith('---');
    if (m.name === '[heap]') out.mallocArenas += m.rss;
    else if (m.name.startsWith('/')) out.files += m.rss;
    else if (rw && m.name === '' && followedByNone && next.end - next.start >= HUGE_RESERVATION) {
      out.wasmRss += m.rss;
      out.wasmCommitted += m.end - m.start;
      out.wasmMemories++;
    } else if (rw && m.name === '' && followedByNone && m.start % ARENA === 0 && next.end - m.start === ARENA) out.mallocArenas += m.rss;
    else if (m.name === '' || m.name.startsWith('[anon')) out.otherAnon += m.rss;
    else out.otherAnon += m.rss; // [stack], [vvar], …
  }
  return out;
}
