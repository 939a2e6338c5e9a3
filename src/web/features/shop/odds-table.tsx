import { useMemo, useState } from 'react';
import type { CardOdds, PackSlotOdds } from '@shared/contracts/shop';
import { Button, Money, Table, TBody, Td, Th, THead, Tr } from '@web/components/ui';
import { plural } from '@web/lib/format';

/** A probability (0–1) as a percentage with enough digits to be the odds used, not a rounded story. */
export function formatPercent(p: number): string {
  const v = p * 100;
  if (v === 0) return '0%';
  if (v >= 10) return `${trim(v.toFixed(2))}%`;
  if (v >= 0.01) return `${trim(v.toFixed(3))}%`;
  return `${v.toPrecision(3)}%`;
}
const trim = (s: string) => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);

function ClassName({ name, colour }: { name: string; colour: string }) {
  return (
    <span className="inline-flex items-center gap-2 font-medium text-white">
      <span aria-hidden="true" className="size-2.5 rounded-full" style={{ background: colour, boxShadow: `0 0 8px ${colour}` }} />
      {name}
    </span>
  );
}

/** Odds per slot: each class's share of the slot (from its integer weight) and what it can give. */
export function SlotOddsTable({ slotOdds }: { slotOdds: PackSlotOdds[] }) {
  return (
    <div className="space-y-4">
      {slotOdds.map((s) => (
        <Table key={s.slot} caption={`Card ${s.slot + 1}`}>
          <THead>
            <Tr>
              <Th>Class</Th>
              <Th className="text-right">Chance</Th>
              <Th className="text-right">Weight</Th>
              <Th className="text-right">Cards in pool</Th>
              <Th className="text-right">Values</Th>
            </Tr>
          </THead>
          <TBody>
            {s.odds.map((o) => (
              <Tr key={o.classId}>
                <Td>
                  <ClassName name={o.className} colour={o.classColour} />
                </Td>
                <Td className="text-right font-semibold text-white tabular-nums">{formatPercent(o.probability)}</Td>
                <Td className="text-right text-zinc-400 tabular-nums">
                  {o.weight} / {s.totalWeight}
                </Td>
                <Td className="text-right tabular-nums">
                  {o.poolSize === 0 ? <span className="font-semibold text-red-300">none in stock</span> : o.poolSize}
                </Td>
                <Td className="text-right whitespace-nowrap text-zinc-300">
                  {o.minValueCents !== null && o.maxValueCents !== null ? (
                    <>
                      <Money cents={o.minValueCents} /> – <Money cents={o.maxValueCents} />
                    </>
                  ) : (
                    '—'
                  )}
                </Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      ))}
    </div>
  );
}

const FIRST = 25;

/** Copies expected per pack: a percentage up to one, a count above. */
const perPack = (n: number) => (n <= 1 ? formatPercent(n) : `${n.toFixed(2)} copies`);

/** Odds per card: its chance in each slot and the copies expected per pack, best cards first. */
export function CardOddsTable({
  cardOdds,
  classes,
}: {
  cardOdds: CardOdds[];
  classes: Map<string, { name: string; colour: string }>;
}) {
  const [all, setAll] = useState(false);
  const [classFilter, setClassFilter] = useState<string>('');
  const sorted = useMemo(
    () =>
      [...cardOdds]
        .filter((c) => !classFilter || c.classId === classFilter)
        .sort((a, b) => b.valueCents - a.valueCents || b.expectedPerPack - a.expectedPerPack),
    [cardOdds, classFilter],
  );
  const shown = all ? sorted : sorted.slice(0, FIRST);
  const slotCount = cardOdds[0]?.perSlot.length ?? 0;
  const classIds = [...new Set(cardOdds.map((c) => c.classId))];
  return (
    <div className="space-y-3">
      {classIds.length > 1 ? (
        <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Show cards of class">
          <Button size="sm" variant={classFilter ? 'ghost' : 'secondary'} aria-pressed={!classFilter} onClick={() => setClassFilter('')}>
            All classes
          </Button>
          {classIds.map((id) => (
            <Button
              key={id}
              size="sm"
              variant={classFilter === id ? 'secondary' : 'ghost'}
              aria-pressed={classFilter === id}
              onClick={() => setClassFilter(id)}
            >
              {classes.get(id)?.name ?? 'Class'}
            </Button>
          ))}
        </div>
      ) : null}
      {/* A phone gets one line per card instead of a table of up to 14 columns to scroll sideways. */}
      <ul className="space-y-2 sm:hidden" aria-label="Chance of each card, per pack and per card slot">
        {shown.map((c) => {
          const cls = classes.get(c.classId);
          const slots = c.perSlot.flatMap((p, i) => (p && slotCount > 1 ? [`card ${i + 1}: ${formatPercent(p)}`] : []));
          return (
            <li key={c.cardId} className="rounded-xl border border-white/10 bg-surface/60 px-3 py-2.5 text-sm">
              <div className="flex items-baseline justify-between gap-3">
                <span className="min-w-0 truncate font-medium text-white">{c.name}</span>
                <Money cents={c.valueCents} className="shrink-0" />
              </div>
              <div className="mt-1 flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
                {cls ? <ClassName name={cls.name} colour={cls.colour} /> : <span>—</span>}
                <span className="font-semibold text-white tabular-nums">{perPack(c.expectedPerPack)} per pack</span>
              </div>
              {slots.length ? <p className="mt-1 text-xs text-zinc-400 tabular-nums">By slot: {slots.join(' · ')}</p> : null}
            </li>
          );
        })}
      </ul>
      <div className="hidden sm:block">
        <Table caption="Chance of each card, per pack and per card slot">
          <THead>
            <Tr>
              <Th>Card</Th>
              <Th>Class</Th>
              <Th className="text-right">Value</Th>
              <Th className="text-right">Per pack</Th>
              {slotCount <= 10
                ? Array.from({ length: slotCount }, (_, i) => (
                    <Th key={i} className="text-right">
                      Card {i + 1}
                    </Th>
                  ))
                : null}
            </Tr>
          </THead>
          <TBody>
            {shown.map((c) => {
              const cls = classes.get(c.classId);
              return (
                <Tr key={c.cardId}>
                  <Td className="max-w-56 truncate font-medium text-white">{c.name}</Td>
                  <Td>{cls ? <ClassName name={cls.name} colour={cls.colour} /> : '—'}</Td>
                  <Td className="text-right">
                    <Money cents={c.valueCents} />
                  </Td>
                  <Td className="text-right font-semibold text-white tabular-nums">{perPack(c.expectedPerPack)}</Td>
                  {slotCount <= 10
                    ? c.perSlot.map((p, i) => (
                        <Td key={i} className="text-right text-zinc-400 tabular-nums">
                          {p ? formatPercent(p) : '—'}
                        </Td>
                      ))
                    : null}
                </Tr>
              );
            })}
          </TBody>
        </Table>
      </div>
      <p className="text-xs text-zinc-400">
        “Per pack” is the expected number of copies of the card in one pack (the sum of its per-slot chances), shown as a
        percentage. Within a class every card in stock is equally likely.
      </p>
      {sorted.length > FIRST ? (
        <Button variant="secondary" size="sm" onClick={() => setAll((v) => !v)} aria-expanded={all}>
          {all ? 'Show fewer cards' : `Show all ${plural(sorted.length, 'card')}`}
        </Button>
      ) : null}
    </div>
  );
}
