import '../shop.css';
import { lazy, Suspense, useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type ReactNode, type Ref } from 'react';
import { Link } from '@tanstack/react-router';
import { imageUrl } from '@shared/contracts/catalog-look';
import { Check, FastForward, Layers, Sparkles, Vault } from 'lucide-react';
import { Badge, Button, buttonClasses, cn, Money, ShareButton, Switch } from '@web/components/ui';
import { pullPagePath } from '@shared/pull-path';
import { plural } from '@web/lib/format';
import { cardsCaption } from '../pack-art';
import { ShopCard } from '../card-slot';
import { buildUpFor, prefersReducedMotion, type RevealCard, type RevealPack } from './build-up';
import { drawableLook, imageState, lookSettled, useLookImages } from './images';
import {
  buzz,
  buzzPattern,
  isRarePull,
  loadRevealPrefs,
  MODES,
  PACES,
  revealOrder,
  saveRevealPrefs,
  timingFor,
  type Pace,
  type RevealMode,
  type RevealPrefs,
} from './play';
import { playBuildUp, playReveal, playTear, unlockSound } from './sound';
import { SealedPacks, STAGE_CLASSES, type SealedPack } from './stage-shell';
import { StillStage } from './still-stage';

const AnimatedStage = lazy(() => import('./animated-stage'));
const TearStage = lazy(() => import('./tear-stage'));

/**
 * intro: the sealed pack(s); tearing; buildup: the suspense before a card turns; ready: charged and
 * waiting for a tap (tap-to-flip); revealed; all: every card face up at once; summary: the results.
 */
type Phase = 'intro' | 'tearing' | 'buildup' | 'ready' | 'revealed' | 'all' | 'summary';

/** How long a turn waits for a slow image before the card shows without it (frame, name, rarity). */
export const IMAGE_WAIT_MS = 2_500;

export interface PackOpeningProps {
  packs: RevealPack[];
  /** Buttons under the results (e.g. "Open more", "Back to the shop"). */
  actions?: ReactNode;
  /** Start straight at the first card instead of showing the sealed pack first. */
  autoStart?: boolean;
  className?: string;
  /** Selling back after the reveal (the collection feature's SellBackPanel, composed by every page that reveals). */
  sellBack?: ReactNode;
  /** A line under the results' heading (e.g. that this is a replay). */
  note?: ReactNode;
}

/** Keys and targets that act on their own: Space there is theirs, not the reveal's. */
const INTERACTIVE = 'button, a, input, select, textarea, [role="switch"], [role="radio"], [contenteditable="true"]';

/** A pack as the sealed stage draws it; its image only once decoded (else the generated design). */
function sealed(p: RevealPack): SealedPack {
  const ready = p.imageKey && imageState(imageUrl(p.imageKey, 'full')) === 'ready';
  return { productId: p.productId, productName: p.productName, imageKey: ready ? p.imageKey : null, cardCount: p.cards.length };
}

/** The card as it can be drawn now: images not decoded yet are left out (never an empty card). */
function drawable(card: RevealCard): RevealCard {
  const look = drawableLook(card.look, 'full');
  return look === card.look ? card : { ...card, look };
}

/** True once `ms` have passed since `key` last changed. */
function useElapsed(key: string, ms: number | null): boolean {
  const [done, setDone] = useState<string | null>(null);
  useEffect(() => {
    if (ms === null) return;
    const t = setTimeout(() => setDone(key), ms);
    return () => clearTimeout(t);
  }, [key, ms]);
  return done === key;
}

/**
 * Reveals settled openings card by card. Everything shown here is already owned: the server
 * settled the opening before this mounted, so leaving mid-reveal loses nothing (the page keeps the
 * opening in its URL to replay it). Every pack tears open at once, then the cards climb to the
 * best one, which comes last: one tap per card (tap-to-flip, the default on touch screens) or on
 * their own at the user's pace. "Reveal all" turns every card at once; "Skip to results" jumps to
 * the summary. A card turns only once its images are decoded, or without them (frame, name and
 * rarity) if they are slow or broken. Reduced-motion users get still frames.
 */
