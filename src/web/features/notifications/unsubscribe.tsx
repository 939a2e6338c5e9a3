import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { MailX } from 'lucide-react';
import { Button, buttonClasses, Card, Notice, Spinner } from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { unsubscribeInfoQuery, useConfirmUnsubscribe } from './api';

/** The server's answer to a forged or garbled link (`invalid_link`) or an old one (`link_expired`). */
const isExpired = (err: unknown) => err instanceof ApiClientError && (err.code as string) === 'link_expired';
const isBadLink = (err: unknown) => err instanceof ApiClientError && (err.status === 400 || err.status === 404);

/** Where a signed-out reader changes settings: the sign-in page sends them on afterwards. */
function SettingsLink({ primary = false }: { primary?: boolean }) {
  return (
    <Link to="/profile/notifications" className={buttonClasses({ variant: primary ? 'primary' : 'secondary' })}>
      Notification settings
    </Link>
  );
}

/** A link that can't be used: said neutrally, whoever holds it, with the way forward. */
function BadLink({ expired }: { expired: boolean }) {
  return (
    <Card className="space-y-4">
      <h2 className="text-lg font-semibold text-white">{expired ? 'This link has expired' : 'This link does not work'}</h2>
      <p className="text-sm text-zinc-300">
        {expired
          ? 'Unsubscribe links stop working after a while, to keep your settings safe.'
          : 'The link may be incomplete or was changed on its way to you.'}{' '}
        Nothing was changed. To choose which emails you get, sign in and open your notification settings.
      </p>
      <SettingsLink primary />
    </Card>
  );
}

/**
 * /unsubscribe?token=…: one kind of email turned off from the mail's link, without signing in.
 * Shows what the link would change and asks before changing it.
 */
export function Unsubscribe({ token }: { token: string | undefined }) {
  const info = useQuery({ ...unsubscribeInfoQuery(token ?? ''), enabled: !!token });
  const confirm = useConfirmUnsubscribe(token ?? '');

  if (!token) return <BadLink expired={false} />;
  if (info.isPending) return <Spinner label="Checking your link" />;
  if (info.isError) {
    const err = info.error;
    if (isBadLink(err)) return <BadLink expired={isExpired(err)} />;
    return (
      <Notice
        tone="danger"
        title="We could not check your link"
        action={
          <Button variant="secondary" size="sm" onClick={() => void info.refetch()}>
            Try again
          </Button>
        }
      >
        {err instanceof Error ? err.message : 'Try again in a moment.'} Nothing was changed.
      </Notice>
    );
  }

  const { label, email, alreadyOff } = info.data;
  if (alreadyOff || confirm.isSuccess) {
    return (
      <Card className="space-y-4">
        <div role="status" className="space-y-2">
          <h2 className="text-lg font-semibold text-white">You're unsubscribed</h2>
          <p className="text-sm text-zinc-300">
            We won't email {email} about {label.toLowerCase()} any more. You can turn it back on, or change other emails, in
            your notification settings (you'll need to sign in).
          </p>
        </div>
        <SettingsLink />
      </Card>
    );
  }

  return (
    <Card className="space-y-4">
      <div className="flex items-start gap-3">
        <MailX aria-hidden="true" className="mt-0.5 size-6 shrink-0 text-violet-300" />
        <h2 className="text-lg font-semibold text-white">
          Stop emails about {label} to {email}?
        </h2>
      </div>
      <p className="text-sm text-zinc-300">
        You'll still see these in the app, and account mail (like password resets) always goes.
      </p>
      {confirm.isError ? (
        <Notice tone="danger" title="That did not work">
          {isBadLink(confirm.error)
            ? 'This link no longer works. Sign in and change it in your notification settings.'
            : `${confirm.error.message} Press the button again.`}
        </Notice>
      ) : null}
      <div className="flex flex-wrap gap-3">
        <Button onClick={() => confirm.mutate()} loading={confirm.isPending} loadingText="Unsubscribing…">
          Stop these emails
        </Button>
        <SettingsLink />
      </div>
    </Card>
  );
}
