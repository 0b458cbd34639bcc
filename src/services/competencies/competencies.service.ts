import type { Context } from '../../context.ts';
import type { Competency, Department, Organization, Prisma } from '../../generated/prisma/client.ts';
import { ArgumentError, PermissionError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { audit } from '../audit/audit.service.ts';
import { parseInput } from '../validation.ts';
import * as s from './competencies.schemas.ts';
import { afterChecks, loaders } from '../loaders.ts';
import type { Selection } from '../selection.ts';
import { competencyFeaturesOn, findOrganization, isMemberReader, managerAccess, memberAccess, organizationOfRecord, reportScope, requireCompetencyFeatures, type ReportScope } from './access.ts';
import { countAssignments, sumRows, type CounterRow, type StatusCounts } from './status.ts';
import { hierarchyOrder } from '../organizations/departments.service.ts';

/** Counters of one competency (or of a whole report) in the caller's scope. */
export interface Counters {
  assigned: number;
  status: StatusCounts;
}

export interface CompetencyRecord extends Counters {
  competency: Competency;
  requirements: number;
  /** Attached library documents that still exist. */
  documents: number;
  assignments: { all: boolean; departments: number; members: number };
}

export interface ComplianceDepartment {
  /** Null for the members without a department. */
  department: Department | null;
  parent: Department | null;
  level: number;
  /** Members in scope. */
  members: number;
  competencies: (Counters & { competency: Competency })[];
}

export interface Compliance extends Counters {
  organization: Organization;
  scope: ReportScope['scope'];
  competencies: Competency[];
  departments: ComplianceDepartment[];
}

const byTitle = [{ title: 'asc' as const }, { id: 'asc' as const }];
type CompetencySelection = Selection<'Competency'>;

/** The competency a write names, with the manager check of its organization. */
async function findManagedCompetency(ctx: Context, code: string): Promise<Competency> {
  await requireCompetencyFeatures(ctx);
  const competency = await ctx.db.competency.findUnique({ where: { id: code } });
  const unknown = new ArgumentError('competency', `no competency with identification string '${code}'`, 'NOT_FOUND');
  if (!competency) throw unknown;
  await managerAccess(ctx, await organizationOfRecord(ctx, competency.organizationId, unknown));
  return competency;
}

/** The counters of a report: one SQL statement over the members in scope. */
async function counterRows(ctx: Context, organization: Organization, report: ReportScope, competencyIds?: string[]): Promise<CounterRow[]> {
  const members = await ctx.db.organizationMember.findMany({ where: report.members, select: { userId: true } });
  return countAssignments(ctx.db, { organizationId: organization.id, userIds: members.map((m) => m.userId), competencyIds, now: new Date() });
}

function countersBy<K>(rows: CounterRow[], key: (row: CounterRow) => K): Map<K, Counters> {
  const groups = new Map<K, CounterRow[]>();
  for (const row of rows) groups.set(key(row), [...(groups.get(key(row)) ?? []), row]);
  return new Map([...groups].map(([k, list]) => [k, sumRows(list)]));
}

const noCounters = (): Counters => sumRows([]);

/** GET organization:competencies: every competency of the organization, counted in the caller's scope. */
export async function listCompetencies(ctx: Context, raw: Record<string, unknown>) {
  const input = parseInput(s.organizationRef, raw);
  await requireCompetencyFeatures(ctx);
  const organization = await findOrganization(ctx, input.organization);
  const report = await reportScope(ctx, organization);
  const [competencies, rows] = await Promise.all([
    ctx.db.competency.findMany({
      where: { organizationId: organization.id },
      orderBy: byTitle,
      include: { _count: { select: { requirements: true, departments: true, members: true } } },
    }),
    counterRows(ctx, organization, report),
  ]);
  const documentIds = [...new Set(competencies.flatMap((c) => c.documentIds))];
  const existing = new Set(
    (await ctx.db.libraryDocument.findMany({ where: { organizationId: organization.id, id: { in: documentIds } }, select: { id: true } })).map((d) => d.id),
  );
  const counters = countersBy(rows, (r) => r.competencyId);
  const records: CompetencyRecord[] = competencies.map(({ _count, ...competency }) => ({
    competency,
    requirements: _count.requirements,
    documents: competency.documentIds.filter((id) => existing.has(id)).length,
    assignments: { all: competency.assignAll, departments: _count.departments, members: _count.members },
    ...(counters.get(competency.id) ?? noCounters()),
  }));
  return { organization, scope: report.scope, competencies: records };
}

/** An organization's competencies by title, as a relation loaded with the organizations of a list (GraphQL). */
export const competenciesQuery = { orderBy: byTitle };

/**
 * The competencies of an organization (loaded with `competenciesQuery`), with the checks of the
 * REST list: the features, and the organization's reporters and department leaders only. The
 * checks are batched for the organizations of a list.
 */
export async function reportedCompetencies<T>(ctx: Context, organization: Organization, competencies: T[]): Promise<T[]> {
  await requireCompetencyFeatures(ctx);
  await reportScope(ctx, organization);
  return competencies;
}

/**
 * A competency by identification string for a node lookup: with the features on, to the members
 * and managers of its organization, who read it and its requirements one by one as GET
 * organization:competency:requirements does. Null otherwise.
 */
export async function findReadableCompetency(ctx: Context, id: string, query: Selection<'Competency'> = {}): Promise<Competency | null> {
  if (!(await competencyFeaturesOn(ctx))) return null;
  const competency = await ctx.db.competency.findUnique({ ...query, where: { id } });
  const organization = competency && (await loaders(ctx).organization.load(competency.organizationId));
  return organization && (await isMemberReader(ctx, organization)) ? competency : null;
}

/**
 * Counters of many competencies (GraphQL), one statement per organization among them; null for
 * competencies whose organization the caller may not report on.
 */
export async function countersOf(ctx: Context, ids: readonly string[]): Promise<(Counters | null)[]> {
  await requireCompetencyFeatures(ctx);
  const competencies = await ctx.db.competency.findMany({ where: { id: { in: [...ids] } } });
  const organizations = [...new Set(competencies.map((c) => c.organizationId))];
  const results = new Map<string, Counters | null>();
  await Promise.all(
    organizations.map(async (organizationId) => {
      const organization = (await loaders(ctx).organization.load(organizationId))!;
      const report = await reportScope(ctx, organization).catch((error: unknown) => {
        if (error instanceof PermissionError) return null;
        throw error;
      });
      const ids = competencies.filter((c) => c.organizationId === organizationId).map((c) => c.id);
      const counters = report ? countersBy(await counterRows(ctx, organization, report, ids), (r) => r.competencyId) : null;
      for (const id of ids) results.set(id, counters ? (counters.get(id) ?? noCounters()) : null);
    }),
  );
  return ids.map((id) => results.get(id) ?? null);
}

/** GET organization:compliance. */
export async function getCompliance(ctx: Context, raw: Record<string, unknown>): Promise<Compliance> {
  const input = parseInput(s.organizationRef, raw);
  await requireCompetencyFeatures(ctx);
  return complianceOf(ctx, await findOrganization(ctx, input.organization));
}

/**
 * The compliance overview: a fixed number of statements whatever the number of departments,
 * members and competencies (the access rule, the members in scope, the counters, the competencies,
 * the departments and their member counts).
 */
export async function complianceOf(ctx: Context, organization: Organization): Promise<Compliance> {
  await requireCompetencyFeatures(ctx);
  const report = await reportScope(ctx, organization);
  const [rows, departments, memberCounts] = await Promise.all([
    counterRows(ctx, organization, report),
    ctx.db.department.findMany({ where: { organizationId: organization.id }, orderBy: byTitle }),
    ctx.db.organizationMember.groupBy({ by: ['departmentId'], where: report.members, _count: { _all: true } }),
  ]);
  const competencies = await ctx.db.competency.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.competencyId))] } }, orderBy: byTitle });
  const members = new Map(memberCounts.map((m) => [m.departmentId, m._count._all]));
  const byDepartment = new Map<string | null, CounterRow[]>();
  for (const row of rows) byDepartment.set(row.departmentId, [...(byDepartment.get(row.departmentId) ?? []), row]);
  const entry = (department: Department | null, level: number): ComplianceDepartment => {
    const counters = countersBy(byDepartment.get(department?.id ?? null) ?? [], (r) => r.competencyId);
    return {
      department,
      parent: departments.find((d) => d.id === department?.parentId) ?? null,
      level,
      members: members.get(department?.id ?? null) ?? 0,
      competencies: competencies.filter((c) => counters.has(c.id)).map((competency) => ({ competency, ...counters.get(competency.id)! })),
    };
  };
  const entries = hierarchyOrder(departments)
    .filter(({ department }) => members.has(department.id))
    .map(({ department, level }) => entry(department, level));
  // Members without a department can only be in scope at organization scope.
  if (members.has(null)) entries.push(entry(null, 0));
  return { organization, scope: report.scope, competencies, departments: entries, ...sumRows(rows) };
}

