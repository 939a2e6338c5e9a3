import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { emailRule, type TextRule } from '@shared/contracts/account-rules';
import { Button, Checkbox, FormField, Input, Notice } from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { authPost } from '@web/lib/auth-post';
import { retryText } from '@web/lib/api-errors';
import { checksResolver } from './checks-resolver';
import { checkText } from './form-check';
import { PasswordInput } from './parts';

// Length rules are not repeated here: a wrong password gets the same answer as a short one.
const currentPasswordRule = {
  required: 'Enter your password.',
  min: { value: 1, message: 'Enter your password.' },
  max: { value: 256, message: 'That password is too long.' },
} as const satisfies TextRule;

interface Values {
  email: string;
  password: string;
  rememberMe: boolean;
}

const resolver = checksResolver<Values>({
  email: (v) => checkText(emailRule, v),
  password: (v) => checkText(currentPasswordRule, v),
  rememberMe: (v) => ({ ok: true, value: v === true }),
});

export type SignInOutcome =
  | { kind: 'signed-in' }
  | { kind: 'second-factor' }
  | { kind: 'unverified'; email: string };

interface Failure {
  tone: 'danger' | 'warning';
  title?: string;
  message: string;
  banned?: boolean;
}

export function SignInForm({ onDone, defaultEmail }: { onDone: (outcome: SignInOutcome) => void; defaultEmail?: string }) {
  const [failure, setFailure] = useState<Failure | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<Values>({
    resolver,
    defaultValues: { email: defaultEmail ?? '', password: '', rememberMe: true },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      const res = await authPost<{ twoFactorRedirect?: boolean }>('/sign-in/email', {
        email: values.email.trim(),
        password: values.password,
        rememberMe: values.rememberMe,
        callbackURL: '/home',
      });
      onDone(res?.twoFactorRedirect ? { kind: 'second-factor' } : { kind: 'signed-in' });
    } catch (err) {
      if (!(err instanceof ApiClientError)) {
        setFailure({ tone: 'danger', message: 'Something went wrong. Try again in a moment.' });
        return;
      }
      switch (err.code) {
        case 'INVALID_EMAIL_OR_PASSWORD':
        case 'INVALID_EMAIL':
        case 'INVALID_PASSWORD':
          setFailure({
            tone: 'danger',
            message: 'That email and password do not match an account. Check both and try again.',
          });
          return;
        case 'EMAIL_NOT_VERIFIED':
          onDone({ kind: 'unverified', email: values.email.trim() });
          return;
        case 'BANNED_USER':
          setFailure({ tone: 'danger', title: 'Your account is suspended', message: err.message, banned: true });
          return;
      }
      if (err.status === 429) {
        setFailure({ tone: 'warning', title: 'Too many attempts', message: retryText(err.retryAfter) });
      } else {
        setFailure({ tone: 'danger', message: err.message });
      }
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      {failure ? (
        <Notice
          tone={failure.tone}
          title={failure.title}
          action={
            failure.banned ? (
              <Link
                to="/auth-error"
                search={{ reason: 'banned' } as never}
                className="font-medium text-white underline underline-offset-2"
              >
                What this means and what you can do
              </Link>
            ) : undefined
          }
        >
          {failure.message}
        </Notice>
      ) : null}
      <FormField label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="email" inputMode="email" {...register('email')} />
      </FormField>
      <FormField label="Password" error={errors.password?.message}>
        <PasswordInput autoComplete="current-password" {...register('password')} />
      </FormField>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <FormField inline label="Keep me signed in">
          <Checkbox {...register('rememberMe')} />
        </FormField>
        <Link to="/reset-password" className="text-sm text-violet-300 underline underline-offset-2 hover:text-fuchsia-300">
          Forgot your password?
        </Link>
      </div>
      <Button type="submit" size="lg" className="w-full" loading={isSubmitting} loadingText="Signing in…">
        Sign in
      </Button>
    </form>
  );
}
