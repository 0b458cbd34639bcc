import type { Caller, TestApp } from './app.ts';
import type { Context } from '../../src/context.ts';
import type { Level } from '../../src/auth/levels.ts';
import type { User } from '../../src/generated/prisma/client.ts';
import type { ContentType } from '../../src/services/content/content-types.ts';
import type { MinimalType } from '../../src/services/content/content.schemas.ts';
import type { TaggableType } from '../../src/services/content/content-types.ts';
import { createContext } from '../../src/create-context.ts';
import { RateLimiter } from '../../src/rate-limit.ts';
import { createApiIntegration } from '../../src/services/bootstrap/bootstrap.service.ts';
import { createUser } from '../../src/services/users/users.service.ts';
import { createOrganization } from '../../src/services/organizations/organizations.service.ts';
import { addMembers } from '../../src/services/organizations/memberships.service.ts';
import { createDepartment, updateDepartment } from '../../src/services/organizations/departments.service.ts';
import { createQuizSet } from '../../src/services/quizzes/quizzes.service.ts';
import { assignQuestions } from '../../src/services/quizzes/items.service.ts';
import { updateSettings as updateQuizSettings } from '../../src/services/quizzes/settings.service.ts';
import { upsertQuestion } from '../../src/services/questions/questions.service.ts';
import { createExam } from '../../src/services/exams/exams.service.ts';
import { addExamUsers } from '../../src/services/exams/users.service.ts';
import { answerQuestion, finishPlay, startPlay } from '../../src/services/plays/plays.service.ts';
import { grantPermission, transferContent } from '../../src/services/permissions/permissions.service.ts';
import { attachTag, createTag } from '../../src/services/tags/tags.service.ts';
import { createContent } from '../../src/services/content/content.service.ts';
import { createClass } from '../../src/services/classes/classes.service.ts';
import { addMembers as addClassMembers } from '../../src/services/classes/memberships.service.ts';
import { createAssignment } from '../../src/services/classes/assignments.service.ts';
import { submitAssignment } from '../../src/services/classes/submissions.service.ts';
import { createIntegration } from '../../src/services/integrations/integrations.service.ts';
import { createWebhook, triggerWebhook } from '../../src/services/webhooks/webhooks.service.ts';
import { createCompetency, setAssignments } from '../../src/services/competencies/competencies.service.ts';
import { createRequirement, recordProgress } from '../../src/services/competencies/requirements.service.ts';
import { createDocument } from '../../src/services/competencies/library.service.ts';
import { createPreset } from '../../src/services/grading/grading.service.ts';
import { attachSkill, createSkill } from '../../src/services/questions/skills.service.ts';
import { saveJourneyGraph } from '../../src/services/journeys/graph.service.ts';
import { publishJourney } from '../../src/services/journeys/publish.service.ts';

/**
 * One seed builder for tests, in the manner of graphql-hive's integration seeds:
 *
 *   const owner = await seed(t).user('owner');
 *   const org = await owner.organization();
 *   const exam = await (await org.quizSet()).exam();
 *
 * Every step calls the service the API would call, as the handle's user, with a context built the
 * way the faces build theirs (its credentials authenticated), so the rows, audit trail and side
 * effects are those of real use. Each step returns a handle with the ids and the next steps.
 * Arguments are those of the services (the REST arguments, camelCase); a step's defaults give
 * the least a valid call needs.
 */

type Args = Record<string, unknown>;

let seq = 0;
/** A number unique in the test run, for names that must not collide. */
const next = () => ++seq;

// Rate limits are off in the test app; the seed never spends points.
const noLimits = new RateLimiter({ perSecond: 0, perMinute: 0 });

/** A context for one call as `caller`, as the REST router and GraphQL build it. */
export function contextOf(t: TestApp, caller: Caller): Promise<Context> {
  return createContext(t.platform, noLimits, {
    headers: new Headers({ authorization: `Bearer ${caller.app}:${caller.secret}` }),
    args: {},
    requestId: `seed-${next()}`,
    points: 0,
  });
}

