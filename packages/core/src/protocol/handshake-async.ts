/**
 * The client side of the Nen handshake (PROTOCOL.md "Handshake"), asynchronous: the same
 * ClientHello, checks and S_0 as `clientHandshakeStart` (./handshake.ts), with the KEM operations
 * on the backend's `asyncKem` where it has one (browsers: WebCrypto ML-KEM-768 and X25519, native
 * code instead of cold JS on a page's first handshake), else on the sync backend.
 *
 * Pitfalls:
 *  - The ephemeral key and the encapsulation to the pinned key do not depend on each other: they
 *    run concurrently, both before the ClientHello can be sent; exported_s (needed only at the
 *    ServerHello) comes later, from the backend's deferred task, and is wiped on dispose.
 *  - Key confirmation is checked (constant time) before the result is returned, as in the sync
 *    form; the state is single-use and disposes its ephemeral key whatever happens.
 */
import type { AsyncRecipientKey, AsyncSymmetricMethods, Backend, KemId } from '../backend/types.js';
import { KEM_ID } from '../backend/types.js';
import { concatBytes } from './bytes.js';
import { clientError } from './codes.js';
import { CONFIRM_LENGTH, LABEL, SECRET_LENGTH } from './constants.js';
import {
  acceptServerHello,
  checkServerHello,
  clientHandshakeStart,
  confirmServerHello,
  encodeClientHelloFor,
  ephemeralSeed,
  type ClientHandshakeResult,
  type ServerHelloConfirmInput,
  type ServerKeyPin,
} from './handshake.js';

export interface AsyncClientHandshakeState extends Disposable {
  readonly hello: Uint8Array;
  readonly kem: KemId;
  readonly kid: string | undefined;
  /** Completes the handshake from the ServerHello bytes; disposes the ephemeral key. */
  finish(serverHello: Uint8Array): Promise<ClientHandshakeResult>;
  dispose(): void;
}

export type ClientHandshakeOptions = { kem?: KemId; pin?: ServerKeyPin; lifetime?: number; ephemeralIkm?: Uint8Array };

/** `clientHandshakeStart`, on the backend's async KEMs where it has them. */
export async function clientHandshakeStartAsync(backend: Backend, options: ClientHandshakeOptions): Promise<AsyncClientHandshakeState> {
  const ak = backend.asyncKem;
  if (!ak) {
    const st = clientHandshakeStart(backend, options);
    return { hello: st.hello, kem: st.kem, kid: st.kid, finish: async (b) => st.finish(b), dispose: st.dispose, [Symbol.dispose]: st.dispose };
  }
  const kem = options.pin?.kem ?? options.kem ?? KEM_ID.XWING;
  const lifetime = options.lifetime ?? 0;
  if (!Number.isInteger(lifetime) || lifetime < 0 || lifetime > 0xffffffff) throw clientError('NEN_BAD_INPUT', 'lifetime must be a u32 number of seconds');
  const { pin } = options;
  const sk = ephemeralSeed(backend, kem, options.ephemeralIkm);
  const ephP = ak.createRecipientKey(kem, sk).finally(() => sk.fill(0));
  const staticP = pin ? ak.setupBaseSExport(kem, pin.publicKey, LABEL.hpkeInfoStatic, LABEL.exporterContext, SECRET_LENGTH) : undefined;
  const [ephR, staticR] = await Promise.allSettled([ephP, staticP]);
  if (ephR.status === 'rejected' || staticR.status === 'rejected') {
    if (ephR.status === 'fulfilled') ephR.value.dispose();
    if (staticR.status === 'fulfilled')
      void staticR.value?.exported.then(
        (x) => x.fill(0),
        () => {},
      );
    throw ephR.status === 'rejected' ? ephR.reason : (staticR as PromiseRejectedResult).reason;
  }
  const eph: AsyncRecipientKey = ephR.value;
  // exported_s is computed in a later task (during the round trip): only enc_static is sent
  const exportedS = staticR.value?.exported;
  exportedS?.catch(() => {}); // awaited in finish; a dispose before then must not leave it unhandled
  const hello = encodeClientHelloFor(kem, lifetime, eph.publicKey, pin, staticR.value?.enc);
  let done = false;
  let finishing = false;
  const dispose = () => {
    if (done) return;
    done = true;
    eph.dispose();
    void exportedS?.then(
      (x) => x.fill(0),
      () => {},
    );
  };
  return {
    hello,
    kem,
    kid: pin?.kid,
    async finish(serverHelloBytes: Uint8Array): Promise<ClientHandshakeResult> {
      if (done || finishing) throw clientError('NEN_HANDSHAKE_FAILED', 'handshake state already used');
      finishing = true;
      try {
        const sh = checkServerHello(serverHelloBytes, kem, pin);
        const [exportedE, s] = await Promise.all([eph.setupBaseRExport(sh.encEph, LABEL.hpkeInfoEphemeral, LABEL.exporterContext, SECRET_LENGTH), exportedS]);
        const p = { hello, serverHelloBytes, sh, exportedE, exportedS: s, lifetime, kid: pin?.kid };
        return backend.asyncSymmetric ? await confirmAsync(backend.asyncSymmetric, p) : confirmServerHello(backend, p);
      } finally {
        dispose();
      }
    },
    dispose,
    [Symbol.dispose]: dispose,
  };
}

/**
 * `confirmServerHello` (./handshake.ts: TH, S_0 = HKDF-Extract(TH, exported_e || exported_s), the
 * confirm MAC, the lifetime check) on the backend's async HMAC / SHA-256 (browsers: WebCrypto).
 * Same values, same errors; exported_e and the intermediate secrets are wiped.
 */
async function confirmAsync(sym: AsyncSymmetricMethods, p: ServerHelloConfirmInput): Promise<ClientHandshakeResult> {
  const { sh, lifetime } = p;
  const body = p.serverHelloBytes.subarray(0, p.serverHelloBytes.length - CONFIRM_LENGTH);
  const th = await sym.sha256(concatBytes(LABEL.transcript, p.hello, body));
  const ikm = p.exportedS ? concatBytes(p.exportedE, p.exportedS) : p.exportedE.slice();
  p.exportedE.fill(0);
  const secretP = sym.hkdfExtract(th, ikm); // consumes ikm at the call
  ikm.fill(0);
  const secret = await secretP;
  const confirmKey = await sym.hkdfExpand(secret, LABEL.confirm, CONFIRM_LENGTH);
  const confirm = await sym.hmacSha256(confirmKey, th);
  confirmKey.fill(0);
  return acceptServerHello(sh, confirm, secret, lifetime, p.kid);
}
