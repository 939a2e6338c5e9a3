import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm, useWatch, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import { Plus, Warehouse } from 'lucide-react';
import type { z } from 'zod';
import {
  cardLocationInputSchema,
  COUNTRIES,
  COUNTRY_CODES,
  originInputSchema,
  originUpdateSchema,
  shippingSettingsSchema,
  type Origin,
  type ShippingSettings,
} from '@shared/contracts/shipping';
import { formatRate } from '@shared/contracts/collection';
import { parseMoney } from '@shared/money';
import {
  Badge,
  Button,
  Checkbox,
  Dialog,
  EmptyState,
  FieldError,
  FormField,
  Input,
  Money,
  Notice,
  Panel,
  Select,
  SkeletonText,
  TBody,
  THead,
  Table,
  Td,
  Th,
  Tr,
  formatCents,
  toast,
} from '@web/components/ui';
import { AddressFields, applyServerErrors, type AddressFieldValues } from './address-form';
import { api } from '@web/lib/api';
import { originQuery, originsQuery, settingsQuery, useDefaultOrigin, useSaveOrigin, useSaveSettings, useSetCardLocation } from './api';
import { AddressBlock, LoadError, countryName, errorText } from './parts';

const ORIGIN_FIELDS = ['name', 'line1', 'line2', 'city', 'region', 'postalCode', 'country', 'phone', 'isDefault', 'archived'] as const;

