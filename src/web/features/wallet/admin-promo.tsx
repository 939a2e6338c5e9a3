import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { Plus, Ticket } from 'lucide-react';
import { useState } from 'react';
import type { CreatePromoInput, Promo, UpdatePromoInput } from '@shared/contracts/wallet';
import { formatMoney } from '@shared/money';
import {
  Badge,
  Button,
  ConfirmDialog,
  Dialog,
  EmptyState,
  Money,
  Notice,
  Panel,
  SkeletonText,
  Table,
  TBody,
  Td,
  Th,
  THead,
  Tr,
  toast,
  useCurrency,
} from '@web/components/ui';
import { promoQuery, promosQuery, walletApi, walletKeys } from './api';
import { formatDateTime } from '@web/lib/format';
import { PromoForm } from './promo-form';

function promoValue(p: Promo, currency: string): string {
  return p.kind === 'credit'
    ? `${formatMoney(p.amountCents ?? 0, currency)} credit`
    : `${p.bonusPercent}% of next deposit, up to ${formatMoney(p.bonusCapCents ?? 0, currency)}`;
}

function promoState(p: Promo): { label: string; tone: 'success' | 'neutral' | 'warning' | 'danger' } {
  const now = Date.now();
  if (!p.active) return { label: 'Inactive', tone: 'neutral' };
  if (p.startsAt && Date.parse(p.startsAt) > now) return { label: 'Scheduled', tone: 'warning' };
  if (p.endsAt && Date.parse(p.endsAt) <= now) return { label: 'Expired', tone: 'danger' };
  if (p.totalLimit !== null && p.redeemedCount >= p.totalLimit) return { label: 'Used up', tone: 'danger' };
  return { label: 'Live', tone: 'success' };
}

/** /admin/promo: every code with its usage, and a create dialog. */
export function AdminPromoList() {
  const q = useQuery(promosQuery);
  const qc = useQueryClient();
  const navigate = useNavigate();
  const currency = useCurrency();
  const [open, setOpen] = useState(false);

  async function create(input: CreatePromoInput | UpdatePromoInput) {
    const r = await walletApi.createPromo(input as CreatePromoInput);
    await qc.invalidateQueries({ queryKey: walletKeys.promos });
    setOpen(false);
    toast({ title: `Code ${r.promo.code} created`, tone: 'success' });
    await navigate({ to: '/admin/promo/$id', params: { id: r.promo.id } });
  }

  return (
    <div className="space-y-4">
      <div className="flex justify-end">
        <Dialog
          open={open}
          onOpenChange={setOpen}
          title="New promo code"
          description="A credit grant adds money at once; a deposit bonus adds a percent of the user's next deposit."
          className="max-w-2xl"
          trigger={
            <Button>
              <Plus aria-hidden="true" className="size-4" /> New code
            </Button>
          }
        >
          <PromoForm submitLabel="Create code" onSubmit={create} />
        </Dialog>
      </div>
      {q.isError ? (
        <Notice tone="danger" title="Promo codes could not load" action={<Button size="sm" variant="secondary" onClick={() => void q.refetch()}>Try again</Button>}>
          {q.error.message}
        </Notice>
      ) : !q.data ? (
        <SkeletonText lines={6} label="Loading promo codes" />
      ) : q.data.length === 0 ? (
        <EmptyState icon={<Ticket className="size-6" />} title="No promo codes yet" description="Create one with “New code”." />
      ) : (
        <Table caption="Promo codes">
          <THead>
            <Tr>
              <Th>Code</Th>
              <Th>Gives</Th>
              <Th>Used</Th>
              <Th>Valid</Th>
              <Th>Status</Th>
            </Tr>
          </THead>
          <TBody>
            {q.data.map((p) => {
              const s = promoState(p);
              return (
                <Tr key={p.id}>
                  <Td>
                    <Link to="/admin/promo/$id" params={{ id: p.id }} className="font-mono font-semibold text-violet-300 hover:text-violet-200 hover:underline">
                      {p.code}
                    </Link>
                    {p.description ? <p className="text-xs text-zinc-400">{p.description}</p> : null}
                  </Td>
                  <Td>{promoValue(p, currency)}</Td>
                  <Td className="tabular-nums">
                    {p.redeemedCount}
                    {p.totalLimit !== null ? ` / ${p.totalLimit}` : ''}
                  </Td>
                  <Td className="text-xs text-zinc-300">
                    {p.startsAt ? `From ${formatDateTime(p.startsAt)}` : 'From creation'}
                    <br />
                    {p.endsAt ? `Until ${formatDateTime(p.endsAt)}` : 'No end'}
                  </Td>
                  <Td>
                    <Badge tone={s.tone}>{s.label}</Badge>
                  </Td>
                </Tr>
              );
            })}
          </TBody>
        </Table>
      )}
    </div>
  );
}

