import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ShieldCheck } from 'lucide-react';
import type { DropProofDto, PublicDrop } from '@shared/contracts/drops';
import { verifyDrop, type DropVerifyResult } from '@shared/drop-draw';
import { webCryptoFair } from '@shared/fairness';
import { Button, Notice, SkeletonText } from '@web/components/ui';
import { formatCount } from '@web/lib/format';
import { dropProofQuery } from './api';
import { HashField } from './parts';

export type DropCheck = { state: 'running' } | { state: 'done'; result: DropVerifyResult } | { state: 'error'; message: string };

/** Recomputes a drop's winners in this browser (Web Crypto) from its published proof. */
export async function checkDropProof(proof: DropProofDto): Promise<DropCheck> {
  try {
    const result = await verifyDrop(webCryptoFair(), {
      seed: proof.seed,
      commitment: proof.commitment,
      entryIds: proof.entryIds,
      entryListHash: proof.entryListHash,
      winnerCount: proof.winnerCount,
      winners: proof.winners.map((w) => w.entryId),
    });
    return { state: 'done', result };
  } catch (err) {
    return { state: 'error', message: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * A drawn drop's proof: the commitment, the revealed seed, the entry-list hash, the entry list
 * (folded: it can be long, so it is only fetched when opened or verified) and "Verify", which
 * redraws the winners in the browser and compares them with the published ones.
 */
export function DropProofPanel({ drop, myEntryId }: { drop: PublicDrop; myEntryId?: string | null }) {
  const qc = useQueryClient();
  const [listOpen, setListOpen] = useState(false);
  const [check, setCheck] = useState<DropCheck | null>(null);
  const proof = useQuery({ ...dropProofQuery(drop.id), enabled: listOpen });

  const verify = async () => {
    setCheck({ state: 'running' });
    try {
      setCheck(await checkDropProof(proof.data ?? (await qc.fetchQuery(dropProofQuery(drop.id)))));
    } catch {
      setCheck({ state: 'error', message: 'The proof could not be loaded. Check your connection and press Verify again.' });
    }
  };

  const recomputed = check?.state === 'done' ? check.result.winners : null;
  const entries = proof.data?.entryIds;

  return (
    <div className="space-y-4" data-testid="drop-proof">
      <dl className="grid gap-3 text-sm sm:grid-cols-2">
        <HashField label="Commitment: SHA-256 of the seed, published when the drop opened" value={drop.commitment} />
        <HashField label="Seed, revealed at the close" value={drop.seed} />
        <HashField label="Entry-list hash: SHA-256 of the sorted entry list" value={drop.entryListHash} />
        <div className="min-w-0">
          <dt className="text-xs text-zinc-400">Entries in the draw</dt>
          <dd className="text-zinc-100 tabular-nums">{formatCount(drop.entryCount)}</dd>
        </div>
      </dl>

      <details className="rounded-lg border border-white/10 bg-black/20" onToggle={(e) => setListOpen(e.currentTarget.open)}>
        <summary className="cursor-pointer rounded-lg px-3 py-2 text-sm font-medium text-zinc-200 hover:bg-white/5">
          Entry list, sorted as drawn
        </summary>
        <div className="px-3 pb-3">
          {proof.isPending ? (
            <SkeletonText lines={3} label="Loading the entry list" />
          ) : proof.isError ? (
            <Notice tone="danger">The entry list could not be loaded. Close and reopen this list to try again.</Notice>
          ) : entries && entries.length === 0 ? (
            <p className="text-sm text-zinc-400">Nobody entered, so nobody won and the prizes went back to stock.</p>
          ) : (
            <ol
              aria-label={`Entry list of ${drop.title}`}
              className="max-h-64 overflow-y-auto font-mono text-xs text-zinc-300"
              // A scrolling region must be reachable by keyboard.
              tabIndex={0}
            >
              {entries?.map((id, i) => (
                <li key={id} className={id === myEntryId ? 'font-semibold text-emerald-300' : undefined}>
                  <span className="inline-block w-12 text-zinc-500 tabular-nums">{i}</span>
                  {id}
                  {id === myEntryId ? ' (your entry)' : ''}
                </li>
              ))}
            </ol>
          )}
        </div>
      </details>

      {drop.winners.length > 0 ? (
        <div>
          <h4 className="mb-2 text-sm font-semibold text-white">Winners, in the order drawn</h4>
          <ol className="space-y-1 text-sm">
            {drop.winners.map((w, i) => (
              <li key={w.entryId} className="flex flex-wrap items-baseline gap-x-2">
                <span className="text-zinc-500 tabular-nums">{w.place + 1}.</span>
                <span className="font-medium break-all text-zinc-100">{w.username}</span>
                <code className="font-mono text-xs text-zinc-400">{w.entryId}</code>
                {recomputed ? (
                  recomputed[i] === w.entryId ? (
                    <span className="text-xs text-emerald-300">recomputed: same</span>
                  ) : (
                    <span className="text-xs text-red-300">recomputed: {recomputed[i] ?? 'nobody'}</span>
                  )
                ) : null}
              </li>
            ))}
          </ol>
        </div>
      ) : null}

      <div className="space-y-3">
        <Button
          variant="secondary"
          onClick={() => void verify()}
          loading={check?.state === 'running'}
          loadingText="Verifying…"
          aria-label={`Verify the draw of ${drop.title}`}
        >
          <ShieldCheck aria-hidden="true" className="size-4" /> Verify
        </Button>
        <VerifyOutcome check={check} winners={drop.winners.length} />
      </div>
    </div>
  );
}

/** Pass or fail, in words, with every failed check listed. */
export function VerifyOutcome({ check, winners }: { check: DropCheck | null; winners: number }) {
  if (!check || check.state === 'running') return null;
  if (check.state === 'error') {
    return (
      <Notice tone="danger" title="The check could not run">
        {check.message}
      </Notice>
    );
  }
  if (check.result.ok) {
    return (
      <Notice tone="success" title="Verified: this draw is exactly what its proof gives">
        Your browser hashed the seed to the commitment published before the first entry, hashed the entry list to the
        published hash and redrew with HMAC-SHA256 from the seed:{' '}
        {winners === 0 ? 'no entries, no winner, as published.' : `the same ${winners === 1 ? 'winner' : `${winners} winners`}, in the same order.`}
      </Notice>
    );
  }
  return (
    <Notice tone="danger" title="Mismatch: the published draw does not follow from its proof">
      <ul className="list-disc space-y-1 pl-5 break-all">
        {check.result.problems.map((p) => (
          <li key={p}>{p}</li>
        ))}
      </ul>
    </Notice>
  );
}
