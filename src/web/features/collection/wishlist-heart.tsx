import { useQuery } from '@tanstack/react-query';
import { lazy, memo, Suspense, useCallback, useMemo, useState } from 'react';
import { Heart } from 'lucide-react';
import type { CardActionTarget, RenderCardAction } from '@web/components/card-action';
import { cn, toast } from '@web/components/ui';
import { useToggleWish, wishlistQuery } from './api';

// Radix's dialog (about 14 KB gzip with its scroll lock) is for a visitor who presses a heart: not
// part of the /cards page's first load. Pointing at a heart starts loading it.
const loadPrompt = () => import('./wishlist-sign-in-prompt');
const SignInPrompt = lazy(loadPrompt);

type Toggle = (card: CardActionTarget, wished: boolean) => void;

/**
 * The wishlist hearts of a grid of cards: one wishlist query and one mutation for all of them, and
 * a function that draws the heart for a card (for a CardActionProvider, or called per card). A
 * query observer and a mutation observer per heart were a sixth of /cards' first render on a phone.
 * Signed out, a heart explains that a wishlist needs an account.
 */
export function useWishlistHearts(signedIn: boolean, className?: string): RenderCardAction {
  const list = useQuery(wishlistQuery(signedIn));
  const { mutateAsync } = useToggleWish();
  const wishedIds = useMemo(() => new Set(signedIn ? list.data?.cardIds : undefined), [signedIn, list.data]);
  const toggle = useCallback<Toggle>(
    (card, wished) => {
      // The promise, not mutate()'s callbacks: those run for the last of several hearts pressed
      // while the first is still on its way, and every failed one must say so.
      mutateAsync({ cardId: card.id, wished }).catch((e: unknown) =>
        toast({ tone: 'danger', title: 'The wishlist did not change', description: e instanceof Error ? e.message : 'Try again in a moment.' }),
      );
    },
    [mutateAsync],
  );
  return useCallback(
    (card: CardActionTarget) => (
      <WishlistHeartButton card={card} signedIn={signedIn} wished={wishedIds.has(card.id)} onToggle={toggle} className={className} />
    ),
    [signedIn, wishedIds, toggle, className],
  );
}

const WishlistHeartButton = memo(function WishlistHeartButton({
  card,
  signedIn,
  wished,
  onToggle,
  className,
}: {
  card: CardActionTarget;
  signedIn: boolean;
  wished: boolean;
  onToggle: Toggle;
  className?: string | undefined;
}) {
  const [askSignIn, setAskSignIn] = useState(false);
  const label = wished ? `Remove ${card.name} from your wishlist` : `Add ${card.name} to your wishlist`;
  return (
    <>
      <button
        type="button"
        onClick={() => (signedIn ? onToggle(card, !wished) : setAskSignIn(true))}
        onPointerEnter={signedIn ? undefined : () => void loadPrompt()}
        onFocus={signedIn ? undefined : () => void loadPrompt()}
        aria-label={label}
        title={label}
        data-wished={wished || undefined}
        className={cn(
          'inline-flex size-9 items-center justify-center rounded-full bg-black/60 text-zinc-200 ring-1 ring-white/20 backdrop-blur-sm transition-colors',
          'hover:text-rose-300 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400',
          wished && 'text-rose-400',
          className,
        )}
      >
        <Heart aria-hidden="true" className={cn('size-5', wished && 'fill-current')} />
      </button>
      {askSignIn ? (
        <Suspense fallback={null}>
          <SignInPrompt onClose={() => setAskSignIn(false)} />
        </Suspense>
      ) : null}
    </>
  );
});
