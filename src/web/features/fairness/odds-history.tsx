import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { CheckCircle2, XCircle } from 'lucide-react';
import { webCryptoFair } from '@shared/fairness';
import { checkRevision } from '@shared/odds-revision';
import type { OddsRevisionSummary } from '@shared/contracts/odds';
import { Badge, Button, Money, Notice, Panel, SkeletonText, Table, TBody, Td, Th, THead, Tr } from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { formatDay } from '@web/lib/format';
import { revisionQuery, revisionsQuery } from './api';

export const bpsText = (bps: number | null) => (bps === null ? '—' : `${(bps / 100).toFixed(1)} %`);
/** Published instants as their UTC day: the same text on the server and in every browser. */
export const utcDayOf = (iso: string) => `${formatDay(iso.slice(0, 10))} (UTC)`;

type Check = { state: 'idle' } | { state: 'running' } | { state: 'done'; problems: string[] } | { state: 'error'; message: string };

/** Downloads a revision with its pools and recomputes its hash in this browser (Web Crypto). */
export function useRevisionCheck(hash: string) {
  const qc = useQueryClient();
  const [check, setCheck] = useState<Check>({ state: 'idle' });
  const run = async () => {
    setCheck({ state: 'running' });
    try {
      const rev = await qc.fetchQuery(revisionQuery(hash));
      setCheck({ state: 'done', problems: await checkRevision(webCryptoFair(), { ...rev, hash }) });
    } catch (err) {
      setCheck({ state: 'error', message: err instanceof Error ? err.message : String(err) });
    }
  };
  return { check, run };
}

export function RevisionCheckResult({ check }: { check: Check }) {
  if (check.state === 'idle') return null;
  if (check.state === 'running') return <p role="status" className="text-sm text-zinc-300">Recomputing in your browser…</p>;
  if (check.state === 'error') return <Notice tone="danger" title="The check could not run">{check.message} Try again.</Notice>;
  return check.problems.length === 0 ? (
    <p role="status" className="flex items-center gap-2 text-sm text-emerald-300">
      <CheckCircle2 aria-hidden="true" className="size-4" /> Match: every class pool and the revision hash to the published values.
    </p>
  ) : (
    <Notice tone="danger" title="Mismatch">
      <ul className="list-disc space-y-1 pl-5">
        {check.problems.map((p) => (
          <li key={p}>{p}</li>
        ))}
      </ul>
    </Notice>
  );
}

function RevisionPanel({ r, current, classNames }: { r: OddsRevisionSummary; current: boolean; classNames: Record<string, string> }) {
  const { check, run } = useRevisionCheck(r.hash);
  return (
    <Panel
      id={`revision-${r.number}`}
      title={`Revision ${r.number}`}
      description={
        <>
          Published <time dateTime={r.publishedAt}>{utcDayOf(r.publishedAt)}</time>
        </>
      }
      actions={current ? <Badge tone="success">Current</Badge> : <Badge>Earlier</Badge>}
    >
      <div className="space-y-4">
        <dl className="grid gap-3 text-sm sm:grid-cols-3">
          <div>
            <dt className="text-xs text-zinc-400">Price</dt>
            <dd className="text-zinc-100">
              <Money cents={r.priceCents} />
            </dd>
          </div>
          <div>
            <dt className="text-xs text-zinc-400">Expected card value</dt>
            <dd className="text-zinc-100">
              <Money cents={r.expectedValueCents} />
            </dd>
          </div>
          <div>
            <dt className="text-xs text-zinc-400">Promised return</dt>
            <dd className="text-zinc-100">{bpsText(r.promisedReturnBps)}</dd>
          </div>
          <div className="sm:col-span-3">
            <dt className="text-xs text-zinc-400">Revision hash</dt>
            <dd className="font-mono text-xs break-all text-zinc-100">{r.hash}</dd>
          </div>
        </dl>
        <Table caption={`Odds of revision ${r.number}, per slot`}>
          <THead>
            <Tr>
              <Th>Slot</Th>
              <Th>Class: weight (chance)</Th>
            </Tr>
          </THead>
          <TBody>
            {r.slots.map((s, i) => {
              const total = s.odds.reduce((a, e) => a + e.weight, 0);
              return (
                <Tr key={i}>
                  <Td>{i + 1}</Td>
                  <Td>
                    {s.odds
                      .map((e) => `${classNames[e.classId] ?? e.classId.slice(0, 8)}: ${e.weight} (${((e.weight / total) * 100).toFixed(2)} %)`)
                      .join(' · ')}
                  </Td>
                </Tr>
              );
            })}
          </TBody>
        </Table>
        <div className="flex flex-wrap items-center gap-3">
          <Button size="sm" variant="secondary" onClick={() => void run()} disabled={check.state === 'running'}>
            Check revision {r.number} in your browser
          </Button>
          <a href={`/api/fairness/revisions/${r.hash}`} download={`revision-${r.hash}.json`} className="text-sm text-violet-300 underline underline-offset-4">
            Download revision {r.number} (JSON, with every card and value)
          </a>
        </div>
        <RevisionCheckResult check={check} />
      </div>
    </Panel>
  );
}

export function OddsHistory({ productId }: { productId: string }) {
  const q = useQuery(revisionsQuery(productId));
  if (q.isPending) return <SkeletonText lines={6} label="Loading the odds history" />;
  if (q.isError) {
    return (
      <Notice tone="danger" title="This odds history could not be loaded">
        {q.error instanceof ApiClientError && q.error.status === 404
          ? 'There is no public pack with this id. Pick one from the shop.'
          : 'Check your connection and try again.'}
      </Notice>
    );
  }
  return (
    <div className="space-y-6">
      <p className="text-zinc-300">
        Every set of terms <Link to="/shop/$id" params={{ id: productId }} className="text-violet-300 underline underline-offset-4">{q.data.product.name}</Link>{' '}
        has been sold under, newest first. Each is published before the first pack opened under it, and every opening names
        the revision it was drawn under. See <Link to="/fairness/returns" className="text-violet-300 underline underline-offset-4">realised returns</Link>.
      </p>
      {q.data.items.length === 0 ? (
        <p className="text-sm text-zinc-400">No revision published yet: this pack has not been on sale.</p>
      ) : (
        q.data.items.map((r) => <RevisionPanel key={r.hash} r={r} current={r.hash === q.data.currentHash} classNames={q.data.classNames} />)
      )}
    </div>
  );
}

/** The check result of one opening against its revision (used by the verify view). */
export function RevisionBadge({ ok }: { ok: boolean }) {
  return ok ? (
    <Badge tone="success">
      <CheckCircle2 aria-hidden="true" className="size-3" /> within its revision
    </Badge>
  ) : (
    <Badge tone="danger">
      <XCircle aria-hidden="true" className="size-3" /> outside its revision
    </Badge>
  );
}
