import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Button, Checkbox, CopyableCode, CurrencyContext, Dialog, FormField, Input, Money, Notice, pageWindow, Pagination } from './index';

afterEach(cleanup);

describe('Button', () => {
  it('is a type=button by default so it never submits a form by accident', () => {
    render(<Button>Save</Button>);
    expect(screen.getByRole('button', { name: 'Save' }).getAttribute('type')).toBe('button');
  });

  it('while loading: disabled, aria-busy, shows the loading text and ignores clicks', () => {
    const onClick = vi.fn();
    render(
      <Button loading loadingText="Saving…" onClick={onClick}>
        Save
      </Button>,
    );
    const btn = screen.getByRole('button', { name: 'Saving…' }) as HTMLButtonElement;
    expect(btn.disabled).toBe(true);
    expect(btn.getAttribute('aria-busy')).toBe('true');
    fireEvent.click(btn);
    expect(onClick).not.toHaveBeenCalled();
  });

  it('renders a link with button styles when asChild', () => {
    render(
      <Button asChild variant="secondary">
        <a href="/shop">Shop</a>
      </Button>,
    );
    const link = screen.getByRole('link', { name: 'Shop' });
    expect(link.className).toContain('ring-white/15');
  });

  it('asChild keeps the child’s own props and classes, and passes on the button’s', () => {
    render(
      <Button asChild variant="secondary" title="Your data" className="w-full">
        <a href="/api/account/export" download className="underline">
          Download
        </a>
      </Button>,
    );
    const link = screen.getByRole('link', { name: 'Download' });
    expect(link.getAttribute('href')).toBe('/api/account/export');
    expect(link.hasAttribute('download')).toBe(true);
    expect(link.getAttribute('title')).toBe('Your data');
    expect(link.className).toContain('ring-white/15');
    expect(link.className).toContain('w-full');
    expect(link.className).toContain('underline');
    expect(link.hasAttribute('disabled')).toBe(false);
    expect(link.hasAttribute('type')).toBe(false);
  });
});

describe('FormField', () => {
  it('labels the control and describes it with the hint', () => {
    render(
      <FormField label="Username" hint="3–20 characters">
        <Input />
      </FormField>,
    );
    const input = screen.getByLabelText('Username');
    const describedBy = input.getAttribute('aria-describedby')!;
    expect(document.getElementById(describedBy)?.textContent).toBe('3–20 characters');
    expect(input.getAttribute('aria-invalid')).toBeNull();
  });

  it('marks the control invalid and puts the error first in its description', () => {
    render(
      <FormField label="Email" hint="We never share it" error="Enter a valid email address.">
        <Input type="email" />
      </FormField>,
    );
    const input = screen.getByLabelText('Email');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const ids = input.getAttribute('aria-describedby')!.split(' ');
    expect(ids).toHaveLength(2);
    expect(document.getElementById(ids[0]!)?.textContent).toBe('Enter a valid email address.');
    expect(document.getElementById(ids[1]!)?.textContent).toBe('We never share it');
  });

  it('wires an inline checkbox the same way', () => {
    render(
      <FormField inline label="I am 18 or older." error="You must be 18 or older to sign up.">
        <Checkbox />
      </FormField>,
    );
    const box = screen.getByRole('checkbox', { name: 'I am 18 or older.' });
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(box.getAttribute('aria-describedby')!)?.textContent).toContain('18 or older');
  });

  it('keeps a control usable outside a field', () => {
    render(<Input aria-label="Search" />);
    expect(screen.getByRole('textbox', { name: 'Search' }).getAttribute('aria-invalid')).toBeNull();
  });
});

describe('Money', () => {
  it('formats integer cents in the shop currency', () => {
    render(
      <CurrencyContext.Provider value="EUR">
        <Money cents={123456} />
      </CurrencyContext.Provider>,
    );
    expect(screen.getByText('€1,234.56')).toBeTruthy();
  });

  it('refuses fractional cents rather than rounding money silently', () => {
    expect(() => render(<Money cents={1.5} />)).toThrow(RangeError);
  });
});

describe('Pagination', () => {
  it('windows long page lists around the current page', () => {
    expect(pageWindow(5, 20)).toEqual([1, 'gap', 4, 5, 6, 'gap', 20]);
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
  });

  it('marks the current page and moves with next/previous', () => {
    const onPageChange = vi.fn();
    render(<Pagination page={1} pageCount={4} onPageChange={onPageChange} />);
    expect(screen.getByRole('button', { name: 'Page 1' }).getAttribute('aria-current')).toBe('page');
    expect((screen.getByRole('button', { name: 'Previous page' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onPageChange).toHaveBeenCalledWith(2);
  });
});

describe('Notice', () => {
  it('announces errors as alerts and other news politely', () => {
    render(
      <>
        <Notice tone="danger">Card declined</Notice>
        <Notice tone="success">Saved</Notice>
        <Notice live={false}>Static help</Notice>
      </>,
    );
    expect(screen.getByRole('alert').textContent).toContain('Card declined');
    expect(screen.getByRole('status').textContent).toContain('Saved');
    expect(screen.getByText('Static help').closest('[role]')).toBeNull();
  });
});

describe('an open modal dialog and screen readers', () => {
  it('hides the rest of the page and the focus guards, so a reader meets only the dialog', async () => {
    render(
      <div>
        <p>Behind the dialog</p>
        <Dialog open title="Ship cards">
          body
        </Dialog>
      </div>,
    );
    const dialog = screen.getByRole('dialog');
    // The dialog hides its surroundings in a passive effect; Preact runs those after the next frame.
    await waitFor(() => expect(screen.getByText('Behind the dialog').closest('[aria-hidden="true"]')).toBeTruthy());
    const guards = [...document.querySelectorAll('[data-radix-focus-guard]')];
    expect(guards).toHaveLength(2);
    for (const g of guards) expect(g.getAttribute('aria-hidden')).toBe('true');
    expect(dialog.closest('[aria-hidden="true"]')).toBeNull();
  });
});

describe('Dialog width and long values (issue 19: seeds wrapped mid-word in a narrow dialog)', () => {
  it('lets a caller widen the dialog instead of competing with the default width', () => {
    render(
      <Dialog open title="Wide" className="max-w-3xl lg:max-w-4xl">
        body
      </Dialog>,
    );
    const content = screen.getByRole('dialog');
    expect(content.className).toMatch(/\bmax-w-3xl\b/);
    expect(content.className).not.toMatch(/\bmax-w-lg\b/);
    cleanup();
    render(<Dialog open title="Default">body</Dialog>);
    expect(screen.getByRole('dialog').className).toMatch(/\bmax-w-lg\b/);
  });

  it('shows a hex value in monospace on one truncated line with a copy button', () => {
    const hex = 'ab'.repeat(32);
    render(
      <CopyableCode label="Server seed hash" truncate>
        {hex}
      </CopyableCode>,
    );
    const code = screen.getByText(hex);
    expect(code.tagName).toBe('CODE');
    expect(code.className).toMatch(/\bfont-mono\b/);
    expect(code.className).toMatch(/\btruncate\b/);
    expect(code.className).not.toMatch(/break-all/);
    expect(code.getAttribute('title')).toBe(hex);
    expect(screen.getByRole('button', { name: 'Copy server seed hash' })).toBeTruthy();
  });
});
