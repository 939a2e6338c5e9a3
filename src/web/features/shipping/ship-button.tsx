import { lazy, Suspense, useEffect, useState } from 'react';
import { Truck } from 'lucide-react';
import { Button } from '@web/components/ui';

// The ship dialog (address forms, zod, react-hook-form) loads when a selection first appears, not
// with /collect's first screen.
const loadShipDialog = () => import('./ship-dialog');
const ShipDialog = lazy(() => loadShipDialog().then((m) => ({ default: m.ShipDialog })));

/**
 * "Ship N" for a selection of vault cards (the /collect page puts it in the vault's selection
 * bar): opens the ship dialog and hands back the ids once the shipment is requested.
 */
export function ShipCardsButton({
  cards,
  onShipped,
  label,
}: {
  cards: Array<{ id: string; name: string }>;
  onShipped?: (ids: string[]) => void;
  /** The button's words; "Ship N" by default (a selection), "Ship" suits one card's dialog. */
  label?: string;
}) {
  const [open, setOpen] = useState(false);
  const [ids, setIds] = useState<string[]>([]);
  const names = new Map(cards.map((c) => [c.id, c.name]));
  useEffect(() => void loadShipDialog(), []);
  return (
    <>
      <Button
        variant="secondary"
        onClick={() => {
          // The dialog quotes the selection as it was when opened.
          setIds(cards.map((c) => c.id));
          setOpen(true);
        }}
      >
        <Truck aria-hidden="true" className="size-4" />
        {label ?? `Ship ${cards.length}`}
      </Button>
      {open ? (
        <Suspense fallback={null}>
          <ShipDialog
            open
            ownedCardIds={ids}
            cardNames={names}
            onOpenChange={setOpen}
            onShipped={() => onShipped?.(ids)}
            onDropCards={(drop) => setIds((prev) => prev.filter((id) => !drop.includes(id)))}
          />
        </Suspense>
      ) : null}
    </>
  );
}
