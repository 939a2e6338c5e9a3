import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { MAINTENANCE_MESSAGE_MAX, maintenanceInputSchema, type AdminMaintenance, type MaintenanceInput } from '@shared/contracts/maintenance';
import { Badge, Button, ConfirmDialog, FormField, Input, Notice, Panel, SkeletonText, Textarea, toast } from '@web/components/ui';
import { applyServerFields, errorText } from '@web/lib/api-errors';
import { convertingResolver } from '@web/lib/form-resolver';
import { LOCAL_ZONE, fromLocalInput, toLocalInput } from '@web/lib/datetime-local';
import { adminMaintenanceQuery, formatEnd, useSetMaintenance } from './api';

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

/** The on-form's fields: the message and the expected end as the input shows it (local time). */
export interface MaintenanceOnValues {
  message: string;
  endsAt: string;
}
const ON_FIELDS = ['message', 'endsAt'] as const;

export const maintenanceOnResolver = convertingResolver<MaintenanceOnValues, MaintenanceInput>({
  fields: ON_FIELDS,
  schema: maintenanceInputSchema,
  toInput: (v) => ({ enabled: true, message: v.message, endsAt: fromLocalInput(v.endsAt) }),
});

type Submit = (input: MaintenanceInput) => Promise<void>;

/**
 * /admin/maintenance: the switch. Owners turn it on (message, expected end in their own zone) or
 * off, each after a confirmation; other admins see the state only.
 */
export function MaintenanceAdmin({ isOwner }: { isOwner: boolean }) {
  const q = useQuery(adminMaintenanceQuery);
  const save = useSetMaintenance();

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

  const submit: Submit = async (input) => {
    try {
      await save.mutateAsync(input);
      toast.success(input.enabled ? 'Maintenance is on' : 'Maintenance is off', input.enabled ? 'Visitors now see the maintenance page.' : 'The shop is open again.');
    } catch (err) {
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
          <MaintenanceOnForm submit={submit} />
        </Panel>
      )}
    </div>
  );
}

function MaintenanceOnForm({ submit }: { submit: Submit }) {
  const [confirmOn, setConfirmOn] = useState(false);
  const { register, handleSubmit, formState, setError } = useForm<MaintenanceOnValues, unknown, MaintenanceInput>({
    resolver: maintenanceOnResolver,
    defaultValues: { message: 'We are upgrading the shop. Your cards and balance are safe.', endsAt: toLocalInput(Date.now() + 60 * 60_000) },
  });
  const e = formState.errors;
  const review = handleSubmit(() => setConfirmOn(true));

  // Checked again on confirming: the end may have passed while the dialog was open. Either way a
  // refusal a field explains closes the dialog and shows under that field.
  const confirm = async () => {
    const checked: { input?: MaintenanceInput } = {};
    await handleSubmit((input) => {
      checked.input = input;
    })();
    if (!checked.input) return;
    try {
      await submit(checked.input);
    } catch (err) {
      if (!applyServerFields(err, setError, ON_FIELDS)) throw err;
    }
  };

  return (
    <>
      <form noValidate className="space-y-4" onSubmit={review}>
        <FormField label="Message to visitors" hint={`Shown on the maintenance page. Up to ${MAINTENANCE_MESSAGE_MAX} characters.`} error={e.message?.message} required>
          <Textarea rows={3} maxLength={MAINTENANCE_MESSAGE_MAX + 50} {...register('message')} />
        </FormField>
        <FormField label="Expected end" hint={`Your time zone (${LOCAL_ZONE}). Sent as Retry-After to API clients.`} error={e.endsAt?.message} required>
          <Input type="datetime-local" {...register('endsAt')} />
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
        onConfirm={confirm}
      />
    </>
  );
}
