import type { Caller, TestApp } from './app.ts';
import { seed } from './seed.ts';

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
  const s = seed(t);
  const academy = await s.as(director).organization({ title: 'Academy' });
  // The director does not manage the teacher and the plain member: the administrator adds them.
  await s.admin.addMembers(academy.id, [teacher], { permissionOrganization: 'teacher' });
  await s.admin.addMembers(academy.id, [plain]);
  await academy.members([ann, bob]);
  return { director, teacher, plain, stranger, ann, bob, orgId: academy.id };
}
