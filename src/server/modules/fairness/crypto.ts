import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { FairCrypto } from '../../../shared/fairness.ts';

/** The draw's hash primitives on node:crypto (synchronous underneath, so cheap on the hot path). */
export const nodeFair: FairCrypto = {
  hmacSha256: (key, message) => Promise.resolve(new Uint8Array(createHmac('sha256', key).update(message).digest())),
  sha256: (message) => Promise.resolve(new Uint8Array(createHash('sha256').update(message).digest())),
};

export const sha256HexSync = (text: string) => createHash('sha256').update(text).digest('hex');

/** A fresh server seed: 32 random bytes as 64 lowercase hex characters. */
export const newServerSeed = () => randomBytes(32).toString('hex');
/** A default client seed: 16 random hex characters (the user may change it). */
export const newClientSeed = () => randomBytes(8).toString('hex');