/** Library documents to attach: each must be a document of the organization. */
export async function checkDocuments(ctx: Context, organizationId: string, ids: string[] | undefined): Promise<void> {
  if (!ids?.length) return;
  const found = await ctx.db.libraryDocument.findMany({ where: { organizationId, id: { in: ids } }, select: { id: true } });
  const missing = ids.find((id) => !found.some((d) => d.id === id));
  if (missing) throw new ArgumentError('documents', `no library document '${missing}' in this organization`, 'NOT_FOUND');
}

async function checkExternalId(ctx: Context, organizationId: string, externalId: string | undefined, except?: string): Promise<void> {
  if (!externalId) return;
  const taken = await ctx.db.competency.findFirst({ where: { organizationId, externalId, ...(except ? { id: { not: except } } : {}) } });
  if (taken) throw new ArgumentError('externalId', `'${externalId}' is already used by another competency`, 'EXTERNAL_ID_TAKEN');
}

export async function createCompetency(ctx: Context, raw: Record<string, unknown>, query: CompetencySelection = {}): Promise<Competency> {
  const input = parseInput(s.createCompetency, raw);
  await requireCompetencyFeatures(ctx);
  const organization = await findOrganization(ctx, input.organization);
  await managerAccess(ctx, organization);
  await checkExternalId(ctx, organization.id, input.externalId);
  const documentIds = [...new Set(input.documents ?? [])];
  await checkDocuments(ctx, organization.id, documentIds);
  return ctx.db.$transaction(async (tx) => {
    const competency = await tx.competency.create({
      ...query,
      data: {
        id: newId('Competency'),
        organizationId: organization.id,
        title: input.title,
        externalId: input.externalId,
        description: input.description,
        documentIds,
      },
    });
    await audit(ctx, tx, 'competency:create', competency.id);
    return competency;
  });
}

