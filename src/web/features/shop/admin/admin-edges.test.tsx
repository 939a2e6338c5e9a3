import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminPackDetail, ProductSummary } from '@shared/contracts/shop';
import { adminShopKeys } from './admin-api';
import { HouseEdge } from './house-edge';
import { PackEditor } from './pack-editor';
import { ProductForm, ProductValue } from './product-form';

vi.mock('@tanstack/react-router', () => ({
  Link: ({ children }: { children: ReactNode }) => <a href="#link">{children}</a>,
  useNavigate: () => () => undefined,
}));

afterEach(() => cleanup());

const cls = (id: string, name: string, sortOrder: number) => ({
  id,
  name,
  colour: '#fff',
  sortOrder,
  defaultTextureId: null,
  buybackRateBp: null,
  archivedAt: null,
  createdAt: '2026-01-01',
  updatedAt: '2026-01-01',
});

describe('PackEditor', () => {
  it('"Add card slot" adds an empty slot instead of copying the last one', () => {
    const detail: AdminPackDetail = {
      pack: {
        id: 'pk_1',
        name: 'Starter',
        cardsPerPack: 1,
        slots: [{ odds: [{ classId: 'cl_c', weight: 9_000 }, { classId: 'cl_r', weight: 1_000 }] }],
        pool: { mode: 'classes' },
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
      },
      products: [],
      slotOdds: [],
      stats: { cardsPerPack: 1, floorCents: 0, expectedValueCents: 0, ceilingCents: 0, houseEdgeBp: null, soldOut: false, soldOutReasons: [] },
      warnings: [],
    } as AdminPackDetail;
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    qc.setQueryData(adminShopKeys.classes, { classes: [cls('cl_c', 'Common', 1), cls('cl_r', 'Rare', 2)] });
    qc.setQueryData(adminShopKeys.poolCards, { cards: [], complete: true, total: 0 });
    render(
      <QueryClientProvider client={qc}>
        <PackEditor detail={detail} />
      </QueryClientProvider>,
    );
    expect(screen.getAllByLabelText(/Chance of .* in card 1, percent/)).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: /Add card slot/ }));
    const slot2 = screen.getByRole('heading', { name: 'Card 2' }).closest('li')!;
    expect(within(slot2).queryAllByLabelText(/Chance of/)).toHaveLength(0);
    expect(within(slot2).getByLabelText('Add a class to card 2')).toBeTruthy();
  });
});

describe('house edge', () => {
  it('flags a negative edge with a badge and words, not colour alone', () => {
    render(<HouseEdge bp={-250} />);
    expect(screen.getByText('-2.50%')).toBeTruthy();
    expect(screen.getByText('Negative edge')).toBeTruthy();
    cleanup();
    render(<HouseEdge bp={1_500} />);
    expect(screen.getByText('15.00%')).toBeTruthy();
    expect(screen.queryByText('Negative edge')).toBeNull();
  });

  it('the product form recomputes the edge for the typed price and warns when it is negative', () => {
    const product = { expectedValueCents: 1_100 } as ProductSummary;
    render(<ProductValue product={product} priceCents={1_000} />);
    expect(screen.getByText('-10.00%')).toBeTruthy();
    expect(screen.getByText('Negative edge')).toBeTruthy();
    expect(screen.getByText(/pays out more than it costs/)).toBeTruthy();
    cleanup();
    render(<ProductValue product={product} priceCents={2_000} />);
    expect(screen.getByText('45.00%')).toBeTruthy();
    expect(screen.queryByText('Negative edge')).toBeNull();
  });
});

describe('product image picker', () => {
  it('is a labelled button, not the native "No file chosen" input, and says Replace once an image is set', () => {
    const product = { id: 'p1', packId: 'pk1', name: 'P', description: '', imageKey: null, priceCents: 500, status: 'draft', releaseAt: null, purchaseLimitPerUser: null, featured: false, sortOrder: 0, cardsPerPack: 3, expectedValueCents: 100 } as unknown as ProductSummary;
    const qc = new QueryClient();
    const { container } = render(
      <QueryClientProvider client={qc}>
        <ProductForm product={product} />
      </QueryClientProvider>,
    );
    const input = screen.getByLabelText('Product image', { selector: 'input' });
    expect(input.getAttribute('type')).toBe('file');
    expect(input.className).toContain('sr-only');
    expect(input.getAttribute('tabindex')).toBe('-1');
    expect(screen.getByRole('button', { name: 'Upload image of the product' })).toBeTruthy();
    expect(container.textContent).not.toContain('No file chosen');
  });
});
