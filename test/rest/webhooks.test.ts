import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { newId } from '../../src/ids.ts';
import { deliverDueWebhooks } from '../../src/services/webhooks/delivery.ts';
import { enqueueEvent } from '../../src/services/webhooks/events.ts';
import { isNonPublicAddress } from '../../src/services/webhooks/address-guard.ts';
import { verify } from '../../src/services/webhooks/signature.ts';
import { freePort, startReceiver, type Received, type Receiver } from '../jobs/receiver.ts';
import { expectError } from '../helpers/expect.ts';
import { seed } from '../helpers/seed.ts';

const RETRY_BASE_MS = 200;

let t: TestApp;
let rx: Receiver;
let organization: string;
beforeAll(async () => {
  // Receivers listen on 127.0.0.1, so these tests allow non-public endpoints; the guard itself is
  // tested below with the default configuration.
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_MS: String(RETRY_BASE_MS), WEBHOOK_MAX_ATTEMPTS: '3', WEBHOOK_TIMEOUT_MS: '500' });
  rx = await startReceiver();
  organization = await newOrganization('Webhook Org');
});
afterAll(async () => {
  await rx?.close();
  await t?.close();
});
afterEach(async () => {
  // Each test sends its own deliveries; none may linger into the next one.
  await t.db.prisma.webhookDelivery.deleteMany({ where: { status: 'pending' } });
  rx.requests.length = 0;
  rx.answer(200);
});


/** An organization created by `owner` (by default the administrator, whose calls these tests make). */
async function newOrganization(title: string, owner: Caller = t.admin): Promise<string> {
  return (await seed(t).as(owner).organization({ title })).id;
}

/** The administrator adds the member: the owners do not manage these users. */
async function addMember(organizationId: string, user: Caller, permissionOrganization = 'member') {
  await seed(t).admin.addMembers(organizationId, [user], { permissionOrganization });
}

/** A custom user field, written directly: no operation configures custom fields. */
const userField = (key: string, label: string) =>
  t.db.prisma.customField.upsert({ where: { entity_key: { entity: 'user', key } }, create: { id: newId('CustomField'), entity: 'user', key, label }, update: {} });

/** Creates a webhook through the contract and returns its identification string. */
async function create(args: Record<string, unknown>, as?: Caller): Promise<string> {
  const r = await t.rpc('POST', 'organization:webhook', { organization, title: 'Hook', trigger_event: 'api', endpoint: rx.url(), ...args }, { as });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(Object.keys(r.body)).toEqual(['organization', 'webhook']);
  expect(r.body.webhook).toMatch(/^whk_[a-z0-9]+$/);
  return r.body.webhook;
}

async function trigger(webhook: string, data?: unknown, as?: Caller, org = organization): Promise<string> {
  const r = await t.rpc('POST', 'organization:webhook:trigger', { organization: org, webhook, ...(data === undefined ? {} : { data: JSON.stringify(data) }) }, { as });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.delivery;
}

async function signingSecret(webhook: string): Promise<string> {
  const r = await t.gql('query($w: ID!) { webhookSigningSecret(webhook: $w) }', { w: webhook });
  return r.body.data.webhookSigningSecret;
}

const delivery = (id: string) => t.db.prisma.webhookDelivery.findUniqueOrThrow({ where: { id } });
/** As if the delivery's wait had passed: its job (keyed by the delivery id) is due now. */
const makeDue = (id: string, app = t) => app.db.prisma.job.updateMany({ where: { dedupeKey: id }, data: { runAt: new Date() } });

function expectSigned(request: Received, secret: string, content = request.body) {
  const ok = verify(secret, { id: String(request.headers['webhook-id']), timestamp: String(request.headers['webhook-timestamp']), signature: String(request.headers['webhook-signature']) }, content);
  expect(ok).toBe(true);
}

