import { useState } from 'react';
import { Truck } from 'lucide-react';
import { Button } from '@web/components/ui';
import { ShipDialog } from './ship-dialog';

/**
 * "Ship N" for a selection of vault cards (the /collect page puts it in the vault's selection
 * bar): opens the ship dialog and hands back the ids once the shipment is requested.
 */
export function ShipCardsButton({ cards, onShipped }: { cards: Array<{ id: string; name: string }>; onShipped?: (ids: string[]) => void }) {
  const [open, setOpen] = useState(false);
  const [ids, setIds] = useState<string[]>([]);
  const names = new Map(cards.map((c) => [c.id, c.name]));
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
        Ship {cards.length}
      </Button>
      {open ? <ShipDialog
          open
          ownedCardIds={ids}
          cardNames={names}
          onOpenChange={setOpen}
          onShipped={() => onShipped?.(ids)}
          onDropCards={(drop) => setIds((prev) => prev.filter((id) => !drop.includes(id)))}
        /> : null}
    </>
  );
}
