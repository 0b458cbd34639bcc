import { describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { InstanceSettings } from './settings.service.ts';

/** A database holding the `features` setting, counting reads; `hold` keeps reads waiting until released. */
function settingsDb() {
  const state = { features: {} as Record<string, boolean>, reads: 0, hold: false, waiting: [] as (() => void)[] };
  const gate = () => (state.hold ? new Promise<void>((resolve) => state.waiting.push(resolve)) : Promise.resolve());
  const db = {
    instanceSetting: {
      findMany: async () => {
        state.reads += 1;
        const features = { ...state.features };
        await gate();
        return [{ key: 'features', value: features }];
      },
    },
    language: { findMany: async () => [{ code: 'en' }] },
  } as unknown as Db;
  const release = () => {
    state.hold = false;
    for (const resolve of state.waiting.splice(0)) resolve();
  };
  return { db, state, release };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('instance settings snapshot', () => {
  it('reads once for calls that arrive together before the first snapshot', async () => {
    const { db, state } = settingsDb();
    const settings = new InstanceSettings(db, { maintenance: false, ttlMs: 50 });
    const answers = await Promise.all([settings.isEnabled('library'), settings.isEnabled('journeys'), settings.isEnabled('privileged_fields')]);
    expect(answers).toEqual([true, true, false]);
    expect(state.reads).toBe(1);
  });

  it('answers a stale snapshot at once and replaces it with one background read', async () => {
    const { db, state, release } = settingsDb();
    const settings = new InstanceSettings(db, { maintenance: false, ttlMs: 20 });
    await settings.current();
    state.features = { library: false };
    await sleep(30);
    expect(settings.fresh()).toBeUndefined();

    state.hold = true;
    // Every call of the expired moment gets the old answer, none waits for the database.
    const during = await Promise.all([1, 2, 3].map(() => settings.isEnabled('library')));
    expect(during).toEqual([true, true, true]);
    expect(state.reads).toBe(2);
    release();
    await sleep(0);
    expect(await settings.isEnabled('library')).toBe(false);
    expect(settings.fresh()?.features.library).toBe(false);
    expect(state.reads).toBe(2);
  });

  it('forgets the snapshot on a change, and a read begun before the change does not bring it back', async () => {
    const { db, state, release } = settingsDb();
    const settings = new InstanceSettings(db, { maintenance: false, ttlMs: 20 });
    await settings.current();
    await sleep(30);
    state.hold = true;
    await settings.current(); // starts a background read that sees library on
    state.features = { library: false };
    settings.invalidate();
    const after = settings.isEnabled('library');
    release();
    expect(await after).toBe(false);
    await sleep(0);
    expect(settings.fresh()?.features.library).toBe(false);
  });

  it('a user’s own switch wins over the instance', async () => {
    const { db } = settingsDb();
    const settings = new InstanceSettings(db, { maintenance: false });
    expect(await settings.isEnabled('privileged_fields', { features: { privileged_fields: true } })).toBe(true);
    await expect(settings.require('library', { features: { library: false } })).rejects.toMatchObject({ status: 406 });
  });
});
