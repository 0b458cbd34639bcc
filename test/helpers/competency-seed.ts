import type { TestApp } from './app.ts';
import type { Department, Organization, Prisma, User } from '../../src/generated/prisma/client.ts';
import { newId, randomToken } from '../../src/ids.ts';

const DAY = 86_400_000;
/** A moment `n` days before now (negative: after). */
export const daysAgo = (n: number) => new Date(Date.now() - n * DAY);
/** Today's date (UTC) moved by `n` days, as stored in a date column. */
export const utcDay = (n = 0) => new Date(`${new Date(Date.now() + n * DAY).toISOString().slice(0, 10)}T00:00:00Z`);

/**
 * Organizations, members, departments, competencies and requirements written directly with
 * Prisma, for worlds whose dates lie in the past (joining, assignment, a requirement's change),
 * which the services stamp with the time of the call. Progress goes through the seed builder.
 */
export function seeder(t: TestApp) {
  const db = t.db.prisma;
  return {
    async user(name: string): Promise<User> {
      const username = `${name}-${randomToken(6)}`;
      return db.user.create({
        data: {
          id: newId('User'),
          username,
          email: `${username}@example.com`,
          passwordHash: 'x',
          firstName: name,
          lastName: 'Member',
          fullName: `${name} Member`,
          displayName: `${name} Member`,
          createdById: t.admin.user.id,
        },
      });
    },
    organization(title: string): Promise<Organization> {
      return db.organization.create({ data: { id: newId('Organization'), title, ownerId: t.admin.user.id } });
    },
    department(organization: Organization, title: string, options: { parent?: Department; externalId?: string } = {}): Promise<Department> {
      return db.department.create({ data: { id: newId('Department'), organizationId: organization.id, title, parentId: options.parent?.id, externalId: options.externalId } });
    },
    member(
      organization: Organization,
      user: User,
      options: { department?: Department | null; role?: string; members?: string; joined?: Date } = {},
    ) {
      return db.organizationMember.create({
        data: {
          organizationId: organization.id,
          userId: user.id,
          departmentId: options.department?.id ?? null,
          permOrganization: options.role ?? 'member',
          permMembers: options.members ?? 'none',
          ...(options.joined ? { createdAt: options.joined } : {}),
        },
      });
    },
    leader(department: Department, user: User) {
      return db.departmentLeader.create({ data: { departmentId: department.id, userId: user.id } });
    },
    competency(
      organization: Organization,
      title: string,
      options: Partial<Prisma.CompetencyUncheckedCreateInput> & { departments?: Department[]; direct?: { user: User; at?: Date }[] } = {},
    ) {
      const { departments = [], direct = [], ...data } = options;
      return db.competency.create({
        data: {
          id: newId('Competency'),
          organizationId: organization.id,
          title,
          ...data,
          departments: { create: departments.map((d) => ({ departmentId: d.id })) },
          members: { create: direct.map((d) => ({ userId: d.user.id, ...(d.at ? { createdAt: d.at } : {}) })) },
        },
      });
    },
    requirement(competencyId: string, type: string, data: Partial<Prisma.RequirementUncheckedCreateInput> = {}) {
      return db.requirement.create({ data: { id: newId('Requirement'), competencyId, type, ...data } });
    },
  };
}
