import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { AlertTriangle, Copy, Plus, Trash2 } from 'lucide-react';
import type { CardClass } from '@shared/contracts/catalog';
import type { AdminPackDetail, PackInput } from '@shared/contracts/shop';
import { MAX_PACK_SLOTS } from '@shared/contracts/shop';
import { Badge, Button, cn, FormField, Input, Money, Notice, Panel, Select, toast } from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { adminClassesQuery, poolCardsQuery, useSavePack } from './admin-api';
import { HouseEdge } from './house-edge';
import { bpToPercent, classPools, formatBp, liveStats, percentToBp } from './pack-math';
import { plural } from '@web/lib/format';

interface Row {
  classId: string;
  percent: string;
}
interface SlotDraft {
  key: number;
  rows: Row[];
}

let nextKey = 1;

function fromPack(detail: AdminPackDetail): { slots: SlotDraft[]; converted: boolean } {
  let converted = false;
  const slots = detail.pack.slots.map((s) => {
    const total = s.odds.reduce((a, e) => a + e.weight, 0);
    if (total !== 10_000) converted = true;
    return {
      key: nextKey++,
      rows: s.odds.map((e) => ({
        classId: e.classId,
        percent: total === 10_000 ? bpToPercent(e.weight) : bpToPercent(Math.round((e.weight / total) * 10_000)),
      })),
    };
  });
  return { slots, converted };
}