export async function updateCompetency(ctx: Context, raw: Record<string, unknown>, query: CompetencySelection = {}): Promise<Competency> {
  const input = parseInput(s.updateCompetency, raw);
  const competency = await findManagedCompetency(ctx, input.competency);
  await checkExternalId(ctx, competency.organizationId, input.externalId, competency.id);
  const documentIds = input.documents && [...new Set(input.documents)];
  await checkDocuments(ctx, competency.organizationId, documentIds);
  return ctx.db.$transaction(async (tx) => {
    const updated = await tx.competency.update({
      ...query,
      where: { id: competency.id },
      data: {
        title: input.title,
        externalId: input.externalId === undefined ? undefined : input.externalId || null,
        description: input.description === undefined ? undefined : input.description || null,
        documentIds,
      },
    });
    await audit(ctx, tx, 'competency:update', competency.id);
    return updated;
  });
}

export async function deleteCompetency(ctx: Context, raw: Record<string, unknown>): Promise<Competency> {
  const competency = await findManagedCompetency(ctx, parseInput(s.competencyRef, raw).competency);
  return ctx.db.$transaction(async (tx) => {
    await tx.competency.delete({ where: { id: competency.id } });
    await audit(ctx, tx, 'competency:delete', competency.id);
    return competency;
  });
}

/**
 * Assigns a competency to all members, to departments and to members directly; each given part
 * replaces the current one. Direct assignments kept by a replacement keep their date, which
 * deadlines in days count from.
 */
