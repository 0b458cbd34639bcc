import { describe, expect, it } from 'vitest';
import type { OrganizationAccess } from './organization-policy.ts';
import { assertMay, may } from './policy.ts';

/**
 * The rows of the action table for users, membership levels and class work, answered without a
 * database: who may, and the refusal each caller sees.
 */

const admin = { id: 'usr_admin', admin: true };
const creator = { id: 'usr_creator', admin: false };
const stranger = { id: 'usr_stranger', admin: false };
const target = { id: 'usr_target', createdById: creator.id };

/** What an organization gives a caller: a manager, or a member managing members with its own levels. */
function access(manager: boolean, own: { permOrganization: string; permContent: string; permMembers: string } | null): OrganizationAccess {
  return { manager, canManageMembers: manager || own?.permOrganization === 'supervisor', membership: own } as unknown as OrganizationAccess;
}
const supervisor = access(false, { permOrganization: 'supervisor', permContent: 'view', permMembers: 'organization' });
const plainMember = access(false, { permOrganization: 'member', permContent: 'admin', permMembers: 'organization' });
const manager = access(true, null);
const low = { permOrganization: 'member', permContent: 'view', permMembers: 'none' };
const high = { permOrganization: 'admin', permContent: 'none', permMembers: 'none' };

const refusal = (run: () => void) => {
  try {
    run();
  } catch (error) {
    const { status, code, message } = error as { status: number; code: string; message: string };
    return { status, code, message };
  }
  return 'allowed';
};

describe('users', () => {
  it('its creator and administrators manage a user; the user itself only reads and edits itself', () => {
    expect([admin, creator, stranger].map((u) => may(u, 'user:manage', target))).toEqual([true, true, false]);
    expect(may({ id: target.id, admin: false }, 'user:manage', target)).toBe(false);
    expect(may({ id: target.id, admin: false }, 'user:update', target)).toBe(true);
    expect(may({ id: target.id, admin: false }, 'user:read', target)).toBe(true);
    expect(refusal(() => assertMay(stranger, 'user:manage', target))).toEqual({ status: 403, code: 'PERMISSION_DENIED', message: 'You do not manage this user' });
    expect(refusal(() => assertMay(stranger, 'organization:member:add', target))).toEqual({ status: 403, code: 'PERMISSION_DENIED', message: "You do not manage user 'usr_target'" });
  });
});

describe('assuming a user without its password', () => {
  /** The caller as the policy sees it: the acting user, and the owner of its application. */
  const calling = (acting: typeof admin, owner: { id: string } = acting) => [acting, { owner }] as const;
  const assume = ([acting, viewer]: ReturnType<typeof calling>, user: { id: string; createdById: string | null }) => may(acting, 'user:assume', { target: user, viewer });

  it('its creator, administrators and the owner of the calling application may; an unrelated user may not', () => {
    expect(assume(calling(admin), target)).toBe(true);
    expect(assume(calling(creator), target)).toBe(true);
    expect(assume(calling(stranger), target)).toBe(false);
    // The application's owner assuming itself, created by someone else.
    const owner = { id: 'usr_owner', admin: false };
    expect(assume(calling(owner), { id: owner.id, createdById: admin.id })).toBe(true);
    // Acting as an assumed user, the application goes back to its owner, but not to another user.
    expect(assume(calling(stranger, owner), { id: owner.id, createdById: admin.id })).toBe(true);
    expect(assume(calling(stranger, owner), target)).toBe(false);
    // A user may not assume itself for being itself: only as the application's owner.
    expect(assume(calling(stranger, owner), { id: stranger.id, createdById: admin.id })).toBe(false);
  });
});

describe('membership levels', () => {
  it('a supervisor gives and touches levels up to its own; a manager any; a plain member none', () => {
    expect(may(stranger, 'organization:member:levels', { access: supervisor, levels: low })).toBe(true);
    expect(may(stranger, 'organization:member:levels', { access: supervisor, levels: high })).toBe(false);
    expect(may(stranger, 'organization:member:levels', { access: manager, levels: high })).toBe(true);
    // Its own levels are high enough, but a plain member manages no members.
    expect(may(stranger, 'organization:member:levels', { access: plainMember, levels: low })).toBe(false);
    expect(refusal(() => assertMay(stranger, 'organization:member:levels', { access: supervisor, levels: high }))).toEqual({
      status: 403,
      code: 'PERMISSION_DENIED',
      message: 'You may not give levels above your own',
    });
    expect(refusal(() => assertMay(stranger, 'organization:member:update', { access: supervisor, levels: high, userId: 'usr_boss' }))).toEqual({
      status: 403,
      code: 'PERMISSION_DENIED',
      message: "You may not change member 'usr_boss', whose levels are above your own",
    });
    expect(refusal(() => assertMay(stranger, 'organization:member:remove', { access: supervisor, levels: high, userId: 'usr_boss' }))).toEqual({
      status: 403,
      code: 'PERMISSION_DENIED',
      message: "You may not remove member 'usr_boss', whose levels are above your own",
    });
  });
});

describe('work on a class assignment', () => {
  const day = 86_400_000;
  it('needs the caller’s own approved, unexpired membership', () => {
    const mine = { userId: creator.id, approved: true, expiresAt: null };
    expect(may(creator, 'class:assignments:work', mine)).toBe(true);
    expect(may(creator, 'class:assignments:work', { ...mine, expiresAt: new Date(Date.now() + day) })).toBe(true);
    expect(may(creator, 'class:assignments:work', { ...mine, expiresAt: new Date(Date.now() - day) })).toBe(false);
    expect(may(creator, 'class:assignments:work', { ...mine, approved: false })).toBe(false);
    expect(may(stranger, 'class:assignments:work', mine)).toBe(false);
    // Administrators work only as members too.
    expect(refusal(() => assertMay(admin, 'class:assignments:work', null))).toEqual({
      status: 403,
      code: 'PERMISSION_DENIED',
      message: 'Only active members of the class work on its assignments',
    });
  });
});
