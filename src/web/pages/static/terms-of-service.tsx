import { Link } from '@tanstack/react-router';
import { useSiteConfig } from '@web/hooks/use-site-config';
import { StaticPage } from './static-page';

export default function TermsOfServicePage() {
  const { siteName } = useSiteConfig();
  return (
    <StaticPage
      title="Terms of service"
      lead={`The agreement between you and ${siteName} when you use the shop: your account, your credit, packs, the cards you own, and what happens if something goes wrong.`}
    >
      <h2>1. Who can use {siteName}</h2>
      <p>
        You must be at least 18 years old and allowed to buy randomised products where you live. You need one account of
        your own, with a real email address that you verify before you spend anything. Keep your password private and
        switch on two-factor sign-in; you are responsible for what happens in your account.
      </p>

      <h2>2. Your balance</h2>
      <ul>
        <li>
          Your balance is <strong>site credit</strong> in the shop&apos;s currency. It is not a bank account, does not earn
          interest, and can be spent only in the shop.
        </li>
        <li>
          It changes only through entries you can see in your <Link to="/profile/history">history</Link>: deposits, pack
          purchases, buybacks, shipping fees and refunds, promo credit, referral rewards, refunds and corrections made by
          our staff (always with a reason).
        </li>
        <li>It can never go below zero. A purchase that would overdraw it is refused.</li>
        <li>
          If a request is sent twice — for example after a network error — you are charged once.
        </li>
      </ul>

      <h2>3. Packs and odds</h2>
      <p>
        A product in the shop sells a pack. Its page shows the number of cards, the odds for every slot, and the value
        range. The odds shown are the odds used. If a slot&apos;s odds cannot be honoured because a class has run out of
        stock, the pack is sold out; we never change odds silently. Most packs are worth less than their price on average
        — buy them for the fun of opening, not as an investment.
      </p>
      <p>
        Every opening is provably fair and can be verified afterwards (see <Link to="/fairness">provably fair</Link>). A
        purchase and its opening happen together: either you are charged and you own the cards, or neither happens.
      </p>

      <h2>4. The cards you own</h2>
      <p>
        The cards you pull are physical cards held in our vault for you. You can keep them there, sell them back, or have
        them shipped.
      </p>
      <ul>
        <li>
          <strong>Buyback</strong>: selling a card back credits your balance at once with the buyback rate (85% by
          default, or the rate of its rarity class) times its current market value. A buyback cannot be undone.
        </li>
        <li>
          <strong>Shipping</strong>: the fee (a base amount plus an amount per card) is taken from your balance when you
          request the shipment. You can cancel while it is still requested and get the fee back. Once shipped, you
          receive the carrier and tracking number.
        </li>
        <li>Market values are our estimates and can change. They are not offers to buy unless you use buyback.</li>
      </ul>

      <h2>5. Daily drops, referrals and promo codes</h2>
      <p>
        Daily drops are free raffles governed by the <Link to="/raffle-terms">raffle terms</Link>. Referral rewards are
        paid when an invited friend&apos;s first deposit reaches the qualifying amount; referring yourself or reusing
        accounts is not allowed. Promo codes have a validity window and use limits shown when you redeem them.
      </p>

      <h2>6. Responsible play</h2>
      <p>
        You can set spending limits or exclude yourself for a period in{' '}
        <Link to="/profile/privacy-and-security">privacy and security</Link>. While an exclusion runs, we refuse purchases
        on your account.
      </p>

      <h2>7. Things you must not do</h2>
      <ul>
        <li>Use someone else&apos;s account, or create accounts to collect rewards or drop entries more than once.</li>
        <li>Try to break, overload or get around the security of the shop, or automate purchases.</li>
        <li>Use the shop for money laundering or any other illegal purpose.</li>
      </ul>
      <p>
        We may suspend an account that breaks these terms. A suspended user is told so when signing in, and cards and
        credit are handled fairly and lawfully.
      </p>

      <h2>8. Maintenance and liability</h2>
      <p>
        We sometimes take the shop offline for maintenance; your cards and balance are not affected. We are responsible
        for the cards in our vault and for the correctness of your balance. We are not liable for losses caused by
        events outside our reasonable control, nor for the future value of any card.
      </p>

      <h2>9. Closing your account</h2>
      <p>
        You can delete your account at any time. Ship or sell back the cards you want to keep first. What happens to
        your data is described in the <Link to="/privacy-policy">privacy policy</Link>.
      </p>

      <h2>10. Changes to these terms</h2>
      <p>
        We will tell you about important changes before they apply. If you do not agree, you can close your account.
      </p>
    </StaticPage>
  );
}
