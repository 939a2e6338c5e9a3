import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { claimInputSchema, vanityInputSchema } from '@shared/contracts/referrals';
import { Button, FormField, Input, Notice } from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { applyServerFields, errorText } from '@web/lib/api-errors';
import { codeOf, useClaimCode, usePickVanity } from './api';

interface CodeValues {
  code: string;
}

/** Refusals that belong to the code field (409s carry a code, not `fields`). */
const VANITY_FIELD_CODES = new Set(['code_taken', 'vanity_already_set', 'unclean', 'validation_failed']);
const CLAIM_FIELD_CODES = new Set(['not_found', 'already_referred', 'referral_too_late', 'self_referral', 'validation_failed']);

const CLAIM_MESSAGES: Record<string, string> = {
  not_found: 'No referral code like that. Check it with your friend.',
};

function applyCodeError(err: unknown, setError: (name: 'code' | 'root', e: { type: string; message: string }, o?: { shouldFocus: boolean }) => void, fieldCodes: Set<string>, messages: Record<string, string> = {}) {
  if (applyServerFields<CodeValues>(err, setError as never, ['code'])) return;
  const code = codeOf(err);
  if (err instanceof ApiClientError && code && fieldCodes.has(code)) {
    setError('code', { type: 'server', message: messages[code] ?? err.message }, { shouldFocus: true });
    return;
  }
  setError('root', { type: 'server', message: errorText(err) });
}

/** Pick a vanity code, once: 4–16 letters or digits, free and clean (the server decides both). */
export function VanityForm({ onSaved }: { onSaved?: (code: string) => void }) {
  const pick = usePickVanity();
  const [saved, setSaved] = useState<string | null>(null);
  const form = useForm<CodeValues>({ resolver: zodResolver(vanityInputSchema) as never, defaultValues: { code: '' } });
  const { register, handleSubmit, formState, setError } = form;
  const submit = handleSubmit(async (v) => {
    setSaved(null);
    try {
      const r = await pick.mutateAsync(v.code);
      setSaved(r.code);
      onSaved?.(r.code);
    } catch (err) {
      applyCodeError(err, setError, VANITY_FIELD_CODES);
    }
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Pick your own code" className="space-y-4">
      {formState.errors.root?.message ? (
        <Notice tone="danger" title="Your code was not changed">
          {formState.errors.root.message}
        </Notice>
      ) : null}
      {saved ? (
        <Notice tone="success" title="Your code is set">
          Your invite link now ends in {saved}. Links with your old code keep working.
        </Notice>
      ) : null}
      <FormField
        label="Your own code"
        hint="4 to 16 letters or digits. You can set it once, so choose well."
        error={formState.errors.code?.message}
        required
      >
        <Input autoComplete="off" autoCapitalize="characters" spellCheck={false} maxLength={16} className="max-w-xs font-mono uppercase" {...register('code')} />
      </FormField>
      <Button type="submit" variant="secondary" loading={formState.isSubmitting} loadingText="Saving…">
        Set my code
      </Button>
    </form>
  );
}

/** "Have a friend's code?": only before the first deposit, and only once. */
export function ClaimForm() {
  const claim = useClaimCode();
  const [done, setDone] = useState<string | null>(null);
  const form = useForm<CodeValues>({ resolver: zodResolver(claimInputSchema) as never, defaultValues: { code: '' } });
  const { register, handleSubmit, formState, setError } = form;
  const submit = handleSubmit(async (v) => {
    try {
      const r = await claim.mutateAsync(v.code);
      setDone(r.referredBy?.username ?? v.code);
    } catch (err) {
      applyCodeError(err, setError, CLAIM_FIELD_CODES, CLAIM_MESSAGES);
    }
  });
  if (done) {
    return (
      <Notice tone="success" title="Code added">
        {done} is now your referrer. Your rewards come after your deposits reach the qualifying amount.
      </Notice>
    );
  }
  return (
    <form onSubmit={submit} noValidate aria-label="Enter a friend's code" className="space-y-4">
      {formState.errors.root?.message ? (
        <Notice tone="danger" title="The code was not added">
          {formState.errors.root.message}
        </Notice>
      ) : null}
      <FormField label="Friend's code" hint="Only before your first deposit. An account can have one referrer." error={formState.errors.code?.message} required>
        <Input autoComplete="off" autoCapitalize="characters" spellCheck={false} maxLength={32} className="max-w-xs font-mono uppercase" {...register('code')} />
      </FormField>
      <Button type="submit" variant="secondary" loading={formState.isSubmitting} loadingText="Adding…">
        Add code
      </Button>
    </form>
  );
}
