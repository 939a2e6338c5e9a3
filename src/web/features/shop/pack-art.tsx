import { useId, useState } from 'react';
import { imageUrl } from '@shared/contracts/catalog-look';
import { cn } from '@web/components/ui';
import { plural } from '@web/lib/format';

/** A stable 32-bit hash of a string (FNV-1a), so a product keeps the same generated design. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const SHEEN =
  'pointer-events-none absolute inset-0 bg-[linear-gradient(115deg,transparent_30%,rgb(255_255_255/0.22)_45%,transparent_58%)] mix-blend-screen';

/** "5 cards", "1 card". */
export function cardsCaption(n: number): string {
  return plural(n, 'card');
}

/** Two hues in the violet…gold band of the shop, picked from the product's id. */
export function packPalette(seed: string) {
  const h = hash(seed);
  const hues = [265, 285, 300, 320, 250, 200, 175, 35];
  const a = hues[h % hues.length]!;
  const b = hues[(h >>> 8) % hues.length]!;
  const b2 = b === a ? (a + 40) % 360 : b;
  return { a, b: b2, angle: 120 + ((h >>> 16) % 90) };
}

export interface PackArtProps {
  /** Product id (or any stable string): picks the generated design. */
  seed: string;
  name: string;
  imageKey?: string | null;
  /** Small caption on the generated design (e.g. "5 cards"). */
  caption?: string;
  className?: string;
  /** Decorative: the pack is already named next to it. */
  decorative?: boolean;
  /** Larger type for the product page. */
  large?: boolean;
  /** Load the image at once (the reveal's stage), not when it nears the screen. */
  eager?: boolean;
}

/**
 * The pack as a physical foil wrapper: the product's own image when it has one, otherwise a
 * generated design (gradient foil, crimped ends, the pack name) so every pack looks like a pack.
 */
export function PackArt({ seed, name, imageKey, caption, className, decorative, large, eager }: PackArtProps) {
  const id = useId().replace(/:/g, '');
  const { a, b, angle } = packPalette(seed);
  const label = decorative ? undefined : `${name} pack`;
  // The generated design is always drawn underneath: while the product's image loads, and if it
  // never does, the pack still looks like a pack (issue 41: an empty stage said "Tear it open").
  const [failedKey, setFailedKey] = useState<string | null>(null);
  const photo = imageKey && failedKey !== imageKey ? imageKey : null;
  return (
    <div
      role={decorative ? undefined : 'img'}
      aria-label={label}
      aria-hidden={decorative ? true : undefined}
      className={cn('relative aspect-[5/7] overflow-hidden rounded-xl shadow-xl shadow-black/40', className)}
      style={{
        background: `linear-gradient(${angle}deg, hsl(${a} 80% 22%), hsl(${a} 85% 45%) 38%, hsl(${b} 90% 60%) 62%, hsl(${b} 80% 28%))`,
      }}
    >
      <svg aria-hidden="true" viewBox="0 0 100 140" preserveAspectRatio="none" className="absolute inset-0 size-full">
        <defs>
          <pattern id={`crimp-${id}`} width="4" height="8" patternUnits="userSpaceOnUse">
            <path d="M0 0 L2 8 L4 0" fill="none" stroke="rgb(255 255 255 / 0.35)" strokeWidth="0.6" />
          </pattern>
          <radialGradient id={`glow-${id}`} cx="50%" cy="45%" r="55%">
            <stop offset="0" stopColor="white" stopOpacity="0.45" />
            <stop offset="1" stopColor="white" stopOpacity="0" />
          </radialGradient>
        </defs>
        <rect x="0" y="0" width="100" height="9" fill="rgb(0 0 0 / 0.25)" />
        <rect x="0" y="0" width="100" height="9" fill={`url(#crimp-${id})`} />
        <rect x="0" y="131" width="100" height="9" fill="rgb(0 0 0 / 0.25)" />
        <rect x="0" y="131" width="100" height="9" fill={`url(#crimp-${id})`} />
        <ellipse cx="50" cy="62" rx="40" ry="34" fill={`url(#glow-${id})`} />
        <g transform="translate(50 60) rotate(-8)" opacity="0.92">
          <rect x="-15" y="-21" width="30" height="42" rx="3.5" fill="rgb(11 11 20 / 0.55)" stroke="white" strokeOpacity="0.7" strokeWidth="1" />
          <path d="M-8 -6 h16 M-8 0 h10" stroke="white" strokeOpacity="0.75" strokeWidth="1.6" strokeLinecap="round" />
          <circle cx="9" cy="13" r="3" fill="#f5c451" />
        </g>
      </svg>
      {photo ? (
        <img
          src={imageUrl(photo, 'full')}
          alt=""
          loading={eager ? 'eager' : 'lazy'}
          decoding="async"
          onError={() => setFailedKey(photo)}
          className="absolute inset-0 z-10 size-full object-cover"
        />
      ) : null}
      <span aria-hidden="true" className={cn(SHEEN, 'z-10')} />
      <div aria-hidden="true" className="absolute inset-x-0 bottom-[9%] px-3 text-center">
        <p
          className={cn(
            'font-black tracking-tight text-balance text-white uppercase drop-shadow-[0_2px_6px_rgb(0_0_0/0.6)]',
            large ? 'text-2xl sm:text-3xl' : 'text-base sm:text-lg',
          )}
        >
          {name}
        </p>
        {caption ? (
          <p className={cn('mt-0.5 font-semibold tracking-widest text-white/80 uppercase', large ? 'text-xs' : 'text-[10px]')}>
            {caption}
          </p>
        ) : null}
      </div>
      <p
        aria-hidden="true"
        className="absolute inset-x-0 top-[9%] text-center text-[10px] font-bold tracking-[0.3em] text-white/70 uppercase"
      >
        Packvault
      </p>
    </div>
  );
}
