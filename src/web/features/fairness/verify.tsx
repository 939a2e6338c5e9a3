import { formatDateTime } from '@web/lib/format';
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CheckCircle2, ShieldQuestion, XCircle } from 'lucide-react';
import { verifyOpening, webCryptoFair, type VerifyResult } from '@shared/fairness';
import type { Opening, PoolSnapshot } from '@shared/contracts/shop';
import { Badge, Button, Money, Notice, Pagination, Panel, Skeleton, SkeletonText, Table, TBody, Td, Th, THead, Tr } from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { checkOpeningUnderRevision, checkRevision } from '@shared/odds-revision';
import type { OddsRevision } from '@shared/contracts/odds';
import { fairOpeningQuery, myOpeningsQuery, poolQuery, revisionQuery } from './api';
import { RevisionBadge } from './odds-history';

/**
 * Checks, in this browser, that the revision an opening names hashes to its name (every class
 * pool, then the revision) and that the opening was drawn under it: the same odds, and every card
 * of its pool in the revision's pools. Null while loading.
 */
function useRevisionVerification(opening: Opening | undefined, pool: PoolSnapshot | undefined, rev: OddsRevision | undefined) {
  const [problems, setProblems] = useState<string[] | null>(null);
  useEffect(() => {
    if (!opening || !pool || !rev) return;
    let live = true;
    const pools: Record<string, string[]> = {};
    for (const c of pool.classes) pools[c.classId] = c.cardIds;
    void checkRevision(webCryptoFair(), rev).then((found) => {
      if (live) setProblems([...found, ...checkOpeningUnderRevision({ slots: opening.fairness.slots, pools }, rev)]);
    });
    return () => {
      live = false;
    };
  }, [opening, pool, rev]);
  return problems;
}

type Check = { state: 'running' } | { state: 'done'; result: VerifyResult } | { state: 'error'; message: string };

/** Recomputes one opening in this browser (Web Crypto) from the revealed seed and the stored pool. */
export function useVerification(opening: Opening | undefined, pool: PoolSnapshot | undefined): Check | null {
  const [check, setCheck] = useState<Check | null>(null);
  useEffect(() => {
    if (!opening?.fairness.serverSeed || !pool) return;
    let live = true;
    setCheck({ state: 'running' });
    const f = opening.fairness;
    const pools: Record<string, string[]> = {};
    for (const c of pool.classes) pools[c.classId] = c.cardIds;
    verifyOpening(webCryptoFair(), {
      serverSeed: f.serverSeed!,
      serverSeedHash: f.serverSeedHash,
      clientSeed: f.clientSeed,
      nonce: f.nonce,
      slots: f.slots,
      oddsHash: f.oddsHash,
      poolHash: f.poolHash,
      pools,
      draws: f.draws,
    }).then(
      (result) => live && setCheck({ state: 'done', result }),
      (err: unknown) => live && setCheck({ state: 'error', message: err instanceof Error ? err.message : String(err) }),
    );
    return () => {
      live = false;
    };
  }, [opening, pool]);
  return check;
}

