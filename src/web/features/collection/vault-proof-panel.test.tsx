import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockServer } from '@web/test/mock-server';
import good from '../../../../verifier/vectors/vault-proof.json';
import forged from '../../../../verifier/vectors/vault-forged-leaf-rehashed.json';
import key from '../../../../verifier/vectors/vault-key.json';
import { VaultProofPanel } from './vault-proof-panel';

/** /collect's Proof tab (issue 44): download the file, check it with WebCrypto against the published key. */

const serve = (proof: unknown, publicKey = key.publicKey) =>
  mockServer((c) => (c.url.startsWith('/api/vault/proof') ? { body: proof } : c.url === '/api/vault/key' ? { body: { algorithm: 'Ed25519', publicKey, format: 'base64' } } : undefined));

beforeEach(() => {
  vi.unstubAllGlobals();
  URL.createObjectURL = vi.fn(() => 'blob:proof');
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => cleanup());

describe('VaultProofPanel', () => {
  it('downloads the proof file and verifies every copy in the browser', async () => {
    const calls = serve(good);
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    render(<VaultProofPanel />);
    fireEvent.click(screen.getByRole('button', { name: /Download and verify my proofs/ }));
    expect(await screen.findByText('All 2 copies verified')).toBeTruthy();
    expect(clicked).toHaveBeenCalledTimes(1);
    expect(calls.map((c) => c.url)).toEqual(['/api/vault/proof', '/api/vault/key']);
    expect(screen.getByRole('list', { name: 'Your verified copies' }).children).toHaveLength(2);
  });

  it('says which copy fails when a leaf was forged', async () => {
    serve(forged);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    render(<VaultProofPanel />);
    fireEvent.click(screen.getByRole('button', { name: /Download and verify my proofs/ }));
    expect(await screen.findByText('These proofs do not check')).toBeTruthy();
    expect(screen.getByText(/does not lead to the signed root/)).toBeTruthy();
  });

  it('refuses a file signed with a key other than the published one', async () => {
    serve(good, Buffer.alloc(32, 7).toString('base64'));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    render(<VaultProofPanel />);
    fireEvent.click(screen.getByRole('button', { name: /Download and verify my proofs/ }));
    expect(await screen.findByText('These proofs do not check')).toBeTruthy();
    expect(screen.getByText(/names another key than the one published/)).toBeTruthy();
  });
});
