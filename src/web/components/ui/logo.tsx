import { useId } from 'react';
import { cn } from './cn';

export interface LogoProps {
  /** The word next to the mark: the site name from configuration. */
  siteName?: string;
  className?: string;
  /** Only the mark; the name stays for screen readers. */
  compact?: boolean;
  /** Only the mark below the sm breakpoint (narrow headers). */
  compactOnMobile?: boolean;
}

/** The Packvault mark (a card in a vault door) and word. */
export function Logo({ siteName = 'Packvault', className, compact, compactOnMobile }: LogoProps) {
  // Several logos can be on one page (header, footer): each needs its own gradient id.
  const gradient = `pv-logo-${useId().replace(/:/g, '')}`;
  return (
    <span className={cn('inline-flex items-center gap-2 font-bold tracking-tight text-white', className)}>
      <svg aria-hidden="true" viewBox="0 0 32 32" className="size-8 shrink-0">
        <defs>
          <linearGradient id={gradient} x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#a78bfa" />
            <stop offset="1" stopColor="#e879f9" />
          </linearGradient>
        </defs>
        <rect x="2" y="2" width="28" height="28" rx="8" fill="#1b1b2a" stroke={`url(#${gradient})`} strokeWidth="2" />
        <rect x="10" y="7" width="12" height="18" rx="2.5" fill={`url(#${gradient})`} transform="rotate(-8 16 16)" />
        <path d="M13.5 13.5h5M13.5 17h3.5" stroke="#1b1b2a" strokeWidth="1.6" strokeLinecap="round" transform="rotate(-8 16 16)" />
        <circle cx="22.5" cy="22.5" r="2.2" fill="#f5c451" />
      </svg>
      <span className={cn('text-lg', compact && 'sr-only', compactOnMobile && 'sr-only sm:not-sr-only')}>{siteName}</span>
    </span>
  );
}