describe('POST organization:webhook', () => {
  it('creates a webhook with the documented defaults and answers organization and webhook only', async () => {
    const webhook = await create({ title: 'Results feed' });
    const row = await t.db.prisma.webhook.findUniqueOrThrow({ where: { id: webhook } });
    expect(row).toMatchObject({
      organizationId: organization,
      title: 'Results feed',
      triggerEvent: 'api',
      endpoint: rx.url(),
      method: 'POST',
      authentication: 'none',
      retry: 'error',
      active: true,
      keyCipher: null,
      keyCustomField: null,
      extraData: null,
    });
    // A Standard Webhooks secret, stored sealed.
    expect(row.signingSecretCipher).not.toMatch(/whsec_/);
    expect(t.platform.secrets.open(row.signingSecretCipher)).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(await t.db.prisma.auditEvent.count({ where: { action: 'webhook.create', subject: webhook } })).toBe(1);
  });

  it('stores the key encrypted and no read reveals it', async () => {
    const key = 'k3y-That-Must-Stay-Hidden';
    const webhook = await create({ authentication: 'key', authentication_send: 'bearer', authentication_key: key, method: 'get', retry: 'none' });
    const row = await t.db.prisma.webhook.findUniqueOrThrow({ where: { id: webhook } });
    expect(row).toMatchObject({ method: 'GET', authentication: 'key', authenticationSend: 'bearer', retry: 'none', authHeader: null, authDataField: null });
    expect(row.keyCipher).not.toContain(key);
    expect(t.platform.secrets.open(row.keyCipher!)).toBe(key);

    const r = await t.rpc('GET', 'organization:webhook', { organization, webhook });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ organization, webhook, title: 'Hook', active: true });
    expect(JSON.stringify(r.body)).not.toContain(key);
    const g = await t.gql('query($id: ID!) { node(id: $id) { ... on Webhook { authentication authenticationSend } } }', { id: webhook });
    expect(g.body.data.node).toEqual({ authentication: 'key', authenticationSend: 'bearer' });
    expect(JSON.stringify(g.body)).not.toContain(key);
  });

  it('accepts every argument form: JSON bodies with native values, and empty optional fields as not given', async () => {
    const webhook = await create({ authentication: 'key', authentication_send: 'header', authentication_send_header: 'X-Api-Key', authentication_key: 'k', authentication_send_data: '', extra_data: '{"source":"lms"}' });
    const row = await t.db.prisma.webhook.findUniqueOrThrow({ where: { id: webhook } });
    expect(row).toMatchObject({ authenticationSend: 'header', authHeader: 'X-Api-Key', authDataField: null, extraData: { source: 'lms' } });
    const json = await t.rpc('POST', 'organization:webhook', { organization, title: 'JSON', trigger_event: 'exam-play-result', endpoint: rx.url(), extra_data: { tenant: 7 } }, { encoding: 'json' });
    expect(json.status).toBe(200);
    const jsonRow = await t.db.prisma.webhook.findUniqueOrThrow({ where: { id: json.body.webhook } });
    expect(jsonRow).toMatchObject({ triggerEvent: 'exam-play-result', extraData: { tenant: 7 } });
  });

  it('refuses every broken rule with the argument named, and creates nothing', async () => {
    await userField('badge', 'Badge');
    const key = { authentication: 'key' };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ title: undefined }, 'MISSING_ARGUMENT', 'title'],
      [{ title: '' }, 'INVALID_ARGUMENT', 'title'],
      [{ trigger_event: undefined }, 'MISSING_ARGUMENT', 'trigger_event'],
      [{ trigger_event: 'exam-finished' }, 'INVALID_ARGUMENT', 'trigger_event'],
      [{ endpoint: undefined }, 'MISSING_ARGUMENT', 'endpoint'],
      [{ endpoint: 'not a url' }, 'INVALID_ARGUMENT', 'endpoint'],
      [{ endpoint: 'ftp://127.0.0.1/hook' }, 'INVALID_ARGUMENT', 'endpoint'],
      [{ endpoint: 'http://nowhere.invalid/hook' }, 'ENDPOINT_UNRESOLVABLE', 'endpoint'],
      [{ method: 'PUT' }, 'INVALID_ARGUMENT', 'method'],
      [{ authentication: 'token' }, 'INVALID_ARGUMENT', 'authentication'],
      [{ retry: 'always' }, 'INVALID_ARGUMENT', 'retry'],
      [{ extra_data: '{broken' }, 'INVALID_ARGUMENT', 'extra_data'],
      [{ extra_data: '[1,2]' }, 'INVALID_ARGUMENT', 'extra_data'],
      [{ extra_data: '"text"' }, 'INVALID_ARGUMENT', 'extra_data'],
      [{ extra_data: '{"event":"mine"}' }, 'INVALID_ARGUMENT', 'extra_data'],
      // Fields of key authentication without it.
      [{ authentication_key: 'k' }, 'ARGUMENT_CONFLICT', 'authentication_key'],
      [{ authentication_send: 'bearer' }, 'ARGUMENT_CONFLICT', 'authentication_send'],
      [{ authentication_send_header: 'X-Key' }, 'ARGUMENT_CONFLICT', 'authentication_send_header'],
      [{ authentication_key_custom: 'badge' }, 'ARGUMENT_CONFLICT', 'authentication_key_custom'],
      // Key authentication.
      [{ ...key, authentication_send: 'bearer' }, 'MISSING_ARGUMENT', 'authentication_key'],
      [{ ...key, authentication_send: 'bearer', authentication_key: 'k', authentication_key_custom: 'badge' }, 'ARGUMENT_CONFLICT', 'authentication_key_custom'],
      [{ ...key, authentication_key: 'k' }, 'MISSING_ARGUMENT', 'authentication_send_data'],
      [{ ...key, authentication_send: 'data', authentication_key: 'k' }, 'MISSING_ARGUMENT', 'authentication_send_data'],
      [{ ...key, authentication_send: 'header', authentication_key: 'k' }, 'MISSING_ARGUMENT', 'authentication_send_header'],
      [{ ...key, authentication_send: 'bearer', authentication_key: 'k', authentication_send_data: 'token' }, 'ARGUMENT_CONFLICT', 'authentication_send_data'],
      [{ ...key, authentication_send: 'data', authentication_key: 'k', authentication_send_data: 'token', authentication_send_header: 'X-Key' }, 'ARGUMENT_CONFLICT', 'authentication_send_header'],
      [{ ...key, authentication_send: 'header', authentication_key: 'k', authentication_send_header: 'X Key' }, 'INVALID_ARGUMENT', 'authentication_send_header'],
      [{ ...key, authentication_send: 'header', authentication_key: 'k', authentication_send_header: 'Webhook-Signature' }, 'INVALID_ARGUMENT', 'authentication_send_header'],
      [{ ...key, authentication_send: 'data', authentication_key: 'k', authentication_send_data: 'event' }, 'ARGUMENT_CONFLICT', 'authentication_send_data'],
      [{ ...key, authentication_send: 'data', authentication_key: 'k', authentication_send_data: 'token', extra_data: '{"token":1}' }, 'ARGUMENT_CONFLICT', 'authentication_send_data'],
      [{ ...key, authentication_send: 'bearer', authentication_key_custom: 'no_such_field' }, 'UNKNOWN_FIELD', 'authentication_key_custom'],
      [{ organization: 'org_doesnotexist00' }, 'NOT_FOUND', 'organization'],
    ];
    const before = await t.db.prisma.webhook.count();
    for (const [args, code, argument] of cases) {
      const all: Record<string, unknown> = { organization, title: 'Bad', trigger_event: 'api', endpoint: rx.url(), ...args };
      for (const k of Object.keys(all)) if (all[k] === undefined) delete all[k];
      const r = await t.rpc('POST', 'organization:webhook', all);
      expect(r.code, JSON.stringify(args)).toBe(code);
      expectError(r, 403, code, argument);
    }
    expect(await t.db.prisma.webhook.count()).toBe(before);
  });

  it('takes a configured user custom field as the key, by its name or as custom_<name>', async () => {
    await userField('badge', 'Badge');
    for (const name of ['badge', 'custom_badge']) {
      const webhook = await create({ authentication: 'key', authentication_send: 'bearer', authentication_key_custom: name });
      const row = await t.db.prisma.webhook.findUniqueOrThrow({ where: { id: webhook } });
      expect(row).toMatchObject({ keyCipher: null, keyCustomField: 'badge' });
    }
  });
});

