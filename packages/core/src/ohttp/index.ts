/**
 * Oblivious HTTP for Nen (RFC 9458, Binary HTTP RFC 9292, chunked OHTTP
 * draft-ietf-ohai-chunked-ohttp) over HPKE with X-Wing (default), ML-KEM-768 or DHKEM(X25519).
 * The codec shared by the gateway (@nen/server) and the client mode (@nen/client).
 *
 * Modules: ./hpke.ts (HPKE contexts, suites), ./key-config.ts (key configs, gateway key set),
 * ./bhttp.ts (Binary HTTP), ./encapsulation.ts (request / response), ./chunked.ts (chunked),
 * ./varint.ts (QUIC varints), ./date.ts (the Date window of anti-replay). Each header lists its API and pitfalls.
 *
 * Pitfall: no forward secrecy for requests (a static gateway key); see THREAT_MODEL.md.
 */
export { OHTTP_KEM, OHTTP_KDF, OHTTP_AEAD, OHTTP_KEM_INFO, OhttpPrivateKey, generateOhttpPrivateKey } from './hpke.js';
export type { OhttpKemId, HpkeContext } from './hpke.js';
export {
  DEFAULT_SUITES as OHTTP_DEFAULT_SUITES,
  encodeKeyConfig,
  parseKeyConfig,
  encodeKeyConfigs,
  parseKeyConfigs,
  formatOhttpKey,
  parseOhttpKey,
  generateOhttpKey,
  OhttpGatewayKeys,
} from './key-config.js';
export type { SymmetricSuite, OhttpKeyConfig, OhttpKeyEntry } from './key-config.js';
export {
  encodeBhttpRequest,
  decodeBhttpRequest,
  encodeBhttpResponse,
  decodeBhttpResponse,
  encodeBhttpResponseHead,
  encodeBhttpContentChunk,
  encodeBhttpResponseTail,
} from './bhttp.js';
export type { FieldLine, BhttpRequest, BhttpResponse, BhttpLimits } from './bhttp.js';
export { OHTTP_MEDIA, encapsulateRequest, decapsulateRequest } from './encapsulation.js';
export { encapsulateRequestAsync } from './sender-async.js';
export { ohttpKemReady } from './kem-wasm.js';
export type { EncapsulateOptions, ClientEncapsulation, GatewayDecapsulation } from './encapsulation.js';
export type { AsyncClientEncapsulation } from './sender-async.js';
export { encapsulateChunkedRequest, encapsulateChunkedRequestAsync, ChunkedRequestOpener, ChunkedResponseSealer, ChunkedResponseOpener } from './chunked.js';
export type { ChunkedClientEncapsulation } from './chunked.js';
export { OHTTP_PROBLEM, DEFAULT_OHTTP_DATE_WINDOW_MS, checkOhttpDate, ohttpReplayId, replayIdTtlMs, problemJson } from './date.js';
