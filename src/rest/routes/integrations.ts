import type { Integration } from '../../generated/prisma/client.ts';
import * as integrations from '../../services/integrations/integrations.service.ts';
import { compact } from '../format.ts';
import type { Handler } from './types.ts';

const integrationSummary = (i: Integration) => ({ integration: i.id, id: i.externalId, title: i.title });
const integrationRecord = (i: Integration) =>
  compact({
    integration: i.id,
    id: i.externalId,
    title: i.title,
    type: i.type,
    active: i.active,
    lti: i.type === 'api' ? undefined : (i.lti ?? undefined),
  });


export const integrationRoutes: Record<string, Handler> = {
  'GET integrations': async (ctx, args) => ({
    integrations: (await integrations.listIntegrations(ctx, args)).map(integrationSummary),
  }),
  'GET integration': async (ctx, args) => integrationRecord(await integrations.getIntegration(ctx, args)),
  'POST integration': async (ctx, args) => ({ integration: (await integrations.createIntegration(ctx, args)).id }),
  'PATCH integration': async (ctx, args) => integrationRecord(await integrations.updateIntegration(ctx, args)),
  'DELETE integration': async (ctx, args) => ({ integration: (await integrations.deleteIntegration(ctx, args)).id, success: true }),
  'GET integration:keys': async (ctx, args) => (await integrations.getIntegrationKeys(ctx, args)).keys,
  'POST integration:keys': async (ctx, args) => (await integrations.rotateIntegrationKeys(ctx, args)).keys,
};
