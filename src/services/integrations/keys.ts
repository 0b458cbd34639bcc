import { generateKeyPairSync, createPublicKey } from 'node:crypto';
import type { Platform } from '../../context.ts';
import type { Integration } from '../../generated/prisma/client.ts';
import { randomToken } from '../../ids.ts';

export type KeyKind = 'api' | 'lti1' | 'lti13';

export function keyKindOf(integration: Pick<Integration, 'type' | 'lti'>): KeyKind {
  if (integration.type === 'api') return 'api';
  return integration.lti === '1.3' ? 'lti13' : 'lti1';
}

/** Fresh key material for an integration, with its secrets already sealed for storage. */
export function generateKeys(platform: Pick<Platform, 'secrets'>, kind: KeyKind) {
  if (kind === 'lti13') {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    return {
      appId: null,
      consumerKey: null,
      secretCipher: null,
      keyId: randomToken(16),
      publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      privateKeyCipher: platform.secrets.seal(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()),
    };
  }
  return {
    appId: kind === 'api' ? randomToken(24) : null,
    consumerKey: kind === 'lti1' ? randomToken(24) : null,
    secretCipher: platform.secrets.seal(randomToken(48)),
    keyId: null,
    publicKeyPem: null,
    privateKeyCipher: null,
  };
}

export interface KeysRecord {
  app?: string;
  consumer?: string;
  secret?: string;
  jwk?: string;
  pem?: string;
}

/** The keys record of the contract: each key appears only for the integration kinds it belongs to. */
export function keysRecord(platform: Pick<Platform, 'secrets' | 'config'>, integration: Integration): KeysRecord {
  switch (keyKindOf(integration)) {
    case 'api':
      return { app: integration.appId!, secret: platform.secrets.open(integration.secretCipher!) };
    case 'lti1':
      return { consumer: integration.consumerKey!, secret: platform.secrets.open(integration.secretCipher!) };
    case 'lti13':
      return { jwk: jwksUrl(platform, integration), pem: integration.publicKeyPem! };
  }
}

export function jwksUrl(platform: Pick<Platform, 'config'>, integration: Pick<Integration, 'id'>): string {
  return `${platform.config.baseUrl}/lti/${integration.id}/jwks.json`;
}

/** The public JWK set of an LTI 1.3 integration. */
export function jwkSet(integration: Integration): { keys: object[] } {
  if (!integration.publicKeyPem || !integration.keyId) return { keys: [] };
  const jwk = createPublicKey(integration.publicKeyPem).export({ format: 'jwk' });
  return { keys: [{ ...jwk, kid: integration.keyId, alg: 'RS256', use: 'sig' }] };
}

/** New secret material for an existing integration: its public app id and consumer key stay. */
export function replacementKeys(platform: Pick<Platform, 'secrets'>, integration: Pick<Integration, 'type' | 'lti'>) {
  const { appId: _app, consumerKey: _consumer, ...keys } = generateKeys(platform, keyKindOf(integration));
  return keys;
}
