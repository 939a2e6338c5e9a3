import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { adminResetPasswordSchema } from '@shared/contracts/admin-users';
import { Button, FormField, Input, Notice, Panel, toast } from '@web/components/ui';
import { adminUsersApi, applyServerFields, errorText } from './api';

/** /admin/reset-password: emails a reset link (the answer is the same whether or not the account exists). */
export function AdminResetPasswordForm({ initialEmail = '' }: { initialEmail?: string }) {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, reset, formState } = useForm<{ email: string }>({
    resolver: zodResolver(adminResetPasswordSchema),
    defaultValues: { email: initialEmail },
    mode: 'onTouched',
  });
  const submit = handleSubmit(async ({ email }) => {
    setFormError(null);
    setSentTo(null);
    try {
      await adminUsersApi.sendReset(email);
      setSentTo(email);
      reset({ email: '' });
      toast.success('Reset link sent', `If an account uses ${email}, it now has a link valid for one hour.`);
    } catch (err) {
      if (applyServerFields(err, setError, ['email'])) return;
      setFormError(errorText(err));
    }
  });
  return (
    <Panel
      id="send-reset"
      title="Send a password reset link"
      description="The user chooses a new password from the link; every session they have is then ended. You never see or set the password."
    >
      <form onSubmit={submit} noValidate className="max-w-md space-y-4">
        {sentTo ? (
          <Notice tone="success" title="Sent">
            If an account uses {sentTo}, it was emailed a reset link valid for one hour. Ask the user to check spam too.
            This was written to the audit log.
          </Notice>
        ) : null}
        {formError ? <Notice tone="danger">{formError}</Notice> : null}
        <FormField label="User's email" error={formState.errors.email?.message} required>
          <Input type="email" autoComplete="off" inputMode="email" {...register('email')} />
        </FormField>
        <Button type="submit" loading={formState.isSubmitting} loadingText="Sending…">
          Send reset link
        </Button>
      </form>
    </Panel>
  );
}
