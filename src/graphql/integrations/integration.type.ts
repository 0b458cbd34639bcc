import { builder } from '../builder.ts';
import { serviceNode } from '../node.ts';
import { integrationTypes } from '../../services/integrations/integrations.schemas.ts';
import * as integrations from '../../services/integrations/integrations.service.ts';
import { keysRecord, type KeysRecord } from '../../services/integrations/keys.ts';
import { mirrorDescription } from '../operation-prose.ts';

const IntegrationKind = builder.enumType('IntegrationType', {
  values: integrationTypes,
  description: 'api, one of four named LMS vendors (lms_a-lms_d), or another LMS (lms).',
});

/** An integration: an API application or an LMS connection. Readable with view permission on it. */
export const IntegrationType = builder.prismaObject('Integration', {
  description: 'An API application or an LMS integration (LTI 1.0/1.1 or 1.3).',
  fields: (t) => ({
    externalId: t.exposeString('externalId', { nullable: true, description: 'External identifier.' }),
    title: t.exposeString('title', { description: 'Title.' }),
    description: t.exposeString('description', { nullable: true, description: 'Description.' }),
    type: t.field({ type: IntegrationKind, description: 'Kind of integration.', resolve: (i) => i.type as (typeof integrationTypes)[number] }),
    active: t.exposeBoolean('active', { description: 'The integration may be used.' }),
    lti: t.exposeString('lti', { nullable: true, description: 'LTI version of LMS integrations: 1.0/1.1 or 1.3.' }),
    platform: t.exposeString('platform', { nullable: true, description: 'LMS platform URL.' }),
    owner: t.relation('owner', { description: 'The user the integration acts as.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
  }),
});

serviceNode(IntegrationType, {
  description: 'The identification string, the same as in the REST contract.',
  load: integrations.findVisibleIntegration,
});

const KeysType = builder.objectRef<KeysRecord>('IntegrationKeys').implement({
  description: 'The keys of an integration; each appears only for the kinds it belongs to.',
  fields: (t) => ({
    app: t.exposeString('app', { nullable: true, description: 'Application id (API integrations).' }),
    consumer: t.exposeString('consumer', { nullable: true, description: 'Consumer key (LTI 1.0/1.1).' }),
    secret: t.exposeString('secret', { nullable: true, description: 'Secret (API integrations and LTI 1.0/1.1).' }),
    jwk: t.exposeString('jwk', { nullable: true, description: 'URL of the JSON Web Key set (LTI 1.3).' }),
    pem: t.exposeString('pem', { nullable: true, description: 'PEM public key (LTI 1.3).' }),
  }),
});

const CreateIntegrationInput = builder.inputType('CreateIntegrationInput', {
  description: mirrorDescription('A new integration; the same rules as POST integration.', 'POST integration'),
  fields: (t) => ({
    title: t.string({ required: true }),
    description: t.string(),
    type: t.field({ type: IntegrationKind, description: 'Default api.' }),
    lti: t.string({ description: 'Required for LMS integrations: 1.0, 1.1, 1.0/1.1 (all recorded as 1.0/1.1) or 1.3.' }),
    platform: t.string({ description: 'Required for LMS integrations: the LMS platform URL.' }),
    organization: t.id({ description: 'An organization of the caller.' }),
  }),
});

builder.queryFields((t) => ({
  integrations: t.prismaConnection({
    type: 'Integration',
    cursor: 'id',
    description: 'Integrations the caller may view (its own, by permission rules or its organizations; administrators: all), oldest first.',
    args: { search: t.arg.string({ description: 'Matches the title.' }) },
    resolve: (query, _root, args, ctx) => integrations.integrationsConnection(ctx, { search: args.search ?? undefined }, query),
  }),
  integrationKeys: t.field({
    type: KeysType,
    description: 'The keys of an integration the caller owns (administrators: any).',
    args: { integration: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => (await integrations.getIntegrationKeys(ctx, args)).keys,
  }),
}));

builder.mutationFields((t) => ({
  createIntegration: t.prismaField({
    type: 'Integration',
    description: 'Creates an integration owned by the caller, with fresh keys.',
    args: { input: t.arg({ type: CreateIntegrationInput, required: true }) },
    resolve: (query, _root, args, ctx) => integrations.createIntegration(ctx, { ...args.input }, query),
  }),
  updateIntegration: t.prismaField({
    type: 'Integration',
    description: 'Activates or deactivates an integration, or moves it to another organization of the caller (empty removes it).',
    args: { integration: t.arg.id({ required: true }), active: t.arg.boolean(), organization: t.arg.string() },
    resolve: (query, _root, args, ctx) => integrations.updateIntegration(ctx, { ...args }, query),
  }),
  deleteIntegration: t.id({
    description: 'Deletes an integration; returns its identification string.',
    args: { integration: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => (await integrations.deleteIntegration(ctx, args)).id,
  }),
  rotateIntegrationKeys: t.field({
    type: KeysType,
    description: 'Replaces the secret (or LTI 1.3 key pair); the old one stops working at once.',
    args: { integration: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => keysRecord(ctx, (await integrations.rotateIntegrationKeys(ctx, args)).integration),
  }),
}));
