import '../shop.css';
import { lazy, Suspense, useCallback, useEffect, useId, useMemo, useRef, useState, type ReactNode, type Ref } from 'react';
import { Link } from '@tanstack/react-router';
import { Check, FastForward, Pause, Play, Sparkles, Vault } from 'lucide-react';
import { Badge, Button, buttonClasses, cn, Money, ShareButton, Switch } from '@web/components/ui';
import { pullPagePath } from '@shared/pull-path';
import { plural } from '@web/lib/format';
import { cardsCaption, PackArt } from '../pack-art';
import { ShopCard } from '../card-slot';
import { buildUpFor, prefersReducedMotion, type RevealPack } from './build-up';
import { buzz, buzzPattern, loadRevealPrefs, PACES, revealOrder, saveRevealPrefs, timingFor, type Pace, type RevealPrefs } from './play';
import { playBuildUp, playReveal, playTear, unlockSound } from './sound';
import { StillStage } from './still-stage';

const AnimatedStage = lazy(() => import('./animated-stage'));
const TearStage = lazy(() => import('./tear-stage'));

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

/** Keys and targets that act on their own: Space there is theirs, not the reveal's. */
const INTERACTIVE = 'button, a, input, select, textarea, [role="switch"], [role="radio"], [contenteditable="true"]';

/**
 * Reveals settled openings card by card. Everything shown here is already owned: the server
 * settled the opening before this mounted, so leaving mid-reveal loses nothing. Every pack tears
 * open at once, then the cards play through on their own at the user's pace, climbing to the best
 * card, which comes last. A tap, a click on the stage or Space hurries it; "Skip" jumps to the
 * results. Reduced-motion users get still frames and step through themselves.
 */
