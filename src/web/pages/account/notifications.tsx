import { Link } from '@tanstack/react-router';
import { BellOff } from 'lucide-react';
import { buttonClasses, Notice, PageHeader, Panel } from '@web/components/ui';

/**
 * /profile/notifications: there is no notification-preferences API yet (docs/api-auth.md), so
 * this page says so plainly and lists the mail that is always sent.
 */
export default function ProfileNotificationsPage() {
  return (
    <>
      <PageHeader eyebrow="Your profile" title="Notifications" description="Which messages we send you." />
      <div className="space-y-6">
        <Notice tone="info" title="Notification settings are not available yet" live={false}>
          You cannot turn messages on or off here yet. Nothing on this page changes or saves anything.
        </Notice>
        <Panel
          id="always-sent"
          title={
            <span className="flex items-center gap-2">
              <BellOff aria-hidden="true" className="size-5 text-violet-300" /> Mail we always send
            </span>
          }
          description="These protect your account and money, so they cannot be switched off."
        >
          <ul className="list-disc space-y-1.5 pl-5 text-sm text-zinc-300">
            <li>Confirming your email address, and approving a change of address.</li>
            <li>Password reset links, and notice when two-factor is reset by support.</li>
            <li>Notice when someone tries to sign up with your email address.</li>
            <li>Notice if your account is suspended, with the reason.</li>
          </ul>
          <Link to="/profile/privacy-and-security" className={buttonClasses({ variant: 'secondary', className: 'mt-5' })}>
            Review privacy and security
          </Link>
        </Panel>
      </div>
    </>
  );
}
