import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { SignUpForm } from './sign-up-form';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** Required fields show an aria-hidden asterisk, which textContent-based label matching sees. */
const label = (name: string) => screen.getByLabelText(new RegExp(`^${name}\\*?$`));

function fill(name: string, value: string) {
  fireEvent.input(label(name), { target: { value } });
}

function jsonResponse(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

describe('SignUpForm', () => {
  it('checks every field in the page before anything is sent', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const onSignedUp = vi.fn();
    render(<SignUpForm onSignedUp={onSignedUp} />);
    fill('Email', 'not-an-email');
    fill('Username', 'a!');
    fill('Password', 'short');
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));

    expect(await screen.findByText('Enter a valid email address.')).toBeTruthy();
    expect(screen.getByText('Use at least 3 characters.')).toBeTruthy();
    expect(screen.getByText('Use at least 8 characters.')).toBeTruthy();
    expect(screen.getByText('You must be 18 or older to sign up.')).toBeTruthy();
    expect(screen.getByText('Accept the terms of service to continue.')).toBeTruthy();
    for (const name of ['Email', 'Username', 'Password']) {
      expect(label(name).getAttribute('aria-invalid')).toBe('true');
    }
    expect(fetchMock).not.toHaveBeenCalled();
    expect(onSignedUp).not.toHaveBeenCalled();
  });

  it('shows the server’s per-field messages next to their fields', async () => {
    const fetchMock = vi.fn(async (url: string, _init?: RequestInit) => {
      if (url.startsWith('/api/account/username-available')) return jsonResponse(200, { available: true });
      return jsonResponse(400, {
        code: 'PASSWORD_COMPROMISED',
        message: 'Invalid input',
        fields: { password: ['This password is too common. Choose another.'] },
      });
    });
    vi.stubGlobal('fetch', fetchMock);
    const onSignedUp = vi.fn();
    render(<SignUpForm onSignedUp={onSignedUp} />);
    fill('Email', 'ash@example.com');
    fill('Username', 'Ash_K');
    fill('Password', 'password123');
    fireEvent.click(screen.getByRole('checkbox', { name: 'I am 18 or older.' }));
    fireEvent.click(screen.getByRole('checkbox', { name: /I accept the terms of service/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));

    const msg = await screen.findByText('This password is too common. Choose another.');
    const password = label('Password');
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(password.getAttribute('aria-describedby')).toContain(msg.closest('p')!.id);

    const signUpCall = fetchMock.mock.calls.find(([url]) => url === '/api/auth/sign-up/email')!;
    const body = JSON.parse((signUpCall[1] as RequestInit).body as string);
    expect(body).toMatchObject({
      email: 'ash@example.com',
      username: 'Ash_K',
      name: 'Ash_K',
      ageConfirmed: true,
      termsAccepted: true,
    });
    expect(onSignedUp).not.toHaveBeenCalled();
  });

  it('moves on with the email once the server accepts it', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(200, { token: null, user: { id: 'u1' } })),
    );
    const onSignedUp = vi.fn();
    render(<SignUpForm onSignedUp={onSignedUp} />);
    fill('Email', ' ash@example.com ');
    fill('Username', 'Ash_K');
    fill('Password', 'a-long-unique-passphrase');
    fireEvent.click(screen.getByRole('checkbox', { name: 'I am 18 or older.' }));
    fireEvent.click(screen.getByRole('checkbox', { name: /I accept the terms of service/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(onSignedUp).toHaveBeenCalledWith('ash@example.com'));
  });
});
