import * as webhooks from '../../services/webhooks/webhooks.service.ts';
import type { Handler } from './types.ts';

/** Reads never carry the key, the signing secret or the configuration: only what the document lists. */
const webhookRecord = (w: { id: string; organizationId: string; title: string; active: boolean }) => ({
  organization: w.organizationId,
  webhook: w.id,
  title: w.title,
  active: w.active,
});

export const webhookRoutes: Record<string, Handler> = {
  'GET organization:webhook': async (ctx, args) => webhookRecord(await webhooks.getWebhook(ctx, args)),
  'POST organization:webhook': async (ctx, args) => {
    const w = await webhooks.createWebhook(ctx, args);
    return { organization: w.organizationId, webhook: w.id };
  },
  'PATCH organization:webhook': async (ctx, args) => webhookRecord(await webhooks.updateWebhook(ctx, args)),
  'DELETE organization:webhook': async (ctx, args) => {
    const w = await webhooks.deleteWebhook(ctx, args);
    return { organization: w.organizationId, webhook: w.id, success: true };
  },
  'POST organization:webhook:trigger': async (ctx, args) => {
    const { webhook, delivery } = await webhooks.triggerWebhook(ctx, args);
    return { organization: webhook.organizationId, webhook: webhook.id, delivery: delivery.id, success: true };
  },
};
