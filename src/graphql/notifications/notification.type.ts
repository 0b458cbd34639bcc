import { builder } from '../builder.ts';
import { outbox } from '../../services/notifications/outbox.service.ts';

builder.prismaObject('Notification', {
  description: 'A message of the notifications outbox.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The identification string.' }),
    channel: t.exposeString('channel', { description: 'email or sms.' }),
    recipient: t.exposeString('recipient', { description: 'Email address or phone number.' }),
    subject: t.exposeString('subject', { description: 'Subject (email).' }),
    body: t.exposeString('body', { description: 'Text of the message.' }),
    userId: t.exposeID('userId', { nullable: true, description: 'The user the message is for, when it is for one.' }),
    status: t.exposeString('status', {
      description:
        'pending (waiting for its first or next attempt), sent (accepted by the SMTP server), recorded (no transport carries it: SMS, or email without SMTP_URL) or failed (gave up after 8 attempts).',
    }),
    attempts: t.exposeInt('attempts', { description: 'Attempts made so far.' }),
    lastError: t.exposeString('lastError', { nullable: true, description: 'Why the last attempt failed; null after success.' }),
    sentAt: t.expose('sentAt', { type: 'DateTime', nullable: true, description: 'When it was sent or recorded.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was queued.' }),
  }),
});

builder.queryFields((t) => ({
  notifications: t.prismaConnection({
    type: 'Notification',
    cursor: 'id',
    description: 'Messages of the outbox, newest first; for instance administrators.',
    args: { user: t.arg.id({ description: 'Only messages for this user.' }) },
    resolve: (query, _root, args, ctx) => outbox(ctx, args, query),
  }),
}));
