import { motion } from 'motion/react';
import { useMemo } from 'react';
import { cardsCaption, PackArt } from '../pack-art';
import type { RevealPack } from './build-up';
import { tearClips, tearLine } from './play';

export interface TearStageProps {
  packs: RevealPack[];
  tearing: boolean;
  /** The whole tear, in ms (the parent moves on when it ends). */
  ms: number;
}

/** At most this many packs show in the fan; every pack still tears (they all open at once). */
const FAN = 5;

/**
 * The sealed pack(s), and the tear (loaded on demand with `motion`): a foil seam lights up along
 * a jagged line, the strip above it is ripped off and spins away, and the pack drops open. With
 * several packs they sit in a fan and all tear together.
 */
export default function TearStage({ packs, tearing, ms }: TearStageProps) {
  const shown = packs.slice(0, FAN);
  const mid = (shown.length - 1) / 2;
  return (
    <div data-stage="tear" className="relative grid h-[26rem] place-items-center sm:h-[30rem]" style={{ perspective: 1200 }}>
      <div className="relative w-44 sm:w-52">
        {shown.map((p, i) => (
          <div
            key={p.key}
            className={i === shown.length - 1 ? 'relative' : 'absolute inset-0'}
            style={{ transform: `translateX(${(i - mid) * 26}px) rotate(${(i - mid) * 6}deg)`, zIndex: i }}
          >
            <TearingPack pack={p} tearing={tearing} ms={ms} delay={i * 0.05} label={i === shown.length - 1} />
          </div>
        ))}
      </div>
      {packs.length > FAN ? (
        <p className="absolute bottom-3 rounded-full bg-black/60 px-3 py-1 text-sm text-zinc-200">+{packs.length - FAN} more</p>
      ) : null}
    </div>
  );
}

function TearingPack({ pack, tearing, ms, delay, label }: { pack: RevealPack; tearing: boolean; ms: number; delay: number; label: boolean }) {
  const s = ms / 1000;
  const line = useMemo(() => tearLine(pack.key), [pack.key]);
  const clips = useMemo(() => tearClips(line), [line]);
  const seam = line.map(([x, y]) => `${x},${(y * 1.4).toFixed(1)}`).join(' ');
  const art = (decorative: boolean) => (
    <PackArt
      seed={pack.productId}
      name={pack.productName}
      imageKey={pack.imageKey}
      caption={cardsCaption(pack.cards.length)}
      decorative={decorative}
      large
      eager
    />
  );
  return (
    <motion.div
      className="relative"
      animate={tearing ? { y: 0, rotate: 0 } : { y: [0, -8, 0], rotate: [-1.5, 1.5, -1.5] }}
      transition={tearing ? { duration: 0.15 } : { duration: 2.4, repeat: Infinity, ease: 'easeInOut' }}
    >
      {/* The pack body: it shudders as the seam gives, then drops away to let the cards out. */}
      <motion.div
        style={{ clipPath: clips.bottom }}
        animate={tearing ? { x: [0, -3, 3, -2, 0, 0], y: [0, 0, 0, 0, 10, 80], opacity: [1, 1, 1, 1, 1, 0], scale: [1, 1, 1, 1, 1, 0.92] } : {}}
        transition={{ duration: s, delay, times: [0, 0.1, 0.2, 0.3, 0.55, 1], ease: 'easeIn' }}
      >
        {art(!label)}
      </motion.div>
      {/* The strip above the seam, ripped off and flung away. */}
      <motion.div
        aria-hidden="true"
        className="absolute inset-0 origin-[0%_24%]"
        style={{ clipPath: clips.top }}
        animate={tearing ? { rotate: [0, 0, -8, -40], x: [0, 0, -10, -90], y: [0, 0, -12, -120], opacity: [1, 1, 1, 0] } : {}}
        transition={{ duration: s * 0.85, delay, times: [0, 0.3, 0.5, 1], ease: 'easeOut' }}
      >
        {art(true)}
      </motion.div>
      {/* The foil seam: it lights up along the tear line just before the rip. */}
      <svg aria-hidden="true" viewBox="0 0 100 140" preserveAspectRatio="none" className="pointer-events-none absolute inset-0 size-full overflow-visible">
        <motion.polyline
          points={seam}
          fill="none"
          stroke="#fde68a"
          strokeWidth={1.6}
          strokeLinejoin="round"
          style={{ filter: 'drop-shadow(0 0 3px #fbbf24)' }}
          initial={{ pathLength: 0, opacity: 0 }}
          animate={tearing ? { pathLength: [0, 1, 1], opacity: [1, 1, 0] } : { pathLength: 0, opacity: 0 }}
          transition={{ duration: s * 0.5, delay, times: [0, 0.6, 1] }}
        />
      </svg>
      {/* Light spilling out of the opened pack. */}
      <motion.div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 top-[20%] h-12 rounded-full bg-[radial-gradient(ellipse,rgb(253_230_138/0.9),transparent_70%)] blur-md"
        initial={{ opacity: 0, scaleX: 0.3 }}
        animate={tearing ? { opacity: [0, 0, 1, 0], scaleX: [0.3, 0.3, 1.4, 1.8] } : { opacity: 0 }}
        transition={{ duration: s, delay, times: [0, 0.3, 0.55, 1] }}
      />
    </motion.div>
  );
}
