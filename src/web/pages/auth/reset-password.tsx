import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { KeyRound } from 'lucide-react';
import { emailRule } from '@shared/contracts/account-rules';
import { Button, FormField, Input, Notice } from '@web/components/ui';
import { authPost } from '@web/lib/auth-post';
import { retryText } from '@web/lib/api-errors';
import { AuthHeader } from '@web/features/auth/parts';
import { checksResolver } from '@web/features/auth/checks-resolver';
import { checkText } from '@web/features/auth/form-check';
import { ApiClientError } from '@web/lib/api';

const resolver = checksResolver<{ email: string }>({ email: (v) => checkText(emailRule, v) });

export default function ResetPasswordPage() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<{ email: string }>({ resolver, defaultValues: { email: '' } });

  const onSubmit = handleSubmit(async ({ email }) => {
    setFailure(null);
    try {
      await authPost('/request-password-reset', { email: email.trim(), redirectTo: '/update-password' });
      setSentTo(email.trim());
    } catch (err) {
      setFailure(
        err instanceof ApiClientError && err.status === 429
          ? `You have asked for several reset links already. ${retryText(err.retryAfter)}`
          : err instanceof Error
            ? err.message
            : 'Something went wrong. Try again.',
      );
    }
  });

  return (
    <>
      <AuthHeader title="Reset your password" icon={<KeyRound />}>
        Enter the email you signed up with and we will send you a link to choose a new password.
      </AuthHeader>
      {sentTo ? (
        <div className="space-y-4">
          {/* The same answer whether or not an account exists, so this page cannot be used to find accounts. */}
          <Notice tone="success" title="Check your email">
            If an account exists for <strong className="text-white">{sentTo}</strong>, a reset link is on its way. It
            works once and expires soon. Not there? Check your spam folder.
          </Notice>
          <Button variant="secondary" className="w-full" onClick={() => setSentTo(null)}>
            Use a different email
          </Button>
        </div>
      ) : (
        <form onSubmit={onSubmit} noValidate className="space-y-5">
          {failure ? <Notice tone="danger">{failure}</Notice> : null}
          <FormField label="Email" error={errors.email?.message}>
            <Input type="email" autoComplete="email" inputMode="email" {...register('email')} />
          </FormField>
          <Button type="submit" size="lg" className="w-full" loading={isSubmitting} loadingText="Sending…">
            Send reset link
          </Button>
        </form>
      )}
      <p className="mt-6 text-center text-sm text-zinc-400">
        Remembered it?{' '}
        <Link to="/sign-in" className="font-medium text-violet-300 underline underline-offset-2">
          Sign in
        </Link>
      </p>
    </>
  );
}
