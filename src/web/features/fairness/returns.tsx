import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Badge, Notice, SkeletonText, Table, TBody, Td, Th, THead, Tr } from '@web/components/ui';
import { plural } from '@web/lib/format';
import { returnsQuery } from './api';
import { bpsText, utcDayOf } from './odds-history';

/** Promised against realised returns per product and revision, from the back office's rollups. */
export function ReturnsTable() {
  const q = useQuery(returnsQuery);
  if (q.isPending) return <SkeletonText lines={6} label="Loading the returns" />;
  if (q.isError) return <Notice tone="danger">The returns could not be loaded. Check your connection and try again.</Notice>;
  const { items, asOf, minOpeningsForDrift } = q.data;
  return (
    <div className="space-y-6">
      <p className="text-sm text-zinc-400">
        {asOf ? (
          <>
            Openings counted up to <time dateTime={asOf}>{`${utcDayOf(asOf)}, ${asOf.slice(11, 16)} UTC`}</time>; updated every few minutes.
          </>
        ) : (
          'Nothing counted yet: the first figures appear within minutes of the first openings.'
        )}
      </p>
      {items.length === 0 ? (
        <p className="text-sm text-zinc-400">No pack has been on sale yet.</p>
      ) : (
        <Table caption="Promised and realised return per pack and odds revision">
          <THead>
            <Tr>
              <Th>Pack</Th>
              <Th>Revision</Th>
              <Th className="text-right">Openings</Th>
              <Th className="text-right">Promised</Th>
              <Th className="text-right">Realised</Th>
              <Th>95 % interval</Th>
              <Th>Drift test</Th>
            </Tr>
          </THead>
          <TBody>
            {items.map((r) => (
              <Tr key={r.revisionHash}>
                <Td>
                  <Link to="/fairness/products/$id" params={{ id: r.productId }} className="text-violet-300 underline underline-offset-4">
                    {r.productName}
                  </Link>
                </Td>
                <Td>
                  <span className="whitespace-nowrap">#{r.revisionNumber}</span>{' '}
                  <span className="font-mono text-xs text-zinc-400">{r.revisionHash.slice(0, 12)}…</span>
                </Td>
                <Td className="text-right tabular-nums">{r.openings}</Td>
                <Td className="text-right tabular-nums">{bpsText(r.promisedReturnBps)}</Td>
                <Td className="text-right tabular-nums">{bpsText(r.realisedReturnBps)}</Td>
                <Td className="whitespace-nowrap tabular-nums">
                  {r.intervalLowBps === null ? '—' : `${bpsText(r.intervalLowBps)} – ${bpsText(r.intervalHighBps)}`}
                </Td>
                <Td>
                  {r.drift === 'high' ? (
                    <Badge tone="warning">Above the odds (z = {r.zScore})</Badge>
                  ) : r.drift === 'low' ? (
                    <Badge tone="danger">Below the odds (z = {r.zScore})</Badge>
                  ) : r.openings < minOpeningsForDrift ? (
                    <span className="text-xs text-zinc-400">Under {plural(minOpeningsForDrift, 'opening')}</span>
                  ) : (
                    <Badge tone="success">Within chance{r.zScore === null ? '' : ` (z = ${r.zScore})`}</Badge>
                  )}
                </Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      )}
      {items
        .filter((r) => r.openings > 0)
        .map((r) => (
          <section key={r.revisionHash} aria-labelledby={`rar-${r.revisionHash}`} className="space-y-2">
            <h2 id={`rar-${r.revisionHash}`} className="text-lg font-semibold text-white">
              {r.productName}, revision {r.revisionNumber}: cards per pack by rarity
            </h2>
            <p className="text-xs text-zinc-400">
              Published <time dateTime={r.publishedAt}>{utcDayOf(r.publishedAt)}</time>; {plural(r.openings, 'opening')}.
            </p>
            <Table caption={`Promised and realised cards per pack by rarity, ${r.productName} revision ${r.revisionNumber}`} captionHidden>
              <THead>
                <Tr>
                  <Th>Rarity</Th>
                  <Th className="text-right">Promised per pack</Th>
                  <Th className="text-right">Realised per pack</Th>
                  <Th className="text-right">Cards pulled</Th>
                </Tr>
              </THead>
              <TBody>
                {r.rarities.map((c) => (
                  <Tr key={c.classId}>
                    <Td>{c.className}</Td>
                    <Td className="text-right tabular-nums">{c.promisedPerPack.toFixed(4)}</Td>
                    <Td className="text-right tabular-nums">{c.realisedPerPack === null ? '—' : c.realisedPerPack.toFixed(4)}</Td>
                    <Td className="text-right tabular-nums">{c.pulled}</Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
          </section>
        ))}
    </div>
  );
}
