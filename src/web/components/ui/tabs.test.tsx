import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { Tabs, TabsContent, TabsList, TabsTrigger } from './tabs';

afterEach(cleanup);

function Controlled({ onChange }: { onChange?: (v: string) => void }) {
  const [tab, setTab] = useState('cards');
  return (
    <Tabs
      value={tab}
      onValueChange={(v) => {
        onChange?.(v);
        setTab(v);
      }}
    >
      <TabsList aria-label="Your collection">
        <TabsTrigger value="cards">Cards</TabsTrigger>
        <TabsTrigger value="sets">Sets</TabsTrigger>
        <TabsTrigger value="wishlist">Wishlist</TabsTrigger>
      </TabsList>
      <TabsContent value="cards">Card grid</TabsContent>
      <TabsContent value="sets">Set list</TabsContent>
      <TabsContent value="wishlist">Wanted cards</TabsContent>
    </Tabs>
  );
}

const tab = (name: string) => screen.getByRole('tab', { name });

describe('Tabs', () => {
  it('names the list, links each tab with its panel and mounts only the active panel', () => {
    render(<Controlled />);
    expect(screen.getByRole('tablist', { name: 'Your collection' })).toBeTruthy();
    expect(tab('Cards').getAttribute('aria-selected')).toBe('true');
    expect(tab('Sets').getAttribute('aria-selected')).toBe('false');
    const panel = screen.getByRole('tabpanel', { name: 'Cards' });
    expect(panel.textContent).toBe('Card grid');
    expect(tab('Cards').getAttribute('aria-controls')).toBe(panel.id);
    expect(screen.queryByText('Set list')).toBeNull();
  });

  it('keeps one tab in the tab order: the active one', () => {
    render(<Controlled />);
    expect([tab('Cards'), tab('Sets'), tab('Wishlist')].map((t) => t.tabIndex)).toEqual([0, -1, -1]);
    fireEvent.click(tab('Wishlist'));
    expect([tab('Cards'), tab('Sets'), tab('Wishlist')].map((t) => t.tabIndex)).toEqual([-1, -1, 0]);
    expect(screen.getByRole('tabpanel', { name: 'Wishlist' }).textContent).toBe('Wanted cards');
  });

  it('arrow keys, Home and End move focus in a loop and select the focused tab', () => {
    const onChange = vi.fn();
    render(<Controlled onChange={onChange} />);
    tab('Cards').focus();
    fireEvent.keyDown(tab('Cards'), { key: 'ArrowRight' });
    expect(document.activeElement).toBe(tab('Sets'));
    expect(tab('Sets').getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(tab('Sets'), { key: 'End' });
    expect(document.activeElement).toBe(tab('Wishlist'));
    fireEvent.keyDown(tab('Wishlist'), { key: 'ArrowRight' });
    expect(document.activeElement).toBe(tab('Cards'));
    fireEvent.keyDown(tab('Cards'), { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(tab('Wishlist'));
    fireEvent.keyDown(tab('Wishlist'), { key: 'Home' });
    expect(document.activeElement).toBe(tab('Cards'));
    expect(onChange.mock.calls.map(([v]) => v)).toEqual(['sets', 'wishlist', 'cards', 'wishlist', 'cards']);
    expect(screen.getByRole('tabpanel').textContent).toBe('Card grid');
  });

  it('works uncontrolled from defaultValue, and skips a disabled tab', () => {
    render(
      <Tabs defaultValue="slots">
        <TabsList aria-label="Odds view">
          <TabsTrigger value="slots">Per slot</TabsTrigger>
          <TabsTrigger value="none" disabled>
            None
          </TabsTrigger>
          <TabsTrigger value="cards">Per card</TabsTrigger>
        </TabsList>
        <TabsContent value="slots">Slots</TabsContent>
        <TabsContent value="cards">Cards</TabsContent>
      </Tabs>,
    );
    tab('Per slot').focus();
    fireEvent.keyDown(tab('Per slot'), { key: 'ArrowRight' });
    expect(document.activeElement).toBe(tab('Per card'));
    expect(screen.getByRole('tabpanel', { name: 'Per card' }).textContent).toBe('Cards');
  });
});
