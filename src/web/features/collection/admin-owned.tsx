import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Gift, Undo2 } from 'lucide-react';
import {
  ACQUIRED_LABEL,
  grantCardSchema,
  revokeCardSchema,
  STATUS_LABEL,
  type AdminOwnedCard,
  type GrantCardInput,
  type GrantCardOutput,
  type RevokeCardInput,
  type RevokeCardOutput,
} from '@shared/contracts/collection';
import { OWNED_CARD_STATUSES } from '@shared/contracts/shop';
import {
  Badge,
  Button,
  Dialog,
  EmptyState,
  FormField,
  Input,
  Money,
  Notice,
  Pagination,
  Select,
  SkeletonText,
  TBody,
  THead,
  Table,
  Td,
  Textarea,
  Th,
  Tr,
  toast,
} from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { applyServerFields, errorText } from '@web/lib/api-errors';
import { useDebounced } from '@web/hooks/use-debounced';
import { adminOwnedQuery, cardSearchQuery, useGrantCard, useRevokeCard } from './api';
import { ClassFilter } from './class-filter';
import { CollectionCard } from './card-renderer';
import { STATUS_TONE } from './format';
import { formatDateTime } from '@web/lib/format';

const PAGE_SIZE = 25;
const OWNED_CARD_STATUSES_FILTER = ['all', ...OWNED_CARD_STATUSES] as const;

/** The signed-in admin: nobody grants to or revokes from their own account (the server refuses too). */
export interface OwnedViewer {
  id: string;
  username: string;
  email: string;
}

