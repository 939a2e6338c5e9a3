import { createHmac, createPublicKey, sign, type KeyObject } from 'node:crypto';
import { vaultSigningKeyOf, type Config, type VaultKeySource } from '../../config.ts';
import { VAULT_HOUSE_HOLDER, VAULT_SALT_BYTES } from '../../../shared/vault-proof.ts';

export interface VaultKey {
  privateKey: KeyObject;
  /** Base64 of the 32 raw public-key bytes: what /api/vault/key publishes. */
  publicKey: string;
  source: VaultKeySource;
}

// Per config (two apps in one test process may differ); a KeyObject is immutable.
const cache = new WeakMap<Config, VaultKey | null>();

/** The snapshot signing key (config.ts `vaultSigningKeyOf`), or null in production without VAULT_SIGNING_KEY. */
export function vaultKey(config: Config): VaultKey | null {
  if (cache.has(config)) return cache.get(config)!;
  const found = vaultSigningKeyOf(config);
  const key = found
    ? {
        privateKey: found.key,
        publicKey: Buffer.from(createPublicKey(found.key).export({ format: 'jwk' }).x!, 'base64url').toString('base64'),
        source: found.source,
      }
    : null;
  cache.set(config, key);
  return key;
}

export function signStatement(key: VaultKey, statement: string): string {
  return sign(null, Buffer.from(statement, 'utf8'), key.privateKey).toString('base64');
}

/**
 * A collector's secret salt: HMAC-SHA256 of their id under a key derived from APP_SECRET. Stable
 * across snapshots without a table, unguessable without the secret; each collector sees only
 * their own, in their own proof file. (Rotating APP_SECRET changes later commitments only.)
 */
export function holderSalt(config: Pick<Config, 'secret'>, holderId: string): Buffer {
  if (holderId === VAULT_HOUSE_HOLDER) return Buffer.alloc(VAULT_SALT_BYTES);
  const saltKey = createHmac('sha256', config.secret).update('packvault:vault:salt-key:v1').digest();
  return createHmac('sha256', saltKey).update(holderId, 'utf8').digest();
}
