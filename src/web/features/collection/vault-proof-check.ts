import { checkVaultProof, type VaultCheck } from '@shared/vault-proof';

/**
 * The browser's check of a vault proof file (issue 44): SHA-256 and Ed25519 from WebCrypto, the
 * rules from shared/vault-proof.ts — the same as verifier/verify-vault.mjs. The key is the one the
 * shop publishes (/api/vault/key), never the one inside the file.
 */
const sha256 = async (data: Uint8Array) => new Uint8Array(await crypto.subtle.digest('SHA-256', data as BufferSource));

async function ed25519(publicKey: Uint8Array, signature: Uint8Array, message: Uint8Array): Promise<boolean> {
  const key = await crypto.subtle.importKey('raw', publicKey as BufferSource, { name: 'Ed25519' }, false, ['verify']);
  return crypto.subtle.verify({ name: 'Ed25519' }, key, signature as BufferSource, message as BufferSource);
}

/** True when this browser's WebCrypto verifies Ed25519 (Chromium 113+, Firefox 129+, Safari 17+). */
export async function canVerifyEd25519(): Promise<boolean> {
  try {
    await crypto.subtle.importKey('raw', new Uint8Array(32).fill(1) as BufferSource, { name: 'Ed25519' }, false, ['verify']);
    return true;
  } catch {
    return false;
  }
}

export function checkInBrowser(file: unknown, publishedKey: string): Promise<VaultCheck> {
  return checkVaultProof(file, publishedKey, sha256, ed25519);
}
