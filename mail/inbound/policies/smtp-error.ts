// An error for an smtp-server hook: the server replies with its responseCode and message,
// adding the enhanced status code that belongs to the reply code.
export type SmtpError = Error & { responseCode: number };

export function smtpError(responseCode: number, message: string): SmtpError {
  return Object.assign(new Error(message), { responseCode });
}

/** 451: the sender keeps the message and retries later. */
export const tryAgainLater = (what: string): SmtpError => smtpError(451, `${what}; try again later`);
