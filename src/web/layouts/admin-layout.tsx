import { Outlet } from '@tanstack/react-router';

export function AdminLayout() {
  return (
    <div className="min-h-dvh bg-zinc-950 text-zinc-100">
      <main id="main" className="mx-auto max-w-6xl p-4">
        <Outlet />
      </main>
    </div>
  );
}
