import type { Platform } from '../context.ts';
import { useLoginLink } from '../services/users/login-links.service.ts';
import { jwkSet } from '../services/integrations/keys.ts';

export interface SimpleResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const json = (status: number, value: unknown): SimpleResponse => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: JSON.stringify(value),
});

const SESSION_HOURS = 12;

/** `GET /login/<token>` and `GET /l/<code>`: signs the user in and redirects. */
export async function loginPage(platform: Platform, lookup: { token: string } | { shortCode: string }): Promise<SimpleResponse> {
  const outcome = await useLoginLink(platform, lookup);
  if (!outcome.ok) return { status: 410, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: outcome.reason };
  const expires = Date.now() + SESSION_HOURS * 3600_000;
  const session = platform.secrets.seal(JSON.stringify({ sub: outcome.user.id, exp: expires }));
  const secure = platform.config.baseUrl.startsWith('https:') ? '; Secure' : '';
  return {
    status: 302,
    headers: {
      location: `${platform.config.baseUrl}${outcome.redirect}`,
      'set-cookie': `session=${session}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_HOURS * 3600}${secure}`,
      'cache-control': 'no-store',
    },
    body: '',
  };
}

/** `GET /lti/<integration>/jwks.json`: the public key set of an LTI 1.3 integration. */
export async function jwksPage(platform: Platform, integrationId: string): Promise<SimpleResponse> {
  const integration = await platform.db.integration.findUnique({ where: { id: integrationId } });
  if (!integration || integration.lti !== '1.3') return json(404, { error: { code: 'NOT_FOUND', message: 'No such key set' } });
  return json(200, jwkSet(integration));
}

/** `GET /health`: 200 only once the database is migrated and answers. */
export async function healthPage(platform: Platform, ready: boolean): Promise<SimpleResponse> {
  if (!ready) return json(503, { status: 'starting' });
  try {
    await platform.db.$queryRaw`SELECT 1`;
    return json(200, { status: 'ok', database: 'ready' });
  } catch {
    return json(503, { status: 'unavailable', database: 'unreachable' });
  }
}

/** HEAD on a login link: answers without using a login. */
export const linkProbe = (): SimpleResponse => ({ status: 200, headers: { 'cache-control': 'no-store' }, body: '' });

export const notFound = () => json(404, { error: { code: 'NOT_FOUND', message: 'Not found' } });
