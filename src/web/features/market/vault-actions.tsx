import { lazy, Suspense, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Store } from 'lucide-react';
import type { MarketListing } from '@shared/contracts/market';
import { Button, ConfirmDialog, Money, Skeleton, toast } from '@web/components/ui';
import { errorText } from '@web/lib/api-errors';
import { listingOfCopyQuery, useDelist } from './api';

// The price forms (react-hook-form, zod and the quote) load when a dialog is first opened, not with the vault.
const loadDialogs = () => import('./price-dialogs');
const SellDialog = lazy(() => loadDialogs().then((m) => ({ default: m.SellDialog })));
const EditPriceDialog = lazy(() => loadDialogs().then((m) => ({ default: m.EditPriceDialog })));
const preload = () => void loadDialogs();

/** "Sell on the market" for a copy in the vault (the vault's card dialog composes it). `done` closes that dialog once listed. */
export function SellOnMarketButton({ copy, onListed }: { copy: { id: string; name: string }; onListed?: (l: MarketListing) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)} onPointerEnter={preload} onFocus={preload}>
        <Store aria-hidden="true" className="size-4" />
        Sell on the market
      </Button>
      {open ? (
        <Suspense fallback={null}>
          <SellDialog copy={copy} open={open} onOpenChange={setOpen} {...(onListed ? { onListed } : {})} />
        </Suspense>
      ) : null}
    </>
  );
}

/** Edit price and delist, for one active listing (the vault's listed copy, the profile's list). */
export function ListingActions({ listing, onDelisted, size = 'md' }: { listing: MarketListing; onDelisted?: () => void; size?: 'sm' | 'md' }) {
  const [editing, setEditing] = useState(false);
  const delist = useDelist();
  return (
    <>
      <Button variant="secondary" size={size} onClick={() => setEditing(true)} onPointerEnter={preload} onFocus={preload}>
        Edit price
      </Button>
      <ConfirmDialog
        trigger={
          <Button variant="ghost" size={size}>
            Delist
          </Button>
        }
        title={`Delist ${listing.name}?`}
        description="The listing ends and the card goes back to your vault, where you can ship it, sell it back or list it again."
        confirmLabel="Delist"
        variant="danger"
        onConfirm={async () => {
          try {
            await delist.mutateAsync(listing.id);
            toast.success('Delisted', `${listing.name} is back in your vault.`);
            onDelisted?.();
          } catch (err) {
            toast.error('Nothing was changed', errorText(err));
            throw err;
          }
        }}
      />
      {editing ? (
        <Suspense fallback={null}>
          <EditPriceDialog listing={listing} open={editing} onOpenChange={setEditing} />
        </Suspense>
      ) : null}
    </>
  );
}

/** A listed copy in the vault: "Listed at $x" with edit price and delist, in place of ship and sell back. */
export function ListedCopyActions({ copy, done }: { copy: { id: string; name: string }; done?: () => void }) {
  const q = useQuery(listingOfCopyQuery(copy.id));
  if (q.isPending) return <Skeleton className="h-10 w-56" />;
  if (q.isError || !q.data) {
    return <p className="text-sm text-zinc-300">{q.isError ? `${errorText(q.error)} ` : ''}This card is listed on the market; see your market page to change it.</p>;
  }
  const l = q.data;
  return (
    <div className="flex flex-wrap items-center justify-end gap-2">
      <p className="mr-auto text-sm text-zinc-200">
        Listed at <Money cents={l.priceCents} className="font-semibold text-white" />
      </p>
      <ListingActions listing={l} {...(done ? { onDelisted: done } : {})} />
    </div>
  );
}
