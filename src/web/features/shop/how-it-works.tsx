import { Link } from '@tanstack/react-router';
import { PackageOpen, ShieldCheck, Store, Truck } from 'lucide-react';

const STEPS = [
  {
    icon: <Store />,
    title: 'Pick a pack',
    body: 'Every pack lists its full odds, slot by slot and card by card, with its floor, expected value and ceiling. The odds shown are the odds used.',
  },
  {
    icon: <PackageOpen />,
    title: 'Open it on screen',
    body: 'Your cards are drawn and yours the moment you pay. The reveal is just the fun part: close the tab halfway and you still own every card.',
  },
  {
    icon: <ShieldCheck />,
    title: 'Check it was fair',
    body: 'Every draw comes from your own seed pair. Rotate your seed and recompute any opening in your browser; it must match to the card.',
  },
  {
    icon: <Truck />,
    title: 'Own real cards',
    body: 'Pulled cards are physical cards kept safe in our vault until you ask us to ship them to you.',
  },
] as const;

/** The four steps of the shop, for visitors. */
export function HowItWorks({ headingId = 'how-it-works' }: { headingId?: string }) {
  return (
    <section aria-labelledby={headingId} className="space-y-6">
      <h2 id={headingId} className="text-2xl font-bold text-white">
        How it works
      </h2>
      <ol className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {STEPS.map((s, i) => (
          <li key={s.title} className="rounded-2xl border border-white/10 bg-surface/70 p-5">
            <div className="flex items-center gap-3">
              <span aria-hidden="true" className="rounded-xl bg-violet-500/15 p-2.5 text-violet-300 [&>svg]:size-5">
                {s.icon}
              </span>
              <span className="text-xs font-semibold tracking-widest text-fuchsia-300 uppercase">Step {i + 1}</span>
            </div>
            <h3 className="mt-3 font-semibold text-white">{s.title}</h3>
            <p className="mt-1.5 text-sm leading-relaxed text-zinc-300">{s.body}</p>
          </li>
        ))}
      </ol>
      <p className="text-sm text-zinc-400">
        Want the details of the draw?{' '}
        <Link to="/fairness" className="font-medium text-violet-300 underline underline-offset-4 hover:text-fuchsia-300">
          Read how provably fair openings work
        </Link>
        .
      </p>
    </section>
  );
}