export async function setAssignments(ctx: Context, raw: Record<string, unknown>, query: CompetencySelection = {}): Promise<Competency> {
  const input = parseInput(s.setAssignments, raw);
  const competency = await findManagedCompetency(ctx, input.competency);
  const organizationId = competency.organizationId;
  let departmentIds: string[] | undefined;
  if (input.departments) {
    const names = input.departments;
    const found = await ctx.db.department.findMany({
      where: { organizationId, OR: [{ id: { in: names } }, { title: { in: names } }, { externalId: { in: names } }] },
    });
    departmentIds = names.map((name) => {
      const department = found.find((d) => d.id === name) ?? found.find((d) => d.title === name) ?? found.find((d) => d.externalId === name);
      if (!department) throw new ArgumentError('departments', `no department '${name}' in this organization`, 'NOT_FOUND');
      return department.id;
    });
    departmentIds = [...new Set(departmentIds)];
  }
  const userIds = input.members && [...new Set(input.members)];
  if (userIds?.length) {
    const found = await ctx.db.organizationMember.findMany({ where: { organizationId, userId: { in: userIds } }, select: { userId: true } });
    const missing = userIds.find((id) => !found.some((m) => m.userId === id));
    if (missing) throw new ArgumentError('members', `'${missing}' is not a member of this organization`, 'NOT_FOUND');
  }
  return ctx.db.$transaction(async (tx) => {
    if (departmentIds) {
      await tx.competencyDepartment.deleteMany({ where: { competencyId: competency.id, departmentId: { notIn: departmentIds } } });
      await tx.competencyDepartment.createMany({ data: departmentIds.map((departmentId) => ({ competencyId: competency.id, departmentId })), skipDuplicates: true });
    }
    if (userIds) {
      await tx.competencyMember.deleteMany({ where: { competencyId: competency.id, userId: { notIn: userIds } } });
      await tx.competencyMember.createMany({ data: userIds.map((userId) => ({ competencyId: competency.id, userId })), skipDuplicates: true });
    }
    const updated = await tx.competency.update({ ...query, where: { id: competency.id }, data: { assignAll: input.all } });
    await audit(ctx, tx, 'competency:assignments', competency.id);
    return updated;
  });
}

/** Whether a competency applies to a member: to all members, through its department, or directly. */
export async function isAssigned(
  db: Context['db'] | Prisma.TransactionClient,
  competency: Pick<Competency, 'id' | 'assignAll'>,
  member: { userId: string; departmentId: string | null },
): Promise<boolean> {
  if (competency.assignAll) return true;
  const [direct, department] = await Promise.all([
    db.competencyMember.count({ where: { competencyId: competency.id, userId: member.userId } }),
    member.departmentId ? db.competencyDepartment.count({ where: { competencyId: competency.id, departmentId: member.departmentId } }) : 0,
  ]);
  return direct + department > 0;
}

/** The organization of a competency reached through another record (GraphQL); one lookup for all of a request. */
const organizationOf = async (ctx: Context, competency: Pick<Competency, 'organizationId'>) => (await loaders(ctx).organization.load(competency.organizationId))!;

/** What a competency row needs for its direct members: their users (as `user` selects), by name. */
export const directMembersSelection = (user: Prisma.UserDefaultArgs) => ({
  members: { select: { user }, orderBy: [{ user: { fullName: 'asc' } }, { userId: 'asc' }] },
}) satisfies Prisma.CompetencySelect;

/**
 * Members assigned directly (loaded with `directMembersSelection`) whom the caller may see, for
 * the members and managers of the organization (GraphQL); batched for the competencies of a list.
 */
export async function visibleDirectMembers<U extends { id: string }>(ctx: Context, competency: Pick<Competency, 'organizationId'>, members: { user: U }[]): Promise<U[]> {
  const visible = await afterChecks(
    (async () => memberAccess(ctx, await organizationOf(ctx, competency)))(),
    Promise.all(members.map((m) => loaders(ctx).visibleMember.load({ organizationId: competency.organizationId, userId: m.user.id }))),
  );
  return members.filter((_, i) => visible[i]).map((m) => m.user);
}

/** What a competency row needs for the departments it is assigned to (as `department` selects), by title. */
export const assignedDepartmentsSelection = (department: Prisma.DepartmentDefaultArgs) => ({
  departments: { select: { department }, orderBy: { department: { title: 'asc' } } },
}) satisfies Prisma.CompetencySelect;
