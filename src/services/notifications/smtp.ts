import nodemailer from 'nodemailer';
import type { Message, Transport } from './notifications.service.ts';

/**
 * Email through an SMTP server (nodemailer; the URL carries host, port, credentials and options,
 * e.g. smtps://user:pass@mail.example.com:465). SMS has no transport and stays recorded.
 */
export function smtpTransport(url: string, from: string): Transport {
  const mailer = nodemailer.createTransport(url);
  return {
    name: 'smtp',
    async send(message: Message) {
      if (message.channel !== 'email') return 'recorded';
      await mailer.sendMail({ from, to: message.recipient, subject: message.subject, text: message.body });
      return 'sent';
    },
  };
}
