import { cn } from './cn';

/** The Packvault mark (a card in a vault door) and word. The word is the site name from configuration. */
export function Logo({ siteName = 'Packvault', className, compact }: { siteName?: string; className?: string; compact?: boolean }) {
  return (
    <span className={cn('inline-flex items-center gap-2 font-bold tracking-tight text-white', className)}>
      <svg aria-hidden="true" viewBox="0 0 32 32" className="size-8 shrink-0">
        <defs>
          <linearGradient id="pv-logo-g" x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#a78bfa" />
            <stop offset="1" stopColor="#e879f9" />
          </linearGradient>
        </defs>
        <rect x="2" y="2" width="28" height="28" rx="8" fill="#1b1b2a" stroke="url(#pv-logo-g)" strokeWidth="2" />
        <rect x="10" y="7" width="12" height="18" rx="2.5" fill="url(#pv-logo-g)" transform="rotate(-8 16 16)" />
        <path d="M13.5 13.5h5M13.5 17h3.5" stroke="#1b1b2a" strokeWidth="1.6" strokeLinecap="round" transform="rotate(-8 16 16)" />
        <circle cx="22.5" cy="22.5" r="2.2" fill="#f5c451" />
      </svg>
      {compact ? <span className="sr-only">{siteName}</span> : <span className="text-lg">{siteName}</span>}
    </span>
  );
}
