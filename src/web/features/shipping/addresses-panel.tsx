import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { MapPin, Plus } from 'lucide-react';
import type { Address } from '@shared/contracts/shipping';
import { Badge, Button, ConfirmDialog, Dialog, EmptyState, Panel, SkeletonText, toast } from '@web/components/ui';
import { AddressForm } from './address-form';
import { addressesQuery, optionsQuery, useDefaultAddress, useDeleteAddress, useSaveAddress } from './api';
import { AddressBlock, LoadError, countryName, errorText } from './parts';
import { plural } from '@web/lib/format';

/** The dialog to add or edit one address; used by the addresses panel and the ship dialog. */
export function AddressDialog({
  open,
  onOpenChange,
  existing,
  onSaved,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  existing: Address | null;
  onSaved?: (a: Address) => void;
}) {
  const options = useQuery(optionsQuery);
  const save = useSaveAddress();
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={existing ? 'Edit address' : 'Add an address'}
      description={
        options.data
          ? `We ship to ${options.data.countryOptions.map((c) => c.name).join(', ')}.`
          : 'Where your cards should go. The carrier prints it as you write it.'
      }
    >
      {options.isError ? (
        <LoadError what="the countries we ship to" error={options.error} retry={() => void options.refetch()} />
      ) : !options.data ? (
        <SkeletonText lines={5} label="Loading the form" />
      ) : (
        <AddressForm
          existing={existing}
          countries={options.data.countries}
          save={(input) => save.mutateAsync({ id: existing?.id ?? null, input })}
          onCancel={() => onOpenChange(false)}
          onSaved={(a) => {
            toast.success(existing ? 'Address updated' : 'Address added', addressSummary(a));
            onOpenChange(false);
            onSaved?.(a);
          }}
        />
      )}
    </Dialog>
  );
}

export function addressSummary(a: Pick<Address, 'name' | 'city' | 'country'>): string {
  return `${a.name}, ${a.city}, ${countryName(a.country)}`;
}

/** /profile/shipping: the user's addresses, one of them the default. */
export function AddressesPanel() {
  const list = useQuery(addressesQuery);
  const options = useQuery(optionsQuery);
  const [editing, setEditing] = useState<Address | 'new' | null>(null);
  const [removing, setRemoving] = useState<Address | null>(null);
  const setDefault = useDefaultAddress();
  const remove = useDeleteAddress();
  const items = list.data?.items ?? [];
  const shipsTo = new Set(options.data?.countries ?? []);

  return (
    <Panel
      id="addresses"
      title="Addresses"
      description="Where we send your cards. The default is picked first when you ship."
      actions={
        <Button size="sm" onClick={() => setEditing('new')}>
          <Plus aria-hidden="true" className="size-4" />
          Add address
        </Button>
      }
    >
      <div>
        {list.isError ? (
          <LoadError what="your addresses" error={list.error} retry={() => void list.refetch()} />
        ) : !list.data ? (
          <SkeletonText lines={4} label="Loading your addresses" />
        ) : items.length === 0 ? (
          <EmptyState
            icon={<MapPin />}
            title="No address yet"
            description="Add the address your cards should be shipped to."
            action={<Button onClick={() => setEditing('new')}>Add your first address</Button>}
          />
        ) : (
          <ul className="grid gap-4 md:grid-cols-2" aria-label="Your addresses">
            {items.map((a) => (
              <li key={a.id} className="flex flex-col gap-3 rounded-xl border border-white/10 bg-white/[0.02] p-4">
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <AddressBlock address={a} />
                  <div className="flex flex-wrap gap-1">
                    {a.isDefault ? <Badge tone="violet">Default</Badge> : null}
                    {options.data && !shipsTo.has(a.country) ? <Badge tone="warning">Not shipped to now</Badge> : null}
                  </div>
                </div>
                <div className="mt-auto flex flex-wrap gap-2">
                  <Button size="sm" variant="secondary" onClick={() => setEditing(a)} aria-label={`Edit ${addressSummary(a)}`}>
                    Edit
                  </Button>
                  {!a.isDefault ? (
                    <Button
                      size="sm"
                      variant="secondary"
                      aria-label={`Make ${addressSummary(a)} the default`}
                      loading={setDefault.isPending && setDefault.variables === a.id}
                      onClick={() =>
                        setDefault.mutate(a.id, {
                          onSuccess: () => toast.success('Default address set', addressSummary(a)),
                          onError: (err) => toast.error('The default did not change', errorText(err)),
                        })
                      }
                    >
                      Make default
                    </Button>
                  ) : null}
                  <Button size="sm" variant="ghost" onClick={() => setRemoving(a)} aria-label={`Remove ${addressSummary(a)}`}>
                    Remove
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </div>
      {editing ? (
        <AddressDialog open existing={editing === 'new' ? null : editing} onOpenChange={(o) => !o && setEditing(null)} />
      ) : null}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(o) => !o && setRemoving(null)}
        title="Remove this address?"
        description={
          removing
            ? removing.shipmentCount > 0
              ? `${addressSummary(removing)} was used by ${plural(removing.shipmentCount, 'shipment')}: it is archived, so those shipments keep it, and it leaves this list.`
              : `${addressSummary(removing)} is deleted.`
            : undefined
        }
        confirmLabel="Remove"
        variant="danger"
        onConfirm={async () => {
          if (!removing) return;
          try {
            const r = await remove.mutateAsync(removing.id);
            toast.success(r.outcome === 'archived' ? 'Address archived' : 'Address deleted', addressSummary(removing));
          } catch (err) {
            toast.error('The address was not removed', errorText(err));
            throw err;
          }
        }}
      />
    </Panel>
  );
}
