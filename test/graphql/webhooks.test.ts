import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { seed } from '../helpers/seed.ts';
import {
  CreateWebhookDocument,
  DeleteWebhookDocument,
  OrganizationWebhooksDocument,
  TriggerWebhooksDocument,
  UpdateWebhookDocument,
  WebhookDocument,
  WebhookSigningSecretDocument,
  type CreateWebhookInput,
} from '../../schema/operations/generated.ts';
import { deliverDueWebhooks } from '../../src/services/webhooks/delivery.ts';
import { verify } from '../../src/services/webhooks/signature.ts';
import { ISO, expectCode, ok, refused, send } from './client.ts';
import { startReceiver, type Receiver } from '../jobs/receiver.ts';

let t: TestApp;
let rx: Receiver;
let owner: Caller;
let member: Caller;
let organization: string;
beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  rx = await startReceiver();
  owner = await t.newCaller('gql-hook-owner');
  member = await t.newCaller('gql-hook-member');
  organization = (await seed(t).as(owner).organization({ title: 'GraphQL hooks' })).id;
  // The administrator adds it: a new member is a user the one adding it sees.
  await seed(t).admin.addMembers(organization, [member], { permissionOrganization: 'supervisor' });
});
afterAll(async () => {
  await rx?.close();
  await t?.close();
});

const input = (extra: Partial<CreateWebhookInput> = {}): CreateWebhookInput => ({ organization, title: 'Dashboard hook', triggerEvent: 'api', endpoint: rx.url(), ...extra });

describe('createWebhook and the Webhook node', () => {
  it('creates with the same rules as REST and shows the configuration, never the key', async () => {
    const { createWebhook } = await ok(
      t,
      CreateWebhookDocument,
      { input: input({ authentication: 'key', authenticationSend: 'header', authenticationSendHeader: 'X-Token', authenticationKey: 'hidden-key', extraData: { env: 'test' } }) },
      { as: owner },
    );
    expect(createWebhook).toEqual({
      id: expect.stringMatching(/^whk_/),
      title: 'Dashboard hook',
      triggerEvent: 'api',
      endpoint: rx.url(),
      method: 'POST',
      authentication: 'key',
      authenticationSend: 'header',
      authenticationSendHeader: 'X-Token',
      authenticationSendData: null,
      authenticationKeyCustom: null,
      extraData: { env: 'test' },
      retry: 'error',
      active: true,
      createdAt: expect.stringMatching(ISO),
      organization: { id: organization, title: 'GraphQL hooks' },
    });
    // No field of the schema can carry a key.
    const fields = await t.gql('{ __type(name: "Webhook") { fields { name } } }');
    const names = fields.body.data.__type.fields.map((f: { name: string }) => f.name);
    expect(names.filter((n: string) => /key$|secret|cipher/i.test(n))).toEqual([]);
    expect(JSON.stringify(createWebhook)).not.toContain('hidden-key');
  });

  it('refuses broken rules with the argument named as in the input, and creates nothing', async () => {
    const before = await t.db.prisma.webhook.count();
    expectCode(await refused(t, CreateWebhookDocument, { input: input({ authentication: 'key', authenticationSend: 'bearer' }) }), 'MISSING_ARGUMENT', 'authenticationKey');
    expectCode(
      await refused(t, CreateWebhookDocument, { input: input({ authentication: 'key', authenticationSend: 'bearer', authenticationKey: 'k', authenticationKeyCustom: 'x' }) }),
      'ARGUMENT_CONFLICT',
      'authenticationKeyCustom',
    );
    expectCode(await refused(t, CreateWebhookDocument, { input: input({ triggerEvent: 'sometimes' }) }), 'INVALID_ARGUMENT', 'triggerEvent');
    expectCode(await refused(t, CreateWebhookDocument, { input: input() }, { as: member }), 'PERMISSION_DENIED');
    expect(await t.db.prisma.webhook.count()).toBe(before);
  });

  it('lists an organization webhooks for managers; for others the list is null with PERMISSION_DENIED and the node is null', async () => {
    const { createWebhook } = await ok(t, CreateWebhookDocument, { input: input({ title: 'Listed' }) }, { as: owner });
    const listed = await ok(t, OrganizationWebhooksDocument, { organization }, { as: owner });
    expect(listed.node).toMatchObject({ id: organization });
    const hooks = (listed.node as { webhooks: { id: string; title: string; triggerEvent: string; active: boolean }[] }).webhooks;
    expect(hooks[0]).toEqual({ id: createWebhook.id, title: 'Listed', triggerEvent: 'api', active: true });

    const denied = await send(t, OrganizationWebhooksDocument, { organization }, { as: member });
    expect(denied.data?.node).toEqual({ id: organization, webhooks: null });
    expectCode(denied.errors![0]!, 'PERMISSION_DENIED');
    expect((await ok(t, WebhookDocument, { webhook: createWebhook.id }, { as: member })).node).toBeNull();
    expectCode(await refused(t, WebhookSigningSecretDocument, { webhook: createWebhook.id }, { as: member }), 'NOT_FOUND', 'webhook');
  });
});

