import { useState } from 'react';
import { Link, useRouter } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { ShieldCheck } from 'lucide-react';
import { Button, Checkbox, FormField, Input, Notice, Tabs, TabsContent, TabsList, TabsTrigger } from '@web/components/ui';
import { authPost } from '@web/lib/auth-post';
import { retryText } from '@web/lib/api-errors';
import { AuthHeader } from '@web/features/auth/parts';
import { refreshSession } from '@web/features/auth/session-actions';
import { useRedirectTarget } from '@web/hooks/use-safe-redirect';
import { ApiClientError } from '@web/lib/api';

type Method = 'totp' | 'backup';

interface Values {
  code: string;
  trustDevice: boolean;
}

function CodeForm({ method, redirect }: { method: Method; redirect: string }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<{ tone: 'danger' | 'warning'; title?: string; text: string; restart?: boolean } | null>(
    null,
  );
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<Values>({ defaultValues: { code: '', trustDevice: false } });

  const onSubmit = handleSubmit(async ({ code, trustDevice }) => {
    const clean = method === 'totp' ? code.replace(/\s/g, '') : code.trim();
    if (method === 'totp' && !/^\d{6}$/.test(clean)) {
      setError('code', { message: 'Enter the 6-digit code from your authenticator app.' }, { shouldFocus: true });
      return;
    }
    if (method === 'backup' && clean.length < 6) {
      setError('code', { message: 'Enter one of your backup codes.' }, { shouldFocus: true });
      return;
    }
    setFailure(null);
    try {
      await authPost(method === 'totp' ? '/two-factor/verify-totp' : '/two-factor/verify-backup-code', {
        code: clean,
        trustDevice,
      });
      await refreshSession(queryClient);
      router.history.push(redirect);
    } catch (err) {
      if (!(err instanceof ApiClientError)) {
        setFailure({ tone: 'danger', text: 'Something went wrong. Try again in a moment.' });
        return;
      }
      if (err.code === 'INVALID_CODE' || err.code === 'INVALID_BACKUP_CODE' || err.code === 'INVALID_TWO_FACTOR_CODE') {
        setError(
          'code',
          {
            message:
              method === 'totp'
                ? 'That code is not right. Check your app shows the code for this account and try again.'
                : 'That backup code is not right, or it has been used already.',
          },
          { shouldFocus: true },
        );
      } else if (err.code === 'TOTP_CODE_ALREADY_USED') {
        setError('code', { message: 'That code was already used. Wait for your app to show the next one.' }, { shouldFocus: true });
      } else if (err.code === 'INVALID_TWO_FACTOR_COOKIE' || err.status === 401) {
        setFailure({
          tone: 'warning',
          title: 'Your sign-in step expired',
          text: 'For your safety the second step has to follow the password within a few minutes. Sign in again.',
          restart: true,
        });
      } else if (err.status === 429) {
        setFailure({
          tone: 'danger',
          title: 'Too many wrong codes',
          text: `Two-factor sign-in is locked for this account for a while. ${retryText(err.retryAfter)}`,
        });
      } else {
        setFailure({ tone: 'danger', text: err.message });
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
            failure.restart ? (
              <Link
                to="/sign-in"
                search={(redirect !== '/home' ? { redirect } : {}) as never}
                className="font-medium text-white underline underline-offset-2"
              >
                Sign in again
              </Link>
            ) : undefined
          }
        >
          {failure.text}
        </Notice>
      ) : null}
      {method === 'totp' ? (
        <FormField label="6-digit code" hint="Open your authenticator app and type the code shown for this site." error={errors.code?.message}>
          <Input
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={7}
            className="text-center font-mono text-xl tracking-[0.4em]"
            autoFocus
            {...register('code')}
          />
        </FormField>
      ) : (
        <FormField label="Backup code" hint="Like ABCDE-23456. Each one works once; capitals and the dash are optional." error={errors.code?.message}>
          <Input autoComplete="off" autoCapitalize="none" spellCheck={false} className="font-mono" {...register('code')} />
        </FormField>
      )}
      <FormField inline label="Trust this device for 30 days" hint="Skip this step on this browser. Do not use on a shared computer.">
        <Checkbox {...register('trustDevice')} />
      </FormField>
      <Button type="submit" size="lg" className="w-full" loading={isSubmitting} loadingText="Checking…">
        Verify and continue
      </Button>
    </form>
  );
}

export default function LoginMfaPage() {
  const redirect = useRedirectTarget();
  const [method, setMethod] = useState<Method>('totp');
  return (
    <>
      <AuthHeader title="Two-factor check" icon={<ShieldCheck />}>
        Your account is protected with two-factor sign-in. Confirm it is you with a code.
      </AuthHeader>
      <Tabs value={method} onValueChange={(v) => setMethod(v as Method)}>
        <TabsList aria-label="Kind of code" className="w-full">
          <TabsTrigger value="totp" className="flex-1">
            Authenticator app
          </TabsTrigger>
          <TabsTrigger value="backup" className="flex-1">
            Backup code
          </TabsTrigger>
        </TabsList>
        <TabsContent value="totp">
          <CodeForm method="totp" redirect={redirect} />
        </TabsContent>
        <TabsContent value="backup">
          <CodeForm method="backup" redirect={redirect} />
        </TabsContent>
      </Tabs>
      <p className="mt-6 text-center text-sm text-zinc-400">
        Lost your phone and your backup codes? Contact support from the email on your account.{' '}
        <Link to="/sign-in" className="text-violet-300 underline underline-offset-2">
          Use another account
        </Link>
      </p>
    </>
  );
}
