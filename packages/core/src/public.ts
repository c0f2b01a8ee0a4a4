/**
 * The public surface of @nen/core that does not depend on the runtime: the protocol (envelope,
 * handshake, key schedule, codes), the error classes and the backend types, by name. Each entry
 * (index.ts for Node, index.browser.ts, index.edge.ts, index.workerd.ts) re-exports this list and
 * adds its own `loadBackend`, the only name that differs per runtime.
 *
 * Pitfall: named exports only here (test/entries.test.ts): byte helpers (u8, utf8, toHex, ...) stay
 * internal, except the joiner (`concatBytes`, `joinChunks`, `joinedOrOnly`) that @nen/client, @nen/server and
 * @nen/seal import instead of writing their own.
 */
export {
  NenError,
  NenCryptoError,
  NenProtocolError,
} from './errors.js';
export {
  WIRE_ERRORS,
  CLIENT_ERRORS,
  isWireErrorCode,
  wireError,
  clientError,
} from './protocol/codes.js';
export {
  PROTOCOL_VERSION,
  HPKE_KDF_ID,
  HPKE_AEAD_ID,
  SESSION_ID_LENGTH,
  SECRET_LENGTH,
  CONFIRM_LENGTH,
  MAX_KEY_ID_LENGTH,
  KEY_ID_PATTERN,
  LABEL,
  HEADER,
  MEDIA_TYPE,
  REQ_FLAG,
  REQ_FLAGS_ALL,
  RES_FLAG,
  RES_FLAGS_ALL,
  HS_FLAG,
  MAX_RECORD_PLAINTEXT,
  RECORD_HEADER_LENGTH,
  DEFAULT_TIMESTAMP_WINDOW_MS,
  isBodylessMethod,
  isNullBodyStatus,
} from './protocol/constants.js';
export {
  isKemId,
  kemName,
  encodeClientHello,
  decodeClientHello,
  encodeServerHelloBody,
  decodeServerHello,
  transcriptHash,
  deriveHandshakeSecrets,
  parseServerKeyPin,
  formatServerKeyPin,
  clientHandshakeStart,
  serverHandshake,
} from './protocol/handshake.js';
export { clientHandshakeStartAsync } from './protocol/handshake-async.js';
export {
  deriveEpochKeyMaterial,
  nextEpochSecret,
  computeNonce,
  SessionKeys,
} from './protocol/keys.js';
export {
  formatRequestHeader,
  parseRequestHeader,
  formatResponseHeader,
  parseResponseHeader,
  canonicalTarget,
  requestAad,
  formatRetryRef,
  parseRetryRef,
  responseAad,
  recordAad,
  sealMessage,
  openMessage,
  packConfidentialQuery,
  unpackConfidentialQuery,
  encodeHeaderRecord,
  decodeHeaderRecord,
  RecordSealer,
  RecordOpener,
} from './protocol/message.js';
export {
  COMPRESS_MIN_BYTES,
  sealRequest,
  parseRequest,
  sealedBodyLimit,
  openRequest,
  openRequestStream,
  decodeRequestPlaintext,
} from './protocol/envelope.js';
export {
  sealResponse,
  sealResponseChunks,
  sealTextResponseChunks,
  sealResponseStream,
  parseResponse,
  responseRecord,
  openResponse,
  openResponseStream,
} from './protocol/envelope-response.js';
export {
  REQUEST_DEFLATE_LEVEL,
  RESPONSE_DEFLATE_LEVEL,
  compressionImplementation,
  deflateRequestBody,
  inflateResponseBody,
  deflateResponseBody,
  inflateRequestBody,
} from './protocol/compression.js';
export {
  REPLAY_WINDOW_WIDTH,
  ReplayWindow,
} from './protocol/replay.js';
export {
  toBase64Url,
  fromBase64Url,
  concatBytes,
  joinChunks,
  joinedOrOnly,
} from './protocol/bytes.js';
export {
  KEM_ID,
  KEM_SIZES,
  AEAD_KEY_LENGTH,
  AEAD_NONCE_LENGTH,
  AEAD_TAG_LENGTH,
} from './backend/types.js';
export type {
  ClientAction,
  ErrorSpec,
  WireErrorCode,
  ClientErrorCode,
} from './protocol/codes.js';
export type {
  ClientHello,
  ServerHello,
  ServerKeyPin,
  ClientHandshakeState,
  ClientHandshakeResult,
  ServerHandshakeParams,
  ServerHandshakeResult,
} from './protocol/handshake.js';
export type { AsyncClientHandshakeState, ClientHandshakeOptions } from './protocol/handshake-async.js';
export type { EpochKeyMaterial } from './protocol/keys.js';
export type { RequestMeta, RetryRef } from './protocol/message.js';
export type {
  EnvelopeKeys,
  HeaderSource,
  HeaderList,
  RequestToSeal,
  SealedRequest,
  RequestHead,
} from './protocol/envelope.js';
export type {
  ResponseContext,
  SealedResponse,
  ResponseHead,
  ResponseExpectation,
} from './protocol/envelope-response.js';
export type { ReplayVerdict } from './protocol/replay.js';
// OHTTP (./ohttp/index.ts) is re-exported by index.ts / index.edge.ts / index.workerd.ts, and served
// to browsers only as `@nen/core/ohttp`: the browser entry stays free of it (a session-mode page
// does not carry the codec; the client's OHTTP mode imports it lazily).
export type {
  KemId,
  KemKeyPair,
  Aead,
  HpkeRecipientKey,
  HpkeSenderExport,
  HpkeSealed,
  HpkeSenderKey,
  AsyncKem,
  AsyncRecipientKey,
  AsyncSenderExport,
  AsyncSymmetricMethods,
  Backend,
} from './backend/types.js';
