import { useForm } from 'react-hook-form';
import { useState } from 'react';
import {
  emailRule,
  PASSWORD_MAX,
  PASSWORD_MIN,
  passwordRule,
  signUpConsentMessages,
  usernameRule,
} from '@shared/contracts/account-rules';
import { Button, Checkbox, FormField, Input, Notice } from '@web/components/ui';
import { api, ApiClientError } from '@web/lib/api';
import { authPost } from '@web/lib/auth-post';
import { applyServerFields, retryText } from '@web/lib/api-errors';
import { checksResolver } from './checks-resolver';
import { checkText, checkTicked } from './form-check';
import { PasswordInput } from './parts';

/** The API's sign-up body (`signUpSchema`) as the page's fields hold it, checked by the same rules. */
export interface SignUpFormValues {
  email: string;
  password: string;
  username: string;
  ageConfirmed: boolean;
  termsAccepted: boolean;
}

const resolver = checksResolver<SignUpFormValues>({
  email: (v) => checkText(emailRule, v),
  password: (v) => checkText(passwordRule, v),
  username: (v) => checkText(usernameRule, v),
  ageConfirmed: (v) => checkTicked(signUpConsentMessages.ageConfirmed, v),
  termsAccepted: (v) => checkTicked(signUpConsentMessages.termsAccepted, v),
});

const FIELDS = ['email', 'password', 'username', 'ageConfirmed', 'termsAccepted'] as const;

/** Server codes → the field they belong to, when the server sends a code without `fields`. */
const CODE_FIELD: Record<string, (typeof FIELDS)[number]> = {
  USERNAME_INVALID: 'username',
  USERNAME_TAKEN: 'username',
  USERNAME_IS_ALREADY_TAKEN: 'username',
  PASSWORD_TOO_SHORT: 'password',
  PASSWORD_TOO_LONG: 'password',
  PASSWORD_COMPROMISED: 'password',
  AGE_NOT_CONFIRMED: 'ageConfirmed',
  TERMS_NOT_ACCEPTED: 'termsAccepted',
  INVALID_EMAIL: 'email',
};

export function SignUpForm({ onSignedUp }: { onSignedUp: (email: string) => void }) {
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<SignUpFormValues>({
    resolver,
    defaultValues: { email: '', password: '', username: '', ageConfirmed: false, termsAccepted: false },
    mode: 'onTouched',
  });

  const checkUsername = async (username: string) => {
    if (!checkText(usernameRule, username).ok) return;
    try {
      const r = await api.get('/api/account/username-available', { query: { username: username.trim() } });
      if (!r.available) setError('username', { type: 'server', message: 'That username is taken. Try another.' });
    } catch {
      // Only a hint: the server checks again on submit.
    }
  };

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      await authPost('/sign-up/email', { ...values, name: values.username, callbackURL: '/home' });
      onSignedUp(values.email.trim());
    } catch (err) {
      if (applyServerFields(err, setError, FIELDS)) return;
      if (err instanceof ApiClientError) {
        const field = CODE_FIELD[err.code];
        if (field) return setError(field, { type: 'server', message: err.message }, { shouldFocus: true });
        if (err.status === 429) return setFormError(`Too many sign-up attempts from here. ${retryText(err.retryAfter)}`);
        return setFormError(err.message);
      }
      setFormError('Something went wrong. Try again in a moment.');
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      {formError ? <Notice tone="danger">{formError}</Notice> : null}
      <FormField label="Email" error={errors.email?.message} required>
        <Input type="email" autoComplete="email" inputMode="email" {...register('email')} />
      </FormField>
      <FormField
        label="Username"
        hint="Shown publicly, e.g. on top pulls. 3–20 letters, digits, _ or -."
        error={errors.username?.message}
        required
      >
        <Input
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={20}
          {...register('username', { onBlur: (e) => void checkUsername(e.target.value) })}
        />
      </FormField>
      <FormField
        label="Password"
        hint={`${PASSWORD_MIN}–${PASSWORD_MAX} characters. Common passwords are refused.`}
        error={errors.password?.message}
        required
      >
        <PasswordInput autoComplete="new-password" maxLength={PASSWORD_MAX} {...register('password')} />
      </FormField>
      <div className="space-y-3 rounded-xl border border-white/10 bg-white/[0.02] p-4">
        <FormField inline label="I am 18 or older." error={errors.ageConfirmed?.message} required>
          <Checkbox {...register('ageConfirmed')} />
        </FormField>
        <FormField
          inline
          label={
            <>
              I accept the{' '}
              <a href="/terms-of-service" target="_blank" rel="noreferrer" className="text-violet-300 underline underline-offset-2">
                terms of service
              </a>{' '}
              and have read the{' '}
              <a href="/privacy-policy" target="_blank" rel="noreferrer" className="text-violet-300 underline underline-offset-2">
                privacy policy
              </a>
              .
            </>
          }
          error={errors.termsAccepted?.message}
          required
        >
          <Checkbox {...register('termsAccepted')} />
        </FormField>
      </div>
      <Button type="submit" size="lg" className="w-full" loading={isSubmitting} loadingText="Creating your account…">
        Create account
      </Button>
    </form>
  );
}
