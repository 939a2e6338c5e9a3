import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClientError } from '@web/lib/api';
import { moneyAfterFailure, PurchaseError } from './buy-panel';

afterEach(cleanup);

/** Issue 41 item 8: a failed purchase or opening says what happened to the money. */
describe('a failed purchase', () => {
  it('says nothing was charged after a refusal, which rolls the whole purchase back', () => {
    expect(moneyAfterFailure(new ApiClientError(409, 'sold_out', 'Starter Pack is sold out.'))).toBe('Nothing was charged.');
    render(<PurchaseError error={new ApiClientError(409, 'sold_out', 'Starter Pack is sold out.')} redirect="/shop" />);
    expect(document.body.textContent).toMatch(/Starter Pack is sold out\. Nothing was charged\./);
  });

  it('says where to look when the answer never came or the server failed', () => {
    for (const err of [new ApiClientError(0, 'network_error', 'We could not reach the server.'), new ApiClientError(500, 'internal_error', 'Something went wrong on our side.')]) {
      expect(moneyAfterFailure(err)).toMatch(/If you were charged, your balance and your unopened packs show it; trying again never charges twice/);
    }
    render(<PurchaseError error={new ApiClientError(500, 'internal_error', 'Something went wrong on our side.')} redirect="/shop" />);
    expect(document.body.textContent).toMatch(/on our side\. If you were charged/);
  });

  it('does not say it twice when the server already did', () => {
    render(<PurchaseError error={new ApiClientError(503, 'busy', 'Many people are opening this pack right now. Nothing was charged; try again in a moment.')} redirect="/shop" />);
    expect(document.body.textContent?.match(/nothing was charged/gi)).toHaveLength(1);
  });
});

describe('a failed opening of packs already bought', () => {
  it('says the packs are still unopened after a refusal, under its own title', () => {
    expect(moneyAfterFailure(new ApiClientError(409, 'sold_out', 'This pack is sold out.'), 'open')).toBe('Your packs are still unopened.');
    render(<PurchaseError error={new ApiClientError(409, 'sold_out', 'This pack is sold out.')} redirect="/open-pack" action="open" />);
    expect(document.body.textContent).toMatch(/This pack is sold out\. Your packs are still unopened\./);
    expect(document.body.textContent).not.toMatch(/charged/i);
  });

  it('says where the cards are when the answer never came', () => {
    render(<PurchaseError error={new ApiClientError(0, 'network_error', 'We could not reach the server.')} redirect="/open-pack" action="open" />);
    expect(document.body.textContent).toMatch(/If they were opened, the cards are in your vault/);
    expect(document.body.textContent).toMatch(/never opens a pack twice/);
  });
});
