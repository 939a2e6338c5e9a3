import { Outlet } from '@tanstack/react-router';

export function AuthLayout() {
  return (
    <div className="min-h-dvh bg-zinc-950 text-zinc-100">
      <main id="main" className="mx-auto max-w-6xl p-4">
        <Outlet />
      </main>
    </div>
  );
}
