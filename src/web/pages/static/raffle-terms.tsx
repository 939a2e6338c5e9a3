export default function Page() {
  return (
    <article className="prose-invert max-w-3xl space-y-4">
      <h1 className="text-3xl font-bold capitalize">raffle terms</h1>
    </article>
  );
}
