import '../shop.css';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { Check, FastForward, Sparkles, Vault } from 'lucide-react';
import { Badge, Button, buttonClasses, cn, Money } from '@web/components/ui';
import { cardsCaption, PackArt } from '../pack-art';
import { ShopCard } from '../card-slot';
import { buildUpFor, prefersReducedMotion, type RevealPack } from './build-up';
import { StillStage } from './still-stage';

const AnimatedStage = lazy(() => import('./animated-stage'));

type Phase = 'intro' | 'tearing' | 'buildup' | 'revealed' | 'summary';

export interface PackOpeningProps {
  packs: RevealPack[];
  /** Buttons under the results (e.g. "Open more", "Back to the shop"). */
  actions?: ReactNode;
  /** Start straight at the first card instead of showing the sealed pack first. */
  autoStart?: boolean;
  className?: string;
  /** Selling back after the reveal (the collection feature's SellBackPanel, composed by every page that reveals). */
  sellBack?: ReactNode;
}

/**
 * Reveals settled openings card by card. Everything shown here is already owned: the server
 * settled the opening before this mounted, so leaving mid-reveal loses nothing. Skippable at
 * any moment; reduced-motion users get still frames and step through with the same buttons.
 */
export function PackOpening({ packs, actions, autoStart = false, className, sellBack }: PackOpeningProps) {
  const [reduced] = useState(prefersReducedMotion);
  const [packIndex, setPackIndex] = useState(0);
  const [cardIndex, setCardIndex] = useState(0);
  const [phase, setPhase] = useState<Phase>(() => (packs.length === 0 ? 'summary' : autoStart ? (reduced ? 'revealed' : 'buildup') : 'intro'));
  const primary = useRef<HTMLButtonElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  const pack = packs[packIndex];
  const card = pack?.cards[cardIndex];
  const totalCards = useMemo(() => packs.reduce((n, p) => n + p.cards.length, 0), [packs]);
  const totalValue = useMemo(() => packs.reduce((n, p) => n + p.cards.reduce((m, c) => m + c.look.valueCents, 0), 0), [packs]);
  const totalPaid = useMemo(() => packs.reduce((n, p) => n + p.priceCents, 0), [packs]);

  // The build-up runs on a timer here (not in the animation), so "reveal now" and "skip" are instant.
  useEffect(() => {
    if (phase === 'tearing') {
      const t = setTimeout(() => setPhase('buildup'), 550);
      return () => clearTimeout(t);
    }
    if (phase === 'buildup' && card) {
      const t = setTimeout(() => setPhase('revealed'), buildUpFor(card.tier).ms);
      return () => clearTimeout(t);
    }
  }, [phase, card]);

  useEffect(() => {
    if (phase === 'summary') heading.current?.focus();
    else primary.current?.focus({ preventScroll: true });
  }, [phase, packIndex, cardIndex]);

  const open = useCallback(() => setPhase(reduced ? 'revealed' : 'tearing'), [reduced]);
  const next = useCallback(() => {
    if (!pack) return setPhase('summary');
    if (cardIndex + 1 < pack.cards.length) {
      setCardIndex(cardIndex + 1);
      setPhase(reduced ? 'revealed' : 'buildup');
    } else if (packIndex + 1 < packs.length) {
      setPackIndex(packIndex + 1);
      setCardIndex(0);
      setPhase('intro');
    } else setPhase('summary');
  }, [pack, cardIndex, packIndex, packs.length, reduced]);
  const skip = () => setPhase('summary');

  if (phase === 'summary' || !pack || !card) {
    return (
      <section aria-labelledby="opening-results" className={cn('space-y-6', className)}>
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <h2 id="opening-results" ref={heading} tabIndex={-1} className="text-2xl font-bold text-white outline-none">
              {packs.length > 1 ? `Your ${packs.length} packs` : 'Your pack'}: {totalCards} card{totalCards === 1 ? '' : 's'}
            </h2>
            <p className="mt-1 text-zinc-300">
              Worth <Money cents={totalValue} className="font-semibold text-gold-300" /> in total
              {totalPaid ? (
                <>
                  {' '}
                  for <Money cents={totalPaid} /> spent
                </>
              ) : null}
              . Every card is already in your vault.
            </p>
          </div>
          {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
        </div>
        {packs.map((p, i) => (
          <div key={p.key} className="space-y-3">
            {packs.length > 1 ? (
              <h3 className="text-sm font-semibold tracking-wide text-zinc-400 uppercase">
                Pack {i + 1}: {p.productName}
              </h3>
            ) : null}
            <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-5" aria-label={`Cards from ${p.productName}`}>
              {p.cards.map((c) => (
                <li key={c.key} className="flex flex-col items-center gap-2">
                  <ShopCard look={c.look} size="md" className="w-full max-w-48" />
                  <div className="flex w-full max-w-48 flex-col gap-1.5">
                    <p className="flex items-center justify-between gap-2 text-sm">
                      <span className="truncate font-semibold text-white">{c.look.name}</span>
                      <Money cents={c.look.valueCents} className="text-gold-300" />
                    </p>
                    <Badge tone="success" className="self-start">
                      <Check aria-hidden="true" className="size-3" /> Kept in your vault
                    </Badge>
                  </div>
                </li>
              ))}
            </ul>
          </div>
        ))}
        {sellBack}
        <Link to="/collect" className={buttonClasses({ variant: 'secondary' })}>
          <Vault aria-hidden="true" className="size-4" /> Go to my vault
        </Link>
      </section>
    );
  }

  const p = buildUpFor(card.tier);
  const revealed = phase === 'revealed';
  const sealed = phase === 'intro' || phase === 'tearing';
  const lastCard = cardIndex + 1 >= pack.cards.length;
  const lastPack = packIndex + 1 >= packs.length;
  const Stage = reduced ? StillStage : AnimatedStage;

  return (
    <section
      aria-labelledby="opening-title"
      className={cn('relative overflow-hidden rounded-3xl border border-white/10 bg-black/40 px-4 py-6 sm:px-8', className)}
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="opening-title" className="text-lg font-semibold text-white">
          Opening {pack.productName}
          {packs.length > 1 ? (
            <span className="ml-2 text-sm font-normal text-zinc-400">
              pack {packIndex + 1} of {packs.length}
            </span>
          ) : null}
        </h2>
        <Button variant="ghost" size="sm" onClick={skip}>
          <FastForward aria-hidden="true" className="size-4" /> Skip to results
        </Button>
      </div>

      {sealed ? (
        <div className="grid h-[26rem] place-items-center sm:h-[30rem]">
          <div
            className={cn(
              'w-48 transition-all duration-500 ease-in sm:w-56',
              phase === 'tearing' ? '-translate-y-10 scale-110 rotate-3 opacity-0 blur-sm' : 'animate-[pack-idle_2.4s_ease-in-out_infinite]',
            )}
          >
            <PackArt seed={pack.productId} name={pack.productName} imageKey={pack.imageKey} caption={cardsCaption(pack.cards.length)} large />
          </div>
        </div>
      ) : (
        <div className="relative">
          <Suspense fallback={<StillStage card={card} revealed={revealed} />}>
            <Stage card={card} revealed={revealed} />
          </Suspense>
          {!revealed && p.hint ? (
            <p
              aria-hidden="true"
              className="pointer-events-none absolute inset-x-0 bottom-2 text-center text-lg font-bold tracking-wide"
              style={{ color: card.look.classColour }}
            >
              <Sparkles className="mr-1 inline size-5" /> {p.hint}
            </p>
          ) : null}
        </div>
      )}

      <div className="mt-2 flex min-h-24 flex-col items-center gap-3 text-center">
        {revealed ? (
          <div>
            <p className="text-xl font-bold text-white">{card.look.name}</p>
            <p className="text-sm">
              <span className="font-semibold" style={{ color: card.look.classColour }}>
                {card.look.className}
              </span>
              <span className="text-zinc-500"> · </span>
              <Money cents={card.look.valueCents} className="font-semibold text-gold-300" />
            </p>
          </div>
        ) : (
          <p className="text-sm text-zinc-400">
            {sealed ? `${cardsCaption(pack.cards.length)} inside` : `Card ${cardIndex + 1} of ${pack.cards.length}`}
          </p>
        )}
        <div className="flex flex-wrap justify-center gap-2">
          {sealed ? (
            <Button ref={primary} size="lg" onClick={open} disabled={phase === 'tearing'}>
              Tear it open
            </Button>
          ) : revealed ? (
            <Button ref={primary} size="lg" onClick={next}>
              {!lastCard ? `Next card (${cardIndex + 2} of ${pack.cards.length})` : !lastPack ? 'Next pack' : 'See all your cards'}
            </Button>
          ) : (
            <Button ref={primary} size="lg" variant="secondary" onClick={() => setPhase('revealed')}>
              Reveal now
            </Button>
          )}
        </div>
      </div>
      <p role="status" aria-live="polite" className="sr-only">
        {revealed ? `Card ${cardIndex + 1} of ${pack.cards.length}: ${card.look.name}, ${card.look.className}.` : ''}
      </p>
    </section>
  );
}
