import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { seed } from './seed.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

/** The seed goes through the services: each step leaves the rows and the audit trail of a real call, as its user. */
describe('seed builder', () => {
  it('builds an organization with members, content and an exam that was played, each step as its user', async () => {
    const owner = await seed(t).user('seed-owner');
    const ann = await owner.managedUser('seed-ann');
    const org = await owner.organization({ title: 'Seeded' });
    await org.members([ann], { permissionOrganization: 'teacher' });
    const department = await org.department('Sales');
    const quiz = await org.quizSet();
    const question = await quiz.question('q1');
    const exam = await quiz.exam();
    await exam.examinees([ann]);
    const play = await exam.play(ann, { [question]: 'a' });

    const p = t.db.prisma;
    expect(ann.user.createdById).toBe(owner.id);
    expect(await p.organization.findUniqueOrThrow({ where: { id: org.id } })).toMatchObject({ title: 'Seeded', ownerId: owner.id });
    expect(await p.organizationMember.findUniqueOrThrow({ where: { organizationId_userId: { organizationId: org.id, userId: ann.id } } })).toMatchObject({
      permOrganization: 'teacher',
    });
    expect(await p.department.findUniqueOrThrow({ where: { id: department } })).toMatchObject({ organizationId: org.id, title: 'Sales' });
    expect(await p.quizSet.findUniqueOrThrow({ where: { id: quiz.id } })).toMatchObject({ ownerId: owner.id, organizationId: org.id });
    expect(await p.quizItem.findMany({ where: { quizId: quiz.id }, select: { questionId: true } })).toEqual([{ questionId: question }]);
    expect(await p.exam.findUniqueOrThrow({ where: { id: exam.id } })).toMatchObject({ quizId: quiz.id, ownerId: owner.id, organizationId: org.id });
    expect(await p.examUser.findMany({ where: { examId: exam.id }, select: { userId: true } })).toEqual([{ userId: ann.id }]);
    expect(await p.play.findUniqueOrThrow({ where: { id: play } })).toMatchObject({ userId: ann.id, examId: exam.id, status: 'finished' });

    const actions = await p.auditEvent.findMany({ where: { actorId: owner.id }, orderBy: { id: 'asc' }, select: { action: true } });
    expect(actions.map((a) => a.action)).toEqual(
      expect.arrayContaining(['user.create', 'organization.create', 'quiz.create', 'question.create', 'exam.create']),
    );
  });

  it('hands in work and triggers a webhook as the API does: the submission, and a pending delivery with its job, not yet attempted', async () => {
    const owner = await seed(t).user('seed-teacher');
    const pupil = await owner.managedUser('seed-pupil');
    const bystander = await owner.managedAccount('seed-bystander');
    const org = await owner.organization();
    await org.members([pupil, bystander]);
    const cls = await org.class();
    await cls.members([pupil, bystander]);
    const assignment = await cls.assignment();
    await pupil.submit(assignment);
    const webhook = await org.webhook();
    const delivery = await org.trigger(webhook, { n: 1 });

    const p = t.db.prisma;
    expect(bystander.user).toMatchObject({ username: 'seed-bystander', createdById: owner.id });
    expect(await p.integration.count({ where: { ownerId: bystander.user.id } })).toBe(0);
    expect(await p.assignmentSubmission.findMany({ where: { assignmentId: assignment }, select: { userId: true, status: true } })).toEqual([
      { userId: pupil.id, status: 'SUBMITTED' },
    ]);
    expect(await p.webhookDelivery.findUniqueOrThrow({ where: { id: delivery } })).toMatchObject({ webhookId: webhook, event: 'api', status: 'pending', attempts: 0 });
    expect(await p.job.count({ where: { dedupeKey: delivery } })).toBe(1);
  });

  it('refuses a step the user may not take, as the API would', async () => {
    const owner = await seed(t).user('seed-owner-2');
    const stranger = await seed(t).user('seed-stranger');
    const org = await owner.organization();
    // Only members of an organization may create content in it.
    await expect(stranger.quizSet({ organization: org.id })).rejects.toMatchObject({ status: 403 });
  });
});
