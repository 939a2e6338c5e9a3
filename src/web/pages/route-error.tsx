import type { ErrorComponentProps } from '@tanstack/react-router';
import { useEffect } from 'react';
import { reportError } from '@web/lib/monitoring';

export function RouteErrorPage({ error, reset }: ErrorComponentProps) {
  useEffect(() => reportError(error), [error]);
  return (
    <section role="alert" aria-labelledby="page-title" className="mx-auto max-w-xl space-y-4 py-16 text-center">
      <h1 id="page-title" className="text-2xl font-bold">
        Something went wrong
      </h1>
      <p className="text-zinc-300">We have been told about it. Try again, or reload the page.</p>
      <button
        type="button"
        onClick={reset}
        className="rounded-md bg-violet-500 px-4 py-2 font-semibold text-white hover:bg-violet-400"
      >
        Try again
      </button>
    </section>
  );
}
