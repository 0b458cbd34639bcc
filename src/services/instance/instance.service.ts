import { z } from 'zod';
import type { Context } from '../../context.ts';
import type { User } from '../../generated/prisma/client.ts';
import { assertMay } from '../../auth/policy.ts';
import { audit } from '../audit/audit.service.ts';
import { bool, code, oneOf, parseInput } from '../validation.ts';
import { features, type Feature } from './settings.service.ts';
import { findUser } from '../users/access.ts';

const setFeatureInput = z.object({
  feature: oneOf(features),
  /** null clears a user's own switch, so the instance setting applies again. */
  enabled: bool().nullable(),
  user: code().optional(),
});

function requireAdministrator(ctx: Context): void {
  assertMay(ctx.viewer.user, 'instance:settings:update');
}

export interface FeatureState {
  feature: Feature;
  enabled: boolean;
  /** Where the value comes from: the user's own switch or the instance. */
  source: 'user' | 'instance';
}

/** The effective feature switches of a user (the viewer by default). */
export async function featureStates(ctx: Context, user: Pick<User, 'features'> = ctx.viewer.user): Promise<FeatureState[]> {
  const instance = (await ctx.settings.current()).features;
  const own = (user.features ?? {}) as Partial<Record<Feature, boolean>>;
  return features.map((feature) => ({
    feature,
    enabled: own[feature] ?? instance[feature],
    source: own[feature] === undefined ? 'instance' : 'user',
  }));
}

/** The effective feature switches of the user named by `user` (one the viewer may read), or of the viewer. */
export async function userFeatureStates(ctx: Context, raw: { user?: string | null }): Promise<FeatureState[]> {
  return featureStates(ctx, raw.user ? await findUser(ctx, raw.user) : ctx.viewer.user);
}

/** Switches a feature for the whole instance, or for one user (administrators only). */
export async function setFeature(ctx: Context, raw: Record<string, unknown>): Promise<FeatureState[]> {
  requireAdministrator(ctx);
  const input = parseInput(setFeatureInput, raw);
  if (input.user === undefined) {
    const current = (await ctx.settings.current()).features;
    await ctx.db.$transaction(async (tx) => {
      const value = { ...current, [input.feature]: input.enabled ?? true };
      await tx.instanceSetting.upsert({ where: { key: 'features' }, create: { key: 'features', value }, update: { value } });
      await audit(ctx, tx, `instance.feature.${input.feature}`, String(input.enabled));
    });
    ctx.settings.invalidate();
    return featureStates(ctx);
  }
  const user = await findUser(ctx, input.user);
  const own = { ...((user.features ?? {}) as Record<string, boolean>) };
  if (input.enabled === null) delete own[input.feature];
  else own[input.feature] = input.enabled;
  const updated = await ctx.db.$transaction(async (tx) => {
    const u = await tx.user.update({ where: { id: user.id }, data: { features: own } });
    await audit(ctx, tx, `user.feature.${input.feature}`, user.id);
    return u;
  });
  return featureStates(ctx, updated);
}

/** Maintenance mode: every call answers 503 until it is switched off (shared by all instances). */
export async function setMaintenance(ctx: Context, raw: Record<string, unknown>): Promise<boolean> {
  requireAdministrator(ctx);
  const { enabled } = parseInput(z.object({ enabled: bool() }), raw);
  await ctx.db.$transaction(async (tx) => {
    await tx.instanceSetting.upsert({ where: { key: 'maintenance' }, create: { key: 'maintenance', value: enabled }, update: { value: enabled } });
    await audit(ctx, tx, 'instance.maintenance', String(enabled));
  });
  ctx.settings.invalidate();
  return enabled;
}

/**
 * What the service understood of a call (REST test:app, GraphQL testApp): the contract version
 * (`default` when none was chosen), the language, the application and the user it acts as.
 */
export function callCheck(ctx: Context, version?: string) {
  return { version: version ?? 'default', language: ctx.language, app: ctx.viewer.integration.appId, user: ctx.viewer.user.id, status: true as const };
}