/** /admin/owned: every owned card across users, with grant and revoke. */
export function AdminOwned({ viewer }: { viewer?: OwnedViewer | undefined }) {
  const [status, setStatus] = useState<(typeof OWNED_CARD_STATUSES_FILTER)[number]>('all');
  const [classId, setClassId] = useState('');
  const [cardText, setCardText] = useState('');
  const [ownerText, setOwnerText] = useState('');
  const [page, setPage] = useState(1);
  const [grantOpen, setGrantOpen] = useState(false);
  const [revoking, setRevoking] = useState<AdminOwnedCard | null>(null);
  const card = useDebounced(cardText.trim());
  const owner = useDebounced(ownerText.trim());
  useEffect(() => setPage(1), [status, classId, card, owner]);
  const list = useQuery(
    adminOwnedQuery({
      status,
      page,
      pageSize: PAGE_SIZE,
      ...(classId ? { classId } : {}),
      ...(card ? { card } : {}),
      ...(owner ? { owner } : {}),
    }),
  );
  const data = list.data;

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <form
          role="search"
          aria-label="Filter owned cards"
          className="grid flex-1 gap-3 sm:grid-cols-2 lg:grid-cols-4"
          onSubmit={(e) => e.preventDefault()}
        >
          <FormField label="Status">
            <Select value={status} onChange={(e) => setStatus(e.target.value as typeof status)}>
              {OWNED_CARD_STATUSES_FILTER.map((s) => (
                <option key={s} value={s}>
                  {s === 'all' ? 'All statuses' : STATUS_LABEL[s]}
                </option>
              ))}
            </Select>
          </FormField>
          <ClassFilter value={classId} onChange={setClassId} />
          <FormField label="Card">
            <Input type="search" value={cardText} onChange={(e) => setCardText(e.target.value)} placeholder="Card name" />
          </FormField>
          <FormField label="Owner">
            <Input type="search" value={ownerText} onChange={(e) => setOwnerText(e.target.value)} placeholder="Username or email" />
          </FormField>
        </form>
        <Button onClick={() => setGrantOpen(true)}>
          <Gift aria-hidden="true" className="size-4" />
          Grant a card
        </Button>
      </div>

      {list.isError ? (
        <Notice
          tone="danger"
          title="We could not load owned cards"
          action={
            <Button size="sm" variant="secondary" onClick={() => void list.refetch()}>
              Try again
            </Button>
          }
        >
          {list.error.message}
        </Notice>
      ) : !data ? (
        <SkeletonText lines={8} label="Loading owned cards" />
      ) : data.items.length === 0 ? (
        <EmptyState title="No owned cards match" description="Clear a filter, or grant a card from stock." />
      ) : (
        <>
          <Table caption={`Owned cards (${data.total})`}>
            <THead>
              <Tr>
                <Th>Card</Th>
                <Th>Owner</Th>
                <Th>Status</Th>
                <Th>Acquired</Th>
                <Th className="text-right">Value</Th>
                <Th className="text-right">Stock</Th>
                <Th>
                  <span className="sr-only">Actions</span>
                </Th>
              </Tr>
            </THead>
            <TBody>
              {data.items.map((o) => (
                <Tr key={o.id}>
                  <Td>
                    <div className="flex items-center gap-3">
                      <div className="w-10 shrink-0">
                        <CollectionCard card={o.card} refs={data.refs} size="xs" />
                      </div>
                      <div>
                        <Link to="/admin/cards/$id" params={{ id: o.card.id }} className="font-medium text-white hover:underline">
                          {o.card.name}
                        </Link>
                        <span className="block text-xs text-zinc-400">
                          {o.className} · {o.card.setName} #{o.card.number}
                        </span>
                      </div>
                    </div>
                  </Td>
                  <Td>
                    <Link to="/admin/users/$id" params={{ id: o.ownerId }} className="text-violet-300 hover:underline">
                      {o.ownerUsername ?? o.ownerId}
                    </Link>
                    {o.ownerEmail ? <span className="block text-xs text-zinc-400">{o.ownerEmail}</span> : null}
                  </Td>
                  <Td>
                    <Badge tone={STATUS_TONE[o.status]}>{STATUS_LABEL[o.status]}</Badge>
                  </Td>
                  <Td className="whitespace-nowrap">
                    {ACQUIRED_LABEL[o.acquiredVia]}
                    <span className="block text-xs text-zinc-400">{formatDateTime(o.acquiredAt)}</span>
                  </Td>
                  <Td className="text-right">
                    <Money cents={o.valueCents} />
                  </Td>
                  <Td className="text-right tabular-nums">{o.stock}</Td>
                  <Td>
                    {o.status === 'in_vault' && o.ownerId === viewer?.id ? (
                      <span className="text-xs text-zinc-400">Your card: another admin can revoke it</span>
                    ) : o.status === 'in_vault' ? (
                      <Button size="sm" variant="ghost" onClick={() => setRevoking(o)} aria-label={`Revoke ${o.card.name} from ${o.ownerUsername ?? o.ownerId}`}>
                        <Undo2 aria-hidden="true" className="size-4" />
                        Revoke
                      </Button>
                    ) : null}
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
          <Pagination page={page} pageCount={Math.ceil(data.total / PAGE_SIZE)} onPageChange={setPage} label="Owned card pages" />
        </>
      )}

      {grantOpen ? <GrantDialog viewer={viewer} onClose={() => setGrantOpen(false)} /> : null}
      {revoking ? <RevokeDialog owned={revoking} onClose={() => setRevoking(null)} /> : null}
    </div>
  );
}


function isSelf(viewer: OwnedViewer | undefined, who: string): boolean {
  const w = who.trim().toLowerCase();
  return !!viewer && (w === viewer.id.toLowerCase() || w === viewer.username.toLowerCase() || w === viewer.email.toLowerCase());
}

/** The grant form: the shared contract decides, plus the one rule only the browser can say early. */
function grantResolver(viewer: OwnedViewer | undefined) {
  return zodResolver(
    grantCardSchema.superRefine((v, ctx) => {
      if (isSelf(viewer, v.user)) ctx.addIssue({ code: 'custom', path: ['user'], message: 'You can’t grant a card to yourself. Ask another admin or the owner.' });
    }),
  );
}

const GRANT_FIELDS = ['cardId', 'user', 'reason'] as const;

function GrantDialog({ viewer, onClose }: { viewer?: OwnedViewer | undefined; onClose: () => void }) {
  const grant = useGrantCard();
  const [cardText, setCardText] = useState('');
  const form = useForm<GrantCardInput, unknown, GrantCardOutput>({ resolver: grantResolver(viewer), defaultValues: { cardId: '', user: '', reason: '' } });
  const e = form.formState.errors;
  const search = useQuery(cardSearchQuery(useDebounced(cardText.trim())));
  const options = search.data?.items ?? [];

  const submit = form.handleSubmit(async (input) => {
    try {
      const r = await grant.mutateAsync(input);
      toast.success('Card granted', `It is in the user's vault now. ${r.stock} left in stock.`);
      onClose();
    } catch (err) {
      // The server's refusal of a self-grant names no field: show it under the user.
      if (err instanceof ApiClientError && err.code === 'self_dealing') form.setError('user', { type: 'server', message: err.message }, { shouldFocus: true });
      else applyServerFields(err, form.setError, GRANT_FIELDS);
      toast.error('Card not granted', errorText(err));
    }
  });

  return (
    <Dialog open onOpenChange={(o) => !o && !grant.isPending && onClose()} title="Grant a card" description="Takes one copy from stock and puts it in the user's vault.">
      <form onSubmit={submit} noValidate className="space-y-4">
        <FormField label="Find a card" hint="Type part of its name, then pick it below.">
          <Input type="search" value={cardText} onChange={(ev) => setCardText(ev.target.value)} />
        </FormField>
        <FormField label="Card" error={e.cardId && 'Search and pick a card.'} required>
          <Select {...form.register('cardId')}>
            <option value="">{cardText.trim() ? (search.isFetching ? 'Searching…' : `${options.length} found — pick one`) : 'Search first'}</option>
            {options.map((c) => (
              <option key={c.id} value={c.id} disabled={c.stock < 1}>
                {c.name} ({c.setName} #{c.number}) — {c.stock} in stock
              </option>
            ))}
          </Select>
        </FormField>
        <FormField label="User" hint="Username, email or user id." error={e.user?.message} required>
          <Input {...form.register('user')} autoComplete="off" />
        </FormField>
        <FormField label="Reason" error={e.reason?.message} required>
          <Textarea {...form.register('reason')} rows={3} maxLength={500} />
        </FormField>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="secondary" onClick={onClose} disabled={grant.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={grant.isPending} loadingText="Granting…">
            Grant card
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function RevokeDialog({ owned, onClose }: { owned: AdminOwnedCard; onClose: () => void }) {
  const revoke = useRevokeCard();
  const form = useForm<RevokeCardInput, unknown, RevokeCardOutput>({ resolver: zodResolver(revokeCardSchema), defaultValues: { reason: '' } });
  const submit = form.handleSubmit(async ({ reason }) => {
    try {
      const r = await revoke.mutateAsync({ id: owned.id, reason });
      toast.success('Card revoked', `Back in stock (${r.stock}).`);
      onClose();
    } catch (err) {
      if (!applyServerFields(err, form.setError, ['reason'])) form.setError('reason', { type: 'server', message: errorText(err) });
    }
  });
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && !revoke.isPending && onClose()}
      title={`Revoke ${owned.card.name}`}
      description={`Takes this copy out of ${owned.ownerUsername ?? 'the user'}'s vault and puts it back into stock. The user is not paid.`}
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        <FormField label="Reason" error={form.formState.errors.reason?.message} required>
          <Textarea {...form.register('reason')} rows={3} maxLength={500} />
        </FormField>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="secondary" onClick={onClose} disabled={revoke.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" loading={revoke.isPending} loadingText="Revoking…">
            Revoke card
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
