import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { PackageCheck } from 'lucide-react';
import { Checkbox, EmptyState, Panel, SkeletonText, toast } from '@web/components/ui';
import { FilterSelect } from '@web/components/ui/list-controls';
import { useUrlState } from '@web/lib/url-state';
import { originsQuery, pickListQuery, usePick } from './api';
import { LoadError, StatusBadge, errorText } from './parts';

/** /admin/shipping/cards: every card of the open shipments, by origin and shelf, with check-offs. */
export function AdminPickList() {
  const [s, set] = useUrlState({ originId: '' });
  const list = useQuery(pickListQuery(s.originId));
  const origins = useQuery(originsQuery);
  const pick = usePick();
  const data = list.data;

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-end gap-4">
        <FilterSelect label="Origin" value={s.originId} onChange={(v) => set({ originId: v })}>
          <option value="">All origins</option>
          {origins.data?.items.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
        </FilterSelect>
        {data ? (
          <p className="text-sm text-zinc-300" aria-live="polite">
            <strong className="text-white tabular-nums">{data.picked}</strong> of <span className="tabular-nums">{data.total}</span> cards picked
          </p>
        ) : null}
      </div>
      {list.isError ? (
        <LoadError what="the pick list" error={list.error} retry={() => void list.refetch()} />
      ) : !data ? (
        <SkeletonText lines={8} label="Loading the pick list" />
      ) : data.groups.length === 0 ? (
        <EmptyState icon={<PackageCheck />} title="Nothing to pull" description="No open shipment is waiting for cards from the shelves." />
      ) : (
        <div className="space-y-5">
          {data.groups.map((g, gi) => {
            const key = `${g.origin?.id ?? 'none'}-${g.shelfLocation}`;
            const title = `${g.origin?.name ?? 'Default origin'} · shelf ${g.shelfLocation || 'unassigned'}`;
            const done = g.items.filter((i) => i.picked).length;
            return (
              <Panel key={key} id={`pick-group-${gi}`} title={title} description={`${done} of ${g.items.length} picked`} level={2}>
                <ul className="divide-y divide-white/10" aria-label={title}>
                  {g.items.map((i) => {
                    const busy = pick.isPending && pick.variables?.shipmentCardId === i.shipmentCardId;
                    return (
                      <li key={i.shipmentCardId} className="flex flex-wrap items-center gap-3 py-3">
                        <Checkbox
                          id={`pick-${i.shipmentCardId}`}
                          checked={i.picked}
                          disabled={busy}
                          onChange={(e) =>
                            pick.mutate(
                              { shipmentCardId: i.shipmentCardId, picked: e.target.checked },
                              { onError: (err) => toast.error('The check-off was not saved', errorText(err)) },
                            )
                          }
                        />
                        <label htmlFor={`pick-${i.shipmentCardId}`} className="min-w-0 flex-1 cursor-pointer">
                          <span className={i.picked ? 'block font-medium text-zinc-400 line-through' : 'block font-medium text-white'}>{i.name}</span>
                          <span className="text-xs text-zinc-400">
                            {i.setName} #{i.number}
                          </span>
                        </label>
                        <StatusBadge status={i.shipmentStatus} />
                        <Link to="/admin/shipping/$id" params={{ id: i.shipmentId }} className="text-sm text-violet-300 underline underline-offset-4">
                          {i.shipmentReference}
                        </Link>
                      </li>
                    );
                  })}
                </ul>
              </Panel>
            );
          })}
        </div>
      )}
    </div>
  );
}
