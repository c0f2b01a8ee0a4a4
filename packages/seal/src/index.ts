/**
 * @nen/seal: post-quantum sealed data in the age v1 format (c2sp.org/age) on @nen/core.
 * Pitfall: `open` / `openText` release nothing until the whole payload authenticates, while
 * `openStream` / `createOpenStream` release each chunk once its tag verifies: a stream consumer
 * must treat the plaintext as complete only when the stream closes without error (./streams.ts).
 */
export * from './errors.js';
export { encodeBase64, decodeBase64, encodeBech32, decodeBech32 } from './encoding.js';
export { XWING_PUBLIC_KEY_LENGTH, XWING_SEED_LENGTH, XWING_ENC_LENGTH } from './hpke.js';
export * from './recipients.js';
export * from './keys.js';
export { parseHeader, serializeHeader, verifyHeaderMac, type ParsedHeader } from './header.js';
export { CHUNK_SIZE, PayloadDecryptor, PayloadEncryptor, payloadKey } from './stream.js';
export { ArmorDecoder, ArmorEncoder, ARMOR_BEGIN, ARMOR_END } from './armor.js';
export {
  Opener,
  Sealer,
  open,
  openText,
  seal,
  sealArmored,
  toIdentities,
  toRecipients,
  type IdentityInput,
  type OpenOptions,
  type RecipientInput,
  type SealOptions,
} from './age.js';
export { createOpenStream, createSealStream, openStream, sealStream } from './streams.js';
export { FIELD_PREFIX, openFields, sealFields, type FieldOptions, type SealFieldsOptions } from './fields.js';
export { MemoryReplayStore, RedisReplayStore, createRedisReplayStore, type RedisSetClient, type ReplayStore } from './replay.js';
export {
  generateWebhookSigningKey,
  sealWebhook,
  withNenWebhook,
  type SealedWebhook,
  type WebhookContext,
  type WebhookHandler,
  type WebhookPayload,
  type WebhookReceiverOptions,
  type WebhookSenderOptions,
} from './webhook.js';
export {
  MLDSA65_PUBLIC_KEY_LENGTH,
  MLDSA65_SIGNATURE_LENGTH,
  generateSigningKey,
  openSigned,
  sealSigned,
  signSealed,
  verifySealed,
  type SignedSeal,
} from './signed.js';