/** /admin/shipping/from: the warehouses cards ship from, one the default. */
export function AdminOrigins() {
  const list = useQuery(originsQuery);
  const [adding, setAdding] = useState(false);
  const setDefault = useDefaultOrigin();
  const items = list.data?.items ?? [];
  return (
    <Panel
      id="origins"
      title="Origins"
      description="Each card's stock sits at an origin (the default one unless set). Shipments leave from the origin of most of their cards."
      actions={
        <Button size="sm" onClick={() => setAdding(true)}>
          <Plus aria-hidden="true" className="size-4" />
          New origin
        </Button>
      }
    >
      <div>
        {list.isError ? (
          <LoadError what="the origins" error={list.error} retry={() => void list.refetch()} />
        ) : !list.data ? (
          <SkeletonText lines={4} label="Loading origins" />
        ) : items.length === 0 ? (
          <EmptyState icon={<Warehouse />} title="No origin yet" description="Add the warehouse your cards ship from." />
        ) : (
          <Table caption={`Origins (${items.length})`} captionHidden>
            <THead>
              <Tr>
                <Th>Name</Th>
                <Th>Location</Th>
                <Th className="text-right">Cards stocked</Th>
                <Th className="text-right">Waiting to ship</Th>
                <Th>Status</Th>
                <Th>
                  <span className="sr-only">Actions</span>
                </Th>
              </Tr>
            </THead>
            <TBody>
              {items.map((o) => (
                <Tr key={o.id}>
                  <Td>
                    <Link to="/admin/shipping/from/$id" params={{ id: o.id }} className="font-medium text-violet-300 underline underline-offset-4 hover:text-violet-200">
                      {o.name}
                    </Link>
                  </Td>
                  <Td>
                    {o.city}, {countryName(o.country)}
                  </Td>
                  <Td className="text-right tabular-nums">{o.cardCount}</Td>
                  <Td className="text-right tabular-nums">{o.openCardCount}</Td>
                  <Td>
                    {o.isDefault ? <Badge tone="violet">Default</Badge> : null}
                    {o.archived ? <Badge tone="neutral">Archived</Badge> : null}
                    {!o.isDefault && !o.archived ? <Badge tone="success">Active</Badge> : null}
                  </Td>
                  <Td>
                    {!o.isDefault && !o.archived ? (
                      <Button
                        size="sm"
                        variant="secondary"
                        aria-label={`Make ${o.name} the default`}
                        loading={setDefault.isPending && setDefault.variables === o.id}
                        onClick={() =>
                          setDefault.mutate(o.id, {
                            onSuccess: () => toast.success('Default origin set', o.name),
                            onError: (err) => toast.error('The default did not change', errorText(err)),
                          })
                        }
                      >
                        Make default
                      </Button>
                    ) : null}
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        )}
      </div>
      {adding ? (
        <Dialog open onOpenChange={(o) => !o && setAdding(false)} title="New origin" description="A warehouse cards ship from." className="max-w-xl">
          <OriginForm existing={null} onDone={() => setAdding(false)} />
        </Dialog>
      ) : null}
    </Panel>
  );
}

type NewIn = z.input<typeof originInputSchema>;
type EditIn = z.input<typeof originUpdateSchema>;

/** New origin (isDefault) or edit (archived): the same address fields, any country. */
export function OriginForm({ existing, onDone }: { existing: Origin | null; onDone?: (o: Origin) => void }) {
  const save = useSaveOrigin();
  const form = useForm<NewIn & EditIn>({
    resolver: zodResolver((existing ? originUpdateSchema : originInputSchema) as typeof originInputSchema) as never,
    defaultValues: existing
      ? {
          name: existing.name,
          line1: existing.line1,
          line2: existing.line2,
          city: existing.city,
          region: existing.region,
          postalCode: existing.postalCode,
          country: existing.country,
          phone: existing.phone,
          archived: existing.archived,
        }
      : { name: '', line1: '', line2: '', city: '', region: '', postalCode: '', country: 'US', phone: '', isDefault: false },
  });
  const { register, handleSubmit, formState, setError, control } = form;
  const country = useWatch({ control, name: 'country' });
  const e = formState.errors;
  const submit = handleSubmit(async (values) => {
    try {
      const { isDefault, archived, ...fields } = values;
      const body = existing ? { ...fields, archived: archived ?? false } : { ...fields, isDefault: isDefault ?? false };
      const saved = await save.mutateAsync({ id: existing?.id ?? null, input: body });
      toast.success(existing ? 'Origin saved' : 'Origin added', saved.name);
      onDone?.(saved);
    } catch (err) {
      setError('root', { message: applyServerErrors(err, setError, ORIGIN_FIELDS) });
    }
  });
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {e.root?.message ? (
        <Notice tone="danger" title="The origin was not saved">
          {e.root.message}
        </Notice>
      ) : null}
      <AddressFields
        register={register as unknown as UseFormRegister<AddressFieldValues>}
        errors={e as FieldErrors<AddressFieldValues>}
        countries={COUNTRY_CODES}
        country={country}
        nameLabel="Name"
      />
      {existing ? (
        <FormField
          label="Archived"
          inline
          error={e.archived?.message}
          hint={existing.isDefault ? 'The default origin cannot be archived: make another one the default first.' : 'An archived origin takes no new stock.'}
        >
          <Checkbox disabled={existing.isDefault} {...register('archived')} />
        </FormField>
      ) : (
        <FormField label="Make it the default origin" inline error={e.isDefault?.message}>
          <Checkbox {...register('isDefault')} />
        </FormField>
      )}
      <div className="flex justify-end">
        <Button type="submit" loading={formState.isSubmitting} loadingText="Saving…">
          {existing ? 'Save origin' : 'Add origin'}
        </Button>
      </div>
    </form>
  );
}

/** /admin/shipping/from/{id}: one origin, editable. */
export function AdminOriginScreen({ id }: { id: string }) {
  const q = useQuery(originQuery(id));
  const navigate = useNavigate();
  const setDefault = useDefaultOrigin();
  if (q.isError) return <LoadError what="this origin" error={q.error} retry={() => void q.refetch()} />;
  if (!q.data) return <SkeletonText lines={8} label="Loading the origin" />;
  const o = q.data;
  return (
    <div className="grid gap-6 lg:grid-cols-[3fr_2fr]">
      <Panel title="Address">
        <div>
          <OriginForm key={o.updatedAt} existing={o} onDone={() => void navigate({ to: '/admin/shipping/from' })} />
        </div>
      </Panel>
      <Panel title="Summary">
        <div className="space-y-4">
          <AddressBlock address={o} />
          <div className="flex flex-wrap gap-2">
            {o.isDefault ? <Badge tone="violet">Default</Badge> : null}
            {o.archived ? <Badge tone="neutral">Archived</Badge> : null}
          </div>
          <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm">
            <dt className="text-zinc-400">Cards stocked here</dt>
            <dd className="text-right tabular-nums">{o.cardCount}</dd>
            <dt className="text-zinc-400">Cards of open shipments</dt>
            <dd className="text-right tabular-nums">{o.openCardCount}</dd>
          </dl>
          {!o.isDefault && !o.archived ? (
            <Button
              variant="secondary"
              loading={setDefault.isPending}
              onClick={() =>
                setDefault.mutate(o.id, {
                  onSuccess: () => {
                    toast.success('Default origin set', o.name);
                    void q.refetch();
                  },
                  onError: (err) => toast.error('The default did not change', errorText(err)),
                })
              }
            >
              Make default
            </Button>
          ) : null}
          <Link to="/admin/shipping/cards" search={{ originId: o.id } as never} className="block text-sm text-violet-300 underline underline-offset-4">
            Cards to pull here
          </Link>
        </div>
      </Panel>
      {!o.archived ? <CardPlacement origin={o} /> : null}
    </div>
  );
}

/** Puts a card's stock at this origin, on a shelf (the pick list and packing slips show it). */
function CardPlacement({ origin }: { origin: Origin }) {
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const [cardId, setCardId] = useState('');
  const [shelf, setShelf] = useState('');
  const [error, setError] = useState<string | null>(null);
  const place = useSetCardLocation();
  const hits = useQuery({
    queryKey: ['admin', 'shipping', 'card-search', q],
    queryFn: ({ signal }) =>
      api.get('/api/admin/catalog/cards', { query: { q, pageSize: 20, archived: 'active' }, signal }),
    enabled: q.length > 0,
  });
  const items = hits.data?.items ?? [];
  const chosen = items.find((c) => c.id === cardId);
  return (
    <Panel title="Place a card here" description="Moves the card's stock to this origin and shelf. Open shipments keep the origin they had." className="lg:col-span-2">
      <div className="grid gap-4 sm:grid-cols-[2fr_2fr_1fr_auto] sm:items-end">
        <form
          role="search"
          className="flex items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            setQ(text.trim());
            setCardId('');
          }}
        >
          <FormField label="Find a card" className="flex-1">
            <Input type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="Card name" />
          </FormField>
          <Button type="submit" variant="secondary">
            Search
          </Button>
        </form>
        <FormField label="Card" hint={q && hits.data && items.length === 0 ? 'No card matches that name.' : undefined}>
          <Select value={cardId} onChange={(e) => setCardId(e.target.value)} disabled={items.length === 0}>
            <option value="">{q ? (hits.isFetching ? 'Searching…' : 'Pick a card') : 'Search first'}</option>
            {items.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name} · {c.setName} #{c.number} ({c.stock} in stock)
              </option>
            ))}
          </Select>
        </FormField>
        <FormField label="Shelf" error={error ?? undefined}>
          <Input value={shelf} onChange={(e) => setShelf(e.target.value)} placeholder="A-12" />
        </FormField>
        <Button
          disabled={!chosen}
          loading={place.isPending}
          onClick={() => {
            if (!chosen) return;
            const parsed = cardLocationInputSchema.safeParse({ originId: origin.id, shelfLocation: shelf });
            if (!parsed.success) {
              setError(parsed.error.issues[0]?.message ?? 'Check the shelf.');
              return;
            }
            setError(null);
            place.mutate(
              { cardId: chosen.id, input: parsed.data },
              {
                onSuccess: (r) => toast.success(`${chosen.name} placed`, `${origin.name}, shelf ${r.shelfLocation || 'unassigned'}.`),
                onError: (err) => setError(errorText(err)),
              },
            );
          }}
        >
          Place card
        </Button>
      </div>
    </Panel>
  );
}

