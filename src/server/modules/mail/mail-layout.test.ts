import { describe, expect, it } from 'vitest';
import { layout, renderMail } from './templates.ts';

const site = { siteName: 'Pack & <Vault>', supportEmail: 'help@packvault.test' };

describe('the mail frame (React Email)', () => {
  it('escapes every value: a name, a reason or a link never becomes markup', () => {
    const { html } = layout(site, 'Title "<b>"', ['Hi <script>alert(1)</script>,'], { label: 'Go <now>', url: 'https://x.test/a?b=1&c="2"' });
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>');
    expect(html).toContain('Pack &amp; &lt;Vault&gt;');
    expect(html).toContain('href="https://x.test/a?b=1&amp;c=&quot;2&quot;"');
    expect(html).toContain('Go &lt;now&gt;');
  });

  it('draws the button, its link in words, the support address and the unsubscribe line', () => {
    const { html, text } = layout(site, 'Your shipment', ['Hi Ada,', 'It left.'], { label: 'See the shipment', url: 'https://x.test/s/1' }, {
      label: 'Stop emails about shipments',
      url: 'https://x.test/unsubscribe?token=t',
    });
    expect(html.match(/href="https:\/\/x\.test\/s\/1"/g)).toHaveLength(1);
    expect(html).toContain('>https://x.test/s/1<');
    expect(html).toContain('href="mailto:help@packvault.test"');
    expect(html).toContain('href="https://x.test/unsubscribe?token=t"');
    expect(text).toContain('See the shipment: https://x.test/s/1');
    expect(text).toContain('Stop emails about shipments: https://x.test/unsubscribe?token=t');
    expect(text).toContain('Questions? Write to help@packvault.test.');
  });

  it('has no button, link or unsubscribe line where the mail has none', () => {
    const m = renderMail('Packvault', 'account-banned', { username: 'ada', reason: 'chargebacks', until: null });
    expect(m.links).toEqual([]);
    expect(m.html).not.toContain('<a ');
    expect(m.html).toContain('Reason: chargebacks.');
    expect(m.subject).toBe('Your Packvault account is suspended');
  });
});
