import type { Caller, TestApp } from './app.ts';
import { builtTypes, seedContent } from './permissions.ts';
import { newQuestion } from './quiz-seed.ts';
import { newPlay } from './exam-seed.ts';
import { newId, type IdType } from '../../src/ids.ts';
import { defaultJourneySettings } from '../../src/services/journeys/format.ts';

/**
 * Worlds for the existence sweeps: one caller with one record of every kind an identification
 * string can name, all in an organization it owns. A probe calls an operation with every argument
 * taken from the caller's own world except the one probed, so the probed id alone decides the answer.
 */

/** Every kind of record an identification string names, with the type of its id (its prefix). */
export const kinds = {
  user: 'User',
  organization: 'Organization',
  class: 'Class',
  course: 'Course',
  event: 'Event',
  scorm: 'Scorm',
  video: 'Video',
  integration: 'Integration',
  tag: 'Tag',
  quiz: 'QuizSet',
  exam: 'Exam',
  question: 'Question',
  preset: 'GradingPreset',
  play: 'Play',
  webhook: 'Webhook',
  competency: 'Competency',
  skill: 'Skill',
  assignment: 'ClassAssignment',
  requirement: 'Requirement',
  document: 'LibraryDocument',
} as const satisfies Record<string, IdType>;
export type Kind = keyof typeof kinds;

/** An identification string of nothing, of the same shape as those of `kind`. */
export const unknownId = (kind: Kind) => newId(kinds[kind]);

export interface World {
  caller: Caller;
  /** One record of each kind; `user` is a user the caller manages. */
  ids: Record<Kind, string>;
  /** A department of the world's organization (departments are named, not kinds of their own). */
  department: string;
}

let seq = 0;

export async function buildWorld(t: TestApp, name: string): Promise<World> {
  const p = t.db.prisma;
  const caller = await t.newCaller(name);
  const managed = await t.newCaller(`${name}-managed`, { createdBy: caller });
  const { id: organization } = await seedContent(t, 'organization', caller);
  const content: Record<string, string> = { organization };
  for (const type of builtTypes.filter((x) => x !== 'organization')) content[type] = (await seedContent(t, type, caller, organization)).id;
  const n = ++seq;
  const question = await newQuestion(t, caller, `probe-${n}`, organization);
  const grades = [{ threshold: 0, grade: 'fail' }, { threshold: 50, grade: 'pass' }];
  const preset = (await p.gradingPreset.create({ data: { id: newId('GradingPreset'), title: `Preset ${n}`, type: 'custom', ownerId: caller.user.id, grades } })).id;
  const play = (await newPlay(t, content.exam!, managed)).id;
  const webhook = (
    await p.webhook.create({
      data: { id: newId('Webhook'), organizationId: organization, title: 'Hook', triggerEvent: 'api', endpoint: 'https://hooks.example.com/x', signingSecretCipher: 'x' },
    })
  ).id;
  const competency = (await p.competency.create({ data: { id: newId('Competency'), organizationId: organization, title: `Competency ${n}` } })).id;
  const department = (await p.department.create({ data: { id: newId('Department'), organizationId: organization, title: `Department ${n}` } })).id;
  await p.organizationMember.create({ data: { organizationId: organization, userId: managed.user.id } });
  // The exam starts a journey, so that the journey operations reach their other arguments.
  const settings = { ...defaultJourneySettings, title: `Journey ${n}` };
  const published = { schema: 1, settings, nodes: [] };
  await p.journey.create({ data: { id: newId('Journey'), examId: content.exam!, settings, nodes: [], version: 1, published, publishedAt: new Date() } });
  const skill = (await p.skill.create({ data: { id: newId('Skill'), ownerId: caller.user.id, identifier: `skill-${n}`, title: `Skill ${n}` } })).id;
  const period = { starts: new Date('2026-01-01T00:00:00Z'), ends: new Date('2031-01-01T00:00:00Z') };
  const assignment = (await p.classAssignment.create({ data: { id: newId('ClassAssignment'), classId: content.class!, title: `Assignment ${n}`, ...period } })).id;
  const requirement = (await p.requirement.create({ data: { id: newId('Requirement'), competencyId: competency, type: 'todo' } })).id;
  const document = (await p.libraryDocument.create({ data: { id: newId('LibraryDocument'), organizationId: organization, title: `Document ${n}` } })).id;
  // The managed user is a member of the class, as graded work needs.
  await p.classMember.create({ data: { classId: content.class!, userId: managed.user.id, approved: true } });
  const ids = { ...content, user: managed.user.id, question, preset, play, webhook, competency, skill, assignment, requirement, document } as Record<Kind, string>;
  return { caller, ids, department };
}

/** An answer with the probed id replaced, so answers about two ids can be compared. */
export function masked(value: unknown, id: string): unknown {
  return JSON.parse(JSON.stringify(value ?? null).replaceAll(id, '<id>'));
}
