import { useSearch } from '@tanstack/react-router';

/** Only same-site paths ("/x", not "//evil.example" or "https://…") are followed after sign-in. */
export function safeRedirect(value: unknown, fallback = '/home'): string {
  if (typeof value !== 'string') return fallback;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  return value;
}

/** The ?redirect= of the current page, made safe. */
export function useRedirectTarget(fallback = '/home'): string {
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  return safeRedirect(search.redirect, fallback);
}
