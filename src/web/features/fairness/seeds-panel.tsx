import { formatDateTime, plural } from '@web/lib/format';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { Dices, RefreshCw } from 'lucide-react';
import { clientSeedInputSchema } from '@shared/contracts/shop';
import { Button, ConfirmDialog, CopyableCode, FormField, Input, Notice, Panel, SkeletonText, toast } from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { applyServerFields, errorText } from '@web/lib/api-errors';
import { randomClientSeed, seedsQuery, useRotateSeed, useSetClientSeed } from './api';

/** The seeds page's long values: the kit's copyable code (kept as a name for its callers). */
export function Mono({ children, label }: { children: string; label: string }) {
  return <CopyableCode label={label}>{children}</CopyableCode>;
}

/**
 * The signed-in user's seed pair: the active server seed's hash (committed before any opening),
 * the editable client seed, the next nonce, rotation (which reveals the old server seed), and the
 * seeds revealed so far.
 */
export function SeedsPanel() {
  const q = useQuery(seedsQuery);
  const rotate = useRotateSeed();
  const active = q.data?.active;

  return (
    <Panel
      id="seeds"
      title="Your seeds"
      description="Every card you pull is drawn from these. The server seed stays secret until you rotate it; its hash below proves it cannot change."
    >
      {q.isPending ? (
        <SkeletonText lines={4} label="Loading your seeds" />
      ) : q.isError ? (
        <Notice
          tone="danger"
          action={
            <Button size="sm" variant="secondary" onClick={() => void q.refetch()}>
              Try again
            </Button>
          }
        >
          Your seeds could not be loaded. {q.error instanceof ApiClientError ? q.error.message : ''}
        </Notice>
      ) : active ? (
        <div className="space-y-6">
          <dl className="grid grid-cols-2 gap-x-8 gap-y-4 text-sm">
            <div className="col-span-2 space-y-1.5">
              <dt className="font-medium text-zinc-200">Server seed hash (SHA-256)</dt>
              <dd>
                <Mono label="Server seed hash">{active.serverSeedHash}</Mono>
              </dd>
            </div>
            <div>
              <dt className="font-medium text-zinc-200">Next nonce</dt>
              <dd className="mt-1 font-mono text-lg text-white" data-testid="next-nonce">
                {active.nextNonce}
              </dd>
            </div>
            <div>
              <dt className="font-medium text-zinc-200">In use since</dt>
              <dd className="mt-1 text-zinc-300">{formatDateTime(active.createdAt)}</dd>
            </div>
          </dl>

          <ClientSeedForm current={active.clientSeed} />

          <div className="space-y-2 border-t border-white/10 pt-5">
            <ConfirmDialog
              title="Rotate your server seed?"
              description="We reveal your current server seed (so you can verify every opening made with it) and commit to a new one. Openings from now on use the new seed and start again at nonce 0."
              confirmLabel="Rotate and reveal"
              onConfirm={async () => {
                try {
                  await rotate.mutateAsync();
                  toast.success('Seed rotated', 'The old server seed is revealed below.');
                } catch (err) {
                  toast.error('Could not rotate', err instanceof ApiClientError ? err.message : 'Try again in a moment.');
                  throw err;
                }
              }}
              trigger={
                <Button variant="secondary" size="sm">
                  <RefreshCw aria-hidden="true" className="size-4" /> Rotate seed
                </Button>
              }
            />
            {rotate.data ? (
              <Notice tone="success" title="Your old server seed">
                <Mono label="Revealed server seed">{rotate.data.revealed.serverSeed}</Mono>
                <p className="mt-2">
                  It hashes to <code className="font-mono text-xs break-all">{rotate.data.revealed.serverSeedHash}</code>, the hash you were
                  shown. Openings made with it can now be verified below.
                </p>
              </Notice>
            ) : null}
          </div>

          {q.data.revealed.length ? (
            <details className="group rounded-xl border border-white/10 bg-white/[0.02] p-4">
              <summary className="cursor-pointer text-sm font-semibold text-white">
                Revealed seeds ({q.data.revealed.length})
              </summary>
              <ul className="mt-4 space-y-4">
                {q.data.revealed.map((r) => (
                  <li key={r.id} className="space-y-1.5 text-xs">
                    <p className="text-zinc-400">
                      Used {plural(r.nextNonce, 'time')} with client seed <code className="text-zinc-200">{r.clientSeed}</code>;
                      revealed {formatDateTime(r.revealedAt)}
                    </p>
                    <Mono label="Server seed">{r.serverSeed}</Mono>
                    <p className="font-mono break-all text-zinc-400">hash {r.serverSeedHash}</p>
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
        </div>
      ) : null}
    </Panel>
  );
}

/** The editable client seed: saved for the next opening; the server checks it the same way. */
function ClientSeedForm({ current }: { current: string }) {
  const setSeed = useSetClientSeed();
  const { register, handleSubmit, formState, setError, setValue, reset, watch } = useForm<{ clientSeed: string }>({
    resolver: zodResolver(clientSeedInputSchema) as never,
    defaultValues: { clientSeed: current },
  });
  // A rotation or a save elsewhere changes the seed in use: the field follows it.
  useEffect(() => reset({ clientSeed: current }), [current, reset]);
  const unchanged = (watch('clientSeed') ?? '').trim() === current;

  const save = handleSubmit(async ({ clientSeed }) => {
    try {
      await setSeed.mutateAsync(clientSeed);
      toast.success('Client seed saved', 'Your next opening uses it.');
    } catch (err) {
      if (!applyServerFields(err, setError, ['clientSeed'])) setError('clientSeed', { type: 'server', message: errorText(err) }, { shouldFocus: true });
    }
  });

  return (
    <form onSubmit={save} className="space-y-3" noValidate>
      <FormField
        label="Client seed"
        hint="Your own input to every draw. Change it whenever you like; it applies from your next opening."
        error={formState.errors.clientSeed?.message}
      >
        <Input {...register('clientSeed')} maxLength={64} autoComplete="off" spellCheck={false} className="font-mono" />
      </FormField>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" loading={formState.isSubmitting} disabled={unchanged}>
          Save client seed
        </Button>
        <Button type="button" size="sm" variant="secondary" onClick={() => setValue('clientSeed', randomClientSeed(), { shouldDirty: true, shouldValidate: formState.isSubmitted })}>
          <Dices aria-hidden="true" className="size-4" /> Randomise
        </Button>
      </div>
    </form>
  );
}
