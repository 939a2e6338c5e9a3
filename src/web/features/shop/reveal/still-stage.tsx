import { useRenderCard } from '../card-slot';
import { buildUpFor, type RevealCard } from './build-up';

export interface StageProps {
  card: RevealCard;
  revealed: boolean;
}

/** The back of a card: the same for every class, so the back never gives the pull away. */
export function CardBack({ colour, charged = 0 }: { colour: string; charged?: number }) {
  return (
    <div
      aria-hidden="true"
      className="relative aspect-[5/7] w-full overflow-hidden rounded-2xl border border-white/20 bg-[linear-gradient(145deg,#1b1b2a,#2e1065_45%,#1b1b2a)]"
      style={{ boxShadow: charged ? `0 0 ${20 + charged * 60}px ${colour}` : undefined }}
    >
      <div className="absolute inset-3 rounded-xl border border-white/10 bg-[repeating-linear-gradient(45deg,rgb(255_255_255/0.04)_0_6px,transparent_6px_14px)]" />
      <svg viewBox="0 0 32 32" className="absolute top-1/2 left-1/2 size-20 -translate-x-1/2 -translate-y-1/2 opacity-80">
        <rect x="2" y="2" width="28" height="28" rx="8" fill="#1b1b2a" stroke="#c4b5fd" strokeWidth="1.5" />
        <rect x="10" y="7" width="12" height="18" rx="2.5" fill="#a78bfa" transform="rotate(-8 16 16)" />
        <circle cx="22.5" cy="22.5" r="2.2" fill="#f5c451" />
      </svg>
    </div>
  );
}

/**
 * Still frames: what reduced-motion users see (and everyone, for a blink, while the animation
 * code loads). No movement; the class still shows in the glow and the label.
 */
export function StillStage({ card, revealed }: StageProps) {
  const render = useRenderCard();
  const p = buildUpFor(card.tier);
  return (
    <div data-stage="still" className="relative grid h-[26rem] w-full place-items-center sm:h-[30rem]">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute size-[22rem] rounded-full blur-2xl sm:size-[28rem]"
        style={{
          background: `radial-gradient(circle, ${card.look.classColour} 0%, transparent 65%)`,
          opacity: revealed ? p.glow * 0.8 : 0.15,
        }}
      />
      <div className="relative w-52 sm:w-64">
        {revealed ? render(card.look, { size: 'lg', priority: true }) : <CardBack colour={card.look.classColour} />}
      </div>
    </div>
  );
}
