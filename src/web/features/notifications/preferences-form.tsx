import { useEffect, useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import {
  BIG_PULL_THRESHOLD,
  NOTIFICATION_KIND_INFO,
  NOTIFICATION_KINDS,
  notificationPreferencesInputSchema,
  type NotificationKind,
  type NotificationPreferences,
  type NotificationPreferencesInput,
} from '@shared/contracts/notifications';
import { formatMoney, parseMoney } from '@shared/money';
import { Button, FormField, Input, Notice, Panel, Skeleton, Switch } from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { preferencesQuery, useSavePreferences } from './api';

const channelSchema = z.object({ inApp: z.boolean(), email: z.boolean() });

/**
 * The form's own values: a switch pair per kind and the threshold as typed dollars. The threshold
 * is converted to cents and checked with the shared contract's rule, so browser and server agree.
 */
export const preferencesFormSchema = z.object({
  channels: z.object(Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, channelSchema])) as Record<NotificationKind, typeof channelSchema>),
  threshold: z
    .string()
    .trim()
    .min(1, 'Enter an amount in dollars, like 50.')
    .superRefine((v, ctx) => {
      const cents = parseMoney(v);
      if (cents === null) {
        ctx.addIssue({ code: 'custom', message: 'Enter an amount in dollars, like 50 or 12.50.' });
        return;
      }
      const r = notificationPreferencesInputSchema.shape.bigPullThresholdCents.safeParse(cents);
      if (!r.success) ctx.addIssue({ code: 'custom', message: r.error.issues[0]?.message ?? 'Not a valid amount.' });
    }),
});
export type PreferencesFormValues = z.infer<typeof preferencesFormSchema>;
export const preferencesResolver = zodResolver(preferencesFormSchema);

/** Dollars as the input shows them: "50" or "12.50". */
export const centsToInput = (cents: number) => (cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2));

export function toFormValues(p: NotificationPreferences): PreferencesFormValues {
  const channels = Object.fromEntries(
    NOTIFICATION_KINDS.map((k) => {
      const row = p.preferences.find((x) => x.kind === k);
      const d = NOTIFICATION_KIND_INFO[k].defaults;
      return [k, { inApp: row?.inApp ?? d.inApp, email: row?.emailLocked || NOTIFICATION_KIND_INFO[k].emailLocked ? true : (row?.email ?? d.email) }];
    }),
  ) as PreferencesFormValues['channels'];
  return { channels, threshold: centsToInput(p.bigPullThresholdCents) };
}

export function toInput(v: PreferencesFormValues): NotificationPreferencesInput {
  return {
    preferences: NOTIFICATION_KINDS.map((kind) => ({
      kind,
      inApp: v.channels[kind].inApp,
      email: NOTIFICATION_KIND_INFO[kind].emailLocked ? true : v.channels[kind].email,
    })),
    bigPullThresholdCents: parseMoney(v.threshold) ?? BIG_PULL_THRESHOLD.defaultCents,
  };
}

