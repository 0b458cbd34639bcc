import type { TestApp } from './app.ts';
import type { User } from '../../src/generated/prisma/client.ts';
import { newId, randomToken } from '../../src/ids.ts';

/**
 * Rows for the dashboard statement counts, written directly with Prisma: organizations with
 * everything a dashboard shows of them, so a page of 2 and a page of 8 differ only in length.
 */
export function dashboardSeed(t: TestApp) {
  const db = t.db.prisma;
  let seq = 0;
  const user = (createdById: string): Promise<User> => {
    const username = `dash-${++seq}-${randomToken(4)}`;
    return db.user.create({
      data: {
        id: newId('User'),
        username,
        email: `${username}@example.com`,
        passwordHash: 'x',
        firstName: 'Dash',
        lastName: String(seq),
        fullName: `Dash ${String(seq).padStart(3, '0')}`,
        displayName: `Dash ${seq}`,
        createdById,
      },
    });
  };

  return {
    user,

    /**
     * An organization owned by `ownerId` with a department tree (a leader in the child), three
     * members (two in departments), `viewer` as a member with the given levels, a class with two
     * members and an assignment with work handed in, two competencies (assigned to a department
     * and to a member, with a library document attached), and a webhook with two deliveries.
     */
    async organization(ownerId: string, viewer?: { userId: string; role: string; members: string; department?: 'head' | 'branch' }) {
      const organizationId = newId('Organization');
      await db.organization.create({ data: { id: organizationId, title: `Dashboard ${String(++seq).padStart(3, '0')}`, ownerId } });
      const head = await db.department.create({ data: { id: newId('Department'), organizationId, title: 'Head office' } });
      const branch = await db.department.create({ data: { id: newId('Department'), organizationId, title: 'Branch', parentId: head.id } });
      const members = [await user(ownerId), await user(ownerId), await user(ownerId)];
      await db.organizationMember.createMany({
        data: [
          { organizationId, userId: members[0]!.id, departmentId: head.id },
          { organizationId, userId: members[1]!.id, departmentId: branch.id },
          { organizationId, userId: members[2]!.id },
          ...(viewer
            ? [
                {
                  organizationId,
                  userId: viewer.userId,
                  permOrganization: viewer.role,
                  permMembers: viewer.members,
                  departmentId: viewer.department === 'branch' ? branch.id : viewer.department === 'head' ? head.id : null,
                },
              ]
            : []),
        ],
      });
      await db.departmentLeader.create({ data: { departmentId: branch.id, userId: members[1]!.id } });

      const classId = newId('Class');
      await db.class.create({ data: { id: classId, title: `Class ${seq}`, ownerId, organizationId } });
      await db.classMember.createMany({ data: members.slice(0, 2).map((m) => ({ classId, userId: m.id, approved: true })) });
      const assignmentId = newId('ClassAssignment');
      const now = Date.now();
      await db.classAssignment.create({ data: { id: assignmentId, classId, title: 'Task', starts: new Date(now - 86_400_000), ends: new Date(now + 86_400_000) } });
      await db.assignmentSubmission.create({ data: { assignmentId, userId: members[0]!.id, status: 'SUBMITTED', submittedAt: new Date() } });

      const document = await db.libraryDocument.create({ data: { id: newId('LibraryDocument'), organizationId, title: 'Handbook' } });
      await db.competency.create({
        data: { id: newId('Competency'), organizationId, title: 'Safety', documentIds: [document.id], departments: { create: [{ departmentId: head.id }] } },
      });
      await db.competency.create({ data: { id: newId('Competency'), organizationId, title: 'Sales', members: { create: [{ userId: members[2]!.id }] } } });

      const webhookId = newId('Webhook');
      await db.webhook.create({ data: { id: webhookId, organizationId, title: 'Hook', triggerEvent: 'api', endpoint: 'https://example.com/hook', signingSecretCipher: 'x' } });
      await db.webhookDelivery.createMany({
        data: [1, 2].map(() => ({ id: newId('WebhookDelivery'), webhookId, event: 'api', payload: { body: '{}' } })),
      });
      return { organizationId, classId, members };
    },
  };
}
