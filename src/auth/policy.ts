import type { Context } from '../context.ts';
import type { Viewer } from './viewer.ts';
import type { ClassMember, Prisma, User } from '../generated/prisma/client.ts';
import type { ContentType } from '../services/content/content-types.ts';
import { ArgumentError, PermissionError, type AppError } from '../errors.ts';
import { needOf, nounOf, roleNeedOf, typeOf, type Action, type Need, type Role, type RoleAction, type RoleOf } from './actions.ts';
import { canGrantLevels, type MemberLevels, type OrganizationAccess } from './organization-policy.ts';
import type { Level } from './levels.ts';
import { atLeastWhere, includes, levelsFor, type ContentRef, type Holder } from './permissions.ts';

/**
 * Users as a filter: those `user:read` (actions.ts) admits, for lists and relations loaded with
 * their parent. Services call these; neither face re-implements them.
 */
export const userPolicy = {
  read: (viewer: Viewer, target: Pick<User, 'id' | 'createdById'>) => may(viewer.user, 'user:read', target),
  /** `read` as a filter, for relations loaded with their parent. */
  readWhere: (viewer: Viewer): Prisma.UserWhereInput =>
    viewer.user.admin ? {} : { OR: [{ id: viewer.user.id }, { createdById: viewer.user.id }] },
};

// ---------------------------------------------------------------------------------------------
// Content: services ask whether the viewer may do an action (actions.ts) on a piece of content.

type PolicyContext = Pick<Context, 'db' | 'viewer'>;

/** A piece of content as a service holds it: its record (the action names its type). */
export interface Subject {
  id: string;
  ownerId: string | null;
  /** Absent on an organization, which is content of itself. */
  organizationId?: string | null;
}

const refOf = (action: Action, subject: Subject): ContentRef => ({
  type: typeOf(action),
  id: subject.id,
  ownerId: subject.ownerId,
  organizationId: subject.organizationId ?? null,
});

const refusal = (action: Action, need: Need) =>
  new PermissionError(need.refusal ?? `You need ${need.level} permission on this ${nounOf(action)}${need.doing ? ` to ${need.doing}` : ''}`);

/** Why the viewer may not do `action` on the content it holds `held` on; null when it may. */
function refusalOf(ctx: PolicyContext, action: Action, subject: Subject, held: Level | null): PermissionError | null {
  const need = needOf(action);
  if (!includes(typeOf(action), held, need.level)) return refusal(action, need);
  if (need.ownerOnly && !ctx.viewer.user.admin && subject.ownerId !== ctx.viewer.user.id) return new PermissionError(need.ownerOnly);
  return null;
}

/**
 * Throws unless the viewer may do `action` on the content; answers the level it holds there. A
 * viewer who may not even view it gets `unknown`, the service's answer to an identification string
 * of nothing, so no caller learns that content it may not see exists; one who may view it but
 * lacks the level gets 403 PERMISSION_DENIED.
 */
export async function assertCan(ctx: PolicyContext, action: Action, subject: Subject, unknown: AppError): Promise<Level> {
  const [held = null] = await levelsFor(ctx.db, ctx.viewer.user, [refOf(action, subject)]);
  if (refusalOf(ctx, `${typeOf(action)}:read`, subject, held)) throw unknown;
  const refused = refusalOf(ctx, action, subject, held);
  if (refused) throw refused;
  return held!;
}

/** Whether the viewer may do each action on its piece of content: one round of statements for all. */
export async function canEach(ctx: PolicyContext, checks: readonly (readonly [Action, Subject])[]): Promise<boolean[]> {
  const held = await levelsFor(ctx.db, ctx.viewer.user, checks.map(([action, subject]) => refOf(action, subject)));
  return checks.map(([action, subject], i) => refusalOf(ctx, action, subject, held[i] ?? null) === null);
}

export async function can(ctx: PolicyContext, action: Action, subject: Subject): Promise<boolean> {
  return (await canEach(ctx, [[action, subject]]))[0]!;
}

/**
 * A Prisma filter on the records of the action's content type: those the viewer may do it on,
 * the same answer can() gives for each. Lists, counts and GraphQL node lookups use it.
 */
export async function allowedWhere(ctx: PolicyContext, action: Action): Promise<Record<string, unknown>> {
  const need = needOf(action);
  const where = await atLeastWhere(ctx.db, ctx.viewer.user, typeOf(action), need.level, { rules: !need.as });
  return need.ownerOnly && !ctx.viewer.user.admin ? { AND: [where, { ownerId: ctx.viewer.user.id }] } : where;
}

/** The refusal of `action`, for a service that checked several pieces at once with allowedWhere(). */
export const denied = (action: Action): PermissionError => refusal(action, needOf(action));

/** The refusal of `action` asked for by an argument (403 PERMISSION_DENIED naming it). */
export function deniedArgument(action: Action, argument: string): ArgumentError {
  const need = needOf(action);
  return new ArgumentError(argument, need.argumentRule ?? `needs ${need.level} permission`, 'PERMISSION_DENIED');
}

/**
 * Content of a type may be put in an organization where the caller may change such content
 * without owning it (content level modify or more, organization managers, instance
 * administrators; for classes also its teachers). Unknown organization, or one the caller may not
 * view: NOT_FOUND naming `argument`.
 */
