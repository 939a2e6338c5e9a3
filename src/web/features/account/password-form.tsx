import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { PASSWORD_MAX, passwordSchema } from '@shared/contracts/account';
import { Button, FormField, Input, Notice, Panel, toast } from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { accountApi, accountKeys } from './api';
import { applyServerFields, errorText } from '@web/lib/api-errors';

const passwordChangeSchema = z
  .object({
    currentPassword: z.string().min(1, 'Enter your current password.').max(PASSWORD_MAX),
    newPassword: passwordSchema,
    confirmPassword: z.string().min(1, 'Type the new password again.'),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { message: 'The two new passwords do not match.', path: ['confirmPassword'] })
  .refine((v) => v.newPassword !== v.currentPassword, { message: 'Choose a password different from the current one.', path: ['newPassword'] });
type PasswordChange = z.infer<typeof passwordChangeSchema>;

/** Password change with the current password; every other session is signed out. */
export function PasswordForm() {
  const qc = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, reset, formState } = useForm<PasswordChange>({
    resolver: zodResolver(passwordChangeSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    mode: 'onTouched',
  });
  const onSubmit = handleSubmit(async (v) => {
    setFormError(null);
    try {
      await accountApi.changePassword(v.currentPassword, v.newPassword);
      reset();
      await qc.invalidateQueries({ queryKey: accountKeys.sessions });
      await qc.invalidateQueries({ queryKey: ['session'] });
      toast.success('Password changed', 'Every other device was signed out. Use the new password next time.');
    } catch (err) {
      if (err instanceof ApiClientError && (err.code === 'INVALID_PASSWORD' || err.code === 'CREDENTIAL_ACCOUNT_NOT_FOUND')) {
        return setError('currentPassword', { type: 'server', message: 'That is not your current password.' }, { shouldFocus: true });
      }
      if (applyServerFields(err, setError, ['currentPassword', 'newPassword'], { password: 'newPassword' })) return;
      setFormError(errorText(err));
    }
  });
  return (
    <Panel id="password" title="Password" description="Changing it signs out every other device where you are signed in.">
      <form onSubmit={onSubmit} noValidate className="max-w-md space-y-4">
        {formError ? <Notice tone="danger">{formError}</Notice> : null}
        {/* Lets password managers pair the new password with this account. */}
        <input type="text" autoComplete="username" hidden readOnly aria-hidden="true" tabIndex={-1} />
        <FormField label="Current password" error={formState.errors.currentPassword?.message} required>
          <Input type="password" autoComplete="current-password" {...register('currentPassword')} />
        </FormField>
        <FormField
          label="New password"
          hint="8–128 characters. Common or leaked passwords are refused."
          error={formState.errors.newPassword?.message}
          required
        >
          <Input type="password" autoComplete="new-password" {...register('newPassword')} />
        </FormField>
        <FormField label="New password again" error={formState.errors.confirmPassword?.message} required>
          <Input type="password" autoComplete="new-password" {...register('confirmPassword')} />
        </FormField>
        <Button type="submit" loading={formState.isSubmitting} loadingText="Changing…">
          Change password
        </Button>
      </form>
    </Panel>
  );
}