/** A user with an application, who acts through the services. It is a `Caller`, for `t.rpc` and `t.gql`. */
export interface UserHandle extends Caller {
  id: string;
  /** A context for one call as this user. */
  ctx(): Promise<Context>;
  /** A user this one creates (so manages), with an application of its own. */
  managedUser(name?: string, args?: Args): Promise<UserHandle>;
  /** A user this one creates, without an application: for list steps, when it never acts itself. */
  managedAccount(name?: string, args?: Args): Promise<{ user: User }>;
  /** An organization this user creates, so owns. */
  organization(args?: Args): Promise<OrganizationHandle>;
  /** A handle for an organization made elsewhere, with this user acting as its manager. */
  organizationOf(id: string): OrganizationHandle;
  quizSet(args?: Args): Promise<QuizSetHandle>;
  /** An exam of a new Quiz set of this user. */
  exam(args?: Args): Promise<ExamHandle>;
  /** A question in a folder of this user; returns its identification string. */
  question(externalId?: string, args?: Args): Promise<string>;
  class(args?: Args): Promise<ClassHandle>;
  /** A handle for an existing class, whose steps this user takes (it must manage the class's members). */
  classOf(id: string): ClassHandle;
  tag(args?: Args): Promise<string>;
  /** A course, event, SCORM package or video. */
  content(type: MinimalType, args?: Args): Promise<string>;
  integration(args?: Args): Promise<string>;
  /** A grading preset of this user (pass at 50 % unless `grades` is given). */
  preset(args?: Args): Promise<string>;
  skill(args?: Args): Promise<string>;
  /** Links a skill to a question (the user's own, or one it may change). */
  attachSkill(question: string, skill: string): Promise<void>;
  /** Grants `user` a level on content this user may grant on (POST <type>:permission). */
  grant(type: ContentType, contentId: string, user: Caller, level: Level): Promise<void>;
  /** Makes `user` the owner of content this user may transfer (POST <type>:transfer). */
  transfer(type: ContentType, contentId: string, user: Caller): Promise<void>;
  /**
   * Adds members to an organization this user manages (POST organization:members); a new member
   * must be a user it may read (the administrator reads everyone).
   */
  addMembers(organizationId: string, users: Member[], args?: Args): Promise<void>;
  /**
   * Records a member's progress on a requirement as this user: the member itself, or a reviewer
   * (who may also date a completion, `completedAt`).
   */
  progress(requirement: string, member: Member, status: string, args?: Args): Promise<void>;
  /** Hands in this user's work on an assignment of a class it is a member of (POST class:assignment:submit). */
  submit(assignment: string): Promise<void>;
  /** Attaches a tag to content (POST <type>:tag). */
  attachTag(type: TaggableType, contentId: string, tag: string): Promise<void>;
  /** Adds examinees to an exam this user may change (POST exam:users); each must be a user it may read. */
  examinees(exam: string, users: Member[]): Promise<void>;
  /** Assigns existing questions to a Quiz set this user may change (POST quiz:questions). */
  assign(quiz: string, questions: string[], args?: Args): Promise<void>;
  /** Saves the journey graph (the draft) of an exam this user may change (PUT exam:journey:graph); returns the journey's id. */
  journeyDraft(exam: string, nodes: unknown[], settings?: Args): Promise<string>;
  /** Saves the journey graph and publishes it (POST exam:journey:publish). Needs the journeys feature. */
  journey(exam: string, nodes: unknown[], settings?: Args): Promise<string>;
}

/** A user named in a list step: a caller, or a row of a user without an application. */
export type Member = { user: { id: string } };