describe('who may manage webhooks', () => {
  it('organization managers only: the owner and organization admins; members and outsiders are refused', async () => {
    const owner = await t.newCaller('hook-owner');
    const orgAdmin = await t.newCaller('hook-orgadmin');
    const member = await t.newCaller('hook-member');
    const outsider = await t.newCaller('hook-outsider');
    const org = await newOrganization('Managed', owner);
    await addMember(org, orgAdmin, 'admin');
    await addMember(org, member, 'supervisor');
    const base = { organization: org, title: 'Owned', trigger_event: 'api', endpoint: rx.url() };

    const byOwner = await t.rpc('POST', 'organization:webhook', base, { as: owner });
    expect(byOwner.status).toBe(200);
    const webhook = byOwner.body.webhook;
    expect((await t.rpc('POST', 'organization:webhook', base, { as: orgAdmin })).status).toBe(200);
    expect((await t.rpc('GET', 'organization:webhook', { organization: org, webhook }, { as: orgAdmin })).status).toBe(200);

    const before = await t.db.prisma.webhook.count({ where: { organizationId: org } });
    // A member sees the organization and is refused; an outsider is told of no such organization.
    for (const [as, code] of [[member, 'PERMISSION_DENIED'], [outsider, 'NOT_FOUND']] as const) {
      expectError(await t.rpc('POST', 'organization:webhook', base, { as }), 403, code);
      expectError(await t.rpc('GET', 'organization:webhook', { organization: org, webhook }, { as }), 403, code);
      expectError(await t.rpc('PATCH', 'organization:webhook', { organization: org, webhook, active: false }, { as }), 403, code);
      expectError(await t.rpc('DELETE', 'organization:webhook', { organization: org, webhook }, { as }), 403, code);
      expectError(await t.rpc('POST', 'organization:webhook:trigger', { organization: org, webhook, data: '{}' }, { as }), 403, code);
    }
    expect(await t.db.prisma.webhook.count({ where: { organizationId: org } })).toBe(before);
    expect((await t.db.prisma.webhook.findUniqueOrThrow({ where: { id: webhook } })).active).toBe(true);
    expect(await t.db.prisma.webhookDelivery.count({ where: { webhookId: webhook } })).toBe(0);
  });
});

