import { memo, useEffect, useRef, type CSSProperties, type SyntheticEvent } from 'react';
import type { TextSlot } from '@shared/contracts/catalog';
import { classCode, imageUrl, type CardLook } from '@shared/contracts/catalog-look';
import { FIRST_SCREEN_TIMING } from '@shared/ssr-state';
import { cn, formatCents, useCurrency } from '@web/components/ui';
import './card-view.css';

export type CardViewSize = 'xs' | 'sm' | 'md' | 'lg' | 'xl' | 'full';

/** Width of each size when the card is not told to fill its parent (`fluid`). */
export const CARD_WIDTH: Record<CardViewSize, string> = {
  xs: 'w-20',
  sm: 'w-36',
  md: 'w-56',
  lg: 'w-72 sm:w-80',
  xl: 'w-80 sm:w-[26rem]',
  full: 'w-[min(92vw,calc(88dvh*5/7))]',
};

const LARGE: ReadonlySet<CardViewSize> = new Set(['lg', 'xl', 'full']);
/** Degrees of tilt at the card's edge. */
const MAX_TILT: Record<CardViewSize, number> = { xs: 0, sm: 10, md: 12, lg: 14, xl: 14, full: 10 };

export interface CardViewProps {
  look: CardLook;
  size?: CardViewSize;
  /** Fill the parent's width instead of the size's own width (grids, slots). */
  fluid?: boolean;
  /** Pointer/tilt effects (default on; off for tiny thumbnails). */
  interactive?: boolean;
  /** Listen to device orientation too (large views on phones). Defaults to large sizes. */
  deviceTilt?: boolean;
  /** Force the still version (reduced-motion users always get it). */
  still?: boolean;
  /** Load images eagerly (the card the page is about). */
  priority?: boolean;
  className?: string;
}

function slotStyle(slot: TextSlot): CSSProperties {
  return {
    left: `${slot.x}%`,
    top: `${slot.y}%`,
    width: `${slot.w}%`,
    fontSize: `${slot.size}cqw`,
    textAlign: slot.align,
    color: slot.colour,
  };
}

const clamp01 = (v: number) => (v < 0 ? 0 : v > 1 ? 1 : v);

/**
 * Drives the holo and tilt from the pointer (and device orientation) by writing CSS custom
 * properties on the element once per animation frame. React never re-renders for a move.
 */
