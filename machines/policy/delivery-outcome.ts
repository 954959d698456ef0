// What an SMTP relay's answer means for a review. A definite refusal (5xx) fails the send; a
// temporary one (4xx), or a connection that never reached the end of DATA, may be retried; a
// connection lost after the message was handed over leaves the outcome unknown, and such a send
// is never repeated (it would reach the recipient twice if the relay had taken it).

export type DeliveryOutcome = 'failed' | 'deferred' | 'unknown';

export function classifySmtpError(err: { responseCode?: number | null }, messageHandedOver: boolean): DeliveryOutcome {
  const code = err.responseCode ?? null;
  if (code !== null && code >= 500 && code < 600) return 'failed';
  if (code !== null && code >= 400 && code < 500) return 'deferred';
  return messageHandedOver ? 'unknown' : 'deferred';
}

/** Temporary failures in a row before a send is given up as failed. */
export const MAX_DEFERRALS = 8;
