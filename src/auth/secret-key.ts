import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Config } from '../config.ts';
import { parseSecretKey } from './secrets.ts';

/**
 * The key that encrypts secrets at rest: SECRET_KEY when set (required for several instances,
 * which must share it), otherwise a key file created once in DATA_DIR and readable only by us.
 */
export function loadSecretKey(config: Pick<Config, 'SECRET_KEY' | 'DATA_DIR'>): { key: Buffer; source: 'env' | 'file' | 'new file' } {
  if (config.SECRET_KEY) return { key: parseSecretKey(config.SECRET_KEY), source: 'env' };
  const file = path.resolve(config.DATA_DIR, 'secret.key');
  if (existsSync(file)) return { key: parseSecretKey(readFileSync(file, 'utf8').trim()), source: 'file' };
  mkdirSync(path.dirname(file), { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('hex'), { mode: 0o600, flag: 'wx' });
  return { key, source: 'new file' };
}