export function PackOpening({ packs: given, actions, autoStart = false, className, sellBack }: PackOpeningProps) {
  const [reduced] = useState(prefersReducedMotion);
  const packs = useMemo(() => revealOrder(given), [given]);
  const [prefs, setPrefsState] = useState<RevealPrefs>(() => loadRevealPrefs());
  const [playing, setPlaying] = useState(!reduced);
  const [packIndex, setPackIndex] = useState(0);
  const [cardIndex, setCardIndex] = useState(0);
  const [phase, setPhase] = useState<Phase>(() => (packs.length === 0 ? 'summary' : autoStart ? (reduced ? 'revealed' : 'buildup') : 'intro'));
  const section = useRef<HTMLElement>(null);
  const primary = useRef<HTMLButtonElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const paceName = useId();

  const pack = packs[packIndex];
  const card = pack?.cards[cardIndex];
  const timing = timingFor(card?.tier ?? 0, prefs.pace);

  const setPrefs = (next: Partial<RevealPrefs>) => {
    const merged = { ...prefs, ...next };
    setPrefsState(merged);
    saveRevealPrefs(merged);
  };

  const next = useCallback(() => {
    if (!pack) return setPhase('summary');
    if (cardIndex + 1 < pack.cards.length) {
      setCardIndex(cardIndex + 1);
    } else if (packIndex + 1 < packs.length) {
      // Every pack was torn open together: the next pack's cards follow straight on.
      setPackIndex(packIndex + 1);
      setCardIndex(0);
    } else return setPhase('summary');
    setPhase(reduced ? 'revealed' : 'buildup');
  }, [pack, cardIndex, packIndex, packs.length, reduced]);

  /** One step sooner: tear now, turn the card now, or on to the next card. */
  const advance = useCallback(() => {
    if (phase === 'intro') setPhase(reduced ? 'revealed' : 'tearing');
    else if (phase === 'tearing') setPhase('buildup');
    else if (phase === 'buildup') setPhase('revealed');
    else if (phase === 'revealed') next();
  }, [phase, reduced, next]);

  // The timers live here (not in the animation), so hurrying and skipping are instant.
  useEffect(() => {
    let ms: number | null = null;
    if (phase === 'intro' && playing && !reduced) ms = timing.introMs;
    else if (phase === 'tearing') ms = timing.tearMs;
    else if (phase === 'buildup') ms = timing.buildUpMs;
    else if (phase === 'revealed' && playing) ms = timing.holdMs;
    if (ms === null) return;
    const t = setTimeout(advance, ms);
    return () => clearTimeout(t);
  }, [phase, playing, reduced, advance, timing.introMs, timing.tearMs, timing.buildUpMs, timing.holdMs]);

  // Sound (only if turned on) and a buzz on phones, as each moment lands.
  useEffect(() => {
    if (!card) return;
    const tier = card.tier;
    if (phase === 'tearing') {
      buzz(25);
      if (prefs.sound) playTear();
    } else if (phase === 'buildup') {
      if (prefs.sound) playBuildUp(tier, timingFor(tier, prefs.pace).buildUpMs);
    } else if (phase === 'revealed') {
      buzz(buzzPattern(tier));
      if (prefs.sound) playReveal(tier);
    }
    // Only a change of moment makes a sound, not a change of settings mid-card.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [phase, card]);

  // Space hurries the reveal unless it is pressed on a control (which handles it itself).
  useEffect(() => {
    if (phase === 'summary') return;
    const onKey = (e: KeyboardEvent) => {
      if (e.code !== 'Space' && e.key !== ' ') return;
      if (e.target instanceof Element && e.target.closest(INTERACTIVE)) return;
      e.preventDefault();
      advance();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [phase, advance]);

  // On a phone the page that started the reveal may be scrolled far down: bring its top into view.
  useEffect(() => {
    section.current?.scrollIntoView?.({ block: 'start' });
    primary.current?.focus({ preventScroll: true });
  }, []);
  useEffect(() => {
    if (phase === 'summary') heading.current?.focus();
  }, [phase]);

  const skip = () => setPhase('summary');

  if (phase === 'summary' || !pack || !card) {
    return (
      <Summary
        ref={section}
        headingRef={heading}
        packs={packs}
        actions={actions}
        className={className}
        sellBack={sellBack}
      />
    );
  }

  const p = buildUpFor(card.tier);
  const revealed = phase === 'revealed';
  const sealed = phase === 'intro' || phase === 'tearing';
  const lastCard = cardIndex + 1 >= pack.cards.length;
  const lastPack = packIndex + 1 >= packs.length;
  const Stage = reduced ? StillStage : AnimatedStage;
  const several = packs.length > 1;
  const primaryLabel =
    phase === 'intro' || phase === 'tearing'
      ? several
        ? `Tear all ${packs.length} open`
        : 'Tear it open'
      : phase === 'buildup'
        ? 'Reveal now'
        : !lastCard
          ? `Next card (${cardIndex + 2} of ${pack.cards.length})`
          : !lastPack
            ? 'Next pack'
            : 'See all your cards';

  return (
    <section
      ref={section}
      aria-labelledby="opening-title"
      className={cn(
        // Tall enough that the footer stays below the fold while the reveal plays (phones included).
        'relative flex min-h-[calc(100svh-6rem)] scroll-mt-20 flex-col overflow-hidden rounded-3xl border border-white/10 bg-black/40 px-4 py-5 sm:px-8 sm:py-6',
        className,
      )}
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="opening-title" className="text-lg font-semibold text-white">
          Opening {several && sealed ? plural(packs.length, 'pack') : pack.productName}
          {several && !sealed ? (
            <span className="ml-2 text-sm font-normal text-zinc-400">
              pack {packIndex + 1} of {packs.length}
            </span>
          ) : null}
        </h2>
        <Button variant="secondary" size="sm" onClick={skip}>
          <FastForward aria-hidden="true" className="size-4" /> Skip to results
        </Button>
      </div>

      <div className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-zinc-300">
        <fieldset className="flex items-center gap-2">
          <legend className="sr-only">Reveal speed</legend>
          <span aria-hidden="true">Speed</span>
          <span className="flex rounded-full border border-white/15 bg-zinc-900/70 p-0.5">
            {PACES.map((o) => (
              <label
                key={o.value}
                className={cn(
                  'relative cursor-pointer rounded-full px-3 py-1 text-xs font-medium has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-violet-400',
                  prefs.pace === o.value ? 'bg-violet-600 text-white' : 'text-zinc-300 hover:text-white',
                )}
              >
                <input
                  type="radio"
                  name={paceName}
                  value={o.value}
                  checked={prefs.pace === o.value}
                  onChange={() => setPrefs({ pace: o.value as Pace })}
                  className="absolute inset-0 size-full cursor-pointer opacity-0"
                />
                {o.label}
              </label>
            ))}
          </span>
        </fieldset>
        <span className="flex items-center gap-2">
          <Switch
            id={`${paceName}-sound`}
            checked={prefs.sound}
            onCheckedChange={(on) => {
              if (on) unlockSound();
              setPrefs({ sound: on });
            }}
          />
          <label htmlFor={`${paceName}-sound`} className="cursor-pointer">
            Sound
          </label>
        </span>
        <Button variant="ghost" size="sm" aria-pressed={!playing} onClick={() => setPlaying(!playing)}>
          {playing ? <Pause aria-hidden="true" className="size-4" /> : <Play aria-hidden="true" className="size-4" />}
          {playing ? 'Pause' : 'Play on its own'}
        </Button>
      </div>

      {/* A tap or click anywhere on the stage hurries the reveal (the buttons below do the same by keyboard). */}
      <div data-testid="reveal-stage" className="relative flex-1 cursor-pointer select-none" onClick={advance}>
        {sealed ? (
          reduced ? (
            <SealedPacks packs={packs} />
          ) : (
            <Suspense fallback={<SealedPacks packs={packs} />}>
              <TearStage packs={packs} tearing={phase === 'tearing'} ms={timing.tearMs} />
            </Suspense>
          )
        ) : (
          <>
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
          </>
        )}
      </div>

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
            {sealed
              ? several
                ? `${plural(packs.length, 'pack')}, ${plural(packs.reduce((n, x) => n + x.cards.length, 0), 'card')} inside`
                : `${cardsCaption(pack.cards.length)} inside`
              : `Card ${cardIndex + 1} of ${pack.cards.length}`}
          </p>
        )}
        <Button ref={primary} size="lg" variant={phase === 'buildup' ? 'secondary' : 'primary'} onClick={advance}>
          {primaryLabel}
        </Button>
      </div>
      <p role="status" aria-live="polite" className="sr-only">
        {revealed ? `Card ${cardIndex + 1} of ${pack.cards.length}: ${card.look.name}, ${card.look.className}.` : ''}
      </p>
    </section>
  );
}

/** The sealed packs without motion: reduced motion, and while the tear animation loads. */
function SealedPacks({ packs }: { packs: RevealPack[] }) {
  const first = packs[0]!;
  return (
    <div className="grid h-[26rem] place-items-center sm:h-[30rem]">
      <div className="relative w-44 sm:w-52">
        <PackArt seed={first.productId} name={first.productName} imageKey={first.imageKey} caption={cardsCaption(first.cards.length)} large />
        {packs.length > 1 ? (
          <Badge tone="violet" className="absolute -top-2 -right-2 bg-violet-600 text-white">
            ×{packs.length}
          </Badge>
        ) : null}
      </div>
    </div>
  );
}

interface SummaryProps {
  ref: Ref<HTMLElement>;
  headingRef: Ref<HTMLHeadingElement>;
  packs: RevealPack[];
  actions?: ReactNode;
  className?: string;
  sellBack?: ReactNode;
}

/** Every card from every pack; several packs sit side by side in a grid, each with its cards. */
function Summary({ ref, headingRef, packs, actions, className, sellBack }: SummaryProps) {
  const totalCards = packs.reduce((n, p) => n + p.cards.length, 0);
  const totalValue = packs.reduce((n, p) => n + p.cards.reduce((m, c) => m + c.look.valueCents, 0), 0);
  const totalPaid = packs.reduce((n, p) => n + p.priceCents, 0);
  const several = packs.length > 1;
  return (
    <section ref={ref} aria-labelledby="opening-results" className={cn('scroll-mt-20 space-y-6', className)}>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h2 id="opening-results" ref={headingRef} tabIndex={-1} className="text-2xl font-bold text-white outline-none">
            {several ? `Your ${plural(packs.length, 'pack')}` : 'Your pack'}: {plural(totalCards, 'card')}
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
      {several ? (
        <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-label="Your packs">
          {packs.map((p, i) => {
            const value = p.cards.reduce((m, c) => m + c.look.valueCents, 0);
            return (
              <li key={p.key} className="rounded-2xl border border-white/10 bg-surface/70 p-3">
                <h3 className="flex items-baseline justify-between gap-2 text-sm font-semibold text-zinc-300">
                  <span className="truncate">
                    Pack {i + 1}: {p.productName}
                  </span>
                  <Money cents={value} className="shrink-0 text-gold-300" />
                </h3>
                <ul className="mt-2 grid grid-cols-3 gap-2" aria-label={`Cards from pack ${i + 1}, ${p.productName}`}>
                  {p.cards.map((c) => (
                    <li key={c.key} className="min-w-0">
                      <ShopCard look={c.look} size="xs" className="w-full" />
                      <p className="mt-1 truncate text-xs font-medium text-white">{c.look.name}</p>
                      <Money cents={c.look.valueCents} className="text-xs text-gold-300" />
                    </li>
                  ))}
                </ul>
              </li>
            );
          })}
        </ul>
      ) : (
        packs.map((p) => (
          <ul key={p.key} className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-5" aria-label={`Cards from ${p.productName}`}>
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
                  <ShareButton path={pullPagePath(c.key)} title={`${c.look.name} pulled from ${p.productName}`} accessibleLabel={`Share ${c.look.name}`} />
                </div>
              </li>
            ))}
          </ul>
        ))
      )}
      {sellBack}
      <Link to="/collect" className={buttonClasses({ variant: 'secondary' })}>
        <Vault aria-hidden="true" className="size-4" /> Go to my vault
      </Link>
    </section>
  );
}
