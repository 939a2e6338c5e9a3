import { motion } from 'motion/react';
import { useMemo } from 'react';
import { useRenderCard } from '../card-slot';
import { buildUpFor, type RevealCard } from './build-up';
import { CardBack, type StageProps } from './still-stage';

/**
 * The animated reveal (loaded on demand: it pulls in the `motion` library). The build-up —
 * glow, shake, rays — grows with the class's rarity; then the card turns over with a burst.
 * Timing is driven by the parent (it decides when `revealed` flips), so skipping is instant.
 */
export default function AnimatedStage({ card, revealed }: StageProps) {
  const render = useRenderCard();
  const p = buildUpFor(card.tier);
  const seconds = p.ms / 1000;
  const colour = card.look.classColour;
  const shakeX = useMemo(() => shakeFrames(p.shake), [p.shake]);
  return (
    <div data-stage="animated" className="relative grid h-[26rem] w-full place-items-center sm:h-[30rem]" style={{ perspective: 1400 }}>
      {/* The class-coloured glow: it swells through the build-up and blooms on the turn. */}
      <motion.div
        key={`glow-${card.key}`}
        aria-hidden="true"
        className="pointer-events-none absolute size-[22rem] rounded-full blur-2xl sm:size-[28rem]"
        style={{ background: `radial-gradient(circle, ${colour} 0%, transparent 65%)` }}
        initial={{ opacity: 0, scale: 0.5 }}
        animate={
          revealed
            ? { opacity: p.glow * 0.8, scale: 1.15 }
            : { opacity: [0, p.glow * 0.5, p.glow * 0.3, p.glow], scale: [0.5, 0.8, 0.75, 1.05] }
        }
        transition={revealed ? { duration: 0.5, ease: 'easeOut' } : { duration: seconds, ease: 'easeIn', times: [0, 0.4, 0.6, 1] }}
      />
      {p.rays ? (
        <motion.div
          key={`rays-${card.key}`}
          aria-hidden="true"
          className="pointer-events-none absolute size-[30rem] rounded-full sm:size-[38rem]"
          style={{
            background: `repeating-conic-gradient(from 0deg, ${colour}55 0deg 6deg, transparent 6deg 22deg)`,
            maskImage: 'radial-gradient(circle, black 20%, transparent 68%)',
            WebkitMaskImage: 'radial-gradient(circle, black 20%, transparent 68%)',
          }}
          initial={{ opacity: 0, rotate: 0, scale: 0.6 }}
          animate={{ opacity: revealed ? 0.9 : [0, 0.35, 0.8], rotate: revealed ? 120 : 60, scale: revealed ? 1.1 : 0.95 }}
          transition={{ duration: revealed ? 6 : seconds, ease: revealed ? 'linear' : 'easeIn' }}
        />
      ) : null}

      <motion.div
        key={`card-${card.key}`}
        className="relative w-52 sm:w-64"
        style={{ transformStyle: 'preserve-3d' }}
        initial={{ rotateY: 0, scale: 0.82, y: 30, opacity: 0 }}
        animate={
          revealed
            ? { rotateY: 180, scale: 1, y: 0, x: 0, opacity: 1 }
            : { rotateY: 0, scale: [0.82, 0.95, 1.02], y: 0, x: shakeX, opacity: 1 }
        }
        transition={
          revealed
            ? { duration: 0.6, ease: [0.2, 0.8, 0.2, 1] }
            : { duration: seconds, ease: 'easeIn', opacity: { duration: 0.2 } }
        }
      >
        <div style={{ backfaceVisibility: 'hidden', WebkitBackfaceVisibility: 'hidden' }}>
          <CardBack colour={colour} charged={revealed ? 0 : p.glow} />
        </div>
        <div
          className="absolute inset-0"
          style={{ transform: 'rotateY(180deg)', backfaceVisibility: 'hidden', WebkitBackfaceVisibility: 'hidden' }}
        >
          {render(card.look, { size: 'lg', priority: true })}
        </div>
      </motion.div>

      {revealed && p.burst > 0 ? <Burst key={`burst-${card.key}`} card={card} strength={p.burst} /> : null}
    </div>
  );
}

function shakeFrames(amp: number): number[] {
  if (!amp) return [0, 0];
  // Calm at first, then shaking harder as the moment nears.
  const frames = [0, 0, 0];
  for (let i = 1; i <= 10; i++) {
    const a = (amp * i) / 10;
    frames.push(i % 2 ? -a : a);
  }
  frames.push(0);
  return frames;
}

function Burst({ card, strength }: { card: RevealCard; strength: number }) {
  const sparks = Math.round(10 + strength * 22);
  const colour = card.look.classColour;
  return (
    <>
      <motion.div
        aria-hidden="true"
        className="pointer-events-none absolute inset-0 rounded-3xl bg-white"
        initial={{ opacity: Math.min(0.85, strength * 0.8) }}
        animate={{ opacity: 0 }}
        transition={{ duration: 0.7, ease: 'easeOut' }}
      />
      {Array.from({ length: sparks }, (_, i) => {
        const angle = (i / sparks) * Math.PI * 2 + (i % 3) * 0.2;
        const dist = 150 + ((i * 37) % 110);
        return (
          <motion.span
            key={i}
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 left-1/2 size-2 rounded-full"
            style={{ background: i % 4 === 0 ? '#fde68a' : colour, boxShadow: `0 0 10px ${colour}` }}
            initial={{ x: 0, y: 0, opacity: 1, scale: 1 }}
            animate={{ x: Math.cos(angle) * dist, y: Math.sin(angle) * dist, opacity: 0, scale: 0.3 }}
            transition={{ duration: 0.9 + (i % 5) * 0.12, ease: 'easeOut' }}
          />
        );
      })}
    </>
  );
}
