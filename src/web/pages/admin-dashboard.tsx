export default function AdminDashboardPage() {
  return (
    <section aria-labelledby="page-title" className="space-y-4">
      <h1 id="page-title" className="text-2xl font-bold">
        Dashboard
      </h1>
      <p className="text-zinc-300">Pick a screen from the navigation.</p>
    </section>
  );
}
