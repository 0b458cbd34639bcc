import type { Caller, TestApp } from './app.ts';
import type { BuiltType } from './permissions.ts';
import { seed } from './seed.ts';
import { newId, type IdType } from '../../src/ids.ts';

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

export async function buildWorld(t: TestApp, name: string): Promise<World> {
  const caller = seed(t).as(await t.newCaller(name));
  const managed = await caller.managedUser(`${name}-managed`);
  const org = await caller.organization();
  await org.members([managed]);
  const cls = await org.class();
  const exam = await org.exam();
  // One record of each content type (a type added later fails to compile here until it has one).
  const content: Record<BuiltType, string> = {
    organization: org.id,
    class: cls.id,
    course: await org.content('course'),
    event: await org.content('event'),
    scorm: await org.content('scorm'),
    video: await org.content('video'),
    integration: await caller.integration({ organization: org.id }),
    tag: await org.tag(),
    quiz: (await org.quizSet()).id,
    exam: exam.id,
  };
  // The managed user is an examinee with a result, and a member of the class, as graded work needs.
  await exam.examinees([managed]);
  await cls.members([managed]);
  // The exam starts a journey, so that the journey operations reach their other arguments.
  await exam.journey([{ node: 'start', type: 'start', next: { done: 'end' } }, { node: 'end', type: 'end' }]);
  const competency = await org.competency();
  const ids: Record<Kind, string> = {
    ...content,
    user: managed.id,
    question: await caller.question(),
    preset: await caller.preset(),
    play: await exam.play(managed),
    webhook: await org.webhook(),
    competency: competency.id,
    skill: await caller.skill(),
    assignment: await cls.assignment(),
    requirement: await competency.requirement('todo'),
    document: await org.document(),
  };
  return { caller, ids, department: await org.department() };
}

/** An answer with the probed id replaced, so answers about two ids can be compared. */
export function masked(value: unknown, id: string): unknown {
  return JSON.parse(JSON.stringify(value ?? null).replaceAll(id, '<id>'));
}
