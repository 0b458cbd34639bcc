import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Context } from '../../src/context.ts';
import type { Db } from '../../src/db/client.ts';
import { atLeastWhere, includes, levelsFor, levelsOf, type ContentRef, type Holder, type Level } from '../../src/auth/permissions.ts';
import { allowedWhere, canEach } from '../../src/auth/policy.ts';
import { allActions, needOf, typeOf, type Action } from '../../src/auth/actions.ts';
import { contentLevels, organizationRoles } from '../../src/auth/organization-policy.ts';
import { contentTypeEntry, contentTypes, hasRecords, type ContentType } from '../../src/services/content/content-types.ts';
import { newId, type IdType } from '../../src/ids.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

/**
 * The two faces of the level policy agree: for every user of a matrix (each organization role
 * with each membership content level, owners, rule holders of every level, outsiders,
 * administrators), every content type with records and every level of its scale, the ids the SQL
 * filter of lists (atLeastWhere) finds are exactly those the in-memory check (levelsFor) grants.
 * The facade's answers for the actions of the table (allowedWhere and canEach) agree the same way.
 */

let database: TestDatabase;
let db: Db;
const built = contentTypes.filter(hasRecords);

interface Person extends Holder {
  name: string;
}
const people: Person[] = [];
/** Every piece of content, with what the policy reads of it. */
const pieces: ContentRef[] = [];

const lowerFirst = (s: string) => s[0]!.toLowerCase() + s.slice(1);
/** Columns a content table needs beyond the shared ones. */
const required: Partial<Record<ContentType, Record<string, unknown>>> = { tag: { color: '#123456' }, quiz: { language: 'en' } };

async function person(name: string, admin = false): Promise<Person> {
  const id = newId('User');
  await db.user.create({
    data: { id, username: name, email: `${name}@example.com`, passwordHash: 'x', firstName: name, lastName: 'M', fullName: `${name} M`, displayName: name, admin },
  });
  const p = { id, admin, name };
  people.push(p);
  return p;
}

async function organization(title: string, owner: Person | null): Promise<string> {
  const id = newId('Organization');
  await db.organization.create({ data: { id, title, ownerId: owner?.id ?? null } });
  pieces.push({ type: 'organization', id, ownerId: owner?.id ?? null, organizationId: null });
  return id;
}

/** A piece of content of a type with an organization column, created through its registration's model. */
async function piece(type: ContentType, owner: Person, organizationId: string | null): Promise<string> {
  const model = contentTypeEntry(type).model!;
  const id = newId(model as IdType);
  const table = (db as unknown as Record<string, { create(args: object): Promise<unknown> }>)[lowerFirst(model)]!;
  await table.create({ data: { id, title: `${type} ${id}`, ownerId: owner.id, organizationId, ...required[type] } });
  pieces.push({ type, id, ownerId: owner.id, organizationId });
  return id;
}

const member = (organizationId: string, user: Person, permOrganization: string, permContent: string) =>
  db.organizationMember.create({ data: { organizationId, userId: user.id, permOrganization, permContent } });

const rule = (type: ContentType, contentId: string, user: Person, level: Level) =>
  db.permissionRule.create({ data: { contentType: type, contentId, userId: user.id, level } });

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.prisma;
  await person('administrator', true);
  const orgOwner = await person('org-owner');
  const contentOwner = await person('content-owner');
  const memberOwner = await person('member-owner');
  await person('outsider');
  const foreignAdmin = await person('foreign-admin');
  const mixed = await person('mixed');

  const home = await organization('Home', orgOwner);
  const abroad = await organization('Abroad', contentOwner);
  const lonely = await organization('Lonely', memberOwner);
  await organization('Ownerless', null);
  await member(home, memberOwner, 'member', 'none');
  await member(abroad, foreignAdmin, 'admin', 'none');
  await member(home, mixed, 'member', 'view');

  // Every organization role with every content level of a membership.
  for (const role of organizationRoles) {
    for (const level of contentLevels) await member(home, await person(`${role}-${level}`), role, level);
  }

  // Exams run a Quiz set: one that is not among the pieces.
  const examQuiz = newId('QuizSet');
  await db.quizSet.create({ data: { id: examQuiz, title: 'Quiz of the exams', ownerId: contentOwner.id, language: 'en' } });
  required.exam = { language: 'en', quizId: examQuiz, start: new Date('2026-01-01T00:00:00Z'), end: new Date('2027-01-01T00:00:00Z') };

  const ruled: Person[] = [];
  for (const level of levelsOf('event')) ruled.push(await person(`rule-${level}`));

  for (const type of built) {
    if (contentTypeEntry(type).organization === 'self') {
      // Organizations are the pieces themselves; rules name the foreign and the lonely one.
      for (const [i, level] of levelsOf(type).entries()) {
        await rule(type, abroad, ruled.find((p) => p.name === `rule-${level}`)!, level);
        await rule(type, lonely, ruled[(i + 1) % ruled.length]!, level);
      }
      await rule(type, home, mixed, 'grant');
      continue;
    }
    const inHome = await piece(type, contentOwner, home);
    await piece(type, memberOwner, home);
    await piece(type, contentOwner, abroad);
    const personal = await piece(type, contentOwner, null);
    for (const level of levelsOf(type)) {
      const holder = ruled.find((p) => p.name === `rule-${level}`)!;
      await rule(type, inHome, holder, level);
      await rule(type, personal, holder, level);
    }
    await rule(type, inHome, mixed, 'grant');
  }
});
afterAll(async () => database?.close());

