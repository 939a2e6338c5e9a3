import { useSiteConfig } from '@web/hooks/use-site-config';
import { MaintenanceScreen } from '@web/features/maintenance/maintenance-screen';

/** /maintenance (auth layout): where everyone but admins with two-factor is sent while the shop is down. */
export default function MaintenancePage() {
  const { siteName } = useSiteConfig();
  return <MaintenanceScreen siteName={siteName} />;
}