describe('GET, PATCH and DELETE organization:webhook', () => {
  it('reads organization, webhook, title and active; unknown or foreign webhooks are NOT_FOUND', async () => {
    const webhook = await create({ title: 'Readable' });
    const r = await t.rpc('GET', 'organization:webhook', { organization, webhook });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ organization, webhook, title: 'Readable', active: true });
    expect(Object.keys(r.body)).toEqual(['organization', 'webhook', 'title', 'active']);

    expectError(await t.rpc('GET', 'organization:webhook', { organization }), 403, 'MISSING_ARGUMENT', 'webhook');
    expectError(await t.rpc('GET', 'organization:webhook', { webhook }), 403, 'MISSING_ARGUMENT', 'organization');
    expectError(await t.rpc('GET', 'organization:webhook', { organization, webhook: 'whk_missing000000' }), 403, 'NOT_FOUND', 'webhook');
    const other = await newOrganization('Other');
    expectError(await t.rpc('GET', 'organization:webhook', { organization: other, webhook }), 403, 'NOT_FOUND', 'webhook');
  });

  it('PATCH sets active and answers the record; without active nothing changes', async () => {
    const webhook = await create({ title: 'Switchable' });
    const off = await t.rpc('PATCH', 'organization:webhook', { organization, webhook, active: 'false' });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ organization, webhook, title: 'Switchable', active: false });
    expect((await t.rpc('GET', 'organization:webhook', { organization, webhook })).body.active).toBe(false);
    expect((await t.rpc('PATCH', 'organization:webhook', { organization, webhook })).body.active).toBe(false);
    expectError(await t.rpc('PATCH', 'organization:webhook', { organization, webhook, active: 'maybe' }), 403, 'INVALID_ARGUMENT', 'active');
    expect((await t.rpc('PATCH', 'organization:webhook', { organization, webhook, active: true }, { encoding: 'json' })).body.active).toBe(true);
  });

  it('DELETE removes the webhook with its deliveries', async () => {
    const webhook = await create({ title: 'Doomed' });
    const id = await trigger(webhook, { x: 1 });
    expect(await t.db.prisma.job.count({ where: { dedupeKey: id } })).toBe(1);
    const r = await t.rpc('DELETE', 'organization:webhook', { organization, webhook });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ organization, webhook, success: true });
    expectError(await t.rpc('GET', 'organization:webhook', { organization, webhook }), 403, 'NOT_FOUND', 'webhook');
    expect(await t.db.prisma.webhookDelivery.findUnique({ where: { id } })).toBeNull();
    // Its job went with it.
    expect(await t.db.prisma.job.count({ where: { dedupeKey: id } })).toBe(0);
    expectError(await t.rpc('DELETE', 'organization:webhook', { organization, webhook }), 403, 'NOT_FOUND', 'webhook');
  });
});

