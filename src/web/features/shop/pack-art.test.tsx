import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PackArt } from './pack-art';

afterEach(cleanup);

/** Issue 41: "Tear it open" over an empty stage — a pack whose image is slow or broken is still a pack. */
describe('PackArt', () => {
  const key = 'd'.repeat(64);

  it('draws the generated design under the product image while it loads', () => {
    const { container } = render(<PackArt seed="p1" name="Premium Vault Pack" imageKey={key} eager />);
    const pack = screen.getByRole('img', { name: 'Premium Vault Pack pack' });
    expect(pack.style.background).toContain('linear-gradient');
    const photo = container.querySelector('img')!;
    expect(photo.getAttribute('src')).toBe(`/api/uploads/${key}-full.webp`);
    expect(photo.getAttribute('loading')).toBe('eager');
    expect(photo.getAttribute('alt')).toBe('');
    expect(pack.textContent).toContain('Premium Vault Pack');
  });

  it('drops a broken image and keeps the generated pack', () => {
    const { container } = render(<PackArt seed="p1" name="Premium Vault Pack" imageKey={key} />);
    fireEvent.error(container.querySelector('img')!);
    expect(container.querySelector('img')).toBeNull();
    const pack = screen.getByRole('img', { name: 'Premium Vault Pack pack' });
    expect(pack.style.background).toContain('linear-gradient');
    expect(pack.querySelector('svg')).not.toBeNull();
  });
});
