import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from '../src/config.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('the configuration was accepted');
}

describe("the README's configuration table", () => {
  /** Variable -> its Default cell, from the rows of the table (a row may name several variables). */
  const rows = new Map<string, string>();
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const table = /\n## Configuration\n[\s\S]*?\n\| Variable \| Default \| Meaning \|\n\|---\|---\|---\|\n((?:\|.*\n)+)/.exec(readme)?.[1] ?? '';
  for (const row of table.trim().split('\n')) {
    const [names, value] = row.split(' | ');
    for (const m of names!.matchAll(/`([A-Z0-9_]+)`/g)) {
      expect(rows.has(m[1]!), `${m[1]} listed twice`).toBe(false);
      rows.set(m[1]!, value!);
    }
  }

  it('lists every variable the configuration reads, and no other', () => {
    expect([...rows.keys()].sort()).toEqual([...CONFIG_VARIABLES].sort());
  });

  it('gives each variable the default the configuration applies', () => {
    const defaults = loadConfig({}) as unknown as Record<string, unknown>;
    for (const name of CONFIG_VARIABLES) {
      const value = defaults[name];
      // A variable without a default is unset, or derived from others (the cell says from what).
      if (value === undefined) expect(rows.get(name), name).not.toMatch(/^`[^`<]*`$/);
      else expect(rows.get(name), name).toBe(`\`${String(value)}\``);
    }
  });
});