export interface OrganizationHandle {
  id: string;
  owner: UserHandle;
  /** Adds members the owner may read (POST organization:members) with the given levels or department. */
  members(users: Member[], args?: Args): Promise<void>;
  department(title?: string, args?: Args): Promise<string>;
  /** Replaces a department's leaders (POST organization:department); each must be a member already. */
  leaders(department: string, users: Member[]): Promise<void>;
  quizSet(args?: Args): Promise<QuizSetHandle>;
  exam(args?: Args): Promise<ExamHandle>;
  class(args?: Args): Promise<ClassHandle>;
  tag(args?: Args): Promise<string>;
  content(type: MinimalType, args?: Args): Promise<string>;
  webhook(args?: Args): Promise<string>;
  /**
   * Triggers an api webhook (POST organization:webhook:trigger): a pending delivery and its job,
   * which only a worker sends (the test app runs none). Returns the delivery's id.
   */
  trigger(webhook: string, data?: unknown): Promise<string>;
  competency(title?: string, args?: Args): Promise<CompetencyHandle>;

  document(title?: string, args?: Args): Promise<string>;
}

export interface QuizSetHandle {
  id: string;
  owner: UserHandle;
  /** A question of the owner (in its folder) assigned to this Quiz set; returns its id. */
  question(externalId?: string, args?: Args): Promise<string>;
  /** Assigns existing questions (POST quiz:questions). */
  assign(questions: string[], args?: Args): Promise<void>;
  settings(args: Args): Promise<void>;
  /** An exam of this Quiz set, in its organization unless `organization` is given, running now unless `start`/`end` are. */
  exam(args?: Args): Promise<ExamHandle>;
}

export interface ExamHandle {
  id: string;
  quizId: string;
  owner: UserHandle;
  /** Adds examinees (POST exam:users) as `by`, the owner unless given: the owner may add only users it may read. */
  examinees(users: Member[], by?: Caller): Promise<void>;
  /**
   * Saves the exam's journey graph and publishes it (PUT exam:journey:graph, POST
   * exam:journey:publish); returns the journey's id. The owner needs the journeys feature.
   */
  journey(nodes: unknown[], settings?: Args): Promise<string>;
  /** A finished play of `user`: started, each answer given, finished, as the player does. */
  play(user: Caller, answers?: Record<string, unknown>): Promise<string>;
}

export interface ClassHandle {
  id: string;
  members(users: Member[], args?: Args): Promise<void>;
  assignment(args?: Args): Promise<string>;
}

export interface CompetencyHandle {
  id: string;
  /** Replaces its assignment (departments, members or all). */
  assign(args: Args): Promise<void>;
  requirement(type: string, args?: Args): Promise<string>;
  /** Records a user's progress on a requirement, as `by` (by default the user itself, then a caller). */
  progress(requirement: string, user: Member, status: string, args?: Args, by?: Caller): Promise<void>;
}

const HOUR = 3_600_000;
/** A period that is running now: from an hour ago for thirty days. */
export const runningPeriod = () => ({ start: new Date(Date.now() - HOUR), end: new Date(Date.now() + 30 * 24 * HOUR) });

export function seed(t: TestApp) {
  const handleOf = (caller: Caller): UserHandle => userHandle(t, caller);
  return {
    /** The instance administrator. */
    admin: handleOf(t.admin),
    /** A handle for a caller made elsewhere (t.newCaller, another seed). */
    as: handleOf,
    /** A new user with an application, created by the administrator. */
    user: (name?: string, args?: Args) => handleOf(t.admin).managedUser(name, args),
  };
}