const sorted = (ids: Iterable<string>) => [...ids].sort();
const ctxOf = (user: Person) => ({ db, viewer: { user } }) as unknown as Pick<Context, 'db' | 'viewer'>;

/** The ids of `type` that a Prisma filter finds among the seeded pieces. */
async function idsMatching(type: ContentType, where: Record<string, unknown>): Promise<string[]> {
  const ids = pieces.filter((p) => p.type === type).map((p) => p.id);
  const table = (db as unknown as Record<string, { findMany(args: object): Promise<{ id: string }[]> }>)[lowerFirst(contentTypeEntry(type).model!)]!;
  return sorted((await table.findMany({ where: { AND: [{ id: { in: ids } }, where] }, select: { id: true } })).map((r) => r.id));
}

/** Thousands of statements in a row: a busy machine may need more than the default 30 s. */
const MATRIX_TIMEOUT = 120_000;

describe('the SQL filter and the in-memory check', () => {
  it('seed a matrix that covers every type with records, role, content level and rule level', () => {
    expect(built.length).toBeGreaterThan(0);
    for (const type of built) expect(pieces.filter((p) => p.type === type).length, type).toBeGreaterThanOrEqual(3);
    expect(people.length).toBeGreaterThan(organizationRoles.length * contentLevels.length);
  });

  it('agree for every user, content type and level', async () => {
    let compared = 0;
    for (const user of people) {
      const held = await levelsFor(db, user, pieces);
      for (const type of built) {
        for (const level of levelsOf(type)) {
          const inMemory = sorted(pieces.filter((p, i) => p.type === type && includes(type, held[i]!, level)).map((p) => p.id));
          const inSql = await idsMatching(type, await atLeastWhere(db, user, type, level));
          expect(inSql, `${user.name} ${type} ${level}`).toEqual(inMemory);
          compared += 1;
        }
      }
    }
    // Not a vacuous agreement: someone holds something and someone holds nothing.
    const held = await levelsFor(db, people.find((p) => p.name === 'member-none')!, pieces);
    expect(held.some((l) => l !== null) && held.some((l) => l === null)).toBe(true);
    expect(compared).toBe(people.length * built.reduce((n, type) => n + levelsOf(type).length, 0));
  }, MATRIX_TIMEOUT);

  it('agree through the facade for every action of the table', async () => {
    const actions = allActions(built).filter((action) => !needOf(action).as && built.includes(typeOf(action)));
    // Actions that need the same thing share one answer; each distinct need is compared once.
    const distinct = new Map<string, Action>();
    for (const action of actions) distinct.set(JSON.stringify([typeOf(action), needOf(action).level, !!needOf(action).ownerOnly]), action);
    for (const user of people) {
      const ctx = ctxOf(user);
      for (const action of distinct.values()) {
        const type = typeOf(action);
        const ofType = pieces.filter((p) => p.type === type);
        const allowed = await canEach(ctx, ofType.map((p) => [action, p] as const));
        const inMemory = sorted(ofType.filter((_, i) => allowed[i]).map((p) => p.id));
        expect(await idsMatching(type, await allowedWhere(ctx, action)), `${user.name} ${action}`).toEqual(inMemory);
      }
    }
  }, MATRIX_TIMEOUT);
});

describe('the action table', () => {
  it('asks every action for a level of its content type', () => {
    for (const action of allActions(contentTypes)) expect(levelsOf(typeOf(action)), action).toContain(needOf(action).level);
  });
});