/** /admin/promo/{id}: edit, deactivate, redemptions. */
export function AdminPromoDetail({ promoId }: { promoId: string }) {
  const q = useQuery(promoQuery(promoId));
  const qc = useQueryClient();
  const currency = useCurrency();

  async function save(input: CreatePromoInput | UpdatePromoInput) {
    const r = await walletApi.updatePromo(promoId, input as UpdatePromoInput);
    qc.setQueryData(walletKeys.promo(promoId), (old: typeof q.data) => (old ? { ...old, promo: r.promo } : old));
    void qc.invalidateQueries({ queryKey: walletKeys.promos });
    toast({ title: 'Saved', tone: 'success' });
  }

  async function setActive(active: boolean) {
    try {
      await save({ active });
    } catch (err) {
      toast({ title: 'That did not work', description: err instanceof Error ? err.message : undefined, tone: 'danger' });
      throw err;
    }
  }

  if (q.isError) {
    return (
      <Notice tone="danger" title="This promo code could not load" action={<Button size="sm" variant="secondary" onClick={() => void q.refetch()}>Try again</Button>}>
        {q.error.message}
      </Notice>
    );
  }
  if (!q.data) return <SkeletonText lines={8} label="Loading the promo code" />;
  const { promo, redemptions } = q.data;
  const s = promoState(promo);
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-3">
        <Badge tone={s.tone}>{s.label}</Badge>
        <span className="text-sm text-zinc-300">{promoValue(promo, currency)}</span>
        <span className="text-sm text-zinc-400">
          · used {promo.redeemedCount}
          {promo.totalLimit !== null ? ` of ${promo.totalLimit}` : ''} times
        </span>
        <div className="ml-auto">
          {promo.active ? (
            <ConfirmDialog
              trigger={<Button variant="danger">Deactivate</Button>}
              title={`Deactivate ${promo.code}?`}
              description="Nobody can redeem it afterwards. Bonuses already waiting still apply. You can reactivate it later."
              confirmLabel="Deactivate"
              variant="danger"
              onConfirm={() => setActive(false)}
            />
          ) : (
            <Button variant="secondary" onClick={() => void setActive(true).catch(() => {})}>
              Reactivate
            </Button>
          )}
        </div>
      </div>
      <Panel title="Settings">
        <div>
          <PromoForm key={promo.updatedAt} promo={promo} submitLabel="Save changes" onSubmit={save} />
        </div>
      </Panel>
      <Panel title="Redemptions" description="Newest first (up to 500).">
        <div>
          {redemptions.length === 0 ? (
            <EmptyState title="Not redeemed yet" />
          ) : (
            <Table caption={`Redemptions of ${promo.code}`} captionHidden>
              <THead>
                <Tr>
                  <Th>When</Th>
                  <Th>User</Th>
                  <Th>Status</Th>
                  <Th className="text-right">Credited</Th>
                </Tr>
              </THead>
              <TBody>
                {redemptions.map((r) => (
                  <Tr key={r.id}>
                    <Td className="whitespace-nowrap">{formatDateTime(r.createdAt)}</Td>
                    <Td>
                      <Link to="/admin/users/$id/balance" params={{ id: r.userId }} className="text-violet-300 hover:underline">
                        {r.userLabel ?? r.userId}
                      </Link>
                    </Td>
                    <Td>
                      <Badge tone={r.status === 'pending_deposit' ? 'warning' : 'success'}>
                        {r.status === 'credited' ? 'Credited' : r.status === 'applied' ? 'Bonus applied' : 'Waiting for deposit'}
                      </Badge>
                    </Td>
                    <Td className="text-right">
                      <Money cents={r.creditedCents} />
                    </Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
          )}
        </div>
      </Panel>
    </div>
  );
}
