import type { ErrorComponentProps } from '@tanstack/react-router';
import { useEffect } from 'react';
import { Button } from '@web/components/ui/button';
import { ApiClientError } from '@web/lib/api';
import { reportError } from '@web/lib/monitoring';

export function RouteErrorPage({ error, reset }: ErrorComponentProps) {
  const offline = error instanceof ApiClientError && error.status === 0;
  useEffect(() => {
    if (!offline) reportError(error);
  }, [error, offline]);
  return (
    <section role="alert" aria-labelledby="page-title" className="mx-auto max-w-xl space-y-4 py-16 text-center">
      <h1 id="page-title" className="text-2xl font-bold text-white">
        {offline ? 'You seem to be offline' : 'Something went wrong'}
      </h1>
      <p className="text-zinc-300">
        {offline
          ? 'We could not reach the server. Check your connection, then try again.'
          : 'We have been told about it. Try again, or reload the page.'}
      </p>
      <div className="flex justify-center gap-3">
        <Button onClick={reset}>Try again</Button>
        <Button variant="secondary" onClick={() => location.reload()}>
          Reload the page
        </Button>
      </div>
    </section>
  );
}