describe('loadConfig', () => {
  it('has documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      PORT: 4000,
      HOST: '0.0.0.0',
      DATA_DIR: './data',
      LOG_LEVEL: 'info',
      MAINTENANCE: false,
      ASSUME_TOKEN_TTL_SECONDS: 3600,
      baseUrl: 'http://localhost:4000',
      database: { kind: 'pglite', dataDir: './data' },
      rateLimit: { perSecond: 50, perMinute: 1200, redisUrl: undefined },
    });
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.SECRET_KEY).toBeUndefined();
    expect(c.BOOTSTRAP_APP).toBeUndefined();
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '', LOG_LEVEL: '' })).toMatchObject({ PORT: 4000, LOG_LEVEL: 'info', database: { kind: 'pglite' } });
  });

  it('derives the base URL from host and port, unless BASE_URL is set', () => {
    expect(loadConfig({ PORT: '8080' }).baseUrl).toBe('http://localhost:8080');
    expect(loadConfig({ HOST: '::', PORT: '8080' }).baseUrl).toBe('http://localhost:8080');
    expect(loadConfig({ HOST: '127.0.0.1', PORT: '8081' }).baseUrl).toBe('http://127.0.0.1:8081');
    expect(loadConfig({ BASE_URL: 'https://learn.example.com/' }).baseUrl).toBe('https://learn.example.com');
    expect(loadConfig({ BASE_URL: 'https://example.com/learn//', PORT: '9' }).baseUrl).toBe('https://example.com/learn');
  });

  it('switches to PostgreSQL with DATABASE_URL', () => {
    const url = 'postgres://user@db.example.com:5432/learn?schema=tenant';
    expect(loadConfig({ DATABASE_URL: url, DATA_DIR: '/var/lib/x' }).database).toEqual({ kind: 'postgres', url });
    expect(loadConfig({ DATABASE_URL: 'postgresql://db/learn' }).database).toEqual({ kind: 'postgres', url: 'postgresql://db/learn' });
    expect(problemsOf({ DATABASE_URL: 'mysql://db/learn' })).toEqual(['DATABASE_URL: must be a postgres:// URL']);
  });

  it('reads booleans, numbers and the rate limits', () => {
    const c = loadConfig({ MAINTENANCE: 'yes', RATE_LIMIT_PER_SECOND: '0', RATE_LIMIT_PER_MINUTE: '600', REDIS_URL: 'redis://cache:6379' });
    expect(c.MAINTENANCE).toBe(true);
    expect(c.rateLimit).toEqual({ perSecond: 0, perMinute: 600, redisUrl: 'redis://cache:6379' });
    expect(loadConfig({ MAINTENANCE: '0' }).MAINTENANCE).toBe(false);
  });

  it('takes the password hash cost as log2 of scrypt N, 14 by default, 1 to 17', () => {
    expect(loadConfig({}).PASSWORD_HASH_COST).toBe(14);
    expect(loadConfig({ PASSWORD_HASH_COST: '4' }).PASSWORD_HASH_COST).toBe(4);
    expect(loadConfig({ PASSWORD_HASH_COST: '17' }).PASSWORD_HASH_COST).toBe(17);
    for (const bad of ['0', '18', 'fast', '12.5']) {
      expect(problemsOf({ PASSWORD_HASH_COST: bad })).toEqual(['PASSWORD_HASH_COST: must be a whole number from 1 to 17']);
    }
  });

  it('accepts SECRET_KEY as 64 hex characters or base64 of 32 bytes', () => {
    const key = randomBytes(32);
    expect(loadConfig({ SECRET_KEY: key.toString('hex') }).SECRET_KEY).toBe(key.toString('hex'));
    expect(loadConfig({ SECRET_KEY: key.toString('base64') }).SECRET_KEY).toBe(key.toString('base64'));
    expect(problemsOf({ SECRET_KEY: 'not-a-key' })).toEqual(['SECRET_KEY: must be 32 bytes, as 64 hex characters or base64']);
  });

  it('lists every problem of a bad configuration at once, each naming its variable', () => {
    const problems = problemsOf({
      PORT: 'abc',
      LOG_LEVEL: 'loud',
      DATABASE_URL: 'mysql://db/learn',
      BASE_URL: 'not a url',
      RATE_LIMIT_PER_SECOND: '-1',
      MAINTENANCE: 'maybe',
      ASSUME_TOKEN_TTL_SECONDS: '5',
      REDIS_URL: 'memcached://x',
      BOOTSTRAP_APP: 'short',
    });
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(
      [
        'ASSUME_TOKEN_TTL_SECONDS',
        'BASE_URL',
        'BOOTSTRAP_APP',
        'BOOTSTRAP_SECRET',
        'DATABASE_URL',
        'LOG_LEVEL',
        'MAINTENANCE',
        'PORT',
        'RATE_LIMIT_PER_SECOND',
        'REDIS_URL',
      ].sort(),
    );
    expect(problems).toContain('PORT: must be a whole number from 0 to 65535');
    expect(problems).toContain('ASSUME_TOKEN_TTL_SECONDS: must be a whole number from 30 to 86400');
    expect(problems).toContain('MAINTENANCE: must be true, false, 1, 0, yes or no');
    // The message printed at start carries each problem on a line of its own.
    const message = new ConfigError(problems).message;
    expect(message.split('\n')).toHaveLength(problems.length + 1);
  });

  it('refuses BOOTSTRAP_APP without BOOTSTRAP_SECRET and the other way round', () => {
    const together = 'BOOTSTRAP_SECRET: BOOTSTRAP_APP and BOOTSTRAP_SECRET must be set together';
    expect(problemsOf({ BOOTSTRAP_APP: 'bootstrap-app' })).toEqual([together]);
    expect(problemsOf({ BOOTSTRAP_SECRET: 'a-secret-of-enough-length' })).toEqual([together]);
    expect(problemsOf({ BOOTSTRAP_APP: 'bootstrap-app', BOOTSTRAP_SECRET: 'too short' })).toEqual(['BOOTSTRAP_SECRET: at least 16 characters']);
    expect(loadConfig({ BOOTSTRAP_APP: 'bootstrap-app', BOOTSTRAP_SECRET: 'a-secret-of-enough-length' })).toMatchObject({
      BOOTSTRAP_APP: 'bootstrap-app',
      BOOTSTRAP_SECRET: 'a-secret-of-enough-length',
    });
  });
});

describe('service start with a bad configuration', () => {
  it('exits 1 printing every problem, before touching DATA_DIR', { timeout: 60_000 }, async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'config-test-'));
    try {
      const { PATH = '', HOME = '' } = process.env;
      const child = spawn('npx', ['tsx', 'src/main.ts'], {
        cwd: ROOT,
        env: { PATH, HOME, DATA_DIR: dataDir, PORT: 'abc', LOG_LEVEL: 'loud', BOOTSTRAP_APP: 'bootstrap-app' },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toContain('Invalid configuration:\n');
      expect(stderr).toContain('  - PORT: must be a whole number from 0 to 65535\n');
      expect(stderr).toContain('  - LOG_LEVEL: ');
      expect(stderr).toContain('  - BOOTSTRAP_SECRET: BOOTSTRAP_APP and BOOTSTRAP_SECRET must be set together\n');
      expect(readdirSync(dataDir)).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
