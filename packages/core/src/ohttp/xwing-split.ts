/**
 * X-Wing Decap (draft-connolly-cfrg-xwing-kem §5.4) for the OHTTP gateway's static key with the
 * X25519 half in OpenSSL where the runtime is Node.js: the same split the session server uses
 * (../backend/node-xwing.ts), built from the exports the Wasm has. The seed is expanded once
 * (SHAKE256(sk, 96) = d || z || sk_X); the ML-KEM-768 half is a Wasm ML-KEM-768 key loaded from
 * d || z (HPKE 0x0041's seed form: KeyGen_internal(d, z), X-Wing's own ML-KEM key), sk_X an
 * OpenSSL KeyObject imported ONCE per key. Per request: ss_M = the Wasm's ML-KEM-768 Decap of
 * ct_M, ss_X = X25519(sk_X, ct_X) in OpenSSL (one public JWK import + one DH), and the combiner
 * SHA3-256(ss_M || ss_X || ct_X || pk_X || label) in OpenSSL, hashed in one update from a buffer
 * held per key (pk_X and the label written once; the two secrets wiped after each Decap).
 *
 * Measured (bench/README.md, OHTTP seventh pass): the Wasm X25519 ladder (curve25519-dalek's
 * 32-bit backend) is the larger half of the Wasm X-Wing Decap; OpenSSL's import + DH costs
 * about half of it. The earlier attempt imported the static scalar per request and lost the gain.
 *
 * Pitfalls:
 *  - node:crypto comes through `process.getBuiltinModule` (./node-x25519.ts: never a static
 *    `node:` import, this module is in browser / Edge bundles through ./hpke.ts).
 *  - A partial node:crypto (workerd with nodejs_compat, Bun, Deno) must not give wrong bytes: a
 *    key is used only after one self-test (a fresh Wasm X-Wing encapsulation to its own public key
 *    decapsulates here to the Wasm's shared secret) and its ML-KEM public key equals the X-Wing
 *    key's pk_M; anything failing leaves the caller on the whole Wasm X-Wing Decap.
 *  - OpenSSL refuses an all-zero X25519 result (low-order ct_X): NEN_CRYPTO_KEY, as the Wasm.
 *  - The seed's expansion is wiped; the base64url string of sk_X handed to the JWK import cannot
 *    be (immutable strings, as in ../backend/node-xwing.ts). dispose() frees the Wasm key and
 *    drops the KeyObject.
 */
import type * as Glue from '../../wasm/nen_core.js';
import { disposedError, wipe } from '../backend/util.js';
import { callWasm, registry } from '../backend/wasm.js';
import { type NodeCrypto, NodeX25519Static, nodeModules } from './node-x25519.js';

type WasmGlue = typeof Glue;

const KEM_XWING = 0x647a;
const KEM_MLKEM768 = 0x0041;
/** ct_M / pk_M lengths: ct_X starts at 1088 in enc, pk_X at 1184 in the public key. */
const CT_M = 1088;
const PK_M = 1184;
/** Where pk_X starts in the combiner's input (after ss_M, ss_X, ct_X). */
const MIX_PK_X = 96;
/** X-Wing's combiner label "\.//^\". */
const LABEL = /* @__PURE__ */ Uint8Array.of(0x5c, 0x2e, 0x2f, 0x2f, 0x5e, 0x5c);

/** An X-Wing recipient key with its ML-KEM-768 half in Wasm and its X25519 half in OpenSSL. */
export class SplitXWingKey {
  readonly #c: NodeCrypto;
  /** The combiner's input ss_M || ss_X || ct_X || pk_X || label, pk_X and label set once (one hash update per Decap). */
  readonly #mix: Uint8Array;
  #mlkem: Glue.RecipientKey | null;
  #skX: NodeX25519Static;
  private constructor(c: NodeCrypto, mlkem: Glue.RecipientKey, skX: NodeX25519Static, pkX: Uint8Array) {
    this.#c = c;
    this.#mlkem = mlkem;
    this.#skX = skX;
    this.#mix = new Uint8Array(MIX_PK_X + 32 + LABEL.length);
    this.#mix.set(pkX, MIX_PK_X);
    this.#mix.set(LABEL, MIX_PK_X + 32);
    registry?.register(this, mlkem, this);
  }

  /** The split key for the X-Wing seed `sk` (public key `pk`), or undefined where it cannot be used. */
  static create(g: WasmGlue, sk: Uint8Array, pk: Uint8Array): SplitXWingKey | undefined {
    const m = nodeModules();
    if (!m) return undefined;
    let expanded: Uint8Array | undefined;
    let mlkem: Glue.RecipientKey | undefined;
    try {
      expanded = m.crypto.createHash('shake256', { outputLength: 96 }).update(sk).digest();
      mlkem = callWasm(() => new g.RecipientKey(KEM_MLKEM768, (expanded as Uint8Array).subarray(0, 64)));
      const pkM = mlkem.public_key;
      if (!equalBytes(pkM, pk.subarray(0, PK_M))) throw new Error('ML-KEM-768 public key differs');
      const pkX = pk.slice(PK_M);
      const skX = NodeX25519Static.create(expanded.subarray(64), pkX);
      if (!skX) throw new Error('no node:crypto');
      const key = new SplitXWingKey(m.crypto, mlkem, skX, pkX);
      mlkem = undefined;
      if (selfTest(g, key, pk)) return key;
      key.dispose();
      return undefined;
    } catch {
      return undefined;
    } finally {
      mlkem?.free();
      if (expanded) wipe(expanded);
    }
  }

  /** Decap(enc, skR): the 32-byte shared secret (the caller wipes it). The caller checked enc's length. */
  decap(enc: Uint8Array): Uint8Array {
    const mlkem = this.#mlkem;
    if (!mlkem) throw disposedError('OhttpPrivateKey');
    const ctX = enc.subarray(CT_M);
    const ssX = this.#skX.dh(ctX);
    const ssM = callWasm(() => mlkem.decap(enc.subarray(0, CT_M)));
    const mix = this.#mix;
    try {
      mix.set(ssM, 0);
      mix.set(ssX, 32);
      mix.set(ctX, 64);
      const d = this.#c.createHash('sha3-256').update(mix).digest();
      const ss = new Uint8Array(d);
      wipe(d);
      return ss;
    } finally {
      wipe(ssM, ssX, mix.subarray(0, 64));
    }
  }

  dispose(): void {
    if (this.#mlkem) registry?.unregister(this);
    this.#mlkem?.free();
    this.#mlkem = null;
    this.#skX.dispose();
  }
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A fresh Wasm X-Wing encapsulation to `pk` decapsulates here to the Wasm's shared secret. */
function selfTest(g: WasmGlue, key: SplitXWingKey, pk: Uint8Array): boolean {
  const sender = callWasm(() => new g.SenderKey(KEM_XWING, pk));
  const out = callWasm(() => sender.encap());
  sender.free();
  const ss = key.decap(out.subarray(32));
  try {
    return equalBytes(ss, out.subarray(0, 32));
  } finally {
    wipe(ss, out);
  }
}
