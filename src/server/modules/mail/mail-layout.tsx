import { Body } from '@react-email/body';
import { Button } from '@react-email/button';
import { Container } from '@react-email/container';
import { Head } from '@react-email/head';
import { Heading } from '@react-email/heading';
import { Html } from '@react-email/html';
import { Link } from '@react-email/link';
import { Preview } from '@react-email/preview';
import { Text } from '@react-email/text';
import { renderToStaticMarkup } from 'react-dom/server';

/**
 * The one frame every mail is drawn in, as React Email components (issue 42 item 7): they carry
 * the table-and-inline-style markup mail clients need (Outlook's button padding, a preview line),
 * and React escapes every value, so no template concatenates HTML by hand. Inline styles only:
 * mail clients ignore style sheets.
 */
export interface MailLayoutProps {
  siteName: string;
  supportEmail: string | null;
  title: string;
  paragraphs: string[];
  action?: { label: string; url: string } | undefined;
  unsubscribe?: { label: string; url: string } | undefined;
}

const colours = { page: '#09090b', text: '#e4e4e7', heading: '#fafafa', brand: '#e879f9', muted: '#a1a1aa', faint: '#71717a', button: '#7c3aed' };

export function MailLayout({ siteName, supportEmail, title, paragraphs, action, unsubscribe }: MailLayoutProps) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{paragraphs.find((p) => !p.startsWith('Hi')) ?? title}</Preview>
      <Body style={{ margin: 0, background: colours.page, color: colours.text, fontFamily: 'system-ui,-apple-system,Segoe UI,Roboto,sans-serif' }}>
        <Container style={{ maxWidth: '560px', margin: '0 auto', padding: '32px 24px' }}>
          <Text style={{ fontSize: '20px', fontWeight: 700, color: colours.brand, margin: '0 0 24px' }}>{siteName}</Text>
          <Heading as="h1" style={{ fontSize: '22px', margin: '0 0 16px', color: colours.heading }}>
            {title}
          </Heading>
          {paragraphs.map((p, i) => (
            <Text key={i} style={{ fontSize: '16px', lineHeight: 1.6, margin: '0 0 12px', color: colours.text }}>
              {p}
            </Text>
          ))}
          {action ? (
            <>
              <Button
                href={action.url}
                style={{ background: colours.button, color: '#ffffff', padding: '12px 20px', borderRadius: '8px', textDecoration: 'none', fontWeight: 600, margin: '16px 0' }}
              >
                {action.label}
              </Button>
              <Text style={{ color: colours.muted, fontSize: '13px' }}>
                If the button does not work, paste this link into your browser:
                <br />
                <span style={{ wordBreak: 'break-all' }}>{action.url}</span>
              </Text>
            </>
          ) : null}
          <Text style={{ color: colours.faint, fontSize: '12px', marginTop: '32px' }}>
            You received this because of activity on your {siteName} account.
            {supportEmail ? (
              <>
                {' '}
                Questions? Write to{' '}
                <Link href={`mailto:${supportEmail}`} style={{ color: colours.muted }}>
                  {supportEmail}
                </Link>
                .
              </>
            ) : null}
          </Text>
          {unsubscribe ? (
            <Text style={{ color: colours.faint, fontSize: '12px' }}>
              <Link href={unsubscribe.url} style={{ color: colours.muted }}>
                {unsubscribe.label}
              </Link>
            </Text>
          ) : null}
        </Container>
      </Body>
    </Html>
  );
}

/** The HTML document of a mail. Synchronous: mails are rendered inside the transaction that queues them. */
export function renderMailHtml(props: MailLayoutProps): string {
  return `<!DOCTYPE html>${renderToStaticMarkup(<MailLayout {...props} />)}`;
}
