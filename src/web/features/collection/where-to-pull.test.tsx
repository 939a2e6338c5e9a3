import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { WhereToPull } from './where-to-pull';

afterEach(cleanup);

async function show(node: ReactNode) {
  const router = createRouter({ routeTree: createRootRoute({ component: () => node }), history: createMemoryHistory() });
  render(<RouterProvider router={router} />);
  await router.load();
}

const pack = (productId: string, productName: string, expectedPerPack: number) => ({
  productId,
  productName,
  priceCents: 1000,
  perSlot: [expectedPerPack],
  expectedPerPack,
});

/** Issue 41 item 5: a wanted card says where it can be pulled. */
describe('WhereToPull', () => {
  it('names the pack most likely to give the card, its chance, and how many others can', async () => {
    await show(<WhereToPull pending={false} packs={[pack('a', 'Starter Pack', 0.01), pack('b', 'Vault Pack', 0.025), pack('c', 'Premium', 0.02)]} />);
    const link = await screen.findByRole('link', { name: 'Vault Pack' });
    expect(link.getAttribute('href')).toBe('/shop/b');
    expect(link.parentElement!.textContent).toMatch(/about 1 in 40 packs, and 2 other packs\./);
  });

  it('says so when no pack on sale gives it', async () => {
    await show(<WhereToPull pending={false} packs={[]} />);
    expect(await screen.findByText('No pack on sale gives it right now.')).toBeTruthy();
  });
});