// ───────────── settings ─────────────

interface SettingsForm {
  baseFee: string;
  perCardFee: string;
  insuranceRate: string;
  insuranceMin: string;
  countries: string[];
}

const toForm = (s: ShippingSettings): SettingsForm => ({
  baseFee: (s.baseFeeCents / 100).toFixed(2),
  perCardFee: (s.perCardFeeCents / 100).toFixed(2),
  insuranceRate: String(s.insuranceRateBp / 100),
  insuranceMin: (s.insuranceMinCents / 100).toFixed(2),
  countries: s.countries,
});

/** Fees, insurance and the countries shipped to (app settings, audited on the server). */
export function AdminShippingSettings() {
  const q = useQuery(settingsQuery);
  return (
    <Panel id="shipping-settings" title="Fees, insurance and countries" description="What users pay to ship, and where we ship. Changes apply to new quotes at once.">
      <div>
        {q.isError ? (
          <LoadError what="the shipping settings" error={q.error} retry={() => void q.refetch()} />
        ) : !q.data ? (
          <SkeletonText lines={6} label="Loading the settings" />
        ) : (
          <SettingsEditor key={JSON.stringify(q.data)} settings={q.data} />
        )}
      </div>
    </Panel>
  );
}

function SettingsEditor({ settings }: { settings: ShippingSettings }) {
  const save = useSaveSettings();
  const { register, handleSubmit, formState, setError, watch } = useForm<SettingsForm>({ defaultValues: toForm(settings) });
  const e = formState.errors;
  const v = watch();
  const submit = handleSubmit(async (f) => {
    const money = (label: keyof SettingsForm, text: string) => {
      const c = parseMoney(text);
      if (c === null) setError(label, { message: 'Enter an amount like 5 or 2.50.' });
      return c;
    };
    const baseFeeCents = money('baseFee', f.baseFee);
    const perCardFeeCents = money('perCardFee', f.perCardFee);
    const insuranceMinCents = money('insuranceMin', f.insuranceMin);
    const rate = Number(f.insuranceRate);
    if (!Number.isFinite(rate) || f.insuranceRate.trim() === '') setError('insuranceRate', { message: 'Enter a percentage like 1.5.' });
    if (baseFeeCents === null || perCardFeeCents === null || insuranceMinCents === null || !Number.isFinite(rate) || f.insuranceRate.trim() === '') return;
    const candidate = { baseFeeCents, perCardFeeCents, insuranceMinCents, insuranceRateBp: Math.round(rate * 100), countries: f.countries };
    const parsed = shippingSettingsSchema.safeParse(candidate);
    if (!parsed.success) {
      const map: Record<string, keyof SettingsForm> = { baseFeeCents: 'baseFee', perCardFeeCents: 'perCardFee', insuranceMinCents: 'insuranceMin', insuranceRateBp: 'insuranceRate', countries: 'countries' };
      for (const issue of parsed.error.issues) {
        const k = map[String(issue.path[0])];
        if (k) setError(k, { message: issue.message });
      }
      return;
    }
    try {
      await save.mutateAsync(parsed.data);
      toast.success('Shipping settings saved');
    } catch (err) {
      setError('root', { message: errorText(err) });
    }
  });
  const preview = (() => {
    const base = parseMoney(v.baseFee ?? '');
    const per = parseMoney(v.perCardFee ?? '');
    return base !== null && per !== null ? base + per * 2 : null;
  })();
  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      {e.root?.message ? (
        <Notice tone="danger" title="The settings were not saved">
          {e.root.message}
        </Notice>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <FormField label="Base fee ($)" required error={e.baseFee?.message} hint="Per shipment">
          <Input inputMode="decimal" {...register('baseFee')} />
        </FormField>
        <FormField label="Per card ($)" required error={e.perCardFee?.message}>
          <Input inputMode="decimal" {...register('perCardFee')} />
        </FormField>
        <FormField label="Insurance rate (%)" required error={e.insuranceRate?.message} hint="Of the declared value">
          <Input inputMode="decimal" {...register('insuranceRate')} />
        </FormField>
        <FormField label="Insurance minimum ($)" required error={e.insuranceMin?.message}>
          <Input inputMode="decimal" {...register('insuranceMin')} />
        </FormField>
      </div>
      {preview !== null ? (
        <p className="text-sm text-zinc-400">
          Two cards, not insured, cost <Money cents={preview} />. Now: base {formatCents(settings.baseFeeCents)} + {formatCents(settings.perCardFeeCents)} per card, insurance{' '}
          {formatRate(settings.insuranceRateBp)} (min {formatCents(settings.insuranceMinCents)}).
        </p>
      ) : null}
      <fieldset>
        <legend className="text-sm font-medium text-zinc-200">Countries we ship to</legend>
        <div className="mt-2 grid grid-cols-1 gap-x-4 gap-y-2 sm:grid-cols-2 lg:grid-cols-4">
          {COUNTRY_CODES.map((c) => (
            <label key={c} className="flex items-center gap-2 text-sm text-zinc-200">
              <Checkbox value={c} {...register('countries')} />
              {COUNTRIES[c]}
            </label>
          ))}
        </div>
        <div className="mt-2">
          <FieldError>{e.countries?.message}</FieldError>
        </div>
      </fieldset>
      <div className="flex justify-end">
        <Button type="submit" loading={formState.isSubmitting} loadingText="Saving…">
          Save settings
        </Button>
      </div>
    </form>
  );
}