export async function assertCanCreateIn(ctx: PolicyContext, action: `${ContentType}:create`, organizationId: string, argument = 'organization'): Promise<void> {
  const organization = await ctx.db.organization.findUnique({ where: { id: organizationId }, select: { id: true, ownerId: true } });
  const unknown = new ArgumentError(argument, `no organization with identification string '${organizationId}'`, 'NOT_FOUND');
  if (!organization) throw unknown;
  // A piece of content of that type nobody owns and no rule names: what the organization alone gives.
  if (!(await can(ctx, action, { id: '', ownerId: null, organizationId }))) {
    if (!(await can(ctx, 'organization:read', organization))) throw unknown;
    throw new PermissionError(`You may not put a ${typeOf(action)} in this organization: that needs ${needOf(action).level} permission on its content`);
  }
}

/** The effective levels of any user on pieces of content (what a permission check reports about them); null: none. */
export async function heldLevels(ctx: PolicyContext, user: Holder, contents: readonly ContentRef[]): Promise<(Level | null)[]> {
  return levelsFor(ctx.db, user, contents);
}

/**
 * The level a caller grants or revokes may not be above its own on the content (`own`, what
 * assertCan answered for the grant or revoke).
 */
export function assertWithinOwnLevel(type: ContentType, verb: 'grant' | 'revoke', permission: Level, own: Level): void {
  if (!includes(type, own, permission)) throw new PermissionError(`You cannot ${verb} ${permission}: it is above your own level (${own})`);
}

// ---------------------------------------------------------------------------------------------
// Actions decided by who the caller is (actions.ts, byRole), not by a level on content.

/** A member whose requirements are reviewed, as the reviewer sees it. */
export interface Review {
  access: OrganizationAccess;
  member: { userId: string; departmentId: string | null };
  /** Whether the member is among those the reviewer sees. */
  visible: boolean;
  /** Whether the reviewer is an educator of the requirement's training. */
  educator: boolean;
}

/** Levels a membership gets, or those of the member (`userId`) changed or removed. */
export interface LevelCeiling {
  access: OrganizationAccess;
  levels: MemberLevels;
  userId?: string;
}

/** A class membership counts while approved and not expired. */
export const isActiveMembership = (m: Pick<ClassMember, 'approved' | 'expiresAt'>, now = new Date()) =>
  m.approved && (m.expiresAt === null || m.expiresAt > now);

type UserSubject = Pick<User, 'id' | 'createdById'>;

/** A user to assume, and the caller: the owner of its application counts, not only the acting user. */
export interface AssumeTarget {
  target: UserSubject;
  viewer: { owner: Pick<User, 'id'> };
}

interface RoleSubjects {
  filtered: never;
  administrator: undefined;
  owner: { ownerId: string | null };
  manager: OrganizationAccess;
  member: OrganizationAccess;
  'member-manager': OrganizationAccess;
  'reporter-or-leader': OrganizationAccess;
  reviewer: Review;
  'reviewer-or-self': Review;
  creator: UserSubject;
  'creator-or-self': UserSubject;
  'creator-or-application-owner': AssumeTarget;
  'level-ceiling': LevelCeiling;
  /** The caller's membership of the class, if any. */
  'class-member': Pick<ClassMember, 'userId' | 'approved' | 'expiresAt'> | null;
}

const reviews = ({ access, member, visible, educator }: Review) =>
  educator || (visible && (access.canManageMembers || (member.departmentId !== null && access.ledDepartmentIds.includes(member.departmentId))));

const roleHolds: { [R in Role]: (user: Holder, subject: RoleSubjects[R]) => boolean } = {
  filtered: () => false,
  administrator: (user) => user.admin,
  owner: (user, thing) => user.admin || thing.ownerId === user.id,
  manager: (_user, access) => access.manager,
  member: (_user, access) => access.manager || access.membership !== null,
  'member-manager': (_user, access) => access.canManageMembers,
  'reporter-or-leader': (_user, access) => access.canReport || access.ledDepartmentIds.length > 0,
  reviewer: (_user, review) => reviews(review),
  'reviewer-or-self': (user, review) => reviews(review) || review.member.userId === user.id,
  creator: (user, target) => user.admin || target.createdById === user.id,
  'creator-or-self': (user, target) => roleHolds.creator(user, target) || target.id === user.id,
  'creator-or-application-owner': (user, { target, viewer }) => roleHolds.creator(user, target) || target.id === viewer.owner.id,
  'level-ceiling': (_user, { access, levels }) => access.canManageMembers && canGrantLevels(access, levels),
  'class-member': (user, membership) => membership !== null && membership.userId === user.id && isActiveMembership(membership),
};

/** What the role of an action is decided on: nothing for administrators' actions. */
type RoleSubject<A extends RoleAction> = RoleSubjects[RoleOf<A>] extends undefined ? [] : [subject: RoleSubjects[RoleOf<A>]];

/** Whether `user` may do an action decided by role (`subject`: what the role is decided on). */
export function may<A extends RoleAction>(user: Holder, action: A, ...[subject]: RoleSubject<A>): boolean {
  const holds = roleHolds[roleNeedOf(action).who] as (user: Holder, subject: unknown) => boolean;
  return holds(user, subject);
}

/** Throws the action's refusal (403, PERMISSION_DENIED unless the table names a code) unless may() allows. */
export function assertMay<A extends RoleAction>(user: Holder, action: A, ...subject: RoleSubject<A>): void {
  if (!may(user, action, ...subject)) throw refused(action, subject[0]);
}

/**
 * The refusal of an action decided by role, for a service that decided it with a filter; a
 * `{field}` of the message is filled from `subject`.
 */
export function refused(action: RoleAction, subject?: unknown): PermissionError {
  const need = roleNeedOf(action);
  const fields = (subject ?? {}) as Record<string, unknown>;
  return new PermissionError(need.refusal?.replace(/\{(\w+)\}/g, (_, field: string) => String(fields[field])), need.code);
}
