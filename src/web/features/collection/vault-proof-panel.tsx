import { useState } from 'react';
import { Download, ShieldCheck } from 'lucide-react';
import type { VaultCheck, VaultProofFile } from '@shared/vault-proof';
import { Button, CopyableCode, Notice } from '@web/components/ui';
import { ApiClientError, api } from '@web/lib/api';
import { formatDateTime, plural } from '@web/lib/format';
import { canVerifyEd25519, checkInBrowser } from './vault-proof-check';

function save(file: VaultProofFile, seq: number) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(file, null, 2)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `packvault-vault-proof-${seq}.json`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

type State =
  | { kind: 'idle' }
  | { kind: 'busy'; step: string }
  | { kind: 'none'; message: string }
  | { kind: 'error'; message: string }
  | { kind: 'done'; file: VaultProofFile; check: VaultCheck; publishedKey: string; keyMatches: boolean };

/**
 * /collect, "Proof" tab (issue 44): download the inclusion proofs of your copies from the latest
 * signed snapshot and check them here, against the key the shop publishes. Nobody else's copies
 * are in the file, only the hashes next to yours on the way to the root.
 */
export function VaultProofPanel() {
  const [state, setState] = useState<State>({ kind: 'idle' });

  const run = async () => {
    setState({ kind: 'busy', step: 'Downloading your proofs…' });
    let file: VaultProofFile;
    try {
      file = (await api.get('/api/vault/proof', { query: {} })) as VaultProofFile;
    } catch (err) {
      if (err instanceof ApiClientError && err.status === 404) setState({ kind: 'none', message: err.message });
      else setState({ kind: 'error', message: 'The proofs could not be downloaded. Check your connection and try again.' });
      return;
    }
    const seq = (JSON.parse(file.statement) as { snapshot: number }).snapshot;
    save(file, seq);
    setState({ kind: 'busy', step: 'Checking them in your browser…' });
    try {
      const { publicKey } = await api.get('/api/vault/key');
      if (!publicKey) throw new Error('no key');
      if (!(await canVerifyEd25519())) {
        setState({ kind: 'error', message: 'This browser cannot check Ed25519 signatures. The file is saved: check it with verify-vault.mjs (see /fairness).' });
        return;
      }
      const check = await checkInBrowser(file, publicKey);
      setState({ kind: 'done', file, check, publishedKey: publicKey, keyMatches: publicKey === file.publicKey });
    } catch {
      setState({ kind: 'error', message: 'The published key could not be read, so nothing was checked. The file is saved; try again later.' });
    }
  };

  return (
    <section aria-labelledby="vault-proof-title" className="space-y-4 rounded-2xl border border-white/10 bg-white/[0.03] p-5">
      <h2 id="vault-proof-title" className="flex items-center gap-2 text-lg font-semibold text-white">
        <ShieldCheck aria-hidden="true" className="size-5 text-emerald-300" /> Proof of the vault
      </h2>
      <p className="max-w-3xl text-sm text-zinc-300">
        Every day we sign a Merkle tree of every card we hold, in stock and in vaults. Download the proofs of your cards
        in the latest one and your browser checks each is in the signed tree. Only you can link those entries to you:
        they are sealed with a secret salt that is in your file alone.
      </p>
      <Button onClick={() => void run()} loading={state.kind === 'busy'} loadingText={state.kind === 'busy' ? state.step : undefined}>
        <Download aria-hidden="true" className="size-4" /> Download and verify my proofs
      </Button>
      {state.kind === 'none' && <Notice tone="info">{state.message} The first snapshot is taken within a day.</Notice>}
      {state.kind === 'error' && <Notice tone="danger">{state.message}</Notice>}
      {state.kind === 'done' && <Result {...state} />}
    </section>
  );
}

function Result({ file, check, publishedKey, keyMatches }: Extract<State, { kind: 'done' }>) {
  const st = check.statement;
  if (!check.ok || !keyMatches) {
    return (
      <Notice tone="danger" title="These proofs do not check">
        <ul className="list-disc pl-5">
          {!keyMatches && <li>The file names another key than the one published.</li>}
          {check.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
        <p className="mt-2">Keep the file and write to support with it.</p>
      </Notice>
    );
  }
  const n = file.leaves.length;
  return (
    <div className="space-y-3">
      <Notice tone="success" title={n === 0 ? 'Signature checked' : `All ${plural(n, 'copy', 'copies')} verified`}>
        {n === 0
          ? `Snapshot ${st!.snapshot} (${formatDateTime(st!.takenAt)}) is signed by the published key; none of your cards was in the vault then.`
          : `Each is in snapshot ${st!.snapshot} of ${formatDateTime(st!.takenAt)}, ${plural(st!.leafCount, 'copy', 'copies')} in all, signed by the published key.`}
      </Notice>
      <dl className="grid gap-2 text-sm sm:grid-cols-[8rem_minmax(0,1fr)]">
        <dt className="text-zinc-400">Signed root</dt>
        <dd>
          <CopyableCode label="Root" truncate>
            {st!.root}
          </CopyableCode>
        </dd>
        <dt className="text-zinc-400">Public key</dt>
        <dd>
          <CopyableCode label="Public key" truncate>
            {publishedKey}
          </CopyableCode>
        </dd>
      </dl>
      {n > 0 && (
        <ul className="max-h-64 space-y-1 overflow-auto text-sm text-zinc-300" aria-label="Your verified copies">
          {file.leaves.map((l) => (
            <li key={l.copy}>
              <span className="text-white">{l.cardName ?? l.cardId}</span> <span className="font-mono text-xs text-zinc-400">{l.copy.replace(/^owned:/, '')}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
