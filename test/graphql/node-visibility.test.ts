import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphQLInterfaceType, GraphQLObjectType } from 'graphql';
import { createTestApp, type Caller, type TestApp } from '../helpers/app.ts';
import { seed } from '../helpers/seed.ts';
import { newId, type IdType } from '../../src/ids.ts';
import { schema } from '../../src/graphql/schema.ts';

/**
 * node(id) and nodes(ids) for every implementation of Node in the schema: a viewer who may not
 * read an object gets exactly what it gets for an id of nothing (null, no error), one who may gets
 * the object, and no viewer finds through node(id) an object the lists that hold it do not show
 * it. The types come from the schema itself, so a new Node type fails here until it has a case.
 */

const nodeTypes = schema.getImplementations(schema.getType('Node') as GraphQLInterfaceType).objects.map((type) => type.name).sort();

let t: TestApp;
beforeAll(async () => {
  // Webhooks point at a local address, so no name has to resolve.
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
});
afterAll(async () => t?.close());

/** The data of a call that must succeed. */
async function data(query: string, variables: Record<string, unknown>, as: Caller) {
  const r = await t.gql(query, variables, { as });
  if (r.body.errors?.length) throw new Error(`${query}: ${JSON.stringify(r.body.errors)}`);
  return r.body.data;
}

/** The data of a call that may be partly refused (a list the viewer may not read answers null with an error). */
async function partial(query: string, variables: Record<string, unknown>, as: Caller) {
  return (await t.gql(query, variables, { as })).body.data;
}

const ids = (edges: { node: { id: string } }[]) => edges.map((e) => e.node.id);
const connection = (field: string) => async (as: Caller) => ids((await data(`{ ${field}(first: 100) { edges { node { id } } } }`, {}, as))[field].edges);

const organizationsOf = connection('organizations');

/** What a field of every organization the viewer sees holds (null where it is refused). */
async function perOrganization(as: Caller, field: string): Promise<string[]> {
  const found: string[] = [];
  for (const id of await organizationsOf(as)) {
    const node = (await partial(`query($id: ID!) { node(id: $id) { ... on Organization { ${field} { id } } } }`, { id }, as))?.node;
    found.push(...(node?.[field] ?? []).map((x: { id: string }) => x.id));
  }
  return found;
}

/** An object, viewers who may read it, viewers who may not, and the ids the lists holding such objects show a viewer. */
interface Case {
  id: string;
  readers: Caller[];
  others: Caller[];
  listed(as: Caller): Promise<string[]>;
}

let seq = 0;
const caller = (name: string, options?: { createdBy?: Caller }) => t.newCaller(`${name}-${++seq}`, options);

/** An organization owned by a new caller, with a plain member, a reporter and an outsider. */
async function organizationCast() {
  const [owner, member, reporter, outsider] = [await caller('owner'), await caller('member'), await caller('reporter'), await caller('outsider')];
  const organization = (await data(`mutation { createOrganization(input: { title: "Visible ${seq}" }) { id } }`, {}, owner)).createOrganization.id as string;
  // The administrator adds them: a new member is a user the one adding it sees.
  await seed(t).admin.addMembers(organization, [member]);
  await seed(t).admin.addMembers(organization, [reporter], { permissionOrganization: 'reporter' });
  return { owner, member, reporter, outsider, organization };
}

/** A course, event, SCORM package or video owned by a new caller; its list is the type's connection. */
const content = (type: string, list: string): (() => Promise<Case>) => async () => {
  const [owner, outsider] = [await caller('owner'), await caller('outsider')];
  const id = (await data(`mutation { create${type}(input: { title: "Visible" }) { id } }`, {}, owner))[`create${type}`].id;
  return { id, readers: [owner], others: [outsider], listed: connection(list) };
};