function Form({ prefs }: { prefs: NotificationPreferences }) {
  const save = useSavePreferences();
  const [saved, setSaved] = useState(false);
  const form = useForm<PreferencesFormValues>({ resolver: preferencesResolver, defaultValues: toFormValues(prefs) });
  const {
    control,
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isDirty },
  } = form;

  // Changing anything again hides the old "Saved".
  useEffect(() => {
    if (isDirty) setSaved(false);
  }, [isDirty]);

  const onSubmit = handleSubmit(async (v) => {
    setSaved(false);
    try {
      const next = await save.mutateAsync(toInput(v));
      reset(toFormValues(next));
      setSaved(true);
    } catch (err) {
      const msg = err instanceof ApiClientError ? err.fields?.bigPullThresholdCents?.[0] : undefined;
      if (msg) setError('threshold', { type: 'server', message: msg }, { shouldFocus: true });
    }
  });

  const lockedId = 'security-email-locked';
  const failure = save.isError && !(save.error instanceof ApiClientError && save.error.fields?.bigPullThresholdCents) ? save.error : null;

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-6">
      <Panel
        id="channels"
        title="What we tell you, and where"
        description="In app: the bell at the top of every page. Email: a message to your verified address, with a link to turn that kind off."
      >
        <div className="-mx-5 overflow-x-auto sm:-mx-6">
          <table className="w-full min-w-[18rem] text-sm">
            <caption className="sr-only">Notification channels for each kind</caption>
            <thead>
              <tr className="border-b border-white/10 text-left text-xs tracking-wide text-zinc-400 uppercase">
                <th scope="col" className="px-5 py-2 font-medium sm:px-6">
                  Kind
                </th>
                <th scope="col" className="w-20 px-2 py-2 text-center font-medium">
                  In app
                </th>
                <th scope="col" className="w-20 px-2 py-2 pr-5 text-center font-medium sm:pr-6">
                  Email
                </th>
              </tr>
            </thead>
            <tbody>
              {NOTIFICATION_KINDS.map((kind) => {
                const info = NOTIFICATION_KIND_INFO[kind];
                const descId = `kind-${kind}-desc`;
                return (
                  <tr key={kind} className="border-b border-white/5 last:border-0">
                    <th scope="row" className="px-5 py-3 text-left align-top font-normal sm:px-6">
                      <span className="block font-medium text-white">{info.label}</span>
                      <span id={descId} className="mt-0.5 block text-zinc-400">
                        {info.description}
                      </span>
                      {info.emailLocked ? (
                        <span id={lockedId} className="mt-1 block text-xs text-amber-200">
                          Security mail can't be turned off: it tells you when someone else may be in your account.
                        </span>
                      ) : null}
                    </th>
                    <td className="px-2 py-3 text-center align-top">
                      <Controller
                        control={control}
                        name={`channels.${kind}.inApp`}
                        render={({ field }) => (
                          <Switch
                            ref={field.ref}
                            checked={field.value}
                            onCheckedChange={field.onChange}
                            onBlur={field.onBlur}
                            aria-label={`${info.label}: in app`}
                            aria-describedby={descId}
                          />
                        )}
                      />
                    </td>
                    <td className="px-2 py-3 pr-5 text-center align-top sm:pr-6">
                      {info.emailLocked ? (
                        <Switch checked disabled aria-label={`${info.label}: email`} aria-describedby={`${descId} ${lockedId}`} />
                      ) : (
                        <Controller
                          control={control}
                          name={`channels.${kind}.email`}
                          render={({ field }) => (
                            <Switch
                              ref={field.ref}
                              checked={field.value}
                              onCheckedChange={field.onChange}
                              onBlur={field.onBlur}
                              aria-label={`${info.label}: email`}
                              aria-describedby={descId}
                            />
                          )}
                        />
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </Panel>

      <Panel id="big-pull" title="Big pulls" description="Which pulls count as big enough to tell you about.">
        <FormField
          label="Tell me about pulls worth at least (USD)"
          hint={`Between ${formatMoney(BIG_PULL_THRESHOLD.minCents)} and ${formatMoney(BIG_PULL_THRESHOLD.maxCents)}. The shop's default is ${formatMoney(prefs.defaultBigPullThresholdCents)}.`}
          error={errors.threshold?.message}
          className="max-w-xs"
        >
          <Input inputMode="decimal" autoComplete="off" {...register('threshold')} />
        </FormField>
      </Panel>

      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" loading={save.isPending} loadingText="Saving…">
          Save
        </Button>
        {isDirty ? (
          <Button type="button" variant="ghost" onClick={() => reset()} disabled={save.isPending}>
            Undo changes
          </Button>
        ) : null}
        <div role="status" className="text-sm text-emerald-300">
          {saved && !isDirty ? 'Saved. Your notification settings are up to date.' : ''}
        </div>
      </div>
      {failure ? (
        <Notice tone="danger" title="Your settings were not saved">
          {failure.message} Your changes are still on this page: press Save to try again.
        </Notice>
      ) : null}
    </form>
  );
}

/** /profile/notifications: a switch per kind and channel, and the big-pull threshold. */
export function NotificationPreferencesForm() {
  const q = useQuery(preferencesQuery);
  if (q.isPending) {
    return (
      <div className="space-y-3" aria-busy="true">
        <span className="sr-only" role="status">
          Loading your notification settings
        </span>
        <Skeleton className="h-96 w-full" />
      </div>
    );
  }
  if (q.isError) {
    return (
      <Notice
        tone="danger"
        title="We could not load your notification settings"
        action={
          <Button variant="secondary" size="sm" onClick={() => void q.refetch()}>
            Try again
          </Button>
        }
      >
        {q.error instanceof Error ? q.error.message : 'Try again in a moment.'} Nothing was changed.
      </Notice>
    );
  }
  return <Form prefs={q.data} />;
}
