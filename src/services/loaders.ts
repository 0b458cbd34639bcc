import DataLoader from 'dataloader';
import type { Context, Loaders, ResultQuestionFacts } from '../context.ts';
import { organizationAccesses, visibleMembersEverywhere } from '../auth/organization-policy.ts';

const byId = <T extends { id: string }>(ids: readonly string[], rows: T[]) => {
  const found = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => found.get(id) ?? null);
};

export function createLoaders(ctx: Context): Loaders {
  const computed = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, compute: () => Promise<T>): Promise<T> => {
    if (!computed.has(key)) computed.set(key, compute());
    return computed.get(key) as Promise<T>;
  };
  const visibleMembersWhere = () => once('visibleMembers', () => visibleMembersEverywhere(ctx.db, ctx.viewer));
  return {
    organization: new DataLoader(async (ids) => byId(ids, await ctx.db.organization.findMany({ where: { id: { in: [...ids] } } }))),
    organizationAccess: new DataLoader((organizations) => organizationAccesses(ctx.db, ctx.viewer, organizations), { cacheKeyFn: (o) => o.id }),
    visibleMember: new DataLoader(
      async (keys) => {
        const rows = await ctx.db.organizationMember.findMany({
          where: { AND: [await visibleMembersWhere(), { OR: keys.map((k) => ({ organizationId: k.organizationId, userId: k.userId })) }] },
          select: { organizationId: true, userId: true },
        });
        const seen = new Set(rows.map((r) => `${r.organizationId} ${r.userId}`));
        return keys.map((k) => seen.has(`${k.organizationId} ${k.userId}`));
      },
      { cacheKeyFn: (k) => `${k.organizationId} ${k.userId}` },
    ),
    libraryDocument: new DataLoader(async (ids) => byId(ids, await ctx.db.libraryDocument.findMany({ where: { id: { in: [...ids] } } }))),
    resultQuestion: new DataLoader(async (ids) =>
      byId(ids, await ctx.db.question.findMany({ where: { id: { in: [...ids] } }, select: { id: true, externalId: true, type: true, data: true } })),
    ),
    visibleMembersWhere,
    once,
  };
}

/** The loaders of the request `ctx` belongs to; created on first use when the context factory did not. */
export function loaders(ctx: Context): Loaders {
  return (ctx.loaders ??= createLoaders(ctx));
}

/**
 * After a write to organizations, memberships, departments or library documents: later reads of
 * the same request (the next mutation of a document, a REST handler reading back) load afresh.
 */
export function forgetLoaded(ctx: Context): void {
  ctx.loaders = undefined;
}

/**
 * The lookup's result once the checks pass. Both start at once: a lookup queued only after checks
 * whose waits differ between the items of a list would miss the list's shared batch (an extra
 * statement per straggler). Nothing of the lookup is returned when a check fails.
 */
export async function afterChecks<T>(checks: Promise<unknown>, lookup: Promise<T>): Promise<T> {
  const [, found] = await Promise.all([checks, lookup]);
  return found;
}
