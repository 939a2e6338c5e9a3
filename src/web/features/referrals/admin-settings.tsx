import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useForm, type FieldErrors, type Resolver } from 'react-hook-form';
import { referralSettingsSchema, type ReferralSettings } from '@shared/contracts/referrals';
import { bpsToPercentText, centsToDecimal, parseMoney, percentToBps } from '@shared/money';
import { Button, Checkbox, FormField, Input, Notice, Panel, SkeletonText, toast } from '@web/components/ui';
import { applyServerFields, errorText } from '@web/lib/api-errors';
import { referralSettingsQuery, useSaveReferralSettings } from './admin-api';
import { LoadError } from './parts';

/**
 * The programme's settings. The inputs show dollars and a percent; the form's fields carry the
 * contract's names, so one conversion then the shared schema give the browser and the server the
 * same messages on the same fields.
 */
export interface SettingsFormValues {
  enabled: boolean;
  referrerRewardCents: string;
  refereeRewardCents: string;
  qualifyingDepositCents: string;
  /** Percent, e.g. "2" or "2.5". */
  shareBps: string;
  shareDays: string;
  shareCapCents: string;
}
type Field = keyof SettingsFormValues;

const MONEY_FIELDS = ['referrerRewardCents', 'refereeRewardCents', 'qualifyingDepositCents', 'shareCapCents'] as const;
const FIELDS: Field[] = ['enabled', ...MONEY_FIELDS, 'shareBps', 'shareDays'];

export function settingsToForm(s: ReferralSettings): SettingsFormValues {
  return {
    enabled: s.enabled,
    referrerRewardCents: centsToDecimal(s.referrerRewardCents),
    refereeRewardCents: centsToDecimal(s.refereeRewardCents),
    qualifyingDepositCents: centsToDecimal(s.qualifyingDepositCents),
    shareBps: bpsToPercentText(s.shareBps),
    shareDays: String(s.shareDays),
    shareCapCents: centsToDecimal(s.shareCapCents),
  };
}

/** Converts and validates; field errors under the contract's names. */
export const settingsResolver: Resolver<SettingsFormValues, unknown, ReferralSettings> = async (values) => {
  const errors: FieldErrors<SettingsFormValues> = {};
  const bad = (f: Field, message: string) => {
    errors[f] = { type: 'validate', message };
  };
  const out: Record<string, unknown> = { enabled: values.enabled };
  for (const f of MONEY_FIELDS) {
    const cents = parseMoney(values[f]);
    if (cents === null) bad(f, values[f].trim() ? 'Enter an amount in dollars, like 5 or 5.00.' : 'Enter an amount.');
    else out[f] = cents;
  }
  const bps = percentToBps(values.shareBps);
  if (bps === null) bad('shareBps', 'Enter a percent with up to 2 decimals, like 2 or 2.5.');
  else out.shareBps = bps;
  const days = values.shareDays.trim();
  if (!/^\d{1,4}$/.test(days)) bad('shareDays', 'Enter a whole number of days.');
  else out.shareDays = Number(days);
  if (Object.keys(errors).length) return { values: {}, errors };
  const parsed = referralSettingsSchema.safeParse(out);
  if (parsed.success) return { values: parsed.data, errors: {} };
  for (const issue of parsed.error.issues) {
    const f = issue.path[0] as Field | undefined;
    if (f && FIELDS.includes(f) && !errors[f]) bad(f, issue.message);
  }
  return { values: {}, errors };
};

export function ReferralSettingsPanel() {
  const q = useQuery(referralSettingsQuery);
  return (
    <Panel
      id="referral-settings"
      title="Programme settings"
      description="What new qualifications pay. Referrals keep the terms they were made under. Every change is audited."
    >
      {q.isPending ? (
        <SkeletonText lines={5} label="Loading the settings" />
      ) : q.isError ? (
        <LoadError what="the settings" error={q.error} retry={() => void q.refetch()} />
      ) : (
        <ReferralSettingsForm settings={q.data} />
      )}
    </Panel>
  );
}

export function ReferralSettingsForm({ settings }: { settings: ReferralSettings }) {
  const save = useSaveReferralSettings();
  const form = useForm<SettingsFormValues, unknown, ReferralSettings>({ resolver: settingsResolver, defaultValues: settingsToForm(settings) });
  const { register, handleSubmit, formState, setError, reset } = form;
  const e = formState.errors;
  useEffect(() => reset(settingsToForm(settings)), [settings, reset]);
  const submit = handleSubmit(async (v) => {
    try {
      const r = await save.mutateAsync(v);
      reset(settingsToForm(r));
      toast.success('Referral settings saved', 'New qualifications use them from now on.');
    } catch (err) {
      if (applyServerFields(err, setError, FIELDS)) return;
      setError('root', { type: 'server', message: errorText(err) });
    }
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Referral settings" className="space-y-5">
      {e.root?.message ? (
        <Notice tone="danger" title="The settings were not saved">
          {e.root.message}
        </Notice>
      ) : null}
      <FormField label="Programme on" inline hint="Off: invite pages still work, but new referrals earn nothing." error={e.enabled?.message}>
        <Checkbox {...register('enabled')} />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <FormField label="Qualifying deposits ($)" required hint="A friend qualifies when their deposits first reach this." error={e.qualifyingDepositCents?.message}>
          <Input inputMode="decimal" {...register('qualifyingDepositCents')} />
        </FormField>
        <FormField label="Referrer reward ($)" required hint="Paid to the person who invited." error={e.referrerRewardCents?.message}>
          <Input inputMode="decimal" {...register('referrerRewardCents')} />
        </FormField>
        <FormField label="Friend reward ($)" required hint="Paid to the invited friend." error={e.refereeRewardCents?.message}>
          <Input inputMode="decimal" {...register('refereeRewardCents')} />
        </FormField>
        <FormField label="Share of purchases (%)" required hint="Of each of the friend's pack purchases, to the referrer. 0 = none; at most 20." error={e.shareBps?.message}>
          <Input inputMode="decimal" {...register('shareBps')} />
        </FormField>
        <FormField label="Share period (days)" required hint="How long after qualifying the share is paid." error={e.shareDays?.message}>
          <Input inputMode="numeric" {...register('shareDays')} />
        </FormField>
        <FormField label="Share cap ($)" required hint="The most one referral's share can pay in all." error={e.shareCapCents?.message}>
          <Input inputMode="decimal" {...register('shareCapCents')} />
        </FormField>
      </div>
      <Button type="submit" loading={formState.isSubmitting} loadingText="Saving…" disabled={!formState.isDirty}>
        Save settings
      </Button>
    </form>
  );
}
