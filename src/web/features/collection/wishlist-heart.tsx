import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Heart } from 'lucide-react';
import type { CardActionTarget } from '@web/components/card-action';
import { cn, toast } from '@web/components/ui';
import { useToggleWish, wishlistQuery } from './api';

// Radix's dialog (about 14 KB gzip with its scroll lock) is for a visitor who presses a heart: not
// part of the /cards page's first load. Pointing at a heart starts loading it.
const loadPrompt = () => import('./wishlist-sign-in-prompt');
const SignInPrompt = lazy(loadPrompt);

/**
 * The wishlist heart on a card. Signed out, it explains that a wishlist needs an account.
 * Placed next to or over a card by the page (see CardActionProvider), never inside the card's
 * own button.
 */
export function WishlistHeart({ card, signedIn, className }: { card: CardActionTarget; signedIn: boolean; className?: string }) {
  const list = useQuery(wishlistQuery(signedIn));
  const toggle = useToggleWish();
  const [askSignIn, setAskSignIn] = useState(false);
  const wished = signedIn && (list.data?.cardIds.includes(card.id) ?? false);
  const label = wished ? `Remove ${card.name} from your wishlist` : `Add ${card.name} to your wishlist`;

  const onClick = () => {
    if (!signedIn) {
      setAskSignIn(true);
      return;
    }
    toggle.mutate(
      { cardId: card.id, wished: !wished },
      {
        onError: (e) => toast({ tone: 'danger', title: 'The wishlist did not change', description: e instanceof Error ? e.message : 'Try again in a moment.' }),
      },
    );
  };

  return (
    <>
      <button
        type="button"
        onClick={onClick}
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
}
