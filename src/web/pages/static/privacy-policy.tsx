import { Link } from '@tanstack/react-router';
import { useSiteConfig } from '@web/hooks/use-site-config';
import { StaticPage } from './static-page';

export default function PrivacyPolicyPage() {
  const { siteName, supportEmail } = useSiteConfig();
  return (
    <StaticPage
      title="Privacy policy"
      lead={`What ${siteName} collects about you, why, how long we keep it, and how you can see, export or delete it.`}
    >
      <h2>Who we are</h2>
      <p>
        {siteName} runs this shop and decides how your personal data is used. Questions about this policy go to our
        support team{supportEmail ? (
          <>
            {' '}
            at <a href={`mailto:${supportEmail}`}>{supportEmail}</a>
          </>
        ) : (
          ' through the contact details on your account pages'
        )}
        .
      </p>

      <h2>What we collect</h2>
      <ul>
        <li>
          <strong>Account details</strong>: your email address, your public username, a hash of your password (never the
          password itself), your confirmation that you are 18 or older, and when you accepted the terms.
        </li>
        <li>
          <strong>Security data</strong>: your active sessions (browser, IP address, last seen), whether two-factor
          sign-in is on, an encrypted two-factor secret and hashed backup codes, and a record of failed sign-in attempts
          used to stop password guessing.
        </li>
        <li>
          <strong>Shop activity</strong>: your balance history (deposits, purchases, buybacks, fees, credits), pack
          openings with their fairness data, the cards you own and their status, daily drop entries, referrals and promo
          code redemptions.
        </li>
        <li>
          <strong>Shipping addresses</strong> you add, and the shipments you request, with carrier and tracking number.
        </li>
        <li>
          <strong>Payment references</strong> from our payment provider. We never see or store your full card number.
        </li>
        <li>
          <strong>Error reports</strong>: when a page breaks, your browser sends a technical report (the error, the page
          address and your browser version) to our own servers so we can fix it.
        </li>
      </ul>

      <h2>Why we use it</h2>
      <ul>
        <li>To run your account and the purchases, openings, buybacks and shipments you ask for.</li>
        <li>To keep accounts safe: verifying your email, two-factor sign-in, rate limits and fraud checks.</li>
        <li>To keep the accounting records the law requires for money that moves through the shop.</li>
        <li>To send the emails you need (verification, password reset, shipping updates, drop wins) and the
          notifications you have switched on.</li>
        <li>To show your public username next to your pulls on the top pulls list and as a daily drop winner.</li>
      </ul>
      <p>We do not sell your personal data, and we do not use third-party advertising trackers.</p>

      <h2>Cookies</h2>
      <p>
        We use one essential session cookie to keep you signed in, and, if you tick &ldquo;trust this device&rdquo;, a
        cookie that skips the two-factor step on that browser for 30 days. Both are HttpOnly and cannot be read by
        scripts. There are no analytics or advertising cookies.
      </p>

      <h2>Who else sees it</h2>
      <p>
        Only the services that help us run the shop: our payment provider, our email provider, our hosting provider and
        the carriers that deliver your cards (they receive the shipping address of that parcel). Each receives only what
        it needs for that job.
      </p>

      <h2>How long we keep it</h2>
      <p>
        We keep your account data while your account is open. When you delete your account, your personal data is
        erased or replaced with a pseudonym, and you are signed out everywhere. Records of money — ledger entries,
        payments and refunds — are kept for as long as accounting law requires, without your name attached where that is
        possible.
      </p>

      <h2>Your rights and controls</h2>
      <ul>
        <li>
          See and change your details at <Link to="/profile/account">your account</Link>.
        </li>
        <li>
          Download everything we hold about you as a JSON file, review and revoke sessions, or delete your account at{' '}
          <Link to="/profile/privacy-and-security">privacy and security</Link>.
        </li>
        <li>
          Choose which notifications you get in the app and by email at{' '}
          <Link to="/profile/notifications">notifications</Link>.
        </li>
      </ul>
      <p>
        You may also ask us to correct or restrict how we use your data, object to it, or complain to your local data
        protection authority.
      </p>

      <h2>Changes</h2>
      <p>
        If we change this policy in a way that matters, we will tell you by email or in the app before the change takes
        effect.
      </p>
    </StaticPage>
  );
}