function useCardMotion(ref: React.RefObject<HTMLDivElement | null>, maxTilt: number, enabled: boolean, deviceTilt: boolean) {
  useEffect(() => {
    const el = ref.current;
    if (!el || !enabled || maxTilt === 0) return;
    if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return;

    let rect: DOMRect | null = null;
    let frame = 0;
    let px = 0.5;
    let py = 0.5;
    const apply = () => {
      frame = 0;
      el.style.setProperty('--mx', `${(px * 100).toFixed(1)}%`);
      el.style.setProperty('--my', `${(py * 100).toFixed(1)}%`);
      el.style.setProperty('--rx', `${((px - 0.5) * 2 * maxTilt).toFixed(2)}deg`);
      el.style.setProperty('--ry', `${((0.5 - py) * 2 * maxTilt).toFixed(2)}deg`);
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(apply);
    };
    const activate = () => {
      el.dataset.active = 'true';
      el.style.setProperty('--hover', '1');
    };
    const reset = () => {
      if (frame) cancelAnimationFrame(frame);
      frame = 0;
      rect = null;
      el.dataset.active = 'false';
      for (const [k, v] of [
        ['--mx', '50%'],
        ['--my', '50%'],
        ['--rx', '0deg'],
        ['--ry', '0deg'],
        ['--hover', '0'],
      ] as const) {
        el.style.setProperty(k, v);
      }
    };
    const onEnter = (e: PointerEvent) => {
      rect = el.getBoundingClientRect();
      activate();
      onMove(e);
    };
    const onMove = (e: PointerEvent) => {
      rect ??= el.getBoundingClientRect();
      px = clamp01((e.clientX - rect.left) / rect.width);
      py = clamp01((e.clientY - rect.top) / rect.height);
      schedule();
    };
    el.addEventListener('pointerenter', onEnter, { passive: true });
    el.addEventListener('pointermove', onMove, { passive: true });
    el.addEventListener('pointerleave', reset, { passive: true });
    el.addEventListener('pointercancel', reset, { passive: true });

    // Phones: tilt follows the device while this (large) card is on screen.
    let onOrient: ((e: DeviceOrientationEvent) => void) | null = null;
    let io: IntersectionObserver | null = null;
    if (deviceTilt && 'DeviceOrientationEvent' in window && window.matchMedia?.('(pointer: coarse)').matches) {
      onOrient = (e) => {
        if (e.gamma == null || e.beta == null) return;
        px = clamp01(0.5 + e.gamma / 60);
        py = clamp01(0.5 + (e.beta - 45) / 60);
        if (el.dataset.active !== 'true') activate();
        schedule();
      };
      const listener = onOrient;
      io = new IntersectionObserver(([entry]) => {
        if (entry?.isIntersecting) window.addEventListener('deviceorientation', listener);
        else {
          window.removeEventListener('deviceorientation', listener);
          reset();
        }
      });
      io.observe(el);
    }

    return () => {
      el.removeEventListener('pointerenter', onEnter);
      el.removeEventListener('pointermove', onMove);
      el.removeEventListener('pointerleave', reset);
      el.removeEventListener('pointercancel', reset);
      if (onOrient) window.removeEventListener('deviceorientation', onOrient);
      io?.disconnect();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [ref, maxTilt, enabled, deviceTilt]);
}

/** A card image that failed to load: hidden, so the card's own drawing shows (card-view.css). */
function markFailed(e: SyntheticEvent<HTMLImageElement>) {
  e.currentTarget.dataset.failed = 'true';
}

/**
 * THE card renderer: every place that shows a card draws it with this. Artwork inside the
 * architect's frame, name/class/value where the architect puts them, the texture's foil moving
 * with the pointer, and a glow in the class colour. Fixed 5:7 box, so nothing shifts as images load.
 */
export const CardView = memo(function CardView({
  look,
  size = 'md',
  fluid = false,
  interactive = true,
  deviceTilt,
  still = false,
  priority = false,
  className,
}: CardViewProps) {
  const ref = useRef<HTMLDivElement>(null);
  // An image that failed before the page's code ran (a server-drawn card) fired its error event
  // before onError was listening: look once at mount.
  useEffect(() => {
    for (const img of ref.current?.querySelectorAll('img') ?? []) if (img.complete && img.naturalWidth === 0 && img.currentSrc) img.dataset.failed = 'true';
  }, []);
  const currency = useCurrency();
  const large = LARGE.has(size);
  const variant = large ? 'full' : 'thumb';
  useCardMotion(ref, MAX_TILT[size], interactive && !still, deviceTilt ?? large);

  const { layout } = look;
  const value = formatCents(look.valueCents, currency);
  // A first-screen card's art and frame are the page's largest paint (Lighthouse names the frame on
  // /cards): load them at once and ask for them first; a drawn page starts its code once the browser
  // reports them painted (elementtiming, server/http/boot-script.ts). The rest wait until they are
  // near the screen.
  const imgProps = {
    alt: '',
    loading: priority ? 'eager' : 'lazy',
    fetchPriority: priority ? 'high' : undefined,
    ...(priority ? { elementtiming: FIRST_SCREEN_TIMING } : {}),
    decoding: 'async',
    draggable: false,
  } as const;
  const texture = look.texture;
  const tier = look.classTier;

  return (
    <div
      ref={ref}
      role="img"
      aria-label={`${look.name || 'Untitled card'}, ${look.className || 'no class'}, worth ${value}`}
      className={cn('pv-card', !fluid && CARD_WIDTH[size], className)}
      data-still={still ? 'true' : undefined}
      data-tier={tier}
      style={{ '--glow': look.classColour } as CSSProperties}
    >
      <div className="pv-card__body" aria-hidden="true">
        <div
          className="pv-card__art"
          style={{ left: `${layout.art.x}%`, top: `${layout.art.y}%`, width: `${layout.art.w}%`, height: `${layout.art.h}%` }}
        >
          {look.imageKey ? <img src={imageUrl(look.imageKey, variant)} onError={markFailed} {...imgProps} /> : null}
        </div>
        {look.frameImageKey ? (
          // The drawn frame stays beneath, hidden, for a frame image that fails (CSS shows it then).
          <>
            <img className="pv-card__frame" src={imageUrl(look.frameImageKey, variant)} onError={markFailed} {...imgProps} />
            <div className="pv-card__fallback-frame" />
          </>
        ) : (
          <div className="pv-card__fallback-frame" />
        )}
        {texture ? (
          <div
            className="pv-card__holo"
            style={
              {
                backgroundImage: `url(${imageUrl(texture.imageKey, variant)})`,
                mixBlendMode: texture.blendMode,
                '--holo-opacity': texture.opacity / 100,
              } as CSSProperties
            }
          />
        ) : null}
        <div className="pv-card__glare" />
        {look.className ? (
          // Not colour alone: a short code in a shape, and one pip per tier (issue 19).
          <span className="pv-card__tier" data-tier={tier}>
            <span className="pv-card__badge" data-code={classCode(look.className)} />
            {tier ? (
              <span className="pv-card__pips">
                {Array.from({ length: tier }, (_, i) => (
                  <i key={i} />
                ))}
              </span>
            ) : null}
          </span>
        ) : null}
        {size !== 'xs' ? (
          <>
            <span className="pv-card__text pv-card__name" style={slotStyle(layout.name)}>
              {look.name}
            </span>
            {/* Spaces between the painted texts, so read as text they are words, not "NameClass$5". */}{' '}
            <span className="pv-card__text pv-card__class" style={slotStyle(layout.class)}>
              <span className="pv-card__class-dot" />
              {look.className}
            </span>{' '}
            <span className="pv-card__text pv-card__value" style={slotStyle(layout.value)}>
              {value}
            </span>
          </>
        ) : null}
      </div>
    </div>
  );
});

/** Adapter for features that receive a renderer (e.g. the shop's CardRendererProvider). */
export function renderCard(look: CardLook, opts: { size: CardViewSize; className?: string; priority?: boolean }) {
  return <CardView look={look} size={opts.size} fluid className={opts.className} priority={opts.priority} />;
}

/** Placeholder with the card's exact box while data loads. */
export function CardSkeleton({ size = 'md', fluid = false, className }: { size?: CardViewSize; fluid?: boolean; className?: string }) {
  return (
    <div
      aria-hidden="true"
      className={cn('aspect-[5/7] animate-pulse rounded-xl bg-white/5 ring-1 ring-white/10', !fluid && CARD_WIDTH[size], fluid && 'w-full', className)}
    />
  );
}