export function PackOpening({ packs: given, actions, autoStart = false, className, sellBack, note }: PackOpeningProps) {
  const [reduced] = useState(prefersReducedMotion);
  const packs = useMemo(() => revealOrder(given), [given]);
  const [prefs, setPrefsState] = useState<RevealPrefs>(() => loadRevealPrefs());
  const [packIndex, setPackIndex] = useState(0);
  const [cardIndex, setCardIndex] = useState(0);
  const [phase, setPhase] = useState<Phase>(() => (packs.length === 0 ? 'summary' : autoStart ? (reduced ? 'revealed' : 'buildup') : 'intro'));
  const section = useRef<HTMLElement>(null);
  const primary = useRef<HTMLButtonElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const uid = useId();

  // Every card's art, frame and foil (and the packs' images) start loading now, first card first.
  const looks = useMemo(() => packs.flatMap((p) => p.cards.map((c) => c.look)), [packs]);
  const packUrls = useMemo(() => packs.flatMap((p) => (p.imageKey ? [imageUrl(p.imageKey, 'full')] : [])), [packs]);
  useLookImages(looks, 'full', packUrls);

  const pack = packs[packIndex];
  const card = pack?.cards[cardIndex];
  const timing = timingFor(card?.tier ?? 0, prefs.pace);
  const auto = prefs.mode === 'auto';
  const moment = `${phase}:${packIndex}:${cardIndex}`;

  const setPrefs = (next: Partial<RevealPrefs>) => {
    const merged = { ...prefs, ...next };
    setPrefsState(merged);
    saveRevealPrefs(merged);
  };

  /** A card's turn: tap-to-flip holds it charged first (with motion); still frames turn at once. */
  const turn = useCallback(() => setPhase(!auto && !reduced ? 'ready' : 'revealed'), [auto, reduced]);

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

  /** One step sooner, by tap, click, Space or the main button. */
  const advance = useCallback(() => {
    if (phase === 'intro') setPhase(reduced ? 'revealed' : 'tearing');
    else if (phase === 'tearing') setPhase('buildup');
    else if (phase === 'buildup' || phase === 'ready') setPhase('revealed');
    else if (phase === 'revealed') next();
    else if (phase === 'all') setPhase('summary');
  }, [phase, reduced, next]);

  // The timers live here (not in the animation), so hurrying and skipping are instant. A moment
  // that shows an image waits for it to decode — at most IMAGE_WAIT_MS more.
  const packSettled = packUrls.every((u) => imageState(u) === 'ready' || imageState(u) === 'failed');
  const cardSettled = card ? lookSettled(card.look, 'full') : true;
  const minMs =
    phase === 'intro' && auto && !reduced
      ? timing.introMs
      : phase === 'tearing'
        ? timing.tearMs
        : phase === 'buildup'
          ? timing.buildUpMs
          : phase === 'revealed' && auto
            ? timing.holdMs + (card && isRarePull(card.tier) ? timing.holdMs : 0)
            : null;
  const minDone = useElapsed(moment, minMs);
  const late = useElapsed(moment, minMs === null ? null : minMs + IMAGE_WAIT_MS);
  useEffect(() => {
    if (!minDone) return;
    if (phase === 'intro' && !(packSettled || late)) return;
    if (phase === 'buildup') {
      if (cardSettled || late) turn();
      return;
    }
    advance();
    // Each moment's timer fires once; `advance` changes with the phase it belongs to.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [minDone, late, packSettled, cardSettled]);

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
    } else if (phase === 'all') {
      const best = Math.max(...packs.flatMap((p) => p.cards.map((c) => c.tier)));
      buzz(buzzPattern(best));
      if (prefs.sound) playReveal(best);
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
  // Before the first paint, so no control is ever seen (or pressed) at a place it then jumps from:
  // a click aimed at "Skip to results" used to land on the stage below it and tear the pack.
  useLayoutEffect(() => {
    section.current?.scrollIntoView?.({ block: 'start' });
    primary.current?.focus({ preventScroll: true });
  }, []);
  useEffect(() => {
    if (phase === 'summary') heading.current?.focus();
  }, [phase]);

  if (phase === 'summary' || !pack || !card) {
    return (
      <Summary
        ref={section}
        headingRef={heading}
        packs={packs}
        actions={actions}
        className={className}
        sellBack={sellBack}
        note={note}
      />
    );
  }

  const p = buildUpFor(card.tier);
  const revealed = phase === 'revealed';
  const isSealed = phase === 'intro' || phase === 'tearing';
  const lastCard = cardIndex + 1 >= pack.cards.length;
  const lastPack = packIndex + 1 >= packs.length;
  const Stage = reduced ? StillStage : AnimatedStage;
  const several = packs.length > 1;
  const shown = drawable(card);
  const rare = revealed && isRarePull(card.tier);
  const primaryLabel =
    phase === 'intro' || phase === 'tearing'
      ? several
        ? `Tear all ${packs.length} open`
        : 'Tear it open'
      : phase === 'buildup'
        ? 'Reveal now'
        : phase === 'ready'
          ? 'Flip the card'
          : phase === 'all'
            ? 'See all your cards'
            : !lastCard
              ? `Next card (${cardIndex + 2} of ${pack.cards.length})`
              : !lastPack
                ? 'Next pack'
                : 'See all your cards';

  return (
    <section ref={section} aria-labelledby="opening-title" data-phase={phase} className={cn(STAGE_CLASSES, className)}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="opening-title" className="text-lg font-semibold text-white">
          Opening {several && (isSealed || phase === 'all') ? plural(packs.length, 'pack') : pack.productName}
          {several && !isSealed && phase !== 'all' ? (
            <span className="ml-2 text-sm font-normal text-zinc-400">
              pack {packIndex + 1} of {packs.length}
            </span>
          ) : null}
        </h2>
        <div className="flex flex-wrap gap-2">
          {phase !== 'all' ? (
            <Button variant="secondary" size="sm" onClick={() => setPhase('all')}>
              <Layers aria-hidden="true" className="size-4" /> Reveal all
            </Button>
          ) : null}
          <Button variant="secondary" size="sm" onClick={() => setPhase('summary')}>
            <FastForward aria-hidden="true" className="size-4" /> Skip to results
          </Button>
        </div>
      </div>

      <div className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-zinc-300">
        <Segmented legend="How cards turn" name={`${uid}-mode`} options={MODES} value={prefs.mode} onChange={(mode) => setPrefs({ mode: mode as RevealMode })} />
        {auto ? (
          <Segmented legend="Reveal speed" label="Speed" name={`${uid}-pace`} options={PACES} value={prefs.pace} onChange={(pace) => setPrefs({ pace: pace as Pace })} />
        ) : null}
        <span className="flex items-center gap-2">
          <Switch
            id={`${uid}-sound`}
            checked={prefs.sound}
            onCheckedChange={(on) => {
              if (on) unlockSound();
              setPrefs({ sound: on });
            }}
          />
          <label htmlFor={`${uid}-sound`} className="cursor-pointer">
            Sound
          </label>
        </span>
      </div>

      {/* A tap or click anywhere on the stage moves on (the main button does the same by keyboard). */}
      <div data-testid="reveal-stage" className="pv-reveal-stage relative flex-1 cursor-pointer select-none" onClick={advance}>
        {phase === 'all' ? (
          <AllCards packs={packs} reduced={reduced} />
        ) : isSealed ? (
          reduced ? (
            <SealedPacks first={sealed(packs[0]!)} count={packs.length} />
          ) : (
            <Suspense fallback={<SealedPacks first={sealed(packs[0]!)} count={packs.length} />}>
              <TearStage packs={packs.map((x) => ({ ...x, imageKey: sealed(x).imageKey }))} tearing={phase === 'tearing'} ms={timing.tearMs} />
            </Suspense>
          )
        ) : (
          <>
            <Suspense fallback={<StillStage card={shown} revealed={revealed} />}>
              <Stage card={shown} revealed={revealed} />
            </Suspense>
            {phase === 'ready' ? (
              <p aria-hidden="true" className="pointer-events-none absolute inset-x-0 bottom-2 text-center text-lg font-bold tracking-wide text-white">
                Tap to flip
              </p>
            ) : !revealed && p.hint ? (
              <p
                aria-hidden="true"
                className="pointer-events-none absolute inset-x-0 bottom-2 text-center text-lg font-bold tracking-wide"
                style={{ color: card.look.classColour }}
              >
                <Sparkles className="mr-1 inline size-5" /> {p.hint}
              </p>
            ) : null}
            {rare ? <RareBanner card={card} /> : null}
          </>
        )}
      </div>

      <div className="mt-2 flex min-h-24 flex-col items-center gap-3 text-center">
        {revealed ? (
          <div className="flex flex-col items-center gap-2">
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
            {rare ? (
              <ShareButton
                path={pullPagePath(card.key)}
                title={`${card.look.name} pulled from ${pack.productName}`}
                label="Share this pull"
                accessibleLabel={`Share ${card.look.name}`}
                variant="primary"
              />
            ) : null}
          </div>
        ) : phase === 'all' ? null : (
          <p className="text-sm text-zinc-400">
            {isSealed
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
        {revealed
          ? `Card ${cardIndex + 1} of ${pack.cards.length}: ${card.look.name}, ${card.look.className}.${rare ? ' A rare pull!' : ''}`
          : phase === 'ready'
            ? `Card ${cardIndex + 1} of ${pack.cards.length} is ready to flip.`
            : phase === 'all'
              ? `Every card revealed: ${plural(packs.reduce((n, x) => n + x.cards.length, 0), 'card')}.`
              : ''}
      </p>
    </section>
  );
}

/** A row of radio buttons drawn as a segmented control. */
function Segmented({
  legend,
  label,
  name,
  options,
  value,
  onChange,
}: {
  legend: string;
  label?: string;
  name: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <fieldset className="flex items-center gap-2">
      <legend className="sr-only">{legend}</legend>
      {label ? <span aria-hidden="true">{label}</span> : null}
      <span className="flex rounded-full border border-white/15 bg-zinc-900/70 p-0.5">
        {options.map((o) => (
          <label
            key={o.value}
            className={cn(
              'relative cursor-pointer rounded-full px-3 py-1 text-xs font-medium has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-violet-400',
              value === o.value ? 'bg-violet-600 text-white' : 'text-zinc-300 hover:text-white',
            )}
          >
            <input
              type="radio"
              name={name}
              value={o.value}
              checked={value === o.value}
              onChange={() => onChange(o.value)}
              className="absolute inset-0 size-full cursor-pointer opacity-0"
            />
            {o.label}
          </label>
        ))}
      </span>
    </fieldset>
  );
}

/** The rare-pull moment over the turned card: its class, big, in its colour. */
function RareBanner({ card }: { card: RevealCard }) {
  return (
    <p
      data-testid="rare-pull"
      aria-hidden="true"
      className="motion-safe:animate-[rare-pop_0.5s_ease-out] pointer-events-none absolute inset-x-0 top-2 text-center text-2xl font-black tracking-wide uppercase drop-shadow-[0_2px_8px_rgb(0_0_0/0.8)] sm:text-3xl"
      style={{ color: card.look.classColour }}
    >
      {card.tier >= 0.95 ? `${card.look.className} pull!` : `Rare pull: ${card.look.className}!`}
    </p>
  );
}

/** "Reveal all": every card of every pack face up at once, the best one marked. */
function AllCards({ packs, reduced }: { packs: RevealPack[]; reduced: boolean }) {
  const cards = packs.flatMap((p) => p.cards);
  const looks = useMemo(() => cards.map((c) => c.look), [packs]); // eslint-disable-line react-hooks/exhaustive-deps
  useLookImages(looks, 'thumb');
  const best = cards.reduce((a, c) => (c.tier > a.tier || (c.tier === a.tier && c.look.valueCents > a.look.valueCents) ? c : a), cards[0]!);
  return (
    <ul
      data-stage="all"
      aria-label="Every card"
      className={cn('grid gap-2 py-4', cards.length > 10 ? 'grid-cols-4 sm:grid-cols-6 lg:grid-cols-10' : 'grid-cols-3 sm:grid-cols-5')}
    >
      {cards.map((c, i) => (
        <li
          key={c.key}
          className={cn('min-w-0', !reduced && 'animate-[card-deal_0.45s_ease-out_both]')}
          style={reduced ? undefined : { animationDelay: `${Math.min(i, 20) * 60}ms` }}
        >
          <ShopCard look={drawableLook(c.look, 'thumb')} size="md" className={cn('w-full', c === best && 'rounded-xl ring-2 ring-gold-300')} />
          <p className="mt-1 truncate text-xs font-medium text-white">{c.look.name}</p>
          <p className="truncate text-xs" style={{ color: c.look.classColour }}>
            {c.look.className}
          </p>
        </li>
      ))}
    </ul>
  );
}

interface SummaryProps {
  ref: Ref<HTMLElement>;
  headingRef: Ref<HTMLHeadingElement>;
  packs: RevealPack[];
  actions?: ReactNode;
  className?: string;
  sellBack?: ReactNode;
  note?: ReactNode;
}

/** Every card from every pack; several packs sit side by side in a grid, each with its cards. */
function Summary({ ref, headingRef, packs, actions, className, sellBack, note }: SummaryProps) {
  const looks = useMemo(() => packs.flatMap((p) => p.cards.map((c) => c.look)), [packs]);
  useLookImages(looks, 'thumb');
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
          {note ? <p className="mt-1 text-sm text-zinc-400">{note}</p> : null}
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
                      <ShopCard look={drawableLook(c.look, 'thumb')} size="xs" className="w-full" />
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
                <ShopCard look={drawableLook(c.look, 'thumb')} size="md" className="w-full max-w-48" />
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
