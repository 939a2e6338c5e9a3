import { Link } from '@tanstack/react-router';
import { useSiteConfig } from '@web/hooks/use-site-config';
import { StaticPage } from './static-page';

export default function RaffleTermsPage() {
  const { siteName } = useSiteConfig();
  return (
    <StaticPage
      title="Raffle terms"
      lead={`The rules of ${siteName} daily drops: a free raffle for real cards from our stock, drawn in a way anyone can check.`}
    >
      <h2>1. Free entry — no purchase necessary</h2>
      <p>
        Entering a daily drop is <strong>free</strong>. You do not need to buy anything, deposit money or hold a balance,
        and buying packs does not change your chances: every entry in a drop has the same chance.
      </p>

      <h2>2. Who can enter</h2>
      <ul>
        <li>You must be 18 or older and signed in with a {siteName} account.</li>
        <li>
          Each drop shows its own eligibility: whether a <strong>verified email address</strong> is required (it is by
          default), and a <strong>minimum account age</strong> in days, if any.
        </li>
        <li>Accounts that are suspended, or that are self-excluded when they try to enter, cannot enter.</li>
        <li>Staff accounts (administrators and owners) cannot enter.</li>
      </ul>
      <p>An entry that does not meet these rules is refused when you try to enter, with the reason.</p>

      <h2>3. One entry per person per drop</h2>
      <p>
        Each account may enter each drop <strong>once</strong>. Pressing &ldquo;Enter&rdquo; again, or a retry after a
        lost connection, returns the entry you already have and never makes a second one. Using several accounts to get
        more entries is against the <Link to="/terms-of-service">terms of service</Link> and voids every entry made that
        way. Each entry gets a random <strong>public entry id</strong>, which only you can see is yours; it is listed in
        the drop&apos;s entry list after the draw.
      </p>

      <h2>4. When a drop runs</h2>
      <p>
        A drop opens and closes at the times shown on its page, which also shows the prize cards, the number of winners
        and the number of entries so far. Entries are taken only while the drop is open. Once a drop has opened, we may
        extend its closing time, but its prizes, number of winners and eligibility can no longer change. Recurring
        daily drops open at the same time each day.
      </p>

      <h2>5. How winners are drawn (commit–reveal)</h2>
      <ol>
        <li>
          <strong>When the drop opens</strong>, a secret random seed (32 bytes) is made and its SHA-256 hash is
          published on the drop page: the commitment. It binds us to that seed without revealing it, before anyone
          enters.
        </li>
        <li>
          <strong>When the drop closes</strong>, the entry list is frozen: the public entry ids, sorted, one per line.
          Entries of accounts suspended or closed by then are left out. The list&apos;s SHA-256 hash is computed.
        </li>
        <li>
          The winners are drawn from HMAC-SHA256(seed, &ldquo;list hash:round&rdquo;) by rejection sampling, which has
          no bias towards any position in the list, one after another, so nobody wins twice. If there are fewer entries
          than winners, every entry wins.
        </li>
        <li>
          <strong>With the winners</strong> we publish the seed, the entry list, its hash and the winners in the order
          drawn. Anyone can check that the seed matches the commitment and recompute the draw; the exact algorithm, with
          test vectors, is in our fairness documentation.
        </li>
      </ol>
      <p>
        The draw runs within seconds of the closing time. If our service is down at that moment, the drop is drawn as
        soon as it is back, from the entries made before the close. Each drop is drawn exactly once. Past drops, their
        winners and their proofs are listed at <Link to="/daily-drop-winners">daily drop winners</Link>.
      </p>

      <h2>6. The prizes</h2>
      <p>
        The prizes are the physical cards shown on the drop. They are set aside from our stock when the drop is
        scheduled. The first winner drawn gets the first prize card, the second the next, and so on. Each prize goes{' '}
        <strong>straight into its winner&apos;s vault</strong>, at the card&apos;s value, where it belongs to the winner
        like any card pulled from a pack: keep it, sell it back or have it shipped (shipping fees apply as for any card).
        There is nothing to claim, so no prize is ever left unclaimed. Prizes cannot be exchanged for cash by other
        means.
      </p>
      <p>
        Prizes that are not awarded — because a drop had fewer eligible entries than prizes, or no entries at all — go
        back to our stock. A drop with no entries closes with no winner.
      </p>

      <h2>7. How winners are told</h2>
      <p>
        The winner is notified <strong>in the app, live</strong>, and <strong>by email</strong> at the address on the
        account. Everyone who entered sees the result on the drop page. The winner&apos;s public username is shown on
        the winners list; no other personal details are published.
      </p>

      <h2>8. Cancellation and your data</h2>
      <p>
        We may cancel a drop before it is drawn — for example because of a technical fault — rather than draw it in a
        way that cannot be proved. A cancelled drop is not drawn, its entries lapse, and its prizes go back to stock. If
        you delete your account, your entries in drops not yet drawn are deleted; entries in drawn drops stay in their
        published entry lists under their random ids, so the proofs still check.
      </p>
    </StaticPage>
  );
}
