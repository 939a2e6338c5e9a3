import { formatDateTime, plural, verb } from '@web/lib/format';
import { useRef, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from '@tanstack/react-router';
import { Minus, PackageOpen, Plus, ShoppingBag } from 'lucide-react';
import type { OpenResult, ProductSummary, PurchaseResult } from '@shared/contracts/shop';
import { MAX_PURCHASE_QUANTITY } from '@shared/shop-limits';
import { productReturnPath } from '@shared/top-up';
import { Button, buttonClasses, Money, Notice, StickyActionBar } from '@web/components/ui';
import { SpendingPaused } from '@web/components/spending-paused';
import { ApiClientError } from '@web/lib/api';
import { balanceQuery } from '@web/lib/balance-query';
import { useMoneyAction } from '@web/hooks/use-money-action';
import { useOpen, usePurchase } from './api';
import { preloadRevealAnimation } from './reveal/build-up';

const link = 'font-semibold text-white underline underline-offset-4 hover:text-fuchsia-200';

/**
 * What happened to the money when a purchase (or buy-and-open) failed. A refusal (4xx) comes from
 * the one transaction that debits, so nothing was charged. With no answer, or a 5xx, the request
 * may still have gone through: the balance tells, and the same click retries with the same
 * Idempotency-Key (useMoneyAction), so it never charges twice.
 */
export function moneyAfterFailure(error: unknown, action: MoneyAction = 'buy'): string {
  const refused = error instanceof ApiClientError && error.status >= 400 && error.status < 500;
  // Opening packs already bought charges nothing: what the user needs to know is where the packs are.
  if (action === 'open') {
    return refused
      ? 'Your packs are still unopened.'
      : 'If they were opened, the cards are in your vault and the opening is under “Recently opened”; trying again never opens a pack twice.';
  }
  if (refused) return 'Nothing was charged.';
  return 'If you were charged, your balance and your unopened packs show it; trying again never charges twice.';
}

/** Buying packs (and buy-and-open), or opening packs already bought. */
export type MoneyAction = 'buy' | 'open';

/** What went wrong with a purchase or an opening, and what to do about it, as the user needs to read it. */
export function PurchaseError({ error, redirect, action = 'buy' }: { error: unknown; redirect: string; action?: MoneyAction }) {
  if (!(error instanceof ApiClientError)) {
    return (
      <Notice tone="danger" title="Something went wrong">
        {moneyAfterFailure(error, action)} Try again in a moment.
      </Notice>
    );
  }
  let title: ReactNode = action === 'open' ? 'We could not open your packs' : 'We could not complete the purchase';
  // The server's own words, and what that meant for the money (or the packs) unless they say it already.
  const said = action === 'open' ? /still unopened/i : /nothing was charged/i;
  const money = said.test(error.message) ? '' : ` ${moneyAfterFailure(error, action)}`;
  let body: ReactNode = `${error.message}${money}`;
  switch (error.code) {
    case 'unauthorized':
      title = 'Sign in to buy packs';
      body = (
        <>
          Your session has ended.{' '}
          <Link to="/sign-in" search={{ redirect }} className={link}>
            Sign in
          </Link>{' '}
          and try again; {action === 'open' ? 'your packs are still unopened' : 'nothing was charged'}.
        </>
      );
      break;
    case 'email_not_verified':
      title = 'Confirm your email first';
      body = (
        <>
          Before you spend anything we need to know your email address is yours. Open the link we sent you, or{' '}
          <Link to="/confirm-request" className={link}>
            send a new confirmation email
          </Link>
          .
        </>
      );
      break;
    case 'insufficient_funds':
      title = 'Not enough credit';
      body = (
        <>
          {error.message} Nothing was charged. Your balance changed since this page loaded: top up the difference, or{' '}
          <Link to="/profile/billing" search={{ return: redirect }} className={link}>
            add funds in billing
          </Link>
          .
        </>
      );
      break;
    case 'sold_out':
      title = 'Sold out';
      break;
    case 'not_released':
      title = 'Not on sale yet';
      break;
    case 'purchase_limit_reached':
      title = 'Purchase limit reached';
      break;
    case 'self_excluded':
      title = 'Spending is paused on your account';
      body = (
        <>
          {error.message}
          {money} You can review your limits in{' '}
          <Link to="/profile/privacy-and-security" className={link}>
            privacy and security
          </Link>
          .
        </>
      );
      break;
    case 'network_error':
      title = 'No connection';
      body = `We could not reach the server. ${moneyAfterFailure(error, action)} Check your connection and try again.`;
      break;
  }
  return (
    <Notice tone={error.code === 'sold_out' || error.code === 'not_released' ? 'warning' : 'danger'} title={title}>
      {body}
    </Notice>
  );
}

export interface BuyPanelProps {
  product: ProductSummary;
  signedIn: boolean;
  /** Buy-and-open finished: the openings are settled; the page shows the reveal. */
  onOpened: (result: OpenResult, quantity: number) => void;
  /**
   * With too little credit: the page's "Top up the difference" (the wallet feature's), given the
   * shortfall and the path that brings the user back here with the purchase waiting.
   */
  topUp?: (shortfallCents: number, returnPath: string) => ReactNode;
  /** A purchase waiting since a top-up (from the return path): offered, never bought without a click. */
  pendingQuantity?: number | null;
  /** The waiting purchase was bought or dismissed: the page drops it from the URL. */
  onPendingDone?: () => void;
  /** Buy-and-open started: the page preloads what it shows after the reveal (the sell-back panel). */
  onOpening?: () => void;
}

/**
 * Quantity, price, "Buy" and "Buy and open". The panel is one intent at a time (useMoneyAction):
 * its Idempotency-Key is minted when it mounts and renewed only once the server has answered, and
 * from the first click until then every buy button here and in the phone bar is busy, so a
 * double-click buys once. What the messages say was charged comes from the server's answer.
 */
export function BuyPanel({ product, signedIn, onOpened, topUp, pendingQuantity = null, onPendingDone, onOpening }: BuyPanelProps) {
  const location = useLocation();
  const panel = useRef<HTMLDivElement>(null);
  const [quantity, setQuantity] = useState(() => pendingQuantity ?? 1);
  const [bought, setBought] = useState<PurchaseResult | null>(null);
  const purchase = usePurchase();
  const open = useOpen();
  const balance = useQuery({ ...balanceQuery, enabled: signedIn, retry: false });
  const action = useMoneyAction(async ({ andOpen, quantity: q }: { andOpen: boolean; quantity: number }, key: string) => {
    setBought(null);
    if (andOpen) {
      purchase.reset();
      preloadRevealAnimation();
      onOpening?.();
      return { kind: 'opened' as const, opened: await open.mutateAsync({ input: { productId: product.id, quantity: q }, key }) };
    }
    open.reset();
    return { kind: 'bought' as const, bought: await purchase.mutateAsync({ input: { productId: product.id, quantity: q }, key }) };
  });
  const busy = action.busy || purchase.isPending || open.isPending;
  const buying = action.pending !== null && !action.pending.andOpen;
  const opening = action.pending?.andOpen === true;
  const error = purchase.error ?? open.error;
  const total = product.priceCents * quantity;
  const unavailable = product.soldOut || product.upcoming;
  const shortfall = balance.data ? Math.max(0, total - balance.data.balanceCents) : 0;
  const short = shortfall > 0;
  const pending = pendingQuantity !== null && pendingQuantity === quantity && signedIn;
  // Self-excluded: the buttons are disabled with the reason, rather than failing on click.
  const pausedUntil = signedIn ? (balance.data?.selfExcludedUntil ?? null) : null;

  const setQ = (q: number) => setQuantity(Math.min(MAX_PURCHASE_QUANTITY, Math.max(1, Math.round(q) || 1)));

  // A refusal is shown from the mutation's error; nothing else to do with it here.
  const buy = (e?: { detail: number }) => {
    action.run({ andOpen: false, quantity }, e).then((r) => {
      if (r?.kind !== 'bought') return;
      setBought(r.bought);
      onPendingDone?.();
    }, () => undefined);
  };
  const buyAndOpen = (e?: { detail: number }) => {
    action.run({ andOpen: true, quantity }, e).then((r) => {
      if (r?.kind !== 'opened') return;
      onPendingDone?.();
      onOpened(r.opened, r.opened.purchase?.quantity ?? r.opened.openings.length);
    }, () => undefined);
  };
  const packsLabel = plural(quantity, 'pack');

  if (unavailable) {
    return (
      <Notice tone="warning" title={product.upcoming ? 'Not on sale yet' : 'Sold out'} live={false}>
        {product.upcoming
          ? `This pack goes on sale ${product.releaseAt ? formatDateTime(product.releaseAt) : 'soon'}. Come back then.`
          : product.soldOutReasons[0]?.message ?? 'A class in this pack has no cards in stock, so it cannot be opened fairly right now.'}{' '}
        The odds are never changed to work around missing stock.
      </Notice>
    );
  }

  // The phone bar repeats the panel's main action (the same handlers), for a panel far below the fold.
  const showPanel = () => {
    panel.current?.scrollIntoView({ behavior: 'smooth', block: 'center' });
    panel.current?.querySelector<HTMLElement>('button:not(:disabled), a[href]')?.focus({ preventScroll: true });
  };
  const barAction =
    pausedUntil ? (
      <Button disabled aria-describedby="buy-paused">
        <PackageOpen aria-hidden="true" className="size-4" /> Buy and open
      </Button>
    ) : signedIn && short ? (
      <Button variant="secondary" onClick={showPanel}>
        Add <Money cents={shortfall} /> to buy
      </Button>
    ) : signedIn ? (
      <Button onClick={buyAndOpen} loading={opening} loadingText="Opening…" disabled={busy}>
        <PackageOpen aria-hidden="true" className="size-4" /> Buy and open
      </Button>
    ) : (
      <Link to="/sign-in" search={{ redirect: location.href }} className={buttonClasses()}>
        Sign in to buy
      </Link>
    );

  return (
    <div ref={panel} className="space-y-4">
      <StickyActionBar watch={panel} label={`Buy ${product.name}`}>
        <div className="mx-auto flex max-w-7xl items-center justify-between gap-3">
          <p className="min-w-0 text-sm text-zinc-300">
            <Money cents={total} className="block text-lg font-bold text-white" />
            {packsLabel}
          </p>
          {error ? (
            <Button variant="secondary" onClick={showPanel}>
              See what went wrong
            </Button>
          ) : (
            barAction
          )}
        </div>
      </StickyActionBar>
      <div className="flex flex-wrap items-end gap-4">
        <div>
          <label htmlFor="buy-quantity" className="block text-sm font-medium text-zinc-200">
            Quantity
          </label>
          <div className="mt-1.5 flex items-center gap-1">
            <Button variant="secondary" size="icon" aria-label="One pack fewer" onClick={() => setQ(quantity - 1)} disabled={quantity <= 1 || busy}>
              <Minus aria-hidden="true" className="size-4" />
            </Button>
            <input
              id="buy-quantity"
              type="number"
              inputMode="numeric"
              min={1}
              max={MAX_PURCHASE_QUANTITY}
              value={quantity}
              onChange={(e) => setQ(Number(e.target.value))}
              disabled={busy}
              aria-describedby="buy-quantity-hint"
              className="h-10 w-16 rounded-lg border border-white/15 bg-zinc-900/80 text-center text-base text-white tabular-nums"
            />
            <Button
              variant="secondary"
              size="icon"
              aria-label="One pack more"
              onClick={() => setQ(quantity + 1)}
              disabled={quantity >= MAX_PURCHASE_QUANTITY || busy}
            >
              <Plus aria-hidden="true" className="size-4" />
            </Button>
          </div>
          <p id="buy-quantity-hint" className="mt-1 text-xs text-zinc-400">
            1 to {MAX_PURCHASE_QUANTITY} packs
            {product.purchaseLimitPerUser ? `; at most ${product.purchaseLimitPerUser} per person` : ''}
          </p>
        </div>
        <div className="ml-auto text-right">
          <p className="text-sm text-zinc-400">Total</p>
          <div className="text-2xl font-bold text-white" aria-live="polite">
            <Money cents={total} />
          </div>
          {balance.data ? (
            <p className={short ? 'text-sm text-amber-300' : 'text-sm text-zinc-400'}>
              Balance <Money cents={balance.data.balanceCents} />
            </p>
          ) : null}
        </div>
      </div>

      {pausedUntil ? (
        <div className="space-y-2">
          <div className="grid gap-2 sm:grid-cols-2">
            <Button size="lg" disabled aria-describedby="buy-paused">
              <PackageOpen aria-hidden="true" className="size-5" /> Buy and open
            </Button>
            <Button size="lg" variant="secondary" disabled aria-describedby="buy-paused">
              <ShoppingBag aria-hidden="true" className="size-5" /> Buy
            </Button>
          </div>
          <SpendingPaused id="buy-paused" until={pausedUntil} what="buying packs" />
        </div>
      ) : signedIn && pending && !short ? (
        <Notice
          tone="success"
          title="Finish your purchase"
          action={
            <div className="flex flex-wrap gap-2">
              <Button onClick={buyAndOpen} loading={opening} loadingText="Opening…" disabled={busy}>
                <PackageOpen aria-hidden="true" className="size-4" /> Buy and open {packsLabel}
              </Button>
              <Button variant="secondary" onClick={buy} loading={buying} loadingText="Buying…" disabled={busy}>
                <ShoppingBag aria-hidden="true" className="size-4" /> Buy {packsLabel}
              </Button>
              <Button variant="ghost" onClick={onPendingDone} disabled={busy}>
                Not now
              </Button>
            </div>
          }
        >
          Your credit is in. {packsLabel} of {product.name} for <Money cents={total} /> {verb(quantity, 'is', 'are')} waiting for your click.
        </Notice>
      ) : signedIn && short ? (
        <div className="space-y-3">
          {pending ? (
            <Notice tone="info" title="Waiting for your deposit">
              Your purchase is waiting here. Your balance updates by itself once the payment is confirmed.
            </Notice>
          ) : null}
          <div className="rounded-xl border border-amber-300/30 bg-amber-400/10 p-3">
            <Button size="lg" variant="secondary" className="w-full" disabled aria-describedby="buy-shortfall">
              <ShoppingBag aria-hidden="true" className="size-5" /> Add <Money cents={shortfall} /> to buy
            </Button>
            <p id="buy-shortfall" className="mt-1.5 text-sm text-amber-100">
              Your balance is <Money cents={balance.data?.balanceCents ?? 0} />; {packsLabel} {verb(quantity, 'costs', 'cost')} <Money cents={total} />.
            </p>
          </div>
          {topUp?.(shortfall, productReturnPath(product.id, quantity))}
        </div>
      ) : signedIn ? (
        <div className="grid gap-2 sm:grid-cols-2">
          <Button size="lg" onClick={buyAndOpen} loading={opening} loadingText="Opening…" disabled={busy}>
            <PackageOpen aria-hidden="true" className="size-5" /> Buy and open
          </Button>
          <Button size="lg" variant="secondary" onClick={buy} loading={buying} loadingText="Buying…" disabled={busy}>
            <ShoppingBag aria-hidden="true" className="size-5" /> Buy
          </Button>
        </div>
      ) : (
        <div className="space-y-2">
          <Link to="/sign-in" search={{ redirect: location.href }} className={buttonClasses({ size: 'lg', className: 'w-full' })}>
            Sign in to buy
          </Link>
          <p className="text-center text-sm text-zinc-400">
            New here?{' '}
            <Link to="/sign-up" className="text-violet-300 underline underline-offset-4">
              Create an account
            </Link>
          </p>
        </div>
      )}

      {error ? <PurchaseError error={error} redirect={location.href} /> : null}
      {bought ? (
        <Notice
          tone="success"
          title={`${plural(bought.packs.length, 'pack')} added to your unopened packs`}
          action={
            <Link to="/open-pack" className={buttonClasses({ size: 'sm' })}>
              Open {bought.packs.length === 1 ? 'it' : 'them'} now
            </Link>
          }
        >
          You paid <Money cents={bought.purchase.totalCents} />. Your balance is now <Money cents={bought.purchase.balanceCents} />.
        </Notice>
      ) : null}
    </div>
  );
}
