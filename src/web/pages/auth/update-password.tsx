import { useState } from 'react';
import { Link, useSearch } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { KeyRound } from 'lucide-react';
import { PASSWORD_MAX, PASSWORD_MIN, passwordRule } from '@shared/contracts/account-rules';
import { Button, buttonClasses, FormField, Notice } from '@web/components/ui';
import { authPost } from '@web/lib/auth-post';
import { applyServerFields, retryText } from '@web/lib/api-errors';
import { AuthHeader, PasswordInput, searchString } from '@web/features/auth/parts';
import { checksResolver } from '@web/features/auth/checks-resolver';
import { checkText } from '@web/features/auth/form-check';
import { refreshSession } from '@web/features/auth/session-actions';
import { ApiClientError } from '@web/lib/api';

interface Values {
  newPassword: string;
  confirm: string;
}

const resolver = checksResolver<Values>({
  newPassword: (v) => checkText(passwordRule, v),
  confirm: (v, values) =>
    typeof v !== 'string' || v.length === 0
      ? { ok: false, message: 'Type the new password again.' }
      : v !== values.newPassword
        ? { ok: false, message: 'The two passwords are not the same.' }
        : { ok: true, value: v },
});

function BadLink() {
  return (
    <div className="space-y-4">
      <Notice tone="danger" title="This reset link does not work">
        It may have expired, been used already, or been cut short by your email app. Ask for a new one — it only takes a
        minute.
      </Notice>
      <Link to="/reset-password" className={buttonClasses({ size: 'lg', className: 'w-full' })}>
        Send me a new link
      </Link>
    </div>
  );
}

export default function UpdatePasswordPage() {
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const token = searchString(search, 'token');
  const linkError = searchString(search, 'error');
  const queryClient = useQueryClient();
  const [done, setDone] = useState(false);
  const [badToken, setBadToken] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<Values>({ resolver, defaultValues: { newPassword: '', confirm: '' } });

  const onSubmit = handleSubmit(async ({ newPassword }) => {
    setFailure(null);
    try {
      await authPost('/reset-password', { newPassword, token });
      // Every session was revoked, this browser's included: forget who we were.
      await refreshSession(queryClient).catch(() => {});
      setDone(true);
    } catch (err) {
      if (err instanceof ApiClientError && err.fields?.password && !err.fields.newPassword) {
        setError('newPassword', { type: 'server', message: err.fields.password[0]! }, { shouldFocus: true });
        return;
      }
      if (applyServerFields(err, setError, ['newPassword'])) return;
      if (err instanceof ApiClientError) {
        if (err.code === 'INVALID_TOKEN' || err.code === 'TOKEN_EXPIRED') return setBadToken(true);
        if (['PASSWORD_COMPROMISED', 'PASSWORD_TOO_SHORT', 'PASSWORD_TOO_LONG'].includes(err.code)) {
          return setError('newPassword', { type: 'server', message: err.message }, { shouldFocus: true });
        }
        if (err.status === 429) return setFailure(`Too many attempts. ${retryText(err.retryAfter)}`);
        return setFailure(err.message);
      }
      setFailure('Something went wrong. Try again.');
    }
  });

  let body;
  if (done) {
    body = (
      <div className="space-y-4">
        <Notice tone="success" title="Your password is changed">
          For your safety we signed you out everywhere. Sign in with your new password.
        </Notice>
        <Link to="/sign-in" className={buttonClasses({ size: 'lg', className: 'w-full' })}>
          Sign in
        </Link>
      </div>
    );
  } else if (!token || linkError || badToken) {
    body = <BadLink />;
  } else {
    body = (
      <form onSubmit={onSubmit} noValidate className="space-y-5">
        {failure ? <Notice tone="danger">{failure}</Notice> : null}
        {/* Lets password managers file the new password under the right account. */}
        <input type="text" name="username" autoComplete="username" hidden readOnly />
        <FormField
          label="New password"
          hint={`${PASSWORD_MIN}–${PASSWORD_MAX} characters. Common passwords are refused.`}
          error={errors.newPassword?.message}
        >
          <PasswordInput autoComplete="new-password" maxLength={PASSWORD_MAX} autoFocus {...register('newPassword')} />
        </FormField>
        <FormField label="New password again" error={errors.confirm?.message}>
          <PasswordInput autoComplete="new-password" maxLength={PASSWORD_MAX} {...register('confirm')} />
        </FormField>
        <Button type="submit" size="lg" className="w-full" loading={isSubmitting} loadingText="Saving…">
          Set new password
        </Button>
      </form>
    );
  }

  return (
    <>
      <AuthHeader title="Choose a new password" icon={<KeyRound />}>
        {done ? null : 'Pick a password you do not use anywhere else. Changing it signs you out on every device.'}
      </AuthHeader>
      {body}
    </>
  );
}
