import type { ReactNode } from 'react';

export interface StaticPageProps {
  title: ReactNode;
  /** One-paragraph summary under the title. */
  lead?: ReactNode;
  /** e.g. "Last updated 1 May 2025". */
  updated?: string;
  children: ReactNode;
}

/** Long-form page (about, terms, privacy): a readable column with one h1. */
export function StaticPage({ title, lead, updated, children }: StaticPageProps) {
  return (
    <article className="mx-auto max-w-3xl">
      <header className="mb-10 border-b border-white/10 pb-8">
        <h1 className="text-3xl font-bold tracking-tight text-white sm:text-4xl">{title}</h1>
        {lead ? <p className="mt-4 text-lg leading-relaxed text-zinc-300">{lead}</p> : null}
        {updated ? <p className="mt-4 text-sm text-zinc-400">{updated}</p> : null}
      </header>
      <div className="prose-vault max-w-none">{children}</div>
    </article>
  );
}
