import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api';

export interface SiteConfig {
  siteName: string;
  /** Where players write to (an admin setting). */
  supportEmail: string;
  currency: string;
  monitoringDsn: string;
  environment: string;
}

/** What the page can show before /api/config answers (and if it never does). */
export const DEFAULT_SITE_CONFIG: SiteConfig = {
  siteName: 'Packvault',
  supportEmail: '',
  currency: 'USD',
  monitoringDsn: '',
  environment: 'production',
};

export const siteConfigQueryOptions = queryOptions({
  queryKey: ['config'],
  queryFn: () => api.get('/api/config'),
  staleTime: Infinity,
  gcTime: Infinity,
});

/** Public site configuration (site name, support email, currency), with defaults while it loads. */
export function useSiteConfig(): SiteConfig {
  const { data } = useQuery(siteConfigQueryOptions);
  return data ?? DEFAULT_SITE_CONFIG;
}