/** The verify view for one opening: inputs, the recomputed draw slot by slot, and match or mismatch. */
export function VerifyOpening({ id }: { id: string }) {
  const q = useQuery(fairOpeningQuery(id));
  const opening = q.data?.opening;
  const revealed = Boolean(opening?.fairness.serverSeed);
  const revisionHash = opening?.fairness.revisionHash ?? null;
  const pool = useQuery({ ...poolQuery(opening?.fairness.poolHash ?? ''), enabled: revealed || Boolean(revisionHash) });
  const check = useVerification(revealed ? opening : undefined, pool.data);
  const rev = useQuery({ ...revisionQuery(revisionHash ?? ''), enabled: Boolean(revisionHash) });
  const revProblems = useRevisionVerification(opening, pool.data, rev.data);

  if (q.isPending) return <SkeletonText lines={4} label="Loading the opening" />;
  if (q.isError) {
    return (
      <Notice tone="danger" title="This opening could not be loaded">
        {q.error instanceof ApiClientError && q.error.status === 404
          ? 'There is no opening with this id on your account.'
          : 'Check your connection and try again.'}
      </Notice>
    );
  }
  const o = q.data.opening;
  const f = o.fairness;
  const names = new Map(o.cards.map((c) => [c.id, c.name]));
  const classNames = new Map(o.cards.map((c) => [c.classId, c.className]));
  const recomputed = check?.state === 'done' ? check.result.draws : [];

  return (
    <div className="space-y-5" data-testid="verify-view">
      <dl className="grid gap-3 text-sm sm:grid-cols-2">
        <Field label="Opening">{`${o.productName}, ${formatDateTime(o.createdAt)}`}</Field>
        <Field label="Nonce" mono>
          {String(f.nonce)}
        </Field>
        <Field label="Client seed" mono>
          {f.clientSeed}
        </Field>
        <Field label="Server seed hash" mono>
          {f.serverSeedHash}
        </Field>
        <Field label="Server seed" mono>
          {f.serverSeed ?? 'still secret (your active seed)'}
        </Field>
        <Field label="Odds hash / pool hash" mono>
          {`${f.oddsHash.slice(0, 16)}… / ${f.poolHash.slice(0, 16)}…`}
        </Field>
        <Field label="Odds revision (published before the opening)" mono>
          {f.revisionHash ?? 'none (opened before odds revisions were published)'}
        </Field>
      </dl>

      {f.revisionHash ? (
        rev.isError ? (
          <Notice tone="danger">The odds revision of this opening could not be loaded, so it cannot be checked right now. Try again.</Notice>
        ) : revProblems === null ? (
          <p role="status" className="text-sm text-zinc-300">
            Checking the odds revision…
          </p>
        ) : revProblems.length === 0 ? (
          <p className="flex flex-wrap items-center gap-2 text-sm text-zinc-300">
            <RevisionBadge ok /> The published revision hashes to its name, and this opening used its odds and only cards of its pools.
          </p>
        ) : (
          <Notice tone="danger" title="The odds revision does not match">
            <ul className="list-disc space-y-1 pl-5">
              {revProblems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          </Notice>
        )
      ) : null}

      {!revealed ? (
        <Notice tone="info" title="Rotate your seed to verify this opening">
          This opening used your active server seed, which stays secret so nobody (you included) can predict your next
          pulls. Rotate your seed in the panel above: the old seed is revealed and this opening becomes verifiable.
        </Notice>
      ) : pool.isPending || !check || check.state === 'running' ? (
        <p role="status" className="text-sm text-zinc-300">
          Recomputing in your browser…
        </p>
      ) : pool.isError ? (
        <Notice tone="danger">The card pool of this opening could not be loaded, so it cannot be checked right now. Try again.</Notice>
      ) : check.state === 'error' ? (
        <Notice tone="danger" title="The check could not run">
          {check.message}
        </Notice>
      ) : check.result.ok ? (
        <Notice tone="success" title="Match: this opening is exactly what your seeds produce">
          Your browser recomputed every slot with HMAC-SHA256 from the revealed server seed, your client seed and nonce{' '}
          {f.nonce}; the seed matches its published hash and the odds and pool match their hashes.
        </Notice>
      ) : (
        <Notice tone="danger" title="Mismatch">
          <ul className="list-disc space-y-1 pl-5">
            {check.result.problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </Notice>
      )}

      <Table caption="Draw, slot by slot (stored vs recomputed)">
        <THead>
          <Tr>
            <Th>Slot</Th>
            <Th>Class</Th>
            <Th className="text-right">Pool</Th>
            <Th className="text-right">Index (stored)</Th>
            <Th className="text-right">Index (recomputed)</Th>
            <Th>Card</Th>
            <Th>Result</Th>
          </Tr>
        </THead>
        <TBody>
          {f.draws.map((d, i) => {
            const r = recomputed[i];
            const same = r && r.classId === d.classId && r.index === d.index && r.cardId === d.cardId && r.poolSize === d.poolSize;
            return (
              <Tr key={d.slot}>
                <Td>{d.slot + 1}</Td>
                <Td>{classNames.get(d.classId) ?? d.classId.slice(0, 8)}</Td>
                <Td className="text-right tabular-nums">{d.poolSize}</Td>
                <Td className="text-right tabular-nums">{d.index}</Td>
                <Td className="text-right tabular-nums">{r ? r.index : '—'}</Td>
                <Td className="max-w-48 truncate">{names.get(d.cardId) ?? d.cardId.slice(0, 8)}</Td>
                <Td>
                  {!r ? (
                    <span className="text-zinc-500">—</span>
                  ) : same ? (
                    <Badge tone="success">
                      <CheckCircle2 aria-hidden="true" className="size-3" /> match
                    </Badge>
                  ) : (
                    <Badge tone="danger">
                      <XCircle aria-hidden="true" className="size-3" /> mismatch
                    </Badge>
                  )}
                </Td>
              </Tr>
            );
          })}
        </TBody>
      </Table>
    </div>
  );
}

function Field({ label, mono, children }: { label: string; mono?: boolean; children: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-zinc-400">{label}</dt>
      <dd className={mono ? 'font-mono text-xs break-all text-zinc-100' : 'text-zinc-100'}>{children}</dd>
    </div>
  );
}

/** The user's openings, each with a "Verify" button that opens the verify view. */
export function MyOpenings({ initialOpening }: { initialOpening?: string }) {
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<string | null>(initialOpening ?? null);
  const q = useQuery(myOpeningsQuery(page));
  return (
    <Panel id="verify" title="Verify your openings" description="Pick an opening: your browser recomputes it from the seeds and says whether it matches.">
      {selected ? (
        <div className="mb-6 space-y-3 rounded-xl border border-violet-400/30 bg-violet-500/[0.04] p-4">
          <div className="flex items-center justify-between gap-2">
            <h3 className="font-semibold text-white">Verification</h3>
            <Button size="sm" variant="ghost" onClick={() => setSelected(null)}>
              Close
            </Button>
          </div>
          <VerifyOpening id={selected} />
        </div>
      ) : null}
      {q.isPending ? (
        <Skeleton className="h-32" />
      ) : q.isError ? (
        <Notice tone="danger">Your openings could not be loaded. Check your connection and try again.</Notice>
      ) : q.data.items.length === 0 ? (
        <p className="flex items-center gap-2 text-sm text-zinc-400">
          <ShieldQuestion aria-hidden="true" className="size-5" /> No openings yet. Open a pack and it will show up here with its proof.
        </p>
      ) : (
        <>
          <Table caption="Your openings" captionHidden>
            <THead>
              <Tr>
                <Th>When</Th>
                <Th>Pack</Th>
                <Th className="text-right">Nonce</Th>
                <Th className="text-right">Value</Th>
                <Th>Seed</Th>
                <Th>
                  <span className="sr-only">Action</span>
                </Th>
              </Tr>
            </THead>
            <TBody>
              {q.data.items.map((o) => (
                <Tr key={o.id}>
                  <Td className="whitespace-nowrap">{formatDateTime(o.createdAt)}</Td>
                  <Td>{o.productName}</Td>
                  <Td className="text-right tabular-nums">{o.fairness.nonce}</Td>
                  <Td className="text-right">
                    <Money cents={o.totalValueCents} />
                  </Td>
                  <Td>{o.fairness.serverSeed ? <Badge tone="success">revealed</Badge> : <Badge>active</Badge>}</Td>
                  <Td>
                    <Button size="sm" variant="secondary" onClick={() => setSelected(o.id)} aria-label={`Verify opening of ${o.productName}, nonce ${o.fairness.nonce}`}>
                      Verify
                    </Button>
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
          <Pagination className="mt-4" page={page} pageCount={Math.ceil(q.data.total / q.data.pageSize)} onPageChange={setPage} label="Openings pages" />
        </>
      )}
    </Panel>
  );
}
