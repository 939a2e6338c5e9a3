import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DASHBOARD_PRESETS, DRIFT_MIN_OPENS, type ProductReturn } from '@shared/contracts/dashboard';
import { ApiClientError } from '@web/lib/api';
import { Reconciliation } from './attention';
import { loadErrorText } from './dashboard';
import { FigureCard } from './figure-cards';
import { delta, deltaSentence, deltaTone, driftState, formatAge, formatBps, formatPercent, formatZ, lossReason, marginSummary, seriesSummary, sortProducts } from './format';
import { DriftBadge, MarginBadge } from './product-returns';
import { RESULT_LINES, ResultStatement } from './result-statement';
import { checkRange, parseDashboardSearch, serverRangeErrors } from './range';
import { RangePicker } from './range-picker';
import { SEARCH_PRESETS } from './search';
import { sampleDashboard } from './test-data';

afterEach(() => cleanup());
const usd = (c: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(c / 100);

describe('figures and their change', () => {
  it('says how much a figure moved from the previous period', () => {
    expect(delta(134_400, 120_000)).toEqual({ direction: 'up', percent: 12 });
    expect(deltaSentence(134_400, 120_000, usd)).toBe('up 12% from $1,200.00');
    expect(deltaSentence(95, 100, String)).toBe('down 5% from 100');
    expect(deltaSentence(40, 40, String)).toBe('no change from 40');
    // Nothing before: no percent to give.
    expect(deltaSentence(2_400, 0, usd)).toBe('up from $0.00');
    // A loss that shrinks is an improvement.
    expect(delta(-500, -1_000)).toEqual({ direction: 'up', percent: 50 });
    expect(formatPercent(0.3)).toBe('<1%');
    expect(formatPercent(1234.4)).toBe('1,234%');
  });

  it('treats a rising cost as bad news and rising revenue as good', () => {
    expect(deltaTone('up')).toBe('good');
    expect(deltaTone('down')).toBe('bad');
    expect(deltaTone('up', true)).toBe('bad');
    expect(deltaTone('down', true)).toBe('good');
    expect(deltaTone('flat', true)).toBe('neutral');
  });

  it('renders a card with the value, the previous value and a sentence for screen readers', () => {
    render(
      <ul>
        <FigureCard figure="buybackPaidCents" value={{ current: 42_000, previous: 30_000 }} />
      </ul>,
    );
    const card = screen.getByRole('listitem');
    expect(within(card).getByText('Buyback paid')).toBeTruthy();
    expect(within(card).getByText('$420.00')).toBeTruthy();
    expect(within(card).getByText('up 40% from $300.00 in the previous period')).toBeTruthy();
    // A cost going up is shown in the "bad" colour.
    expect(within(card).getByText('40%').className).toMatch(/text-red-300/);
  });

  it('formats rates, z-scores, ages and chart summaries', () => {
    expect(formatBps(9640)).toBe('96.40%');
    expect(formatBps(null)).toBe('—');
    expect(formatZ(3.812)).toBe('+3.81');
    expect(formatZ(-0.5)).toBe('−0.50');
    expect(formatAge(45)).toBe('45 s');
    expect(formatAge(5_400)).toBe('1 h 30 min');
    expect(formatAge(3 * 86_400 + 4 * 3_600)).toBe('3 d 4 h');
    const d = sampleDashboard();
    expect(seriesSummary(d.series, 'opens', 'Pack opens', String, 'day')).toBe('Pack opens: 1260 in total; the busiest day was Mar 10 with 210.');
    expect(seriesSummary([], 'opens', 'Pack opens', String, 'day')).toBe('Pack opens: no data for this period.');
  });
});

describe('drift badge', () => {
  it('names the verdict of the drift test and explains it', () => {
    render(<DriftBadge product={{ drift: 'high', opens: 400, zScore: 4.1 }} />);
    expect(screen.getByText('Drifting high')).toBeTruthy();
    expect(screen.getByText(/getting back more than the odds promise/)).toBeTruthy();
    cleanup();
    render(<DriftBadge product={{ drift: 'low', opens: 400, zScore: -4.1 }} />);
    expect(screen.getByText('Drifting low')).toBeTruthy();
  });

  it('stays quiet on a fair product and on too few openings', () => {
    expect(driftState({ drift: null, opens: 800, zScore: 0.4 })).toBe('fair');
    expect(driftState({ drift: null, opens: DRIFT_MIN_OPENS - 1, zScore: 2.5 })).toBe('few');
    expect(driftState({ drift: null, opens: 0, zScore: null })).toBe('none');
    expect(sortProducts(sampleDashboard().products).map((p) => p.productId)).toEqual(['p-high', 'p-fair', 'p-few']);
  });
});

describe('period picker', () => {
  it('keeps the URL lean and matches the contract’s presets', () => {
    expect([...SEARCH_PRESETS]).toEqual([...DASHBOARD_PRESETS]);
    expect(parseDashboardSearch({})).toEqual({});
    expect(parseDashboardSearch({ range: '7d' })).toEqual({});
    expect(parseDashboardSearch({ range: 'year', from: '2025-01-01' })).toEqual({});
    expect(parseDashboardSearch({ range: '30d', from: '2025-01-01' })).toEqual({ range: '30d' });
    expect(parseDashboardSearch({ range: 'custom', from: '2025-02-30', to: '2025-03-01' })).toEqual({ range: 'custom', from: '2025-02-30', to: '2025-03-01' });
  });

  it('checks a custom range the way the server does', () => {
    expect(checkRange({})).toEqual({ query: { range: '7d' }, errors: null });
    expect(checkRange({ range: 'custom', from: '2025-01-01', to: '2025-01-31' })).toEqual({ query: { range: 'custom', from: '2025-01-01', to: '2025-01-31' }, errors: null });
    expect(checkRange({ range: 'custom', from: '2025-03-10', to: '2025-03-01' }).errors).toEqual({ to: 'The end date is before the start date.' });
    expect(checkRange({ range: 'custom', from: '2024-01-01', to: '2025-03-01' }).errors).toEqual({ to: 'Choose at most 366 days.' });
    expect(checkRange({ range: 'custom', from: '2025-02-30', to: '2025-03-01' }).errors).toEqual({ from: 'Use a real date like 2025-01-31.' });
    expect(checkRange({ range: 'custom' }).errors).toEqual({ from: 'Choose a start date.', to: 'Choose an end date.' });
    expect(serverRangeErrors({ to: ['Choose at most 366 days.'], other: ['x'] })).toEqual({ to: 'Choose at most 366 days.' });
  });

  it('applies a preset at once, and a custom range only once it is valid, with the message on the field', () => {
    const onChange = vi.fn();
    const now = new Date('2025-03-11T12:00:00Z');
    const { rerender } = render(<RangePicker search={{}} onChange={onChange} now={now} />);
    fireEvent.click(screen.getByRole('radio', { name: '30 days' }));
    expect(onChange).toHaveBeenLastCalledWith({ range: '30d' });
    fireEvent.click(screen.getByRole('radio', { name: 'Custom' }));
    expect(onChange).toHaveBeenLastCalledWith({ range: 'custom', from: '2025-03-05', to: '2025-03-11' });

    rerender(<RangePicker search={{ range: 'custom', from: '2025-03-05', to: '2025-03-11' }} onChange={onChange} now={now} />);
    onChange.mockClear();
    fireEvent.input(screen.getByLabelText('From'), { target: { value: '2025-03-20' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply dates' }));
    expect(onChange).not.toHaveBeenCalled();
    const to = screen.getByLabelText('To');
    expect(to.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('The end date is before the start date.').closest('p')!.id).toBe(to.getAttribute('aria-describedby')!.split(' ')[0]);

    fireEvent.input(screen.getByLabelText('From'), { target: { value: '2025-03-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply dates' }));
    expect(onChange).toHaveBeenLastCalledWith({ range: 'custom', from: '2025-03-01', to: '2025-03-11' });
  });

  it('shows a server 400 next to the date field it names', () => {
    render(<RangePicker search={{ range: 'custom', from: '2024-01-01', to: '2025-03-01' }} errors={serverRangeErrors({ to: ['Choose at most 366 days.'] })} onChange={() => {}} />);
    expect(screen.getByLabelText('To').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Choose at most 366 days.')).toBeTruthy();
  });

  it('says what to do next when loading fails', () => {
    expect(loadErrorText(new ApiClientError(0, 'network_error', 'x'))).toMatch(/Check your connection/);
    expect(loadErrorText(new ApiClientError(403, 'forbidden' as never, 'x'))).toMatch(/two-factor/);
    expect(loadErrorText(new ApiClientError(500, 'internal_error' as never, 'x'))).toMatch(/Try again/);
  });
});

describe('reconciliation findings', () => {
  it('lists each misrouted entry with its kind, the account it hit and where it may go', () => {
    const rec = {
      status: 'failed' as const,
      checkedAt: '2025-03-11T11:00:00.000Z',
      failures: [
        {
          name: 'entries_on_allowed_accounts',
          ok: false,
          details: { misrouted: 2, entries: [{ entryId: 'e-1', kind: 'shipping_fee', account: 'pack_sales', amountCents: 250 }, { bogus: true }] },
        },
      ],
    };
    render(<Reconciliation rec={rec} />);
    const list = screen.getByRole('list', { name: 'Misrouted entries' });
    const item = within(list).getAllByRole('listitem')[0]!;
    expect(item.textContent).toContain('Shipping fee posted to pack_sales');
    expect(item.textContent).toContain('entry e-1');
    expect(item.textContent).toContain('allowed: shipping_fees');
    // The count says two; the second row was not readable, so "and 1 more".
    expect(within(list).getByText('and 1 more')).toBeTruthy();
    expect(screen.getByText(/2 entries were posted to a house account its kind may not touch/)).toBeTruthy();
  });
});

describe('result and margin', () => {
  it('shows every line of the result with its definition, and a negative margin as a loss in words', () => {
    const { result } = sampleDashboard();
    render(<ResultStatement result={result} />);
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((r) => r.getAttribute('data-line'))).toEqual(RESULT_LINES.map((l) => l.key));
    const revenue = rows.find((r) => r.getAttribute('data-line') === 'revenueCents')!;
    expect(within(revenue).getByText(/Packs opened, at the price paid, less promo credit/)).toBeTruthy();
    expect(within(revenue).getByText('$965.00')).toBeTruthy();
    // Costs read as deductions; a negative subtotal says "Loss" as well as turning red.
    const cost = rows.find((r) => r.getAttribute('data-line') === 'cardCostCents')!;
    expect(within(cost).getByText('-$920.00')).toBeTruthy();
    const margin = rows.find((r) => r.getAttribute('data-line') === 'grossMarginCents')!;
    const cells = within(margin).getAllByRole('cell');
    expect(cells[0]!.textContent).toBe('-$11.00Loss');
    expect(cells[1]!.textContent).toBe('$96.00');
    expect(within(margin).getByText('Margin: -1.14% this period, 9.70% before')).toBeTruthy();
  });

  it('says in words how many buckets of the margin chart lost money', () => {
    const d = sampleDashboard();
    expect(marginSummary(d.series, usd, 'day')).toBe('Gross margin: $56.00 in total; 2 days at a loss.');
    expect(marginSummary(d.series.slice(2), usd, 'hour')).toBe('Gross margin: $80.00 in total; no hour at a loss.');
    expect(marginSummary([], usd, 'day')).toBe('Gross margin: no data for this period.');
  });

  it('marks a product as a loss in words, saying why', () => {
    const [fair, high, few] = sampleDashboard().products as [ProductReturn, ProductReturn, ProductReturn];
    expect(lossReason(fair)).toBeNull();
    expect(lossReason(high)).toMatch(/realised return over 100%/);
    expect(lossReason({ ...few, cardCostCents: 1_000 })).toMatch(/gross margin is below zero/);
    render(<MarginBadge product={high} />);
    expect(screen.getByText('Loss')).toBeTruthy();
    expect(screen.getByText(/handed out more card value than they sold for/)).toBeTruthy();
    cleanup();
    render(<MarginBadge product={fair} />);
    expect(screen.getByText('Profit')).toBeTruthy();
  });
});
