// Sending real mail to the service's SMTP port with nodemailer, as another mail server would.
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { TestService } from './service.ts';

export function smtpTransport(svc: TestService, extra: SMTPTransport.Options = {}) {
  if (!svc.smtpPort) throw new Error('start the service with the smtp role');
  return nodemailer.createTransport({
    host: '127.0.0.1',
    port: svc.smtpPort,
    secure: false,
    ignoreTLS: true,
    ...extra,
  });
}

/** Sends one message; resolves with nodemailer's info (accepted, rejected, response) or rejects with the SMTP error. */
export async function sendMail(svc: TestService, message: Mail.Options): Promise<SMTPTransport.SentMessageInfo> {
  const transport = smtpTransport(svc);
  try {
    return await transport.sendMail(message);
  } finally {
    transport.close();
  }
}

/** Sends a raw RFC 5322 message as is, with the given envelope. */
export async function sendRaw(svc: TestService, raw: string | Buffer, envelope: { from: string; to: string[] }) {
  return sendMail(svc, { envelope, raw });
}
