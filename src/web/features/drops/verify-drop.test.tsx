import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { PublicCard } from '@shared/contracts/catalog';
import type { DropProofDto, PublicDrop } from '@shared/contracts/drops';
import { dropKeys } from './api';
import { dropPhase, formatCountdown } from './parts';
import { DropProofPanel } from './verify-drop';

afterEach(cleanup);

// The known-answer vector of docs/fairness.md, "Daily drops": 8 entries, 3 winners.
const SEED = '5e0f4d3c2b1a09f8e7d6c5b4a3928170e1d2c3b4a5968778695a4b3c2d1e0f9a';
const COMMITMENT = '725e9440401e783f096b7202d4aff73ddd048ca952781c3de9c9d4d9fee6d47b';
const LIST_HASH = 'a1a49de021af63995c6d6e5d2db2ab344327748a5534fac4c394a81add5194b7';
const SORTED = ['Ab3dE9', 'B0b', 'C3PO', 'k7QpX2', 'm4N5p6', 'q-9_x', 'r2d2', 'zz01'];
const WINNERS = ['m4N5p6', 'Ab3dE9', 'C3PO'];

const card = { id: 'c1', name: 'Prize', classId: 'k', architectId: 'a', textureId: null, valueCents: 500, imageKey: null } as unknown as PublicCard;

function fixture(winners: string[]) {
  const proof: DropProofDto = {
    dropId: 'd1',
    seed: SEED,
    commitment: COMMITMENT,
    entryIds: SORTED,
    entryListHash: LIST_HASH,
    winnerCount: 3,
    winners: winners.map((entryId, place) => ({ place, entryId, username: `user${place}` })),
    drawnAt: '2026-11-24T12:00:00.000Z',
  };
  const drop: PublicDrop = {
    id: 'd1',
    title: 'Known-answer drop',
    description: '',
    imageKey: null,
    status: 'closed',
    opensAt: '2026-11-24T11:00:00.000Z',
    closesAt: '2026-11-24T12:00:00.000Z',
    winnerCount: 3,
    requireVerifiedEmail: true,
    minAccountAgeDays: 0,
    entryCount: SORTED.length,
    commitment: COMMITMENT,
    seed: SEED,
    entryListHash: LIST_HASH,
    drawnAt: proof.drawnAt,
    prizes: [{ card, quantity: 3 }],
    winners: proof.winners.map((w) => ({ ...w, card })),
  };
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  qc.setQueryData(dropKeys.proof('d1'), proof);
  render(
    <QueryClientProvider client={qc}>
      <DropProofPanel drop={drop} myEntryId="B0b" />
    </QueryClientProvider>,
  );
}

describe('DropProofPanel', () => {
  it('redraws the known-answer vector in the browser and says it matches', async () => {
    fixture(WINNERS);
    expect(screen.getByText(SEED)).toBeTruthy();
    expect(screen.getByText(COMMITMENT)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Verify the draw of Known-answer drop' }));
    expect(await screen.findByText('Verified: this draw is exactly what its proof gives')).toBeTruthy();
    expect(screen.getAllByText('recomputed: same')).toHaveLength(3);
  });

  it('fails, and says why, when a published winner is not the one the proof draws', async () => {
    fixture(['m4N5p6', 'B0b', 'C3PO']);
    fireEvent.click(screen.getByRole('button', { name: 'Verify the draw of Known-answer drop' }));
    expect(await screen.findByText('Mismatch: the published draw does not follow from its proof')).toBeTruthy();
    expect(screen.getByText(/recomputed winners m4N5p6, Ab3dE9, C3PO, published m4N5p6, B0b, C3PO/)).toBeTruthy();
    expect(screen.getByText('recomputed: Ab3dE9')).toBeTruthy();
  });

  it('shows the entry list, marking the viewer’s own entry, when opened', async () => {
    fixture(WINNERS);
    fireEvent.click(screen.getByText('Entry list, sorted as drawn'));
    const list = await screen.findByRole('list', { name: 'Entry list of Known-answer drop' });
    expect(list.querySelectorAll('li')).toHaveLength(8);
    expect(screen.getByText(/B0b \(your entry\)/)).toBeTruthy();
  });
});

describe('drop phase and countdown', () => {
  const drop = { status: 'open' as const, opensAt: '2026-11-24T11:00:00.000Z', closesAt: '2026-11-24T12:00:00.000Z' };
  it('reads an open drop past its close as drawing, before its open as upcoming', () => {
    expect(dropPhase(drop, Date.parse('2026-11-24T11:30:00Z'))).toBe('open');
    expect(dropPhase(drop, Date.parse('2026-11-24T12:00:00Z'))).toBe('drawing');
    expect(dropPhase(drop, Date.parse('2026-11-24T10:00:00Z'))).toBe('upcoming');
    expect(dropPhase({ ...drop, status: 'scheduled' }, Date.parse('2026-11-24T11:30:00Z'))).toBe('upcoming');
    expect(dropPhase({ ...drop, status: 'cancelled' }, Date.parse('2026-11-24T11:30:00Z'))).toBe('cancelled');
  });
  it('formats the time left', () => {
    expect(formatCountdown(65_000)).toBe('01:05');
    expect(formatCountdown(3_725_000)).toBe('01:02:05');
    expect(formatCountdown(2 * 86_400_000 + 5000)).toBe('2d 00:00:05');
    expect(formatCountdown(-5)).toBe('00:00');
  });
});
