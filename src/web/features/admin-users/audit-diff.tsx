import { formatDateTime } from '@web/lib/format';
import { cn } from '@web/components/ui';

type Change = { key: string; kind: 'changed' | 'added' | 'removed' | 'same'; before?: unknown; after?: unknown };

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Field-by-field changes between two snapshots (nested objects flatten to dotted keys). */
export function diffSnapshots(before: unknown, after: unknown, prefix = ''): Change[] {
  if (!isPlainObject(before) || !isPlainObject(after)) {
    if (before == null && isPlainObject(after)) return diffSnapshots({}, after, prefix);
    if (after == null && isPlainObject(before)) return diffSnapshots(before, {}, prefix);
    const key = prefix || 'value';
    if (before === undefined || before === null) return after == null ? [] : [{ key, kind: 'added', after }];
    if (after === undefined || after === null) return [{ key, kind: 'removed', before }];
    return [{ key, kind: same(before, after) ? 'same' : 'changed', before, after }];
  }
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const out: Change[] = [];
  for (const k of keys) {
    const key = prefix ? `${prefix}.${k}` : k;
    const b = before[k];
    const a = after[k];
    if (isPlainObject(b) && isPlainObject(a)) out.push(...diffSnapshots(b, a, key));
    else if (!(k in before)) out.push({ key, kind: 'added', after: a });
    else if (!(k in after)) out.push({ key, kind: 'removed', before: b });
    else out.push({ key, kind: same(a, b) ? 'same' : 'changed', before: b, after: a });
  }
  return out;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

function show(v: unknown): string {
  if (v === undefined) return '—';
  if (v === null) return 'empty';
  if (typeof v === 'string') return ISO.test(v) && !Number.isNaN(Date.parse(v)) ? formatDateTime(v) : v;
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'number') return String(v);
  return JSON.stringify(v);
}

/** Before/after of an audit entry as a readable list of changed fields; unchanged ones fold away. */
export function AuditDiff({ before, after }: { before: unknown; after: unknown }) {
  const changes = diffSnapshots(before, after);
  if (changes.length === 0) return <p className="text-sm text-zinc-400">No details recorded.</p>;
  const changed = changes.filter((c) => c.kind !== 'same');
  const unchanged = changes.filter((c) => c.kind === 'same');
  return (
    <div className="space-y-2 text-sm">
      {changed.length === 0 ? (
        <p className="text-zinc-400">Nothing changed.</p>
      ) : (
        <dl className="space-y-1.5">
          {changed.map((c) => (
            <div key={c.key} className="grid gap-1 sm:grid-cols-[10rem_1fr] sm:gap-3">
              <dt className="font-mono text-xs text-zinc-400 sm:pt-0.5">{c.key}</dt>
              <dd className="flex flex-wrap items-center gap-x-2 gap-y-1 break-all">
                {c.kind !== 'added' ? (
                  <span className={cn('rounded px-1.5 py-0.5', 'bg-red-500/10 text-red-200 line-through decoration-red-400/60')}>
                    <span className="sr-only">was </span>
                    {show(c.before)}
                  </span>
                ) : null}
                {c.kind === 'changed' ? <span aria-hidden="true" className="text-zinc-500">→</span> : null}
                {c.kind !== 'removed' ? (
                  <span className="rounded bg-emerald-500/10 px-1.5 py-0.5 text-emerald-200">
                    <span className="sr-only">{c.kind === 'added' ? 'set to ' : 'now '}</span>
                    {show(c.after)}
                  </span>
                ) : (
                  <span className="text-xs text-zinc-400">(removed)</span>
                )}
              </dd>
            </div>
          ))}
        </dl>
      )}
      {unchanged.length ? (
        <details className="text-xs text-zinc-400">
          <summary className="cursor-pointer hover:text-zinc-200">
            {unchanged.length} unchanged field{unchanged.length === 1 ? '' : 's'}
          </summary>
          <dl className="mt-1.5 grid gap-x-3 gap-y-1 sm:grid-cols-[10rem_1fr]">
            {unchanged.map((c) => (
              <div key={c.key} className="contents">
                <dt className="font-mono">{c.key}</dt>
                <dd className="break-all text-zinc-300">{show(c.after)}</dd>
              </div>
            ))}
          </dl>
        </details>
      ) : null}
    </div>
  );
}
