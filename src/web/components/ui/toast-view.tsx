import { useSyncExternalStore, type ReactNode } from 'react';
import * as Radix from 'radix-ui/toast';
import { AlertTriangle, CheckCircle2, Info, X, XCircle } from 'lucide-react';
import { cn } from './cn';
import { dismissToast, subscribeToasts, toastSnapshot, type ToastTone } from './toast-store';

const icons: Record<ToastTone, ReactNode> = {
  info: <Info className="text-sky-300" />,
  success: <CheckCircle2 className="text-emerald-300" />,
  warning: <AlertTriangle className="text-amber-300" />,
  danger: <XCircle className="text-red-300" />,
};

/** The Radix toaster itself; loaded by Toaster (toast.tsx) when the first toast arrives. */
export default function ToastView() {
  const list = useSyncExternalStore(subscribeToasts, toastSnapshot, toastSnapshot);
  return (
    <Radix.Provider swipeDirection="right" label="Notification">
      {list.map((t) => {
        const tone = t.tone ?? 'info';
        return (
          <Radix.Root
            key={t.id}
            open={t.open}
            onOpenChange={(open) => !open && dismissToast(t.id)}
            duration={t.duration ?? (tone === 'danger' ? 8000 : 5000)}
            type={tone === 'danger' ? 'foreground' : 'background'}
            className={cn(
              'pointer-events-auto relative flex w-full gap-3 rounded-xl border border-white/10 bg-surface-2 p-4 pr-10 shadow-2xl shadow-black/50',
              'data-[state=open]:animate-toast-in data-[state=closed]:opacity-0 data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)]',
              tone === 'danger' && 'border-red-400/30',
              tone === 'success' && 'border-emerald-400/30',
            )}
          >
            <span aria-hidden="true" className="mt-0.5 shrink-0 [&>svg]:size-5">
              {icons[tone]}
            </span>
            <div className="min-w-0 space-y-1">
              <Radix.Title className="text-sm font-semibold text-white">{t.title}</Radix.Title>
              {t.description ? (
                <Radix.Description className="text-sm text-zinc-300">{t.description}</Radix.Description>
              ) : null}
            </div>
            <Radix.Close
              aria-label="Dismiss"
              className="absolute top-3 right-3 rounded-md p-1 text-zinc-400 hover:bg-white/10 hover:text-white"
            >
              <X aria-hidden="true" className="size-4" />
            </Radix.Close>
          </Radix.Root>
        );
      })}
      <Radix.Viewport className="fixed right-0 bottom-0 z-[60] m-0 flex w-full max-w-sm list-none flex-col gap-2 p-4 outline-none" />
    </Radix.Provider>
  );
}
