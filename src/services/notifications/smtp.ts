import type { Message, Transport } from './notifications.service.ts';

/**
 * Email through an SMTP server (nodemailer; the URL carries host, port, credentials and options,
 * e.g. smtps://user:pass@mail.example.com:465). SMS has no transport and stays recorded.
 * nodemailer is loaded with the first message, so an instance that sends none does not carry it.
 */
export function smtpTransport(url: string, from: string): Transport {
  let mailer: Promise<import('nodemailer').Transporter> | undefined;
  return {
    name: 'smtp',
    async send(message: Message) {
      if (message.channel !== 'email') return 'recorded';
      mailer ??= import('nodemailer').then((m) => m.default.createTransport(url));
      await (await mailer).sendMail({ from, to: message.recipient, subject: message.subject, text: message.body });
      return 'sent';
    },
  };
}