describe('triggerWebhooks, deliveries and the signing secret', () => {
  it('queues a delivery, shows it on the webhook with status, attempts and errors, and signs with the secret it exposes', async () => {
    const { createWebhook: hook } = await ok(t, CreateWebhookDocument, { input: input({ title: 'Triggered' }) }, { as: owner });
    const { triggerWebhooks } = await ok(t, TriggerWebhooksDocument, { organization, webhook: hook.id, data: { course: 'c-1' } }, { as: owner });
    expect(triggerWebhooks).toMatchObject({ id: expect.stringMatching(/^dlv_/), event: 'api', status: 'pending', attempts: 0, lastStatus: null, lastError: null, deliveredAt: null });
    expect(triggerWebhooks.nextAttemptAt).toMatch(ISO);
    expect(triggerWebhooks.payload).toMatchObject({ id: triggerWebhooks.id, event: 'api', data: { course: 'c-1' }, webhook: { webhook: hook.id, title: 'Triggered' } });

    rx.answer(500);
    await deliverDueWebhooks(t.platform);
    let node = (await ok(t, WebhookDocument, { webhook: hook.id }, { as: owner })).node as any;
    expect(node.deliveries).toHaveLength(1);
    expect(node.deliveries[0]).toMatchObject({ id: triggerWebhooks.id, status: 'pending', attempts: 1, lastStatus: 500, lastError: 'HTTP 500', deliveredAt: null });
    expect(node.deliveries[0].nextAttemptAt).toMatch(ISO);

    rx.answer(200);
    // As if the wait had passed: the delivery's job (keyed by its id) is due now.
    await t.db.prisma.job.updateMany({ where: { dedupeKey: triggerWebhooks.id }, data: { runAt: new Date() } });
    await deliverDueWebhooks(t.platform);
    node = (await ok(t, WebhookDocument, { webhook: hook.id, deliveries: 5 }, { as: owner })).node;
    expect(node.deliveries[0]).toMatchObject({ status: 'delivered', attempts: 2, lastStatus: 200, lastError: null, nextAttemptAt: null });
    expect(node.deliveries[0].deliveredAt).toMatch(ISO);

    const { webhookSigningSecret } = await ok(t, WebhookSigningSecretDocument, { webhook: hook.id }, { as: owner });
    expect(webhookSigningSecret).toMatch(/^whsec_/);
    const last = rx.requests.at(-1)!;
    expect(verify(webhookSigningSecret, { id: String(last.headers['webhook-id']), timestamp: String(last.headers['webhook-timestamp']), signature: String(last.headers['webhook-signature']) }, last.body)).toBe(true);
    expect(verify('whsec_' + Buffer.alloc(32).toString('base64'), { id: String(last.headers['webhook-id']), timestamp: String(last.headers['webhook-timestamp']), signature: String(last.headers['webhook-signature']) }, last.body)).toBe(false);
  });

  it('updateWebhook and deleteWebhook; triggering an inactive webhook is refused', async () => {
    const { createWebhook: hook } = await ok(t, CreateWebhookDocument, { input: input({ title: 'Managed' }) }, { as: owner });
    expect((await ok(t, UpdateWebhookDocument, { organization, webhook: hook.id, active: false }, { as: owner })).updateWebhook).toEqual({ id: hook.id, active: false });
    expectCode(await refused(t, TriggerWebhooksDocument, { organization, webhook: hook.id }, { as: owner }), 'WEBHOOK_INACTIVE', 'webhook');
    expectCode(await refused(t, UpdateWebhookDocument, { organization, webhook: hook.id, active: true }, { as: member }), 'PERMISSION_DENIED');
    expect((await ok(t, DeleteWebhookDocument, { organization, webhook: hook.id }, { as: owner })).deleteWebhook).toBe(hook.id);
    expect((await ok(t, WebhookDocument, { webhook: hook.id }, { as: owner })).node).toBeNull();
  });
});
