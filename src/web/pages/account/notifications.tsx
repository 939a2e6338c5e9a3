import type { QueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ShieldCheck } from 'lucide-react';
import { NOTIFICATION_RETENTION_DAYS } from '@shared/contracts/notifications';
import { buttonClasses, PageHeader, Panel } from '@web/components/ui';
import { preferencesQuery } from '@web/features/notifications/api';
import { NotificationPreferencesForm } from '@web/features/notifications/preferences-form';

export const prefetch = (qc: QueryClient) => qc.prefetchQuery(preferencesQuery);

/** /profile/notifications: the channels per kind (features/notifications), and the mail that always goes. */
export default function ProfileNotificationsPage() {
  return (
    <>
      <PageHeader
        eyebrow="Your profile"
        title="Notifications"
        description={`Choose what we tell you in app and by email. Notifications are kept for ${NOTIFICATION_RETENTION_DAYS} days.`}
      />
      <div className="space-y-6">
        <NotificationPreferencesForm />
        <Panel
          id="always-sent"
          title={
            <span className="flex items-center gap-2">
              <ShieldCheck aria-hidden="true" className="size-5 text-violet-300" /> Mail we always send
            </span>
          }
          description="Account mail protects your account and money, so it is not a setting above and always goes."
        >
          <ul className="list-disc space-y-1.5 pl-5 text-sm text-zinc-300">
            <li>Confirming your email address, and approving a change of address.</li>
            <li>Password reset links, and notice when two-factor is reset by support.</li>
            <li>Notice when someone tries to sign up with your email address.</li>
            <li>Notice if your account is suspended, with the reason.</li>
            <li>Security notifications: a new sign-in, or a change to your password or two-factor.</li>
          </ul>
          <Link to="/profile/privacy-and-security" className={buttonClasses({ variant: 'secondary', className: 'mt-5' })}>
            Review privacy and security
          </Link>
        </Panel>
      </div>
    </>
  );
}
