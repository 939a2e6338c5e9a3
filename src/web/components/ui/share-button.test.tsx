import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ShareButton } from './share-button';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function stubNavigator(extra: Partial<Navigator>) {
  vi.stubGlobal('navigator', { ...navigator, ...extra });
}

describe('ShareButton', () => {
  it('uses the share sheet when there is one, with the absolute link', async () => {
    const share = vi.fn(() => Promise.resolve());
    const writeText = vi.fn(() => Promise.resolve());
    stubNavigator({ share, clipboard: { writeText } as unknown as Clipboard });
    render(<ShareButton path="/pulls/abc" title="A pull" accessibleLabel="Share Ember Drake" />);
    fireEvent.click(screen.getByRole('button', { name: 'Share Ember Drake' }));
    await screen.findByText('Shared.');
    expect(share).toHaveBeenCalledWith({ title: 'A pull', url: `${window.location.origin}/pulls/abc` });
    expect(writeText).not.toHaveBeenCalled();
  });

  it('copies the link without a share sheet and says so', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    stubNavigator({ share: undefined as unknown as Navigator['share'], clipboard: { writeText } as unknown as Clipboard });
    render(<ShareButton path="/pulls/abc" title="A pull" />);
    fireEvent.click(screen.getByRole('button', { name: 'Share' }));
    expect(await screen.findByRole('button', { name: 'Link copied' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Link copied to the clipboard.');
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/pulls/abc`);
  });

  it('does nothing when the share sheet is closed', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    const share = vi.fn(() => Promise.reject(new DOMException('closed', 'AbortError')));
    stubNavigator({ share, clipboard: { writeText } as unknown as Clipboard });
    render(<ShareButton path="/pulls/abc" title="A pull" />);
    fireEvent.click(screen.getByRole('button', { name: 'Share' }));
    await vi.waitFor(() => expect(share).toHaveBeenCalled());
    expect(writeText).not.toHaveBeenCalled();
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('shows the link when copying is blocked', async () => {
    stubNavigator({ share: undefined as unknown as Navigator['share'], clipboard: { writeText: () => Promise.reject(new Error('denied')) } as unknown as Clipboard });
    render(<ShareButton path="/pulls/abc" title="A pull" />);
    fireEvent.click(screen.getByRole('button', { name: 'Share' }));
    expect(await screen.findByText(/Copying is blocked here\. The link: .*\/pulls\/abc/)).toBeTruthy();
  });

  it('carries a signed-in sharer’s referral code, and none for a visitor', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    stubNavigator({ share: undefined as unknown as Navigator['share'], clipboard: { writeText } as unknown as Clipboard });
    const qc = new QueryClient();
    qc.setQueryData(['session'], { user: { referralCode: 'K7M2QX9' } });
    const { unmount } = render(
      <QueryClientProvider client={qc}>
        <ShareButton path="/pulls/abc" title="A pull" />
      </QueryClientProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Share' }));
    await screen.findByRole('button', { name: 'Link copied' });
    expect(writeText).toHaveBeenLastCalledWith(`${window.location.origin}/pulls/abc?ref=K7M2QX9`);
    unmount();
    qc.setQueryData(['session'], null);
    render(
      <QueryClientProvider client={qc}>
        <ShareButton path="/pulls/abc" title="A pull" />
      </QueryClientProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Share' }));
    await screen.findByRole('button', { name: 'Link copied' });
    expect(writeText).toHaveBeenLastCalledWith(`${window.location.origin}/pulls/abc`);
  });
});
