import type { ReactNode } from 'react';

export type ToastTone = 'info' | 'success' | 'warning' | 'danger';

export interface ToastOptions {
  title: ReactNode;
  description?: ReactNode;
  tone?: ToastTone;
  /** Milliseconds on screen; errors stay longer by default. */
  duration?: number;
}

export interface ToastItem extends ToastOptions {
  id: number;
  open: boolean;
}

/*
 * The toast queue, without any UI: toast() can be called from anywhere while the toaster's
 * Radix code is only downloaded when the first toast is shown (toast.tsx).
 */
let items: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

function add(opts: ToastOptions): number {
  const id = nextId++;
  // Keep the stack short: the oldest toasts go when a burst arrives.
  items = [...items.slice(-4), { ...opts, id, open: true }];
  emit();
  return id;
}

export function dismissToast(id: number) {
  items = items.map((t) => (t.id === id ? { ...t, open: false } : t));
  emit();
  // Let the close animation and Radix's focus handling finish before removing it.
  setTimeout(() => {
    items = items.filter((t) => t.id !== id);
    emit();
  }, 300);
}

/** Shows a short message in the toaster. Returns an id for toast.dismiss. */
export function toast(opts: ToastOptions | string) {
  return add(typeof opts === 'string' ? { title: opts } : opts);
}
toast.success = (title: ReactNode, description?: ReactNode) => add({ title, description, tone: 'success' });
toast.error = (title: ReactNode, description?: ReactNode) => add({ title, description, tone: 'danger' });
toast.info = (title: ReactNode, description?: ReactNode) => add({ title, description, tone: 'info' });
toast.dismiss = dismissToast;

export const subscribeToasts = (l: () => void) => {
  listeners.add(l);
  return () => {
    listeners.delete(l);
  };
};
export const toastSnapshot = () => items;
