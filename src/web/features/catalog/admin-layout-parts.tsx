import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { PageHeader, Skeleton } from '@web/components/ui';

/** The one-sentence explanations the admin screens open with. */
export const EXPLAIN = {
  class: 'A class is a rarity tier (like Common or Legendary): it sets the card’s glow colour, its default foil, where it sorts, and optionally its own buyback rate.',
  texture: 'A texture is the foil overlay that makes a card shine: an image blended over the card that moves with the pointer.',
  architect: 'An architect is a card frame template: the border art, the window the artwork shows through, and where the name, class and value sit.',
  card: 'A card is one catalog entry: its artwork, set and number, class, frame, value and how many physical copies wait in the vault.',
} as const;

export function BackLink({ to, children }: { to: '/admin/class' | '/admin/textures' | '/admin/architects' | '/admin/cards'; children: ReactNode }) {
  return (
    <Link to={to} className="mb-3 inline-flex items-center gap-1 text-sm text-violet-300 hover:text-violet-200">
      <span aria-hidden="true">←</span> {children}
    </Link>
  );
}

/** Form on the left, sticky live preview on the right (stacked on phones). */
export function EditorLayout({ form, preview, previewTitle = 'Preview' }: { form: ReactNode; preview: ReactNode; previewTitle?: string }) {
  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <div className="min-w-0">{form}</div>
      <aside aria-label={previewTitle} className="lg:sticky lg:top-6 lg:self-start">
        <h2 className="mb-3 text-sm font-semibold tracking-widest text-zinc-400 uppercase">{previewTitle}</h2>
        <div className="flex justify-center rounded-2xl border border-white/10 bg-[radial-gradient(ellipse_at_top,rgba(139,92,246,0.15),transparent_60%)] p-6">
          <div className="w-full max-w-[18rem]">{preview}</div>
        </div>
        <p className="mt-2 text-center text-xs text-zinc-400">Live: updates as you type. Move your pointer over it to see the foil.</p>
      </aside>
    </div>
  );
}

export function DetailSkeleton() {
  return (
    <div role="status" aria-label="Loading" className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <div className="space-y-4">
        {Array.from({ length: 5 }, (_, i) => (
          <Skeleton key={i} className="h-14 w-full" />
        ))}
      </div>
      <Skeleton className="aspect-[5/7] w-full" />
    </div>
  );
}

export function Header({ title, kind, actions }: { title: string; kind: keyof typeof EXPLAIN; actions?: ReactNode }) {
  return <PageHeader eyebrow="Catalog" title={title} description={EXPLAIN[kind]} actions={actions} />;
}

export function FormActions({ children }: { children: ReactNode }) {
  return <div className="flex flex-wrap items-center gap-3 border-t border-white/10 pt-4">{children}</div>;
}
