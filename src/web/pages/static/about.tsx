import { Link } from '@tanstack/react-router';
import { Gift, Package, ShieldCheck, Truck, Vault } from 'lucide-react';
import { useSiteConfig } from '@web/hooks/use-site-config';
import { StaticPage } from './static-page';

const STEPS = [
  {
    icon: <Package />,
    title: 'Buy a pack',
    text: 'Pick a pack in the shop. Every product page shows the full odds table, the value range and the best recent pulls.',
  },
  {
    icon: <Vault />,
    title: 'Open it on screen',
    text: 'The cards you pull are real physical cards that sit in our vault — and from that moment they are yours.',
  },
  {
    icon: <Truck />,
    title: 'Keep, sell back or ship',
    text: 'Keep cards in the vault for free, sell them back instantly for site credit, or have them shipped to your door.',
  },
];

export default function AboutPage() {
  const { siteName } = useSiteConfig();
  return (
    <StaticPage
      title={`About ${siteName}`}
      lead={`${siteName} is an online shop for collectible trading cards. You buy packs, open them on screen, and own the real cards you pull.`}
    >
      <ol className="!mt-0 grid list-none gap-4 !pl-0 sm:grid-cols-3">
        {STEPS.map((s, i) => (
          <li key={s.title} className="!mt-0 rounded-2xl border border-white/10 bg-surface/80 p-5">
            <span aria-hidden="true" className="mb-3 inline-flex rounded-xl bg-violet-500/15 p-2.5 text-violet-300 [&>svg]:size-5">
              {s.icon}
            </span>
            <p className="font-semibold text-white">
              <span className="sr-only">Step {i + 1}: </span>
              {s.title}
            </p>
            <p className="mt-1.5 text-sm leading-relaxed text-zinc-400">{s.text}</p>
          </li>
        ))}
      </ol>

      <h2>Real cards, in a real vault</h2>
      <p>
        Every card in the catalog is a physical copy we hold in stock. When you open a pack, the cards you pull are taken
        out of that stock and recorded as yours: which card, when you got it, and what it was worth at the time. Until
        you decide otherwise they stay in our vault, insured and stored properly, and they show up in{' '}
        <Link to="/collect">your vault</Link>.
      </p>
      <p>
        Some cards are <strong>professionally graded</strong>: sealed in a slab by PSA, Beckett (BGS) or CGC. Those show
        their slab badge — for example &ldquo;PSA 10&rdquo; — with the grade and certificate number, and photos of the
        front and back of the physical copy. The <Link to="/cards" search={{ grading: 'graded' }}>graded cards</Link> have
        a filter of their own, on /cards and in your vault. Other cards are ungraded (&ldquo;raw&rdquo;) copies, and say
        nothing about a grade. Open any card on the <Link to="/cards">cards page</Link> to see its market value over time.
      </p>
      <p>
        From there you choose what happens to each card. <strong>Keep it</strong> in the vault for as long as you like.{' '}
        <strong>Sell it back</strong> to us for an instant credit — by default 85% of its current market value, set per
        rarity class — and the copy goes back into stock for someone else to pull. Or <strong>ship it</strong>: add an
        address, pick the cards, and pay a small shipping fee in credit. You can cancel a shipment while it is still
        waiting to be packed and get the fee back.
      </p>

      <h2>Odds you can check</h2>
      <p>
        Each pack has a fixed number of cards, and each slot has published odds over the rarity classes — Common up to
        Legendary. The odds shown on a product page are exactly the odds used. If a class in a slot runs out of stock,
        the pack is shown as sold out: we never quietly change the odds to keep selling it.
      </p>
      <p>
        Every opening is <strong>provably fair</strong>. Before you open anything you can see the SHA-256 hash of your
        secret server seed. Each draw comes from HMAC-SHA256 of that seed with your own client seed (which you can
        change) and a counter, without modulo bias. When you rotate your seed we reveal the old one, so you can recompute
        any past opening in your browser and see that the result was fixed before you clicked.{' '}
        <Link to="/fairness">How provably fair works</Link>.
      </p>

      <h2>Daily drops</h2>
      <p>
        Every day there is a free raffle for a prize card from the vault. Any signed-in member with a verified email can
        enter once, with no purchase needed. The winner is drawn with a published commit–reveal proof and the card goes
        straight into their vault. See the <Link to="/raffle-terms">raffle terms</Link> and the{' '}
        <Link to="/daily-drop-winners">list of past winners</Link>.
      </p>

      <h2>Money, kept simple</h2>
      <p>
        Your balance is site credit. It only changes through entries in your account history — deposits, purchases,
        buybacks, shipping fees, promo credit and referral rewards — so you can always see where every cent came from.
        Purchases are protected against double charges: if your connection drops and you press the button again, you are
        charged once.
      </p>

      <h2>Play responsibly</h2>
      <p>
        {siteName} is for adults aged 18 and over. Opening packs is fun, but it is a purchase with a random outcome, and
        most packs are worth less than their price. You can set spending limits or exclude yourself for a while in{' '}
        <Link to="/profile/privacy-and-security">privacy and security</Link>.
      </p>

      <div className="!mt-12 flex items-start gap-3 rounded-2xl border border-gold-400/30 bg-gold-400/[0.07] p-5">
        <Gift aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-gold-300" />
        <p className="text-sm leading-relaxed text-zinc-200">
          New here? <Link to="/sign-up">Create an account</Link>, verify your email and enter today&apos;s daily drop for
          free.{' '}
          <span className="inline-flex items-center gap-1 text-zinc-400">
            <ShieldCheck aria-hidden="true" className="size-4" /> Two-factor sign-in is available for every account.
          </span>
        </p>
      </div>
    </StaticPage>
  );
}