const cases: Record<string, () => Promise<Case>> = {
  async Class() {
    const { owner, member, reporter, outsider, organization } = await organizationCast();
    const id = (await data(`mutation($o: ID) { createClass(input: { title: "Visible", organization: $o }) { id } }`, { o: organization }, owner)).createClass.id;
    const student = await caller('student', { createdBy: owner });
    await data(`mutation($c: ID!, $u: [ID!]!) { addClassMembers(class: $c, users: $u) { id } }`, { c: id, u: [student.user.id] }, owner);
    // Teachers and the roles above run the organization's classes; a plain member sees none it is not in.
    return { id, readers: [owner, reporter, student], others: [member, outsider], listed: connection('classes') };
  },
  async ClassAssignment() {
    const [owner, outsider] = [await caller('owner'), await caller('outsider')];
    const klass = (await data(`mutation { createClass(input: { title: "With work" }) { id } }`, {}, owner)).createClass.id;
    const input = { class: klass, title: 'Task', starts: new Date(Date.now() - 3_600_000).toISOString(), ends: new Date(Date.now() + 3_600_000).toISOString() };
    const id = (await data(`mutation($i: CreateClassAssignmentInput!) { createClassAssignment(input: $i) { id } }`, { i: input }, owner)).createClassAssignment.id;
    const listed = async (as: Caller) =>
      (await data(`{ classes(first: 100) { edges { node { assignments { id } } } } }`, {}, as)).classes.edges.flatMap((e: { node: { assignments: { id: string }[] } }) => e.node.assignments.map((a) => a.id));
    return { id, readers: [owner], others: [outsider], listed };
  },
  async Competency() {
    const { owner, member, reporter, outsider, organization } = await organizationCast();
    const id = (await data(`mutation($o: ID!) { createCompetency(input: { organization: $o, title: "Safety" }) { id } }`, { o: organization }, owner)).createCompetency.id;
    // Reporters list the organization's competencies; every member reads one with its
    // requirements, as GET organization:competency:requirements does, without a list of them.
    const listed = async (as: Caller) => {
      const read = await t.rpc('GET', 'organization:competency:requirements', { competency: id }, { as });
      return [...(await perOrganization(as, 'competencies')), ...(read.status === 200 ? [read.body.competency] : [])];
    };
    return { id, readers: [owner, reporter, member], others: [outsider], listed };
  },
  Course: content('Course', 'courses'),
  async Department() {
    const { owner, member, outsider, organization } = await organizationCast();
    const id = (await data(`mutation($o: ID!) { createDepartment(input: { organization: $o, title: "Ops" }) { id } }`, { o: organization }, owner)).createDepartment.id;
    return { id, readers: [owner, member], others: [outsider], listed: (as) => perOrganization(as, 'allDepartments') };
  },
  Event: content('Event', 'events'),
  async GradingPreset() {
    const [owner, outsider] = [await caller('owner'), await caller('outsider')];
    const input = { title: 'Stars', type: 'custom', grades: [{ grade: 'one' }, { threshold: 50, grade: 'two' }] };
    const id = (await data(`mutation($i: CreateGradingPresetInput!) { createGradingPreset(input: $i) { id } }`, { i: input }, owner)).createGradingPreset.id;
    const listed = async (as: Caller) => (await data(`{ gradingPresets { preset { id } } }`, {}, as)).gradingPresets.map((p: { preset: { id: string } }) => p.preset.id);
    return { id, readers: [owner], others: [outsider], listed };
  },
  async Integration() {
    const [owner, outsider] = [await caller('owner'), await caller('outsider')];
    return { id: owner.integrationId, readers: [owner], others: [outsider], listed: connection('integrations') };
  },
  async LibraryDocument() {
    const { owner, member, outsider, organization } = await organizationCast();
    const id = (await data(`mutation($o: ID!) { createLibraryDocument(input: { organization: $o, title: "Handbook" }) { id } }`, { o: organization }, owner)).createLibraryDocument.id;
    return { id, readers: [owner, member], others: [outsider], listed: (as) => perOrganization(as, 'library') };
  },
  async Organization() {
    const { owner, member, reporter, outsider, organization } = await organizationCast();
    return { id: organization, readers: [owner, member, reporter], others: [outsider], listed: organizationsOf };
  },
  async Question() {
    const [owner, outsider] = [await caller('owner'), await caller('outsider')];
    const fields = { id: `visible-${seq}`, type: 'generic', content: 'Q?', answer: 'A' };
    const id = (await data(`mutation($f: JSONObject!) { upsertQuestion(fields: $f) { id } }`, { f: fields }, owner)).upsertQuestion.id;
    return { id, readers: [owner], others: [outsider], listed: connection('questions') };
  },
  async Exam() {
    const { owner, member, reporter, outsider, organization } = await organizationCast();
    const quiz = (await data(`mutation { createQuizSet(input: { title: "For the exam" }) { id } }`, {}, owner)).createQuizSet.id;
    const input = { title: 'Visible', quiz, organization, start: '2030-01-01T00:00:00Z', end: '2030-02-01T00:00:00Z' };
    const id = (await data(`mutation($i: CreateExamInput!) { createExam(input: $i) { id } }`, { i: input }, owner)).createExam.id;
    // Members hold their content level (none here) on the organization's exams; only the owner reads it.
    return { id, readers: [owner], others: [member, reporter, outsider], listed: connection('exams') };
  },
  async QuizSet() {
    const [owner, outsider] = [await caller('owner'), await caller('outsider')];
    const id = (await data(`mutation { createQuizSet(input: { title: "Visible" }) { id } }`, {}, owner)).createQuizSet.id;
    return { id, readers: [owner], others: [outsider], listed: connection('quizSets') };
  },
  async Play() {
    const [owner, player, outsider] = [await caller('owner'), await caller('player'), await caller('outsider')];
    const quiz = (await data(`mutation { createQuizSet(input: { title: "Played" }) { id } }`, {}, owner)).createQuizSet.id;
    // The administrator grants: the owner sees neither user.
    await seed(t).admin.grant('quiz', quiz, player, 'view');
    await seed(t).admin.grant('quiz', quiz, outsider, 'view');
    const id = (await data(`mutation($q: ID!) { startPlay(input: { quiz: $q }) { id } }`, { q: quiz }, player)).startPlay.id;
    // Its user lists it among its own plays; report on the Quiz set lists it among the Quiz set's results.
    const listed = async (as: Caller) => {
      const own = ids((await data(`{ myPlays(first: 100) { edges { node { id } } } }`, {}, as)).myPlays.edges);
      const node = (await partial(`query($q: ID!) { node(id: $q) { ... on QuizSet { results(first: 100) { edges { node { id } } } } } }`, { q: quiz }, as))?.node;
      return [...own, ...ids(node?.results?.edges ?? [])];
    };
    return { id, readers: [owner, player], others: [outsider], listed };
  },
  Scorm: content('Scorm', 'scorms'),
  async Skill() {
    const [owner, outsider] = [await caller('owner'), await caller('outsider')];
    const id = (await data(`mutation { createSkill(input: { identifier: "visible", title: "Visible" }) { id } }`, {}, owner)).createSkill.id;
    const listed = async (as: Caller) => (await data(`{ skills { id } }`, {}, as)).skills.map((s: { id: string }) => s.id);
    return { id, readers: [owner], others: [outsider], listed };
  },
  async Tag() {
    const [owner, outsider] = [await caller('owner'), await caller('outsider')];
    const id = (await data(`mutation { createTag(input: { title: "Visible", color: "#abc" }) { id } }`, {}, owner)).createTag.id;
    return { id, readers: [owner], others: [outsider], listed: connection('tags') };
  },
  async User() {
    const manager = await caller('manager');
    const [managed, outsider] = [await caller('managed', { createdBy: manager }), await caller('outsider')];
    // The users list shows the users one manages; `me` shows the caller itself.
    const listed = async (as: Caller) => [...(await connection('users')(as)), (await data(`{ me { id } }`, {}, as)).me.id];
    return { id: managed.user.id, readers: [manager, managed], others: [outsider], listed };
  },
  Video: content('Video', 'videos'),
  async Webhook() {
    const { owner, member, reporter, outsider, organization } = await organizationCast();
    const input = { organization, title: 'Hook', triggerEvent: 'api', endpoint: 'http://127.0.0.1:9/hook' };
    const id = (await data(`mutation($i: CreateWebhookInput!) { createWebhook(input: $i) { id } }`, { i: input }, owner)).createWebhook.id;
    // Only the organization's managers read its webhooks.
    return { id, readers: [owner], others: [member, reporter, outsider], listed: (as) => perOrganization(as, 'webhooks') };
  },
};

