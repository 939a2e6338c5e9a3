import { formatDateTime, plural } from '@web/lib/format';
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

/** Names by id (the audit list's `names`): snapshots store ids, people read names. */
export type Names = Readonly<Record<string, string>>;

function show(v: unknown, names: Names = {}): string {
  if (v === undefined) return '—';
  if (v === null) return 'empty';
  if (typeof v === 'string') {
    const named = names[v] ?? names[v.toLowerCase()];
    if (named) return named;
    return ISO.test(v) && !Number.isNaN(Date.parse(v)) ? formatDateTime(v) : v;
  }
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.length ? v.map((x) => show(x, names)).join(', ') : 'none';
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'string' && names[x] ? names[x] : x));
}

interface SlotOdds {
  odds: Array<{ classId: string; weight: number }>;
}
const isSlots = (v: unknown): v is SlotOdds[] =>
  Array.isArray(v) &&
  v.every((s) => isPlainObject(s) && Array.isArray(s.odds) && s.odds.every((o) => isPlainObject(o) && typeof o.classId === 'string' && typeof o.weight === 'number'));

/** Each class's share of a slot as a percentage (weights are normally basis points summing to 100%). */
function shares(slot: SlotOdds | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!slot) return out;
  const total = slot.odds.reduce((a, o) => a + o.weight, 0);
  for (const o of slot.odds) out.set(o.classId, `${Number(((o.weight / (total || 1)) * 100).toFixed(2))}%`);
  return out;
}

/** A pack's odds as one change per slot and class: "Slot 2: Rare" 10% → 12%. */
export function slotChanges(before: SlotOdds[] | undefined, after: SlotOdds[] | undefined, names: Names = {}): Change[] {
  const out: Change[] = [];
  const name = (id: string) => names[id] ?? id;
  const n = Math.max(before?.length ?? 0, after?.length ?? 0);
  for (let i = 0; i < n; i++) {
    const b = shares(before?.[i]);
    const a = shares(after?.[i]);
    for (const id of new Set([...a.keys(), ...b.keys()])) {
      const key = `Slot ${i + 1}: ${name(id)}`;
      const was = b.get(id);
      const now = a.get(id);
      if (was === undefined) out.push({ key, kind: 'added', after: now });
      else if (now === undefined) out.push({ key, kind: 'removed', before: was });
      else out.push({ key, kind: was === now ? 'same' : 'changed', before: was, after: now });
    }
  }
  return out;
}

/** diffSnapshots, with a pack's slots expanded per slot and class so odds read as percentages. */
export function readableChanges(before: unknown, after: unknown, names: Names = {}): Change[] {
  return diffSnapshots(before, after).flatMap((c) =>
    (c.before === undefined || isSlots(c.before)) && (c.after === undefined || isSlots(c.after)) && (isSlots(c.before) || isSlots(c.after))
      ? slotChanges(c.before as SlotOdds[] | undefined, c.after as SlotOdds[] | undefined, names)
      : [c],
  );
}

/** Before/after of an audit entry as a readable list of changed fields; unchanged ones fold away. */
export function AuditDiff({ before, after, names = {} }: { before: unknown; after: unknown; names?: Names }) {
  const changes = readableChanges(before, after, names);
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
                    {show(c.before, names)}
                  </span>
                ) : null}
                {c.kind === 'changed' ? <span aria-hidden="true" className="text-zinc-500">→</span> : null}
                {c.kind !== 'removed' ? (
                  <span className="rounded bg-emerald-500/10 px-1.5 py-0.5 text-emerald-200">
                    <span className="sr-only">{c.kind === 'added' ? 'set to ' : 'now '}</span>
                    {show(c.after, names)}
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
            {plural(unchanged.length, 'unchanged field')}
          </summary>
          <dl className="mt-1.5 grid gap-x-3 gap-y-1 sm:grid-cols-[10rem_1fr]">
            {unchanged.map((c) => (
              <div key={c.key} className="contents">
                <dt className="font-mono">{c.key}</dt>
                <dd className="break-all text-zinc-300">{show(c.after, names)}</dd>
              </div>
            ))}
          </dl>
        </details>
      ) : null}
    </div>
  );
}
