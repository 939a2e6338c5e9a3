import { lazy, Suspense, useState, useSyncExternalStore } from 'react';
import { subscribeToasts, toastSnapshot } from './toast-store';

export { toast, type ToastOptions, type ToastTone } from './toast-store';

const ToastView = lazy(() => import('./toast-view'));

/**
 * Renders the toasts; mount once (the root layout does). The Radix toaster is downloaded when
 * the first toast is shown, not with every page, and stays mounted from then on.
 */
export function Toaster() {
  const list = useSyncExternalStore(subscribeToasts, toastSnapshot, toastSnapshot);
  const [shown, setShown] = useState(false);
  if (list.length > 0 && !shown) setShown(true);
  if (!shown && list.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <ToastView />
    </Suspense>
  );
}
