import { useQuery } from '@tanstack/react-query';
import { CopyableCode, Notice, Skeleton } from '@web/components/ui';
import { api } from '@web/lib/api';
import { formatCount, formatDateTime } from '@web/lib/format';

const keyQuery = { queryKey: ['vault', 'key'] as const, queryFn: () => api.get('/api/vault/key'), staleTime: 5 * 60_000 };
const snapshotsQuery = {
  queryKey: ['vault', 'snapshots'] as const,
  queryFn: () => api.get('/api/vault/snapshots', { query: { page: 1, pageSize: 7 } }),
};

/**
 * /fairness, "Proof of the vault" (issue 44): the published signing key and the latest signed
 * snapshots with their copy counts. Whose copies are whose is never here; each collector checks
 * their own from /collect.
 */
export function VaultSection() {
  const key = useQuery(keyQuery);
  const snaps = useQuery(snapshotsQuery);
  return (
    <section className="prose-vault" aria-labelledby="vault-proof-title">
      <h2 id="vault-proof-title">Proof of the vault</h2>
      <p>
        Every day we take a snapshot of every physical card we hold — in stock, set aside as drop prizes, and in
        collectors&apos; vaults — as a
        Merkle tree. Each leaf commits to the card, the copy (its certificate for a slab) and a sealed holder: SHA-256 of
        the holder&apos;s id and a secret salt only that collector receives. The root, the count of copies per card and
        the time are signed with our Ed25519 key. Each statement names the previous root, so the history cannot be
        rewritten quietly, and a card whose count drops between two days shows in the difference (
        <code>/api/vault/diff?fromSeq=…&amp;toSeq=…</code>). Collectors download the proofs of their own cards from{' '}
        <a href="/collect?tab=proof">My vault → Proof</a> and their browser checks them; <code>verifier/verify-vault.mjs</code>{' '}
        does the same with Node&apos;s standard library alone.
      </p>
      <h3>Our public key (Ed25519, base64 of the 32 bytes)</h3>
      {key.isPending ? (
        <Skeleton className="h-8 w-full" />
      ) : key.data?.publicKey ? (
        <CopyableCode label="Public key">{key.data.publicKey}</CopyableCode>
      ) : (
        <Notice tone="warning" live={false}>
          No signing key is configured on this server yet, so no snapshot is signed.
        </Notice>
      )}
      <h3>Latest snapshots</h3>
      {snaps.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : snaps.isError ? (
        <Notice tone="danger">The snapshots could not be loaded. Reload the page to try again.</Notice>
      ) : snaps.data.items.length === 0 ? (
        <p>No snapshot has been taken yet: the first is within a day.</p>
      ) : (
        <ul>
          {snaps.data.items.map((s) => (
            <li key={s.seq}>
              <a href={`/api/vault/snapshots/${s.seq}`}>#{s.seq}</a> · {formatDateTime(s.takenAt)} · {formatCount(s.stockCopies)} held by the shop,{' '}
              {formatCount(s.vaultCopies)} in vaults · root <code>{s.root.slice(0, 16)}…</code>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
