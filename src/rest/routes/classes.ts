import type { Class } from '../../generated/prisma/client.ts';
import * as classes from '../../services/classes/classes.service.ts';
import * as memberships from '../../services/classes/memberships.service.ts';
import * as assignments from '../../services/classes/assignments.service.ts';
import { isActiveMembership } from '../../services/classes/access.ts';
import { datetime } from '../format.ts';
import type { Handler } from './types.ts';

const classRecord = (c: Class) => ({ class: c.id, id: c.externalId, title: c.title, start: datetime(c.start), end: datetime(c.end) });

/** The answer of a membership change: what was changed, by identification string. */
const changed = ({ classes: cs, users }: memberships.MembershipChange) => ({
  classes: cs.map((c) => c.id),
  users: users.map((u) => u.id),
  success: true,
});

export const classRoutes: Record<string, Handler> = {
  'GET classes': async (ctx, args) => ({
    classes: (await classes.listClasses(ctx, args)).map((c) => ({ class: c.id, id: c.externalId, title: c.title })),
  }),
  'GET class': async (ctx, args) => classRecord(await classes.getClass(ctx, args)),
  'GET class:assignments': async (ctx, args) => ({
    assignments: (await assignments.listAssignments(ctx, args)).assignments.map((a) => ({
      assignment: a.id,
      title: a.title,
      link: assignments.assignmentLink(ctx, a),
      status: a.status,
      starts: datetime(a.starts),
      ends: datetime(a.ends),
    })),
  }),
  'GET class:members': async (ctx, args) => {
    const now = new Date();
    const { members } = await memberships.listMembers(ctx, args);
    return { members: members.map((m) => ({ user: m.userId, name: m.user.fullName, active: isActiveMembership(m, now) })) };
  },
  'POST class:members': async (ctx, args) => changed(await memberships.addMembers(ctx, args)),
  'DELETE class:members': async (ctx, args) => changed(await memberships.removeMembers(ctx, args)),
  'POST classes:members': async (ctx, args) => changed(await memberships.addManyMembers(ctx, args)),
  'GET user:classes': async (ctx, args) => {
    const now = new Date();
    const { memberships: list } = await memberships.listUserClasses(ctx, args);
    return {
      classes: list.map((m) => ({
        class: m.classId,
        id: m.class.externalId,
        title: m.class.title,
        link: classes.classLink(ctx, m.classId),
        active: isActiveMembership(m, now),
      })),
    };
  },
  'POST user:classes': async (ctx, args) => changed(await memberships.addUserClasses(ctx, args)),
  'DELETE user:classes': async (ctx, args) => changed(await memberships.removeUserClasses(ctx, args)),
};
