import { Outlet } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useRouteDef } from '@web/hooks/use-route-def';

export function RootLayout() {
  const def = useRouteDef();
  useEffect(() => {
    document.title = def ? `${def.title} · Packvault` : 'Packvault';
  }, [def]);
  return <Outlet />;
}
