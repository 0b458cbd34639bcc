import type { Caller, TestApp } from './app.ts';
import { newId } from '../../src/ids.ts';

export interface ClassCast {
  director: Caller;
  teacher: Caller;
  plain: Caller;
  stranger: Caller;
  ann: Caller;
  bob: Caller;
  orgId: string;
}

/**
 * The people of the class tests: a director owning an organization with a teacher and a plain
 * member, a stranger outside it, and two users the director manages, members of the organization
 * (its teachers enrol them in its classes).
 */
export async function seedClassCast(t: TestApp): Promise<ClassCast> {
  const director = await t.newCaller('director');
  const teacher = await t.newCaller('teacher');
  const plain = await t.newCaller('plainmember');
  const stranger = await t.newCaller('stranger');
  const ann = await t.newCaller('annmember', { createdBy: director });
  const bob = await t.newCaller('bobmember', { createdBy: director });
  const orgId = newId('Organization');
  await t.db.prisma.organization.create({ data: { id: orgId, title: 'Academy', ownerId: director.user.id } });
  await t.db.prisma.organizationMember.createMany({
    data: [
      { organizationId: orgId, userId: teacher.user.id, permOrganization: 'teacher' },
      { organizationId: orgId, userId: plain.user.id, permOrganization: 'member' },
      { organizationId: orgId, userId: ann.user.id },
      { organizationId: orgId, userId: bob.user.id },
    ],
  });
  return { director, teacher, plain, stranger, ann, bob, orgId };
}
