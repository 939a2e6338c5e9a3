import { Link } from '@tanstack/react-router';
import { PageHeader } from '@web/components/ui';
import { renderCard } from '@web/features/catalog/card-view';
import { DropsHub } from '@web/features/drops/drops-hub';
import { DropCardRenderer } from '@web/features/drops/parts';
import { useUrlState } from '@web/lib/url-state';

const DEFAULTS = { page: '1' };

/** /daily-drop-winners — the daily drops: open and upcoming, then past draws with their proofs. */
export default function DailyDropWinnersPage() {
  const [state, set] = useUrlState(DEFAULTS);
  const page = Math.max(1, Number.parseInt(state.page, 10) || 1);
  return (
    <DropCardRenderer value={renderCard}>
      <PageHeader
        eyebrow="Free to enter"
        title="Daily drops"
        description={
          <>
            Free cards, drawn in a way anyone can check: the draw is committed before the first entry and every result
            below can be recomputed in your browser.{' '}
            <Link to="/raffle-terms" className="text-violet-300 underline underline-offset-4 hover:text-white">
              Raffle terms
            </Link>
          </>
        }
      />
      <DropsHub page={page} onPageChange={(p) => set({ page: String(p) }, { keepPage: true })} />
    </DropCardRenderer>
  );
}
