import { gradeLabel, gradeSpoken, type Grading, type GradingCompany } from '@shared/contracts/grading';
import { imageUrl } from '@shared/contracts/catalog-look';
import { cn } from './cn';

/** Each company's label colours, as on their slabs; every pair passes AA contrast. */
const SLAB: Record<GradingCompany, string> = {
  PSA: 'bg-red-700 text-white ring-red-300/60',
  BGS: 'bg-blue-900 text-amber-200 ring-amber-300/60',
  CGC: 'bg-teal-700 text-white ring-teal-200/60',
  SGC: 'bg-zinc-900 text-white ring-zinc-300/60',
};

/**
 * The slab badge: "PSA 10" in the grading company's colours, shaped like a slab label. Screen
 * readers hear "Graded PSA 10, certificate 12345678" (the visible text is part of the name).
 */
export function GradeBadge({ grading, className, size = 'sm' }: { grading: Grading; className?: string; size?: 'sm' | 'md' }) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-md font-bold tracking-wide whitespace-nowrap uppercase ring-1 shadow-sm shadow-black/40',
        size === 'md' ? 'px-2.5 py-1 text-sm' : 'px-1.5 py-0.5 text-xs',
        SLAB[grading.company],
        className,
      )}
    >
      <svg aria-hidden="true" viewBox="0 0 10 12" className={size === 'md' ? 'size-3.5' : 'size-2.5'} fill="currentColor">
        <path d="M1 0h8a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H1a1 1 0 0 1-1-1V1a1 1 0 0 1 1-1Zm0 1.2v2.6h8V1.2Z" />
      </svg>
      <span aria-hidden="true">{gradeLabel(grading)}</span>
      <span className="sr-only">{gradeSpoken(grading)}</span>
    </span>
  );
}

/** Photos of the physical copy (front and back), each opening full size in a new tab. */
export function PhysicalPhotos({ name, frontPhotoKey, backPhotoKey, className }: { name: string; frontPhotoKey: string | null; backPhotoKey: string | null; className?: string }) {
  const photos = [
    { key: frontPhotoKey, side: 'front' },
    { key: backPhotoKey, side: 'back' },
  ].filter((p): p is { key: string; side: string } => Boolean(p.key));
  if (!photos.length) return null;
  return (
    <ul aria-label="Photos of the physical card" className={cn('flex flex-wrap gap-3', className)}>
      {photos.map((p) => (
        <li key={p.side}>
          <figure className="w-28">
            <a href={imageUrl(p.key)} target="_blank" rel="noreferrer" className="block rounded-lg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400">
              <img
                src={imageUrl(p.key, 'thumb')}
                alt={`${name}, photo of the ${p.side} of the physical card`}
                loading="lazy"
                className="aspect-[3/5] w-full rounded-lg bg-white/5 object-cover ring-1 ring-white/10"
              />
            </a>
            <figcaption className="mt-1 text-center text-xs text-zinc-400">{p.side === 'front' ? 'Front' : 'Back'}</figcaption>
          </figure>
        </li>
      ))}
    </ul>
  );
}