function userHandle(t: TestApp, caller: Caller): UserHandle {
  const ctx = () => contextOf(t, caller);
  const self: UserHandle = {
    ...caller,
    id: caller.user.id,
    ctx,
    async managedUser(name, args) {
      const { user } = await self.managedAccount(name, args);
      const { integration, app, secret } = await createApiIntegration(t.platform, user, `${user.username} app`);
      return userHandle(t, { user, app, secret, integrationId: integration.id });
    },
    async managedAccount(name = `user-${next()}`, args = {}) {
      const username = args.username ? String(args.username) : name;
      return { user: (await createUser(await ctx(), { username, email: `${username}@example.com`, firstName: name, lastName: 'Tester', ...args })).user };
    },
    async organization(args = {}) {
      const organization = await createOrganization(await ctx(), { title: `Organization ${next()}`, ...args });
      return organizationHandle(t, self, organization.id);
    },
    organizationOf: (id) => organizationHandle(t, self, id),
    async quizSet(args = {}) {
      const quiz = await createQuizSet(await ctx(), { title: `Quiz ${next()}`, ...args });
      return quizSetHandle(t, self, quiz.id, quiz.organizationId);
    },
    async exam(args = {}) {
      const { organization } = args;
      return (await self.quizSet(organization === undefined ? {} : { organization })).exam(args);
    },
    async question(externalId = `q-${next()}`, args = {}) {
      return (await upsertQuestion(await ctx(), { id: externalId, type: 'generic', content: externalId, answer: 'a', ...args })).question.id;
    },
    async class(args = {}) {
      return classHandle(t, self, (await createClass(await ctx(), { title: `Class ${next()}`, ...args })).id);
    },
    classOf: (id) => classHandle(t, self, id),
    async tag(args = {}) {
      return (await createTag(await ctx(), { title: `Tag ${next()}`, color: '#123456', ...args })).id;
    },
    async content(type, args = {}) {
      return (await createContent(await ctx(), type, { title: `${type} ${next()}`, ...args })).id;
    },
    async integration(args = {}) {
      return (await createIntegration(await ctx(), { title: `Integration ${next()}`, ...args })).id;
    },
    async preset(args = {}) {
      const grades = [{ threshold: 0, grade: 'fail' }, { threshold: 50, grade: 'pass' }];
      return (await createPreset(await ctx(), { title: `Preset ${next()}`, type: 'custom', grades, ...args })).id;
    },
    async skill(args = {}) {
      const n = next();
      return (await createSkill(await ctx(), { identifier: `skill-${n}`, title: `Skill ${n}`, ...args })).id;
    },
    async attachSkill(question, skill) {
      await attachSkill(await ctx(), { question, skill });
    },
    async grant(type, contentId, user, level) {
      await grantPermission(await ctx(), type, { [type]: contentId, user: user.user.id, permission: level });
    },
    async transfer(type, contentId, user) {
      await transferContent(await ctx(), type, { [type]: contentId, user: user.user.id });
    },
    async addMembers(organizationId, users, args = {}) {
      await addMembers(await ctx(), { organization: organizationId, users: users.map((u) => u.user.id), ...args });
    },
    async progress(requirement, member, status, args = {}) {
      await recordProgress(await ctx(), { requirement, user: member.user.id, status, ...args });
    },
    async submit(assignment) {
      await submitAssignment(await ctx(), { assignment });
    },
    async attachTag(type, contentId, tag) {
      await attachTag(await ctx(), type, { [type]: contentId, tag });
    },
    async examinees(exam, users) {
      await addExamUsers(await ctx(), { exam, users: users.map((u) => u.user.id) });
    },
    async assign(quiz, questions, args = {}) {
      await assignQuestions(await ctx(), { quiz, questions, ...args });
    },
    async journeyDraft(exam, nodes, settings = {}) {
      return (await saveJourneyGraph(await ctx(), { exam, nodes, settings })).journey.id;
    },
    async journey(exam, nodes, settings = {}) {
      await self.journeyDraft(exam, nodes, settings);
      return (await publishJourney(await ctx(), { exam })).journey;
    },
  };
  return self;
}