/** The pack's odds editor: slots × classes in percentages, the pool, and live value statistics. */
export function PackEditor({ detail }: { detail: AdminPackDetail }) {
  const initial = useMemo(() => fromPack(detail), [detail]);
  const [name, setName] = useState(detail.pack.name);
  const [slots, setSlots] = useState<SlotDraft[]>(initial.slots);
  const [mode, setMode] = useState<'classes' | 'cards'>(detail.pack.pool.mode);
  const [cardIds, setCardIds] = useState<string[]>(detail.pack.pool.mode === 'cards' ? detail.pack.pool.cardIds : []);
  const [priceProduct, setPriceProduct] = useState(detail.products[0]?.id ?? '');
  const [serverErrors, setServerErrors] = useState<Record<string, string[]>>({});
  const classes = useQuery(adminClassesQuery);
  const poolCards = useQuery(poolCardsQuery);
  const save = useSavePack(detail.pack.id);

  const classById = useMemo(() => new Map((classes.data ?? []).map((c) => [c.id, c])), [classes.data]);
  const className = (id: string) => classById.get(id)?.name ?? detail.slotOdds.flatMap((s) => s.odds).find((o) => o.classId === id)?.className ?? 'Unknown class';

  // Parse every slot: weights in basis points, per-slot errors.
  const parsed = slots.map((s) => {
    const weights = s.rows.map((r) => percentToBp(r.percent));
    const sum = weights.reduce<number>((a, w) => a + (w ?? 0), 0);
    const bad = weights.some((w) => w === null || w === 0);
    return { weights, sum, bad, ok: !bad && sum === 10_000 && s.rows.length > 0 };
  });
  const allOk = parsed.every((p) => p.ok) && slots.length > 0 && name.trim().length > 0 && (mode === 'classes' || cardIds.length > 0);

  const editorSlots = slots.map((s, i) => ({
    odds: s.rows.map((r, j) => ({ classId: r.classId, weight: parsed[i]!.weights[j] ?? 0 })).filter((e) => e.weight > 0),
  }));
  const pools = useMemo(
    () => classPools(poolCards.data?.cards ?? [], mode === 'cards' ? { mode, cardIds } : { mode }),
    [poolCards.data, mode, cardIds],
  );
  const price = detail.products.find((p) => p.id === priceProduct)?.priceCents ?? null;
  const stats = liveStats(editorSlots, pools, price);

  const update = (i: number, fn: (s: SlotDraft) => SlotDraft) => setSlots((all) => all.map((s, k) => (k === i ? fn(s) : s)));
  // A new slot starts empty; copying a slot is what the per-slot Duplicate button is for.
  const addSlot = () => setSlots((all) => [...all, { key: nextKey++, rows: [] }]);

  const submit = () => {
    if (!allOk) return;
    const input: PackInput = {
      name: name.trim(),
      slots: slots.map((s, i) => ({ odds: s.rows.map((r, j) => ({ classId: r.classId, weight: parsed[i]!.weights[j]! })) })),
      pool: mode === 'cards' ? { mode, cardIds } : { mode },
    };
    setServerErrors({});
    save.mutate(input, {
      onSuccess: () => toast.success('Pack saved', 'The shop now uses these odds.'),
      onError: (err) => {
        if (err instanceof ApiClientError && err.fields) setServerErrors(err.fields);
        toast.error('Not saved', err instanceof ApiClientError ? err.message : 'Try again.');
      },
    });
  };

  return (
    <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,1fr)_22rem]">
      <div className="space-y-6">
        {initial.converted ? (
          <Notice tone="info" title="Odds converted to percentages">
            This pack was saved with weights that are not in hundredths of a percent. They are shown rounded to two
            decimals; saving stores exactly what you see.
          </Notice>
        ) : null}
        <Panel id="pack-basics" title="Pack">
          <FormField label="Internal name" required error={serverErrors.name?.[0]}>
            <Input value={name} onChange={(e) => setName(e.target.value)} maxLength={80} />
          </FormField>
          <p className="mt-3 text-sm text-zinc-400">
            {plural(slots.length, 'card')} per pack (one per slot). Sold by:{' '}
            {detail.products.length
              ? detail.products.map((p, i) => (
                  <span key={p.id}>
                    {i ? ', ' : ''}
                    <Link to="/admin/products/$id" params={{ id: p.id }} className="text-violet-300 underline underline-offset-4">
                      {p.name}
                    </Link>
                  </span>
                ))
              : 'no product yet'}
          </p>
        </Panel>

        <Panel
          id="slots"
          title="Odds per slot"
          description="For each card in the pack, the chance of each class, in percent. Each slot must add up to exactly 100%."
          actions={
            <Button size="sm" variant="secondary" onClick={addSlot} disabled={slots.length >= MAX_PACK_SLOTS}>
              <Plus aria-hidden="true" className="size-4" /> Add card slot
            </Button>
          }
        >
          {serverErrors.slots?.length ? (
            <Notice tone="danger" className="mb-4">
              {serverErrors.slots.join(' ')}
            </Notice>
          ) : null}
          {slots.length === 0 ? <p className="text-sm text-zinc-400">No card slots yet. Add one to start.</p> : null}
          <ol className="space-y-4">
            {slots.map((s, i) => {
              const p = parsed[i]!;
              const unused = (classes.data ?? []).filter((c) => !s.rows.some((r) => r.classId === c.id));
              return (
                <li key={s.key} className="rounded-xl border border-white/10 bg-white/[0.02] p-4" aria-labelledby={`slot-${s.key}`}>
                  <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
                    <h3 id={`slot-${s.key}`} className="font-semibold text-white">
                      Card {i + 1}
                    </h3>
                    <div className="flex items-center gap-1">
                      <span
                        className={cn('mr-2 text-sm font-semibold tabular-nums', p.ok ? 'text-emerald-300' : 'text-amber-300')}
                        aria-live="polite"
                        data-testid={`slot-sum-${i}`}
                      >
                        Total {formatBp(p.sum)}
                        {p.ok ? ' ✓' : p.sum !== 10_000 ? ` (${p.sum > 10_000 ? 'over' : 'under'} by ${formatBp(Math.abs(10_000 - p.sum))})` : ''}
                      </span>
                      <Button
                        size="icon"
                        variant="ghost"
                        className="size-8"
                        aria-label={`Duplicate card ${i + 1}`}
                        disabled={slots.length >= MAX_PACK_SLOTS}
                        onClick={() => setSlots((all) => [...all.slice(0, i + 1), { key: nextKey++, rows: s.rows.map((r) => ({ ...r })) }, ...all.slice(i + 1)])}
                      >
                        <Copy aria-hidden="true" className="size-4" />
                      </Button>
                      <Button
                        size="icon"
                        variant="ghost"
                        className="size-8 text-red-300"
                        aria-label={`Remove card ${i + 1}`}
                        onClick={() => setSlots((all) => all.filter((_, k) => k !== i))}
                      >
                        <Trash2 aria-hidden="true" className="size-4" />
                      </Button>
                    </div>
                  </div>
                  <ul className="space-y-2">
                    {s.rows.map((r, j) => {
                      const w = p.weights[j];
                      const pool = pools.get(r.classId);
                      const cls = classById.get(r.classId);
                      const err = w === null ? 'Use a percentage like 12.5 (at most two decimals).' : w === 0 ? 'Above 0%, or remove the class.' : null;
                      return (
                        <li key={r.classId} className="flex flex-wrap items-start gap-3">
                          <span className="flex min-w-36 flex-1 items-center gap-2 pt-2 text-sm font-medium text-white">
                            <span aria-hidden="true" className="size-2.5 rounded-full" style={{ background: cls?.colour ?? '#71717a' }} />
                            {className(r.classId)}
                            {!poolCards.isPending && !pool ? <Badge tone="danger">no stock</Badge> : null}
                          </span>
                          <div className="w-32">
                            <label className="sr-only" htmlFor={`pct-${s.key}-${r.classId}`}>
                              Chance of {className(r.classId)} in card {i + 1}, percent
                            </label>
                            <div className="relative">
                              <Input
                                id={`pct-${s.key}-${r.classId}`}
                                inputMode="decimal"
                                value={r.percent}
                                aria-invalid={err ? true : undefined}
                                aria-describedby={err ? `pct-${s.key}-${r.classId}-err` : undefined}
                                onChange={(e) =>
                                  update(i, (d) => ({ ...d, rows: d.rows.map((x, k) => (k === j ? { ...x, percent: e.target.value } : x)) }))
                                }
                                className="pr-7 text-right tabular-nums"
                              />
                              <span aria-hidden="true" className="absolute top-1/2 right-3 -translate-y-1/2 text-sm text-zinc-400">
                                %
                              </span>
                            </div>
                            {err ? (
                              <p id={`pct-${s.key}-${r.classId}-err`} className="mt-1 text-xs text-red-300">
                                {err}
                              </p>
                            ) : null}
                          </div>
                          <span className="w-28 pt-2 text-right text-xs text-zinc-400">
                            {pool ? `${plural(pool.poolSize, 'card')} in pool` : ''}
                          </span>
                          <Button
                            size="icon"
                            variant="ghost"
                            className="size-9"
                            aria-label={`Remove ${className(r.classId)} from card ${i + 1}`}
                            onClick={() => update(i, (d) => ({ ...d, rows: d.rows.filter((_, k) => k !== j) }))}
                          >
                            <Trash2 aria-hidden="true" className="size-4" />
                          </Button>
                        </li>
                      );
                    })}
                  </ul>
                  {unused.length ? (
                    <div className="mt-3 flex items-center gap-2">
                      <label htmlFor={`add-${s.key}`} className="sr-only">
                        Add a class to card {i + 1}
                      </label>
                      <Select
                        id={`add-${s.key}`}
                        value=""
                        onChange={(e) => {
                          const id = e.target.value;
                          if (id) update(i, (d) => ({ ...d, rows: [...d.rows, { classId: id, percent: d.rows.length ? '0' : '100' }] }));
                        }}
                        className="h-9 w-56"
                      >
                        <option value="">Add a class…</option>
                        {unused.map((c: CardClass) => (
                          <option key={c.id} value={c.id}>
                            {c.name}
                          </option>
                        ))}
                      </Select>
                    </div>
                  ) : null}
                </li>
              );
            })}
          </ol>
        </Panel>

        <PoolPanel mode={mode} setMode={setMode} cardIds={cardIds} setCardIds={setCardIds} className={className} />
      </div>

      <div className="space-y-4 xl:sticky xl:top-4 xl:self-start">
        <Panel id="live-stats" title="Value (live)" description="Recomputed as you type, from the cards in stock now.">
          {detail.products.length > 1 ? (
            <FormField label="Price of" className="mb-4">
              <Select value={priceProduct} onChange={(e) => setPriceProduct(e.target.value)}>
                {detail.products.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </Select>
            </FormField>
          ) : null}
          {poolCards.isPending ? (
            <p role="status" className="text-sm text-zinc-400">
              Loading the cards in stock…
            </p>
          ) : poolCards.isError ? (
            <Notice tone="danger">The cards in stock could not be loaded, so the statistics cannot be computed. Reload to try again.</Notice>
          ) : (
            <dl className="grid grid-cols-2 gap-3 text-sm" data-testid="live-stats">
              <dt className="text-zinc-400">Floor</dt>
              <dd className="text-right font-semibold text-white">
                <Money cents={stats.floorCents} />
              </dd>
              <dt className="text-zinc-400">Expected value</dt>
              <dd className="text-right font-semibold text-gold-300" data-testid="live-ev">
                <Money cents={stats.expectedValueCents} />
              </dd>
              <dt className="text-zinc-400">Ceiling</dt>
              <dd className="text-right font-semibold text-white">
                <Money cents={stats.ceilingCents} />
              </dd>
              <dt className="text-zinc-400">Price</dt>
              <dd className="text-right text-white">{price !== null ? <Money cents={price} /> : '—'}</dd>
              <dt className="text-zinc-400">House edge</dt>
              <dd className="text-right font-semibold">
                {stats.houseEdgeBp === null ? <span className="text-zinc-400">needs a product</span> : <HouseEdge bp={stats.houseEdgeBp} />}
              </dd>
            </dl>
          )}
          {stats.houseEdgeBp !== null && stats.houseEdgeBp < 0 ? (
            <p className="mt-3 text-xs text-red-300">Negative edge: on average this pack pays out more than it costs.</p>
          ) : null}
          {poolCards.data && !poolCards.data.complete ? (
            <p className="mt-3 text-xs text-amber-300">Only the first {poolCards.data.cards.length} cards were loaded; figures are approximate.</p>
          ) : null}
        </Panel>
        {stats.emptyClasses.length ? (
          <Notice tone="warning" title="This pack will be sold out">
            <AlertTriangle aria-hidden="true" className="mr-1 inline size-4" />
            {stats.emptyClasses.map(className).join(', ')} {stats.emptyClasses.length === 1 ? 'has' : 'have'} no cards in stock
            {mode === 'cards' ? ' among the selected cards' : ''}. Odds are never changed to work around it: the pack cannot be
            bought or opened until stock is added or the class is removed from the odds.
          </Notice>
        ) : null}
        {detail.warnings.length ? (
          <Notice tone="info" title="As saved">
            <ul className="list-disc pl-4">
              {detail.warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          </Notice>
        ) : null}
        <Button size="lg" className="w-full" onClick={submit} loading={save.isPending} disabled={!allOk}>
          Save pack
        </Button>
        {!allOk ? (
          <p className="text-sm text-amber-300" role="status">
            {slots.length === 0
              ? 'Add at least one card slot.'
              : mode === 'cards' && cardIds.length === 0
                ? 'Pick at least one card for the pool.'
                : 'Every slot must add up to exactly 100%, with every class above 0%.'}
          </p>
        ) : null}
      </div>
    </div>
  );
}

