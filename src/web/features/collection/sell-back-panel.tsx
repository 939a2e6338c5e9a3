import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { parseMoney } from '@shared/money';
import type { BuybackInput } from '@shared/contracts/collection';
import { STATUS_LABEL } from '@shared/contracts/owned-cards';
import { Badge, Button, FieldError, Input, Label, Money, Notice, SkeletonText, VisuallyHidden, buttonClasses, cn } from '@web/components/ui';
import { collectionQuery } from './api';
import { STATUS_TONE } from './format';
import { SellBackDialog } from './sell-back-dialog';

export interface SellBackPanelProps {
  /** The owned card ids just revealed (e.g. every card of an opening). */
  ownedCardIds: string[];
  className?: string;
}

/**
 * Selling right after a reveal: each revealed card with "Sell", and "Sell all below $X". Every
 * sale shows the quote first. Cards already sold (here or in another tab) show as sold.
 */
export function SellBackPanel({ ownedCardIds, className }: SellBackPanelProps) {
  const ids = [...new Set(ownedCardIds)].slice(0, 100);
  const list = useQuery({
    ...collectionQuery({ ids: ids.join(','), status: 'all', sort: 'value_desc', pageSize: 100 }),
    enabled: ids.length > 0,
  });
  const [sale, setSale] = useState<BuybackInput | null>(null);
  const [below, setBelow] = useState('');
  const [belowError, setBelowError] = useState<string | null>(null);
  const inputId = useId();
  const errorId = useId();

  if (!ids.length) return null;
  const items = list.data?.items ?? [];
  const inVault = items.filter((i) => i.status === 'in_vault');

  const sellBelow = (e: React.FormEvent) => {
    e.preventDefault();
    const cents = parseMoney(below);
    if (cents === null || cents < 1) {
      setBelowError('Enter an amount like 5 or 2.50.');
      return;
    }
    const matching = inVault.filter((i) => i.valueCents < cents);
    if (!matching.length) {
      setBelowError('None of these cards is worth less than that.');
      return;
    }
    setBelowError(null);
    setSale({ ownedCardIds: inVault.map((i) => i.id), belowCents: cents });
  };

  return (
    <section aria-labelledby="sell-back-title" className={cn('rounded-2xl border border-white/10 bg-surface/80 p-4 sm:p-5', className)}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="sell-back-title" className="text-base font-semibold text-white">
          Sell back
        </h2>
        <Link to="/collect" className="text-sm text-violet-300 underline-offset-4 hover:underline">
          Go to my vault
        </Link>
      </div>
      <p className="mt-1 text-sm text-zinc-400">Keep them in your vault, or sell any of them back now for credit.</p>

      {list.isPending ? (
        <SkeletonText lines={3} label="Loading your cards" className="mt-4" />
      ) : list.isError ? (
        <Notice
          tone="danger"
          title="We could not load these cards"
          className="mt-4"
          action={
            <Button size="sm" variant="secondary" onClick={() => void list.refetch()}>
              Try again
            </Button>
          }
        >
          {list.error.message}
        </Notice>
      ) : (
        <>
          <ul className="mt-4 divide-y divide-white/10 rounded-xl border border-white/10" aria-label="Revealed cards">
            {items.map((i) => (
              <li key={i.id} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
                <span className="min-w-0">
                  <span className="block truncate font-medium text-white">{i.card.name}</span>
                  <span className="text-xs text-zinc-400">
                    {i.className} · <Money cents={i.valueCents} />
                  </span>
                </span>
                {i.status === 'in_vault' ? (
                  <Button size="sm" variant="secondary" onClick={() => setSale({ ownedCardIds: [i.id] })}>
                    {/* The name starts with the visible text (axe: label-content-name-mismatch), then says which card. */}
                    Sell for <Money cents={i.buybackCents} />
                    <VisuallyHidden>: {i.card.name}</VisuallyHidden>
                  </Button>
                ) : (
                  <Badge tone={STATUS_TONE[i.status]}>{STATUS_LABEL[i.status]}</Badge>
                )}
              </li>
            ))}
          </ul>
          {inVault.length > 1 ? (
            <form onSubmit={sellBelow} className="mt-4 flex flex-wrap items-end gap-2" noValidate>
              <div className="min-w-40 flex-1">
                <Label htmlFor={inputId}>Sell all worth less than ($)</Label>
                <Input
                  id={inputId}
                  inputMode="decimal"
                  className="mt-1"
                  value={below}
                  onChange={(e) => setBelow(e.target.value)}
                  placeholder="5.00"
                  aria-invalid={belowError ? true : undefined}
                  aria-describedby={belowError ? errorId : undefined}
                />
              </div>
              <Button type="submit">Sell all below</Button>
              <div className="w-full">
                <FieldError id={errorId}>{belowError}</FieldError>
              </div>
            </form>
          ) : null}
          {inVault.length === 0 && items.length > 0 ? (
            <p className="mt-3 text-sm text-zinc-400">
              None of these cards is in your vault any more.{' '}
              <Link to="/collect" className={buttonClasses({ variant: 'ghost', size: 'sm' })}>
                See your vault
              </Link>
            </p>
          ) : null}
        </>
      )}
      {sale ? <SellBackDialog open input={sale} onOpenChange={(o) => !o && setSale(null)} /> : null}
    </section>
  );
}
