import { and, desc, eq, lte, sql } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { DbOrTx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import type { Job } from '../../jobs/scheduler.ts';
import { mailMessages } from '../../db/schema/mail.ts';
import { renderMail, type MailKind, type RenderedMail } from './templates.ts';
import { setting } from '../settings/store.ts';
import { maskEmail } from '../../lib/redact.ts';

/** Retry schedule after a failed SMTP send; after the last one the message is marked 'failed'. */
const RETRY_DELAYS_SECONDS = [30, 120, 600, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600];

const transporters = new WeakMap<Deps, Transporter>();

function transporter(deps: Deps): Transporter | null {
  if (!deps.config.smtpUrl || deps.config.mailDisabled) return null;
  let t = transporters.get(deps);
  if (!t) {
    // smtp://user:pass@host:port (STARTTLS when offered), smtps://… (implicit TLS); query options pass through.
    t = nodemailer.createTransport(deps.config.smtpUrl);
    transporters.set(deps, t);
  }
  return t;
}

export interface SendMailInput {
  to: string;
  kind: MailKind;
  data?: Parameters<typeof renderMail>[2];
}

/** Where a developer reads mail that was kept in the dev mailbox (the log never holds its links). */
export const DEV_MAILBOX_HINT = 'GET /api/dev/mailbox (from this machine)';

/**
 * Writes the mail to the outbox, then delivers it: over SMTP when SMTP_URL is set, otherwise it
 * stays in the database as the development mailbox (GET /api/dev/mailbox, loopback only).
 * A failed SMTP send is kept 'pending' for the outbox job (mailOutboxJob), never dropped.
 * With MAIL_DISABLED the mail is dropped with a warning and null is returned.
 * Log lines name the recipient (masked: maskEmail), kind and subject only: never a link, since links carry tokens.
 */
export async function sendMail(deps: Deps, input: SendMailInput): Promise<string | null> {
  const rendered = renderMail(setting('site.identity'), input.kind, input.data ?? {});
  const id = await enqueueMail(deps, deps.db, { to: input.to, kind: input.kind, rendered });
  if (!id) return null;
  if (!transporter(deps)) {
    deps.log.info('mail kept in the dev mailbox', { to: maskEmail(input.to), kind: input.kind, subject: rendered.subject, read: DEV_MAILBOX_HINT });
    return id;
  }
  await deliver(deps, id);
  return id;
}

export interface EnqueueMailInput {
  to: string;
  /** What the mail is for (a notification kind, e.g. 'notify:deposit_credited'). */
  kind: string;
  rendered: RenderedMail;
}

/**
 * Writes an already rendered mail to the outbox inside the caller's transaction, so it exists
 * only if the change that caused it commits. With SMTP it is 'pending' and the outbox job
 * (mailOutboxJob) sends it; without, it is 'stored' (the dev mailbox).
 * With MAIL_DISABLED nothing is written and null is returned.
 */
export async function enqueueMail(deps: Deps, tx: DbOrTx, input: EnqueueMailInput): Promise<string | null> {
  const { rendered } = input;
  if (deps.config.mailDisabled) {
    deps.log.warn('mail dropped: MAIL_DISABLED is on', { to: maskEmail(input.to), kind: input.kind, subject: rendered.subject });
    return null;
  }
  const smtp = transporter(deps);
  const [row] = await tx
    .insert(mailMessages)
    .values({
      to: input.to,
      kind: input.kind,
      subject: rendered.subject,
      text: rendered.text,
      html: rendered.html,
      links: rendered.links,
      status: smtp ? 'pending' : 'stored',
      sentAt: smtp ? null : new Date(),
    })
    .returning({ id: mailMessages.id });
  return row!.id;
}

/** One delivery attempt of a pending message. Safe across processes: the row is claimed by a conditional update. */
async function deliver(deps: Deps, id: string): Promise<void> {
  const smtp = transporter(deps);
  if (!smtp) return;
  const claimed = await deps.db
    .update(mailMessages)
    .set({ attempts: sql`${mailMessages.attempts} + 1`, nextAttemptAt: sql`now() + interval '5 minutes'` })
    .where(and(eq(mailMessages.id, id), eq(mailMessages.status, 'pending'), lte(mailMessages.nextAttemptAt, sql`now()`)))
    .returning();
  const msg = claimed[0];
  if (!msg) return;
  try {
    await smtp.sendMail({ from: deps.config.mailFrom, to: msg.to, subject: msg.subject, text: msg.text, html: msg.html });
    await deps.db.update(mailMessages).set({ status: 'sent', sentAt: new Date(), lastError: null }).where(eq(mailMessages.id, id));
    deps.log.info('mail sent', { to: maskEmail(msg.to), subject: msg.subject, kind: msg.kind });
  } catch (err) {
    const delay = RETRY_DELAYS_SECONDS[msg.attempts - 1];
    const message = (err as Error).message?.slice(0, 500) ?? String(err);
    if (delay === undefined) {
      await deps.db.update(mailMessages).set({ status: 'failed', lastError: message }).where(eq(mailMessages.id, id));
      deps.log.error('mail failed for good', { to: maskEmail(msg.to), kind: msg.kind, attempts: msg.attempts, err });
    } else {
      await deps.db
        .update(mailMessages)
        .set({ lastError: message, nextAttemptAt: sql`now() + make_interval(secs => ${delay})` })
        .where(eq(mailMessages.id, id));
      deps.log.warn('mail send failed; will retry', { to: maskEmail(msg.to), kind: msg.kind, attempts: msg.attempts, retryInSeconds: delay, err });
    }
  }
}

/** Retries every due pending message once. Returns how many were attempted. */
export async function retryPendingMail(deps: Deps, limit = 20): Promise<number> {
  if (!transporter(deps)) return 0;
  const due = await deps.db
    .select({ id: mailMessages.id })
    .from(mailMessages)
    .where(and(eq(mailMessages.status, 'pending'), lte(mailMessages.nextAttemptAt, sql`now()`)))
    .orderBy(mailMessages.nextAttemptAt)
    .limit(limit);
  for (const { id } of due) await deliver(deps, id);
  return due.length;
}

/** How often the outbox looks for due retries (and for mail enqueued inside a transaction). */
export const MAIL_OUTBOX_EVERY_MS = 15_000;
const MAIL_BATCH = 20;
/** Batches per run at most, so one run cannot hold the scheduler's tick for long. */
const MAIL_MAX_BATCHES = 10;

/**
 * The outbox as a scheduled job (ADR 0009): retries of failed sends and mail written by
 * enqueueMail are sent by whichever process claims the run, once per interval across all
 * processes. sendMail still delivers at once; only the periodic pass lives here.
 */
export function mailOutboxJob(everyMs = MAIL_OUTBOX_EVERY_MS): Job {
  return {
    name: 'mail-outbox',
    everyMs,
    async run(deps, signal) {
      for (let i = 0; i < MAIL_MAX_BATCHES && !signal.aborted; i++) {
        // A claimed message's next attempt moves forward, so each batch takes new ones.
        if ((await retryPendingMail(deps, MAIL_BATCH)) < MAIL_BATCH) break;
      }
    },
  };
}

export async function listMailbox(deps: Deps, to: string | undefined, limit = 50) {
  const rows = await deps.db
    .select()
    .from(mailMessages)
    .where(to ? sql`lower(${mailMessages.to}) = lower(${to})` : undefined)
    .orderBy(desc(mailMessages.createdAt))
    .limit(limit);
  return rows.map((m) => ({
    id: m.id,
    to: m.to,
    subject: m.subject,
    text: m.text,
    html: m.html,
    kind: m.kind,
    links: m.links,
    status: m.status,
    attempts: m.attempts,
    createdAt: m.createdAt.toISOString(),
  }));
}