function organizationHandle(t: TestApp, owner: UserHandle, id: string): OrganizationHandle {
  const inOrganization = (args: Args) => ({ organization: id, ...args });
  return {
    id,
    owner,
    members: (users, args = {}) => owner.addMembers(id, users, args),
    async department(title = `Department ${next()}`, args = {}) {
      return (await createDepartment(await owner.ctx(), { organization: id, title, ...args })).id;
    },
    async leaders(department, users) {
      await updateDepartment(await owner.ctx(), { organization: id, department, leaders: users.map((u) => u.user.id) });
    },
    quizSet: (args = {}) => owner.quizSet(inOrganization(args)),
    exam: (args = {}) => owner.exam(inOrganization(args)),
    class: (args = {}) => owner.class(inOrganization(args)),
    tag: (args = {}) => owner.tag(inOrganization(args)),
    content: (type, args = {}) => owner.content(type, inOrganization(args)),
    async webhook(args = {}) {
      const hook = { title: `Hook ${next()}`, triggerEvent: 'api', endpoint: 'https://hooks.example.com/x' };
      return (await createWebhook(await owner.ctx(), { organization: id, ...hook, ...args })).id;
    },
    async trigger(webhook, data = {}) {
      return (await triggerWebhook(await owner.ctx(), { organization: id, webhook, data })).delivery.id;
    },
    async competency(title = `Competency ${next()}`, args = {}) {
      return competencyHandle(t, owner, (await createCompetency(await owner.ctx(), { organization: id, title, ...args })).id);
    },
    async document(title = `Document ${next()}`, args = {}) {
      return (await createDocument(await owner.ctx(), { organization: id, title, ...args })).id;
    },
  };
}

function quizSetHandle(t: TestApp, owner: UserHandle, id: string, organizationId: string | null): QuizSetHandle {
  const self: QuizSetHandle = {
    id,
    owner,
    async question(externalId, args = {}) {
      const question = await owner.question(externalId, args);
      await self.assign([question]);
      return question;
    },
    assign: (questions, args = {}) => owner.assign(id, questions, args),
    async settings(args) {
      await updateQuizSettings(await owner.ctx(), { quiz: id, ...args });
    },
    async exam(args = {}) {
      const inherited = organizationId === null ? {} : { organization: organizationId };
      const exam = await createExam(await owner.ctx(), { title: `Exam ${next()}`, ...runningPeriod(), ...inherited, ...args, quiz: id });
      return examHandle(t, owner, exam.id, id);
    },
  };
  return self;
}

function examHandle(t: TestApp, owner: UserHandle, id: string, quizId: string): ExamHandle {
  return {
    id,
    quizId,
    owner,
    examinees: (users, by) => (by === undefined ? owner : userHandle(t, by)).examinees(id, users),
    journey: (nodes, settings = {}) => owner.journey(id, nodes, settings),
    async play(user, answers = {}) {
      const ctx = () => contextOf(t, user);
      const play = await startPlay(await ctx(), { exam: id });
      for (const [question, response] of Object.entries(answers)) await answerQuestion(await ctx(), { play: play.id, question, response });
      return (await finishPlay(await ctx(), { play: play.id })).id;
    },
  };
}

function classHandle(t: TestApp, owner: UserHandle, id: string): ClassHandle {
  return {
    id,
    async members(users, args = {}) {
      await addClassMembers(await owner.ctx(), { class: id, users: users.map((u) => u.user.id), ...args });
    },
    async assignment(args = {}) {
      const { start: starts, end: ends } = runningPeriod();
      return (await createAssignment(await owner.ctx(), { class: id, title: `Assignment ${next()}`, starts, ends, ...args })).id;
    },
  };
}

function competencyHandle(t: TestApp, owner: UserHandle, id: string): CompetencyHandle {
  return {
    id,
    async assign(args) {
      await setAssignments(await owner.ctx(), { competency: id, ...args });
    },
    async requirement(type, args = {}) {
      return (await createRequirement(await owner.ctx(), { competency: id, type, ...args })).requirement.id;
    },
    progress: (requirement, user, status, args = {}, by = user as Caller) => userHandle(t, by).progress(requirement, user, status, args),
  };
}
