import { useState } from 'react';
import { cn } from '@web/components/ui';

/** A user's public avatar, or their initial on a gradient when there is none or it fails to load. */
export function Avatar({ username, image, size = 'md' }: { username: string; image: string | null; size?: 'md' | 'lg' }) {
  const [broken, setBroken] = useState(false);
  const box = size === 'lg' ? 'size-16 text-2xl' : 'size-10 text-base';
  if (image && !broken) {
    return <img src={image} alt="" className={cn('shrink-0 rounded-full object-cover ring-2 ring-violet-400/40', box)} onError={() => setBroken(true)} />;
  }
  return (
    <span
      aria-hidden="true"
      data-initial={(username[0] ?? '?').toUpperCase()}
      className={cn(
        'grid shrink-0 place-items-center rounded-full bg-gradient-to-br from-violet-500 to-fuchsia-500 font-bold text-white before:content-[attr(data-initial)]',
        box,
      )}
    />
  );
}
