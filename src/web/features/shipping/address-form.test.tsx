import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { Address } from '@shared/contracts/shipping';
import { ApiClientError } from '@web/lib/api';
import { AddressForm } from './address-form';

afterEach(cleanup);

/** Required fields show an aria-hidden asterisk, which textContent-based label matching sees. */
const field = (name: string) => screen.getByLabelText(new RegExp(`^${name}\\*?$`));
const fill = (name: string, value: string) => fireEvent.input(field(name), { target: { value } });
const choose = (name: string, value: string) => fireEvent.change(field(name), { target: { value } });

function fillValid() {
  fill('Full name', 'Dana Collector');
  fill('Address line 1', '1 Market Street');
  fill('City', 'San Francisco');
  choose('Country', 'US');
  fill('Postal code', '94105');
  fill('Phone', '+1 415 555 0199');
}

const saved = { id: 'a1', name: 'Dana Collector', city: 'San Francisco', country: 'US' } as Address;

describe('AddressForm', () => {
  it('checks the fields and the postal code for the country before saving', async () => {
    const save = vi.fn();
    render(<AddressForm existing={null} countries={['US', 'GB']} save={save} onSaved={vi.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Save address' }));
    expect(await screen.findByText('Name is required.')).toBeTruthy();
    expect(screen.getByText('Pick a country from the list.')).toBeTruthy();
    expect(field('Full name').getAttribute('aria-invalid')).toBe('true');

    fillValid();
    choose('Country', 'GB');
    fireEvent.click(screen.getByRole('button', { name: 'Save address' }));
    expect(await screen.findByText(/Not a valid postal code for United Kingdom \(e\.g\. SW1A 1AA\)/)).toBeTruthy();
    expect(save).not.toHaveBeenCalled();

    fill('Postal code', 'SW1A 2AA');
    fill('Full name', 'Dana 🚀');
    fireEvent.click(screen.getByRole('button', { name: 'Save address' }));
    expect(await screen.findByText(/Name may only hold letters, digits and common punctuation/)).toBeTruthy();
    expect(save).not.toHaveBeenCalled();
  });

  it('offers only the countries shipped to, and sends a valid address', async () => {
    const save = vi.fn().mockResolvedValue(saved);
    const onSaved = vi.fn();
    render(<AddressForm existing={null} countries={['US', 'GB']} save={save} onSaved={onSaved} />);
    const options = [...(field('Country') as HTMLSelectElement).options].map((o) => o.value);
    expect(options).toEqual(['', 'US', 'GB']);
    fillValid();
    fireEvent.click(screen.getByRole('button', { name: 'Save address' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(saved));
    expect(save.mock.calls[0]![0]).toMatchObject({ name: 'Dana Collector', country: 'US', postalCode: '94105', isDefault: false });
  });

  it("puts the server's field messages on their fields and says what to do", async () => {
    const save = vi.fn().mockRejectedValue(
      new ApiClientError(400, 'validation_failed', 'We do not ship to United States yet.', { country: ['We do not ship there yet; pick another country.'] }),
    );
    render(<AddressForm existing={null} countries={['US']} save={save} onSaved={vi.fn()} />);
    fillValid();
    fireEvent.click(screen.getByRole('button', { name: 'Save address' }));
    expect(await screen.findByText('We do not ship there yet; pick another country.')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('Fix the marked fields and save again.');
    expect(field('Country').getAttribute('aria-invalid')).toBe('true');
  });
});