describe('POST organization:webhook:trigger and delivery', () => {
  it('delivers a signed JSON POST with the documented payload to a real receiver', async () => {
    const org = await t.db.prisma.organization.update({ where: { id: organization }, data: { externalId: 'ext-7' } });
    const webhook = await create({ title: 'Feed', extra_data: '{"source":"lms","tenant":7}' });
    const r = await t.rpc('POST', 'organization:webhook:trigger', { organization, webhook, data: '{"hello":"world","n":1}' });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['organization', 'webhook', 'delivery', 'success']);
    expect(r.body).toMatchObject({ organization, webhook, success: true });
    expect(r.body.delivery).toMatch(/^dlv_[a-z0-9]+$/);
    const queued = await delivery(r.body.delivery);
    expect(queued).toMatchObject({ status: 'pending', attempts: 0, event: 'api' });

    expect(await deliverDueWebhooks(t.platform)).toBe(1);
    const [request] = await rx.waitFor(1);
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe('/hook');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['webhook-id']).toBe(r.body.delivery);
    expect(Math.abs(Number(request!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(10);
    expect(request!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expectSigned(request!, await signingSecret(webhook));
    const payload = JSON.parse(request!.body);
    expect(Object.keys(payload)).toEqual(['id', 'event', 'time', 'organization', 'webhook', 'data', 'source', 'tenant']);
    expect(payload).toEqual({
      id: r.body.delivery,
      event: 'api',
      time: queued.createdAt.toISOString(),
      organization: { organization, id: 'ext-7', title: org.title },
      webhook: { webhook, title: 'Feed' },
      data: { hello: 'world', n: 1 },
      source: 'lms',
      tenant: 7,
    });
    expect(payload.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(await delivery(r.body.delivery)).toMatchObject({ status: 'delivered', attempts: 1, lastStatus: 200, lastError: null, deliveredAt: expect.any(Date) });
    // Delivered once: nothing left to send.
    expect(await deliverDueWebhooks(t.platform)).toBe(0);
    expect(rx.requests).toHaveLength(1);
  });

  it('GET sends the payload as query parameters, keeps the endpoint query, and signs the query string', async () => {
    const webhook = await create({ method: 'GET', endpoint: rx.url('/in?src=lp'), authentication: 'key', authentication_send: 'data', authentication_send_data: 'token', authentication_key: 's3cr3t', extra_data: '{"flag":true}' });
    const id = await trigger(webhook, { score: 0.5, tags: ['a', 'b'] });
    await deliverDueWebhooks(t.platform);
    const [request] = await rx.waitFor(1);
    expect(request!.method).toBe('GET');
    expect(request!.body).toBe('');
    const url = new URL(request!.url, 'http://x');
    expect(url.pathname).toBe('/in');
    const q = Object.fromEntries(url.searchParams);
    expect(Object.keys(q)).toEqual(['src', 'id', 'event', 'time', 'organization', 'webhook', 'data', 'flag', 'token']);
    expect(q).toMatchObject({ src: 'lp', id, event: 'api', flag: 'true', token: 's3cr3t' });
    expect(JSON.parse(q.data!)).toEqual({ score: 0.5, tags: ['a', 'b'] });
    expect(JSON.parse(q.webhook!)).toEqual({ webhook, title: 'Hook' });
    expectSigned(request!, await signingSecret(webhook), request!.url.slice(request!.url.indexOf('?') + 1));
  });

  it('sends the key in the configured header, as a Bearer token, or in the data field', async () => {
    const header = await create({ authentication: 'key', authentication_send: 'header', authentication_send_header: 'X-Api-Key', authentication_key: 'header-key' });
    const bearer = await create({ authentication: 'key', authentication_send: 'bearer', authentication_key: 'bearer-key' });
    const data = await create({ authentication: 'key', authentication_send: 'data', authentication_send_data: 'api_key', authentication_key: 'data-key' });
    const none = await create({});
    const ids = { [await trigger(header)]: 'header', [await trigger(bearer)]: 'bearer', [await trigger(data)]: 'data', [await trigger(none)]: 'none' };
    expect(await deliverDueWebhooks(t.platform)).toBe(4);
    const requests = await rx.waitFor(4);
    const by = (kind: string) => requests.find((q) => ids[String(q.headers['webhook-id'])] === kind)!;
    expect(by('header').headers['x-api-key']).toBe('header-key');
    expect(by('header').headers.authorization).toBeUndefined();
    expect(by('bearer').headers.authorization).toBe('Bearer bearer-key');
    expect(JSON.parse(by('data').body).api_key).toBe('data-key');
    expect(by('data').headers.authorization).toBeUndefined();
    // The stored payload never holds the key.
    expect(JSON.stringify(await t.db.prisma.webhookDelivery.findMany({ where: { webhookId: data } }))).not.toContain('data-key');
    const plain = by('none');
    expect(plain.headers.authorization).toBeUndefined();
    expect(Object.keys(JSON.parse(plain.body))).toEqual(['id', 'event', 'time', 'organization', 'webhook', 'data']);
    expect(JSON.parse(plain.body).data).toBeNull();
  });

  it('a custom-field key is the value of that field of the triggering user; without a value the delivery fails unsent', async () => {
    await userField('hook_key', 'Hook key');
    const holder = await t.newCaller('key-holder');
    const lacking = await t.newCaller('key-lacking');
    await t.db.prisma.user.update({ where: { id: holder.user.id }, data: { customFields: { hook_key: 'from-custom-field' } } });
    const org = await newOrganization('Custom key org', holder);
    await addMember(org, lacking, 'admin');
    const r = await t.rpc('POST', 'organization:webhook', { organization: org, title: 'CF', trigger_event: 'api', endpoint: rx.url(), authentication: 'key', authentication_send: 'bearer', authentication_key_custom: 'hook_key' }, { as: holder });
    const webhook = r.body.webhook;
    const sent = await trigger(webhook, { ok: true }, holder, org);
    await deliverDueWebhooks(t.platform);
    const [request] = await rx.waitFor(1);
    expect(request!.headers.authorization).toBe('Bearer from-custom-field');
    expect(await delivery(sent)).toMatchObject({ status: 'delivered' });

    const unsent = await trigger(webhook, { ok: false }, lacking, org);
    await deliverDueWebhooks(t.platform);
    expect(await delivery(unsent)).toMatchObject({ status: 'failed', attempts: 1, lastStatus: null, lastError: expect.stringContaining("custom field 'hook_key'") });
    expect(rx.requests).toHaveLength(1);
  });

  it('triggers only the named, active api webhook of the organization', async () => {
    const api = await create({ title: 'API' });
    const sibling = await create({ title: 'Sibling API' });
    const exam = await create({ title: 'Exam', trigger_event: 'exam-play-result' });
    const inactive = await create({ title: 'Off' });
    await t.rpc('PATCH', 'organization:webhook', { organization, webhook: inactive, active: false });
    const before = await t.db.prisma.webhookDelivery.count();

    expectError(await t.rpc('POST', 'organization:webhook:trigger', { organization, webhook: exam, data: '{}' }), 403, 'NOT_API_WEBHOOK', 'webhook');
    expectError(await t.rpc('POST', 'organization:webhook:trigger', { organization, webhook: inactive, data: '{}' }), 403, 'WEBHOOK_INACTIVE', 'webhook');
    expectError(await t.rpc('POST', 'organization:webhook:trigger', { organization, data: '{}' }), 403, 'MISSING_ARGUMENT', 'webhook');
    expectError(await t.rpc('POST', 'organization:webhook:trigger', { organization, webhook: api, data: '{nope' }), 403, 'INVALID_ARGUMENT', 'data');
    expectError(await t.rpc('POST', 'organization:webhook:trigger', { organization: await newOrganization('Elsewhere'), webhook: api }), 403, 'NOT_FOUND', 'webhook');
    expect(await t.db.prisma.webhookDelivery.count()).toBe(before);

    const id = await trigger(api, [1, 2, 3]);
    expect(await t.db.prisma.webhookDelivery.count()).toBe(before + 1);
    expect((await delivery(id)).webhookId).toBe(api);
    expect(await t.db.prisma.webhookDelivery.count({ where: { webhookId: sibling } })).toBe(0);
    await deliverDueWebhooks(t.platform);
    expect(JSON.parse((await rx.waitFor(1))[0]!.body).data).toEqual([1, 2, 3]);
  });

  it('enqueueEvent queues one delivery per active webhook listening to the event, in the caller transaction', async () => {
    const org = await newOrganization('Events org');
    const base = { organization: org, endpoint: rx.url() };
    const make = async (title: string, trigger_event: string) =>
      (await t.rpc('POST', 'organization:webhook', { ...base, title, trigger_event })).body.webhook as string;
    const a = await make('A', 'exam-play-result');
    const b = await make('B', 'exam-play-result');
    const off = await make('Off', 'exam-play-result');
    await make('Quiz', 'quiz-play-result');
    await make('API', 'api');
    await t.rpc('PATCH', 'organization:webhook', { organization: org, webhook: off, active: false });

    // A rolled-back transaction leaves no delivery behind.
    await expect(
      t.db.prisma.$transaction(async (tx) => {
        await enqueueEvent(tx, { organizationId: org, event: 'exam-play-result', data: { result: 1 } });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await t.db.prisma.webhookDelivery.count({ where: { webhook: { organizationId: org } } })).toBe(0);

    const ids = await t.db.prisma.$transaction((tx) => enqueueEvent(tx, { organizationId: org, event: 'exam-play-result', data: { result: 1 } }));
    expect(ids).toHaveLength(2);
    const rows = await t.db.prisma.webhookDelivery.findMany({ where: { id: { in: ids } } });
    expect(rows.map((r) => r.webhookId).sort()).toEqual([a, b].sort());
    expect(rows.every((r) => r.event === 'exam-play-result' && r.status === 'pending')).toBe(true);
    await deliverDueWebhooks(t.platform);
    const requests = await rx.waitFor(2);
    expect(requests.map((q) => JSON.parse(q.body).event)).toEqual(['exam-play-result', 'exam-play-result']);
  });

  it('retry=error retries non-2xx answers with exponential backoff, then succeeds', async () => {
    const webhook = await create({});
    const id = await trigger(webhook, { try: 1 });
    rx.answer(500);
    const started = Date.now();
    await deliverDueWebhooks(t.platform);
    let row = await delivery(id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastStatus: 500, lastError: 'HTTP 500', deliveredAt: null });
    expect(row.nextAttemptAt.getTime() - started).toBeGreaterThanOrEqual(RETRY_BASE_MS - 50);
    expect(row.nextAttemptAt.getTime() - Date.now()).toBeLessThanOrEqual(RETRY_BASE_MS);
    // Not due yet: nothing is sent.
    expect(await deliverDueWebhooks(t.platform)).toBe(0);
    expect(rx.requests).toHaveLength(1);

    await new Promise((r) => setTimeout(r, RETRY_BASE_MS + 50));
    await deliverDueWebhooks(t.platform);
    row = await delivery(id);
    // The second wait doubles.
    expect(row).toMatchObject({ status: 'pending', attempts: 2, lastStatus: 500 });
    expect(row.nextAttemptAt.getTime() - Date.now()).toBeGreaterThan(RETRY_BASE_MS);

    rx.answer(204);
    await new Promise((r) => setTimeout(r, 2 * RETRY_BASE_MS + 50));
    await deliverDueWebhooks(t.platform);
    expect(await delivery(id)).toMatchObject({ status: 'delivered', attempts: 3, lastStatus: 204, lastError: null });
    // Every attempt carried the same delivery id and body.
    expect(new Set(rx.requests.map((q) => q.headers['webhook-id']))).toEqual(new Set([id]));
    expect(new Set(rx.requests.map((q) => q.body)).size).toBe(1);
  });

  it('gives up after WEBHOOK_MAX_ATTEMPTS; network errors, timeouts and redirects count as failures', async () => {
    const closed = await freePort();
    const down = await create({ endpoint: `http://127.0.0.1:${closed}/hook` });
    const id = await trigger(down);
    for (let attempt = 1; attempt <= 3; attempt++) {
      await makeDue(id);
      await deliverDueWebhooks(t.platform);
      const row = await delivery(id);
      expect(row.attempts).toBe(attempt);
      expect(row.lastStatus).toBeNull();
      expect(row.lastError).toContain('ECONNREFUSED');
      expect(row.status).toBe(attempt < 3 ? 'pending' : 'failed');
    }

    const slow = await create({});
    rx.answer(200, { delayMs: 1500 });
    const timedOut = await trigger(slow);
    const started = Date.now();
    await deliverDueWebhooks(t.platform);
    expect(Date.now() - started).toBeLessThan(1400);
    expect(await delivery(timedOut)).toMatchObject({ status: 'pending', attempts: 1, lastStatus: null, lastError: 'timed out' });

    rx.answer(302, { location: rx.url('/elsewhere') });
    const redirected = await trigger(slow);
    await t.db.prisma.webhookDelivery.deleteMany({ where: { id: timedOut } });
    await deliverDueWebhooks(t.platform);
    expect(await delivery(redirected)).toMatchObject({ status: 'pending', lastStatus: 302, lastError: 'HTTP 302' });
    expect(rx.requests.some((q) => q.url === '/elsewhere')).toBe(false);
  });

  it('retry=none tries once; a webhook deactivated after the event fails its deliveries unsent', async () => {
    const once = await create({ retry: 'none' });
    rx.answer(503);
    const id = await trigger(once);
    await deliverDueWebhooks(t.platform);
    expect(await delivery(id)).toMatchObject({ status: 'failed', attempts: 1, lastStatus: 503, lastError: 'HTTP 503' });

    rx.answer(200);
    const later = await create({});
    const queued = await trigger(later);
    await t.rpc('PATCH', 'organization:webhook', { organization, webhook: later, active: false });
    await deliverDueWebhooks(t.platform);
    expect(await delivery(queued)).toMatchObject({ status: 'failed', attempts: 1, lastError: 'the webhook is inactive' });
    expect(rx.requests).toHaveLength(1);
  });

  it('connects to the address the guard resolved for a host name', async () => {
    const webhook = await create({ endpoint: `http://localhost:${rx.port}/named` });
    const id = await trigger(webhook, { via: 'name' });
    await deliverDueWebhooks(t.platform);
    const [request] = await rx.waitFor(1);
    expect(request!.url).toBe('/named');
    expect(request!.headers.host).toBe(`localhost:${rx.port}`);
    expect(await delivery(id)).toMatchObject({ status: 'delivered', lastStatus: 200 });
  });

  it('concurrent workers claim each delivery once', async () => {
    const webhook = await create({});
    const ids = [await trigger(webhook, 1), await trigger(webhook, 2), await trigger(webhook, 3)];
    const counts = await Promise.all([deliverDueWebhooks(t.platform), deliverDueWebhooks(t.platform), deliverDueWebhooks(t.platform)]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(3);
    await new Promise((r) => setTimeout(r, 200));
    expect(rx.requests.map((q) => q.headers['webhook-id']).sort()).toEqual([...ids].sort());
  });
});

describe('address guard (default configuration: WEBHOOK_ALLOW_PRIVATE unset)', () => {
  let strict: TestApp;
  let strictOrg: string;
  beforeAll(async () => {
    strict = await createTestApp({ WEBHOOK_MAX_ATTEMPTS: '2', WEBHOOK_RETRY_BASE_MS: '100' });
    strictOrg = (await seed(strict).admin.organization({ title: 'Strict' })).id;
  });
  afterAll(() => strict?.close());

  it('classifies addresses: loopback, private, link-local, unspecified, CGNAT and multicast are not public', () => {
    for (const a of ['127.0.0.1', '127.9.9.9', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '0.0.0.0', '100.64.0.1', '224.0.0.1', '255.255.255.255', '::1', '::', 'fc00::1', 'fd12::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.1.2.3']) {
      expect(isNonPublicAddress(a), a).toBe(true);
    }
    for (const a of ['8.8.8.8', '172.32.0.1', '100.128.0.1', '93.184.216.34', '2606:4700::1111', '::ffff:8.8.8.8']) {
      expect(isNonPublicAddress(a), a).toBe(false);
    }
  });

  it('refuses endpoints resolving to non-public addresses at configuration (403), and creates nothing', async () => {
    for (const endpoint of ['http://127.0.0.1:8080/hook', 'http://10.0.0.1/hook', 'http://localhost/hook', 'http://[::1]/hook', 'http://169.254.169.254/latest', 'https://100.64.0.1/', 'http://0.0.0.0/', 'http://[::ffff:192.168.0.1]/']) {
      const r = await strict.rpc('POST', 'organization:webhook', { organization: strictOrg, title: 'Internal', trigger_event: 'api', endpoint });
      expectError(r, 403, 'ENDPOINT_NOT_ALLOWED', 'endpoint');
      expect(r.error).toMatch(/non-public/);
    }
    expect(await strict.db.prisma.webhook.count()).toBe(0);
  });

  it('checks again at delivery: a host that now resolves to a non-public address gets no request', async () => {
    // As if DNS changed after configuration: the stored endpoint points at this machine. Written
    // directly, since this app's service refuses such an endpoint.
    const webhook = await strict.db.prisma.webhook.create({
      data: { id: newId('Webhook'), organizationId: strictOrg, title: 'Rebound', triggerEvent: 'api', endpoint: rx.url('/rebound'), signingSecretCipher: strict.platform.secrets.seal('whsec_AAAA') },
    });
    const r = await strict.rpc('POST', 'organization:webhook:trigger', { organization: strictOrg, webhook: webhook.id, data: '{}' });
    expect(r.status).toBe(200);
    await deliverDueWebhooks(strict.platform);
    const row = await strict.db.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: r.body.delivery } });
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastStatus: null });
    expect(row.lastError).toMatch(/resolves to 127\.0\.0\.1.*non-public/);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(rx.requests.filter((q) => q.url === '/rebound')).toHaveLength(0);
  });

  const strictHook = async (endpoint: string) => {
    const r = await strict.rpc('POST', 'organization:webhook', { organization: strictOrg, title: 'Named', trigger_event: 'api', endpoint });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.webhook as string;
  };
  const strictTrigger = async (webhook: string) => {
    const r = await strict.rpc('POST', 'organization:webhook:trigger', { organization: strictOrg, webhook, data: '{}' });
    expect(r.status).toBe(200);
    return r.body.delivery as string;
  };
  const strictDelivery = (id: string) => strict.db.prisma.webhookDelivery.findUniqueOrThrow({ where: { id } });

  it('accepts a host name without resolving it at configuration; a name that does not resolve fails attempts, retried per the policy', async () => {
    // Reserved for documentation (RFC 2606): it resolves nowhere, with DNS or without.
    const webhook = await strictHook('https://hooks.partner.example/in');
    const id = await strictTrigger(webhook);
    const started = Date.now();
    expect(await deliverDueWebhooks(strict.platform)).toBe(0);
    const first = await strictDelivery(id);
    expect(first).toMatchObject({ status: 'pending', attempts: 1, lastStatus: null, lastError: "the host 'hooks.partner.example' does not resolve" });
    expect(first.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(started + 100);
    expect(first.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now() + 100);

    await makeDue(id, strict);
    await deliverDueWebhooks(strict.platform);
    expect(await strictDelivery(id)).toMatchObject({ status: 'failed', attempts: 2, lastError: "the host 'hooks.partner.example' does not resolve" });
    expect(await strict.db.prisma.job.findFirst({ where: { task: 'webhooks.deliver', payload: { equals: { delivery: id } } } })).toMatchObject({ status: 'failed', attempts: 2 });
  });

  it('refuses obviously local names at configuration, and names under .invalid whatever the setting', async () => {
    const local = ['http://app.localhost/hook', 'http://localhost./hook', 'http://printer.local/hook', 'http://metadata.google.internal/computeMetadata/v1/', 'http://router.home.arpa/', 'http://db.localdomain/', 'http://intranet:8080/hook'];
    for (const endpoint of local) {
      const r = await strict.rpc('POST', 'organization:webhook', { organization: strictOrg, title: 'Local', trigger_event: 'api', endpoint });
      expectError(r, 403, 'ENDPOINT_NOT_ALLOWED', 'endpoint');
      expect(r.error, endpoint).toMatch(/local name.*non-public/);
    }
    expectError(await strict.rpc('POST', 'organization:webhook', { organization: strictOrg, title: 'Nowhere', trigger_event: 'api', endpoint: 'http://hooks.example.invalid/' }), 403, 'ENDPOINT_UNRESOLVABLE', 'endpoint');
    expect(await strict.db.prisma.webhook.count({ where: { title: { in: ['Local', 'Nowhere'] } } })).toBe(0);
    // WEBHOOK_ALLOW_PRIVATE=true lets the local names through.
    for (const endpoint of local) expect((await t.rpc('POST', 'organization:webhook', { organization, title: 'Local allowed', trigger_event: 'api', endpoint })).status, endpoint).toBe(200);
  });

  it('a stored host name that resolves to a non-public address fails at delivery, and is retried', async () => {
    // As if configured while WEBHOOK_ALLOW_PRIVATE was set: written directly, since this app's service refuses the name.
    const webhook = await strict.db.prisma.webhook.create({
      data: { id: newId('Webhook'), organizationId: strictOrg, title: 'Local name', triggerEvent: 'api', endpoint: `http://localhost:${rx.port}/local-name`, signingSecretCipher: strict.platform.secrets.seal('whsec_AAAA') },
    });
    const id = await strictTrigger(webhook.id);
    await deliverDueWebhooks(strict.platform);
    const row = await strictDelivery(id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastStatus: null });
    expect(row.lastError).toMatch(/^the host 'localhost' resolves to (127\.0\.0\.1|::1), a loopback, private, link-local or other non-public address$/);
    await makeDue(id, strict);
    await deliverDueWebhooks(strict.platform);
    expect(await strictDelivery(id)).toMatchObject({ status: 'failed', attempts: 2 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(rx.requests.filter((q) => q.url === '/local-name')).toHaveLength(0);
  });
});
