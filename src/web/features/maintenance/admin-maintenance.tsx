import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { MAINTENANCE_MESSAGE_MAX, maintenanceInputSchema, type AdminMaintenance } from '@shared/contracts/maintenance';
import { Badge, Button, ConfirmDialog, FormField, Input, Notice, Panel, SkeletonText, Textarea, toast } from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { errorText } from '@web/lib/api-errors';
import { adminMaintenanceQuery, formatEnd, useSetMaintenance } from './api';

const LOCAL_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** An instant → a datetime-local value in the admin's zone. */
function toLocalInput(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** A datetime-local value (the admin's zone) → the instant the API takes; '' stays '' so the schema names the field. */
function fromLocalInput(local: string): string {
  if (!local) return '';
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? local : d.toISOString();
}

type Fields = Partial<Record<'message' | 'endsAt', string>>;

function CurrentState({ state }: { state: AdminMaintenance }) {
  const end = formatEnd(state.endsAt);
  return (
    <dl className="grid gap-3 text-sm sm:grid-cols-[10rem_1fr]">
      <dt className="text-zinc-400">State</dt>
      <dd>{state.enabled ? <Badge tone="gold">On — visitors see the maintenance page</Badge> : <Badge tone="success">Off — the shop is open</Badge>}</dd>
      {state.enabled ? (
        <>
          <dt className="text-zinc-400">Message</dt>
          <dd className="break-words whitespace-pre-line text-zinc-100">{state.message}</dd>
          <dt className="text-zinc-400">Expected end</dt>
          <dd className="text-zinc-100">{end ?? '—'}</dd>
        </>
      ) : null}
      <dt className="text-zinc-400">Last switched</dt>
      <dd className="text-zinc-100">
        {state.changedAt ? `${formatEnd(state.changedAt)}${state.changedBy ? ` by ${state.changedBy.username}` : ''}` : 'Never'}
      </dd>
    </dl>
  );
}

/**
 * /admin/maintenance: the switch. Owners turn it on (message, expected end in their own zone) or
 * off, each after a confirmation; other admins see the state only.
 */
export function MaintenanceAdmin({ isOwner }: { isOwner: boolean }) {
  const q = useQuery(adminMaintenanceQuery);
  const save = useSetMaintenance();
  const [message, setMessage] = useState('We are upgrading the shop. Your cards and balance are safe.');
  const [endsAt, setEndsAt] = useState(() => toLocalInput(Date.now() + 60 * 60_000));
  const [fields, setFields] = useState<Fields>({});
  const [confirmOn, setConfirmOn] = useState(false);

  if (q.isPending) return <SkeletonText lines={4} />;
  if (q.isError) {
    return (
      <Notice
        tone="danger"
        title="We could not load the maintenance switch"
        action={
          <Button size="sm" variant="secondary" onClick={() => void q.refetch()}>
            Try again
          </Button>
        }
      >
        {errorText(q.error)}
      </Notice>
    );
  }
  const state = q.data;

  const validate = () => {
    const parsed = maintenanceInputSchema.safeParse({ enabled: true, message, endsAt: fromLocalInput(endsAt) });
    if (parsed.success) {
      setFields({});
      return parsed.data;
    }
    const next: Fields = {};
    for (const issue of parsed.error.issues) {
      const key = issue.path[0];
      if ((key === 'message' || key === 'endsAt') && !next[key]) next[key] = issue.message;
    }
    setFields(next);
    return null;
  };

  const submit = async (input: Parameters<typeof save.mutateAsync>[0]) => {
    try {
      await save.mutateAsync(input);
      toast.success(input.enabled ? 'Maintenance is on' : 'Maintenance is off', input.enabled ? 'Visitors now see the maintenance page.' : 'The shop is open again.');
    } catch (err) {
      if (err instanceof ApiClientError && err.fields) {
        setFields({ message: err.fields.message?.[0], endsAt: err.fields.endsAt?.[0] });
        setConfirmOn(false);
      }
      toast.error('The switch did not change', errorText(err));
      throw err;
    }
  };

  return (
    <div className="space-y-6">
      <Panel id="maintenance-state" title="Current state">
        <CurrentState state={state} />
      </Panel>
      {!isOwner ? (
        <Notice tone="warning" title="Only an owner switches maintenance" live={false}>
          Ask an owner to turn maintenance mode on or off.
        </Notice>
      ) : state.enabled ? (
        <Panel id="maintenance-off" title="Turn maintenance off">
          <p className="mb-4 text-sm text-zinc-300">Everyone gets the shop back within a second; open maintenance pages return to where people were.</p>
          <ConfirmDialog
            trigger={<Button>Turn maintenance off</Button>}
            title="Turn maintenance off?"
            description="Visitors and users can use the shop again at once."
            confirmLabel="Turn off"
            onConfirm={() => submit({ enabled: false })}
          />
        </Panel>
      ) : (
        <Panel id="maintenance-on" title="Turn maintenance on">
          <form
            noValidate
            className="space-y-4"
            onSubmit={(e) => {
              e.preventDefault();
              if (validate()) setConfirmOn(true);
            }}
          >
            <FormField label="Message to visitors" hint={`Shown on the maintenance page. Up to ${MAINTENANCE_MESSAGE_MAX} characters.`} error={fields.message} required>
              <Textarea rows={3} value={message} maxLength={MAINTENANCE_MESSAGE_MAX + 50} onChange={(e) => setMessage(e.target.value)} />
            </FormField>
            <FormField label="Expected end" hint={`Your time zone (${LOCAL_ZONE}). Sent as Retry-After to API clients.`} error={fields.endsAt} required>
              <Input type="datetime-local" value={endsAt} onChange={(e) => setEndsAt(e.target.value)} />
            </FormField>
            <Button type="submit">Turn maintenance on…</Button>
          </form>
          <ConfirmDialog
            open={confirmOn}
            onOpenChange={setConfirmOn}
            variant="danger"
            title="Turn maintenance on?"
            description="Everyone except admins with two-factor is sent to the maintenance page, and API calls answer 503. Requests already running finish."
            confirmLabel="Turn on"
            onConfirm={async () => {
              const input = validate();
              if (!input) throw new Error('invalid');
              await submit(input);
            }}
          />
        </Panel>
      )}
    </div>
  );
}
