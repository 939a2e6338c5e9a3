import { Link } from '@tanstack/react-router';
import { useSiteConfig } from '@web/hooks/use-site-config';
import { StaticPage } from './static-page';

export default function RaffleTermsPage() {
  const { siteName } = useSiteConfig();
  return (
    <StaticPage
      title="Raffle terms"
      lead={`The rules of ${siteName} daily drops: a free raffle for a real card from our vault, drawn in a way anyone can check.`}
    >
      <h2>1. Free entry — no purchase necessary</h2>
      <p>
        Entering a daily drop is <strong>free</strong>. You do not need to buy anything, deposit money or hold a balance,
        and buying packs does not improve your chances.
      </p>

      <h2>2. Who can enter</h2>
      <ul>
        <li>You must be 18 or older, and signed in with a {siteName} account.</li>
        <li>Your email address must be verified.</li>
        <li>Accounts that are suspended or self-excluded cannot enter while that lasts.</li>
        <li>Staff who run the drops may not enter.</li>
      </ul>

      <h2>3. One entry per person per drop</h2>
      <p>
        Each user may enter each drop <strong>once</strong>. Entering again has no effect. Using several accounts to get
        more entries is against the <Link to="/terms-of-service">terms of service</Link> and voids every entry made that
        way.
      </p>

      <h2>4. When a drop runs</h2>
      <p>
        A drop runs for one day; its page shows the prize card, the opening and closing times, and the number of
        entries so far. Entries made after the close are not counted.
      </p>

      <h2>5. How winners are drawn (commit–reveal)</h2>
      <ol>
        <li>
          <strong>When the drop opens</strong>, we generate a secret random seed and publish its SHA-256 hash. Publishing
          the hash commits us to that seed without revealing it.
        </li>
        <li>
          <strong>When the drop closes</strong>, the list of entries is frozen and we compute the SHA-256 hash of that
          list.
        </li>
        <li>
          The winners are drawn from the seed and the entry list, with a method that has no bias towards any position in
          the list.
        </li>
        <li>
          <strong>With the winners</strong> we publish the seed itself and the hash of the entry list. Anyone can check
          that the seed matches the hash published at the open, and recompute the draw.
        </li>
      </ol>
      <p>
        Past drops, their winners and their proofs are listed at{' '}
        <Link to="/daily-drop-winners">daily drop winners</Link>.
      </p>

      <h2>6. The prize</h2>
      <p>
        The prize is the physical card shown on the drop, taken from our stock. It goes <strong>straight into the
        winner&apos;s vault</strong>, where it belongs to the winner like any card pulled from a pack: keep it, sell it
        back or have it shipped (shipping fees apply as for any card). Prizes cannot be exchanged for cash by other means.
      </p>

      <h2>7. How winners are told</h2>
      <p>
        The winner is notified <strong>in the app and by email</strong> at the verified address on the account. The
        winner&apos;s public username is shown on the winners list; no other personal details are published.
      </p>

      <h2>8. If something goes wrong</h2>
      <p>
        If a drop cannot be drawn fairly — for example because of a technical fault — we cancel it and say so on the
        winners list, rather than draw it in a way that cannot be proved.
      </p>
    </StaticPage>
  );
}