function PoolPanel({
  mode,
  setMode,
  cardIds,
  setCardIds,
  className,
}: {
  mode: 'classes' | 'cards';
  setMode: (m: 'classes' | 'cards') => void;
  cardIds: string[];
  setCardIds: (ids: string[]) => void;
  className: (id: string) => string;
}) {
  const poolCards = useQuery(poolCardsQuery);
  const [q, setQ] = useState('');
  const selected = useMemo(() => new Set(cardIds), [cardIds]);
  const cards = poolCards.data?.cards ?? [];
  const shown = cards.filter((c) => !q || c.name.toLowerCase().includes(q.toLowerCase())).slice(0, 200);
  const missing = cardIds.filter((id) => !cards.some((c) => c.id === id)).length;
  return (
    <Panel id="pool" title="Pool of eligible cards" description="Which cards a slot's class can give. Only active cards with stock are ever drawn.">
      <fieldset className="space-y-2">
        <legend className="sr-only">Pool</legend>
        <label className="flex items-start gap-3 text-sm">
          <input type="radio" name="pool-mode" className="mt-1 accent-violet-500" checked={mode === 'classes'} onChange={() => setMode('classes')} />
          <span>
            <span className="font-medium text-white">Every card of the slot&apos;s classes</span>
            <span className="block text-zinc-400">New cards join the pool as soon as they are active and in stock.</span>
          </span>
        </label>
        <label className="flex items-start gap-3 text-sm">
          <input type="radio" name="pool-mode" className="mt-1 accent-violet-500" checked={mode === 'cards'} onChange={() => setMode('cards')} />
          <span>
            <span className="font-medium text-white">Only the cards I pick</span>
            <span className="block text-zinc-400">Still limited to the slot&apos;s classes, active cards and stock.</span>
          </span>
        </label>
      </fieldset>
      {mode === 'cards' ? (
        <div className="mt-4 space-y-3">
          <div className="flex flex-wrap items-end gap-3">
            <FormField label="Find cards" className="min-w-48 flex-1">
              <Input value={q} onChange={(e) => setQ(e.target.value)} placeholder="Name" />
            </FormField>
            <p className="pb-2 text-sm text-zinc-300">{cardIds.length} picked</p>
            <Button size="sm" variant="ghost" onClick={() => setCardIds([])} disabled={!cardIds.length}>
              Clear
            </Button>
          </div>
          {missing ? <p className="text-xs text-amber-300">{missing} picked card(s) are out of stock or inactive right now.</p> : null}
          <ul className="max-h-80 space-y-1 overflow-y-auto rounded-lg border border-white/10 p-2">
            {shown.map((c) => (
              <li key={c.id}>
                <label className="flex cursor-pointer items-center gap-3 rounded px-2 py-1.5 text-sm hover:bg-white/5">
                  <input
                    type="checkbox"
                    className="accent-violet-500"
                    checked={selected.has(c.id)}
                    onChange={(e) => setCardIds(e.target.checked ? [...cardIds, c.id] : cardIds.filter((x) => x !== c.id))}
                  />
                  <span className="flex-1 truncate text-white">{c.name}</span>
                  <span className="text-xs text-zinc-400">{className(c.classId)}</span>
                  <Money cents={c.valueCents} className="w-20 text-right text-zinc-300" />
                  <span className="w-16 text-right text-xs text-zinc-500">{c.stock} left</span>
                </label>
              </li>
            ))}
            {shown.length === 0 ? <li className="p-2 text-sm text-zinc-400">No cards in stock match.</li> : null}
          </ul>
        </div>
      ) : null}
    </Panel>
  );
}