const NODE = `query($id: ID!) { node(id: $id) { __typename id } }`;
const NODES = `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }`;

describe('node(id) and nodes(ids) for every Node type', () => {
  it('knows every implementation of Node', () => {
    expect(nodeTypes.filter((type) => !cases[type]), 'Node types without a visibility case below').toEqual([]);
    expect(nodeTypes.length).toBeGreaterThanOrEqual(18);
  });

  it('answers every Node\'s id synchronously, as the record\'s own id (no promise per object)', () => {
    for (const name of nodeTypes) {
      const id = (schema.getType(name) as GraphQLObjectType).getFields().id!;
      expect(id.resolve!({ id: `${name}-record` }, {}, {} as never, {} as never), name).toBe(`${name}-record`);
    }
  });

  it.each(nodeTypes)('%s: readers get it, others get null as for nothing, and node sees no more than the lists', async (type) => {
    const c = await cases[type]!();
    const nothing = newId(type as IdType);
    for (const reader of c.readers) {
      const r = await t.gql(NODE, { id: c.id }, { as: reader });
      expect(r.body, `${type} read by ${reader.user.username}`).toEqual({ data: { node: { __typename: type, id: c.id } } });
      expect((await t.gql(NODES, { ids: [c.id, nothing] }, { as: reader })).body).toEqual({ data: { nodes: [{ __typename: type, id: c.id }, null] } });
      expect(await c.listed(reader), `the lists ${reader.user.username} reads hold the ${type}`).toContain(c.id);
    }
    for (const other of c.others) {
      const absent = (await t.gql(NODE, { id: nothing }, { as: other })).body;
      expect(absent).toEqual({ data: { node: null } });
      expect((await t.gql(NODE, { id: c.id }, { as: other })).body, `${type} seen by ${other.user.username}`).toEqual(absent);
      expect((await t.gql(NODES, { ids: [c.id, nothing] }, { as: other })).body).toEqual({ data: { nodes: [null, null] } });
      expect(await c.listed(other), `the lists ${other.user.username} reads do not hold the ${type}`).not.toContain(c.id);
    }
  });
});

describe('node(id) of competencies and library documents follows the features, as their lists do', () => {
  it('is null for everyone while the library or competencies feature is off', async () => {
    const competency = await cases.Competency!();
    const document = await cases.LibraryDocument!();
    for (const feature of ['library', 'competencies']) {
      await t.platform.settings.set('features', { [feature]: false });
      try {
        for (const reader of competency.readers) {
          expect((await t.gql(NODE, { id: competency.id }, { as: reader })).body).toEqual({ data: { node: null } });
          expect(await competency.listed(reader)).not.toContain(competency.id);
        }
        for (const reader of feature === 'library' ? document.readers : []) {
          expect((await t.gql(NODE, { id: document.id }, { as: reader })).body).toEqual({ data: { node: null } });
          expect(await document.listed(reader)).not.toContain(document.id);
        }
      } finally {
        await t.platform.settings.set('features', {});
      }
    }
  });
});
