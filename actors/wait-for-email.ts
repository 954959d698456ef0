// Waiting for an inbound message: the first one received after `since` that matches, at once
// when it is already stored, else as soon as one is committed (woken by the NOTIFY of its
// `message.received` event), else a timeout. Listening starts before the first look, so a
// message committed between the look and the wait still wakes it.
import { extractCode, extractLink } from '../mail/extract.ts';
import type { Listener } from '../service/listener.ts';
import type { Pool } from '../storage/db.ts';
import { EVENTS_CHANNEL } from '../storage/events.ts';
import { databaseNow, findArrivals, listAttachments, type AttachmentMeta, type InboxKey, type MessageRow } from '../storage/messages.ts';

export type WaitRequest = {
  from?: string;
  subject_contains?: string;
  /** Only messages whose From domain was (true) or was not (false) authenticated. */
  authenticated?: boolean;
  /** Only messages received strictly after this instant; default: when the wait starts. */
  since?: string;
  timeout_seconds: number;
  extract?: 'code' | 'link';
};

export type WaitResult =
  | { timed_out: false; message: MessageRow; attachments: AttachmentMeta[]; code?: string; link?: string }
  | { timed_out: true };

// Candidates read per look; with `extract`, those without a code or link are skipped.
const BATCH = 20;

export async function waitForEmail(
  s: { db: Pool; listener: Listener },
  inbox: InboxKey,
  req: WaitRequest,
  signal: AbortSignal,
): Promise<WaitResult> {
  let notified = false;
  let wake: (() => void) | null = null;
  const unsubscribe = s.listener.on(EVENTS_CHANNEL, (payload) => {
    // An empty payload follows a reconnect, when notifications may have been lost.
    if (payload !== '' && !announcesArrival(payload, inbox.inbox_id)) return;
    notified = true;
    wake?.();
  });
  const onAbort = () => wake?.();
  signal.addEventListener('abort', onAbort);
  try {
    const since = req.since ? new Date(req.since) : await databaseNow(s.db);
    await s.listener.ready();
    const deadline = Date.now() + req.timeout_seconds * 1000;
    const skipped: string[] = [];
    for (;;) {
      notified = false;
      const arrivals = await findArrivals(
        s.db,
        inbox,
        { since, from: req.from ?? null, subject_contains: req.subject_contains ?? null, exclude: skipped, authenticated: req.authenticated ?? null },
        BATCH,
      );
      for (const message of arrivals) {
        const found = req.extract === 'code' ? extractCode(message) : req.extract === 'link' ? extractLink(message) : undefined;
        if (found === null) {
          skipped.push(message.id);
          continue;
        }
        const attachments = message.attachment_count > 0 ? await listAttachments(s.db, inbox, message.id) : [];
        return { timed_out: false, message, attachments, ...(req.extract && found ? { [req.extract]: found } : {}) };
      }
      if (arrivals.length === BATCH || notified) continue;
      const left = deadline - Date.now();
      if (signal.aborted || left <= 0) return { timed_out: true };
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = null;
    }
  } finally {
    unsubscribe();
    signal.removeEventListener('abort', onAbort);
  }
}

function announcesArrival(payload: string, inboxId: string): boolean {
  try {
    const event = JSON.parse(payload) as { inbox_id?: string; type?: string };
    return event.inbox_id === inboxId && event.type === 'message.received';
  } catch {
    return false;
  }
}
