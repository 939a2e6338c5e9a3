import { useMatches } from '@tanstack/react-router';
import type { RouteDef } from '@shared/routes';

/** The route-table entry of the deepest matched page (title, access, area). */
export function useRouteDef(): RouteDef | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const def = matches[i]!.staticData?.route;
    if (def) return def;
  }
  return undefined;
}
