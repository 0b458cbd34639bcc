import type { Context } from '../../context.ts';
import type { LibraryDocument, Organization, Prisma, Requirement, RequirementProgress } from '../../generated/prisma/client.ts';
import type { OrganizationAccess } from '../../auth/organization-policy.ts';
import { ArgumentError } from '../../errors.ts';
import { assertMay, may } from '../../auth/policy.ts';
import { newId } from '../../ids.ts';
import { audit } from '../audit/audit.service.ts';
import { parseInput } from '../validation.ts';
import * as s from './competencies.schemas.ts';
import type { RequirementType, TodoType } from './competencies.schemas.ts';
import { loaders } from '../loaders.ts';
import { findUser } from '../users/access.ts';
import { findOrganization, managerAccess, memberAccess, organizationOfRecord, requireCompetencyFeatures } from './access.ts';
import { checkDocuments, isAssigned } from './competencies.service.ts';
import { contentResolver, loadContent, type ContentKind, type ContentSummary, type DocumentSummary, type JourneySummary } from './content.ts';

/** To-do settings as stored in Requirement.todo. */
interface TodoSettings {
  type: TodoType;
  attachments: boolean;
  educators: string[];
  fields: string[];
}

export interface TodoView {
  type: TodoType;
  attachments: boolean;
  /** Only for training to-dos, and only the educators the caller may see. */
  educators?: { id: string; name: string }[];
  /** Only when the type is not default. */
  fields?: string[];
}

export type RequirementContent = ContentSummary | DocumentSummary | (JourneySummary & { outcomes: string[] });

/** A requirement with what it points at resolved: content is null when unavailable (and for to-dos). */
export interface RequirementView {
  requirement: Requirement;
  content: RequirementContent | null;
  todo: TodoView | null;
  /** Attached library documents that still exist, in the stored order. */
  documents: LibraryDocument[];
}

const contentKind: Record<Exclude<RequirementType, 'todo'>, ContentKind> = { exam: 'exam', class: 'class', document: 'document', journey: 'journey' };
const byPriority = [{ priority: 'asc' as const }, { createdAt: 'asc' as const }, { id: 'asc' as const }];

function todoSettings(requirement: Pick<Requirement, 'todo'>): TodoSettings {
  const stored = (requirement.todo ?? {}) as Partial<TodoSettings>;
  return { type: stored.type ?? 'default', attachments: stored.attachments ?? false, educators: stored.educators ?? [], fields: stored.fields ?? [] };
}

/**
 * Resolves the content, attached documents and visible educators of requirements of one
 * organization with one lookup of each kind, whatever their number.
 */
export async function requirementViews(ctx: Context, organizationId: string, access: OrganizationAccess, requirements: Requirement[]): Promise<RequirementView[]> {
  const wanted = requirements.flatMap((r) => (r.type !== 'todo' && r.contentId ? [{ kind: contentKind[r.type as keyof typeof contentKind], id: r.contentId }] : []));
  const educatorIds = [...new Set(requirements.flatMap((r) => (r.type === 'todo' ? todoSettings(r).educators : [])))];
  const viewer = ctx.viewer.user;
  // Educators are shown to whoever may see them: users the caller manages or organization members visible to it.
  const visibleUsers: Prisma.UserWhereInput = may(viewer, 'instance:records:read-all')
    ? {}
    : { OR: [{ id: viewer.id }, { createdById: viewer.id }, { memberships: { some: access.visibleMembers } }] };
  const [content, documents, educators] = await Promise.all([
    loadContent(ctx.db, organizationId, wanted),
    ctx.db.libraryDocument.findMany({ where: { organizationId, id: { in: [...new Set(requirements.flatMap((r) => r.documentIds))] } } }),
    educatorIds.length
      ? ctx.db.user.findMany({ where: { id: { in: educatorIds }, ...visibleUsers }, select: { id: true, fullName: true } })
      : Promise.resolve([]),
  ]);
  return requirements.map((requirement) => {
    const type = requirement.type as RequirementType;
    let view: Pick<RequirementView, 'content' | 'todo'>;
    if (type === 'todo') {
      const todo = todoSettings(requirement);
      view = {
        content: null,
        todo: {
          type: todo.type,
          attachments: todo.attachments,
          ...(todo.type === 'training'
            ? { educators: todo.educators.flatMap((id) => educators.filter((u) => u.id === id).map((u) => ({ id: u.id, name: u.fullName }))) }
            : {}),
          ...(todo.type !== 'default' ? { fields: todo.fields } : {}),
        },
      };
    } else {
      const found = requirement.contentId ? content[contentKind[type]].get(requirement.contentId) : undefined;
      view = { content: found ? (type === 'journey' ? { ...(found as JourneySummary), outcomes: requirement.outcomes } : (found as RequirementContent)) : null, todo: null };
    }
    return {
      requirement,
      ...view,
      documents: requirement.documentIds.flatMap((id) => documents.filter((d) => d.id === id)),
    };
  });
}

/**
 * GET organization:competency:requirements. Any member may read the requirements of the
 * organization's competencies: they hold no member data, and members need them to work on them.
 */
export async function listRequirements(ctx: Context, raw: Record<string, unknown>) {
  const input = parseInput(s.requirementsOf, raw);
  await requireCompetencyFeatures(ctx);
  const named = input.organization ? await findOrganization(ctx, input.organization) : undefined;
  // An identification string wins over an external identifier that happens to look the same.
  const competency =
    (await ctx.db.competency.findFirst({ where: { id: input.competency, ...(named ? { organizationId: named.id } : {}) } })) ??
    (named ? await ctx.db.competency.findFirst({ where: { organizationId: named.id, externalId: input.competency } }) : null);
  const unknown = new ArgumentError('competency', `no competency '${input.competency}'${named ? ' in this organization' : ''}`, 'NOT_FOUND');
  if (!competency) throw unknown;
  const organization = named ?? (await organizationOfRecord(ctx, competency.organizationId, unknown));
  const access = await memberAccess(ctx, organization);
  const requirements = await ctx.db.requirement.findMany({ where: { competencyId: competency.id }, orderBy: byPriority });
  return { organization, competency, requirements: await requirementViews(ctx, organization.id, access, requirements) };
}

/**
 * The requirements of many competencies (GraphQL), in the order of the keys; one round of lookups
 * per organization among them.
 */
export async function requirementsOf(ctx: Context, ids: readonly string[]): Promise<(RequirementView[] | Error)[]> {
  const [competencies, all] = await Promise.all([
    ctx.db.competency.findMany({ where: { id: { in: [...ids] } } }),
    ctx.db.requirement.findMany({ where: { competencyId: { in: [...ids] } }, orderBy: byPriority }),
  ]);
  const views = new Map<string, RequirementView[] | Error>();
  await Promise.all(
    [...new Set(competencies.map((c) => c.organizationId))].map(async (organizationId) => {
      const own = competencies.filter((c) => c.organizationId === organizationId);
      try {
        await requireCompetencyFeatures(ctx);
        const access = await memberAccess(ctx, (await loaders(ctx).organization.load(organizationId))!);
        const list = await requirementViews(ctx, organizationId, access, all.filter((r) => own.some((c) => c.id === r.competencyId)));
        for (const c of own) views.set(c.id, list.filter((v) => v.requirement.competencyId === c.id));
      } catch (error) {
        for (const c of own) views.set(c.id, error as Error);
      }
    }),
  );
  return ids.map((id) => views.get(id) ?? []);
}

async function findRequirement(ctx: Context, code: string) {
  await requireCompetencyFeatures(ctx);
  const requirement = await ctx.db.requirement.findUnique({ where: { id: code }, include: { competency: true } });
  const unknown = new ArgumentError('requirement', `no requirement with identification string '${code}'`, 'NOT_FOUND');
  if (!requirement) throw unknown;
  const organization = await organizationOfRecord(ctx, requirement.competency.organizationId, unknown);
  return { requirement, organization };
}

type RequirementFields = Partial<Omit<s.RequirementInput, 'competency' | 'type'>>;

const conflict = (argument: string, rule: string) => new ArgumentError(argument, rule, 'ARGUMENT_CONFLICT');

/**
 * The stored columns of a requirement from an input (and the current record on update): only the
 * fields of its type and deadline kind may be given, and the content it points at must exist when
 * its module can tell.
 */
async function requirementData(ctx: Context, organizationId: string, type: RequirementType, input: RequirementFields, current?: Requirement) {
  const deadlineType = input.deadlineType ?? current?.deadlineType ?? 'none';
  if (input.deadlineDate !== undefined && deadlineType !== 'date') throw conflict('deadlineDate', 'needs deadlineType date');
  if (input.deadlineDays !== undefined && deadlineType !== 'days') throw conflict('deadlineDays', 'needs deadlineType days');
  const deadlineDate = deadlineType === 'date' ? (input.deadlineDate ?? current?.deadlineDate ?? null) : null;
  const deadlineDays = deadlineType === 'days' ? (input.deadlineDays ?? current?.deadlineDays ?? null) : null;
  if (deadlineType === 'date' && !deadlineDate) throw new ArgumentError('deadlineDate', 'is required with deadlineType date', 'MISSING_ARGUMENT');
  if (deadlineType === 'days' && !deadlineDays) throw new ArgumentError('deadlineDays', 'is required with deadlineType days', 'MISSING_ARGUMENT');

  const todo = type === 'todo';
  if (todo && input.content !== undefined) throw conflict('content', 'does not apply to to-do requirements');
  for (const key of ['todoType', 'todoAttachments', 'todoEducators', 'todoFields'] as const) {
    if (!todo && input[key] !== undefined) throw conflict(key, 'applies to to-do requirements only');
  }
  if (type !== 'journey' && input.outcomes !== undefined) throw conflict('outcomes', 'applies to journey requirements only');

  const contentId = todo ? null : (input.content ?? current?.contentId ?? null);
  if (!todo && !contentId) throw new ArgumentError('content', `is required for ${type} requirements`, 'MISSING_ARGUMENT');
  if (!todo && input.content !== undefined) {
    const resolver = contentResolver(contentKind[type as keyof typeof contentKind]);
    if (resolver.verifies && !(await resolver.load(ctx.db, organizationId, [input.content])).has(input.content)) {
      throw new ArgumentError('content', `no ${type} '${input.content}' available to this organization`, 'NOT_FOUND');
    }
  }

  let settings: TodoSettings | null = null;
  if (todo) {
    const was = current ? todoSettings(current) : todoSettings({ todo: null });
    const todoType = input.todoType ?? was.type;
    if (input.todoEducators !== undefined && todoType !== 'training') throw conflict('todoEducators', 'applies to training to-dos only');
    if (input.todoFields !== undefined && todoType === 'default') throw conflict('todoFields', 'does not apply to default to-dos');
    const educators = todoType === 'training' ? [...new Set(input.todoEducators ?? was.educators)] : [];
    if (input.todoEducators?.length) {
      const found = await ctx.db.user.findMany({ where: { id: { in: educators } }, select: { id: true } });
      const missing = educators.find((id) => !found.some((u) => u.id === id));
      if (missing) throw new ArgumentError('todoEducators', `no user with identification string '${missing}'`, 'NOT_FOUND');
    }
    settings = {
      type: todoType,
      attachments: input.todoAttachments ?? was.attachments,
      educators,
      fields: todoType === 'default' ? [] : (input.todoFields ?? was.fields),
    };
  }
  const documentIds = input.documents && [...new Set(input.documents)];
  await checkDocuments(ctx, organizationId, documentIds);

  return {
    title: input.title === undefined ? undefined : input.title || null,
    optional: input.optional,
    description: input.description === undefined ? undefined : input.description || null,
    priority: input.priority,
    deadlineType: deadlineType === 'none' ? null : deadlineType,
    deadlineDate,
    deadlineDays,
    validityDays: input.validityDays === undefined ? undefined : input.validityDays || null,
    contentId,
    outcomes: type === 'journey' ? input.outcomes : undefined,
    todo: settings ? (settings as unknown as Prisma.InputJsonValue) : undefined,
    documentIds,
  };
}

/** The view of one requirement as the caller sees it (GraphQL mutation results). */
async function viewOf(ctx: Context, organization: Organization, access: OrganizationAccess, requirement: Requirement): Promise<RequirementView> {
  return (await requirementViews(ctx, organization.id, access, [requirement]))[0]!;
}

export async function createRequirement(ctx: Context, raw: Record<string, unknown>): Promise<RequirementView> {
  const { competency: code, type, ...input } = parseInput(s.createRequirement, raw);
  await requireCompetencyFeatures(ctx);
  const competency = await ctx.db.competency.findUnique({ where: { id: code } });
  const unknown = new ArgumentError('competency', `no competency with identification string '${code}'`, 'NOT_FOUND');
  if (!competency) throw unknown;
  const organization = await organizationOfRecord(ctx, competency.organizationId, unknown);
  const access = await managerAccess(ctx, organization);
  const data = await requirementData(ctx, organization.id, type, input);
  const requirement = await ctx.db.$transaction(async (tx) => {
    // Without a priority a new requirement comes last.
    const last = await tx.requirement.aggregate({ where: { competencyId: competency.id }, _max: { priority: true } });
    const created = await tx.requirement.create({
      data: { ...data, id: newId('Requirement'), competencyId: competency.id, type, priority: data.priority ?? (last._max.priority ?? -1) + 1 },
    });
    await audit(ctx, tx, 'requirement:create', created.id);
    return created;
  });
  return viewOf(ctx, organization, access, requirement);
}

/**
 * Changes the given fields. Completions made before a change of what must be done (the content,
 * the accepted journey outcomes, the to-do type) or before a change with `renew` become outdated.
 */
export async function updateRequirement(ctx: Context, raw: Record<string, unknown>): Promise<RequirementView> {
  const { requirement: code, renew, ...input } = parseInput(s.updateRequirement, raw);
  const { requirement, organization } = await findRequirement(ctx, code);
  const access = await managerAccess(ctx, organization);
  const data = await requirementData(ctx, organization.id, requirement.type as RequirementType, input, requirement);
  const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((x) => b.includes(x));
  const changed =
    renew ||
    (data.contentId ?? null) !== requirement.contentId ||
    (data.outcomes !== undefined && !sameList(data.outcomes, requirement.outcomes)) ||
    (input.todoType !== undefined && input.todoType !== todoSettings(requirement).type);
  const updated = await ctx.db.$transaction(async (tx) => {
    const row = await tx.requirement.update({ where: { id: requirement.id }, data: { ...data, ...(changed ? { changedAt: new Date() } : {}) } });
    await audit(ctx, tx, 'requirement:update', requirement.id);
    return row;
  });
  return viewOf(ctx, organization, access, updated);
}

export async function deleteRequirement(ctx: Context, raw: Record<string, unknown>): Promise<Requirement> {
  const { requirement, organization } = await findRequirement(ctx, parseInput(s.requirementRef, raw).requirement);
  await managerAccess(ctx, organization);
  return ctx.db.$transaction(async (tx) => {
    await tx.requirement.delete({ where: { id: requirement.id } });
    await audit(ctx, tx, 'requirement:delete', requirement.id);
    const { competency: _, ...row } = requirement;
    return row;
  });
}

/** Requirements a member confirms alone: reading a document, a plain to-do. */
const selfCompletable = (requirement: Requirement) =>
  requirement.type === 'document' || (requirement.type === 'todo' && todoSettings(requirement).type === 'default');

/**
 * Records where a member stands on a requirement of a competency assigned to it. The member
 * itself may start it, submit it for review (`waiting`), withdraw it (`none`) and complete what
 * needs no review (documents, default to-dos). Reviewers complete anything and may date a
 * completion in the past: organization supervisors and up, and leaders of the member's department,
 * for the members they see; the educators of a training to-do for that to-do.
 */
export async function recordProgress(ctx: Context, raw: Record<string, unknown>): Promise<RequirementProgress | null> {
  const input = parseInput(s.recordProgress, raw);
  const { requirement, organization } = await findRequirement(ctx, input.requirement);
  const access = await memberAccess(ctx, organization);
  const userId = input.user === 'me' ? ctx.viewer.user.id : input.user;
  const membership = await ctx.db.organizationMember.findUnique({ where: { organizationId_userId: { organizationId: organization.id, userId } } });
  if (!membership) {
    // Only a user the viewer may read is told apart from one that does not exist.
    if (input.user !== 'me') await findUser(ctx, userId);
    throw new ArgumentError('user', 'is not a member of this organization', 'NOT_MEMBER');
  }
  const visible = await ctx.db.organizationMember.count({ where: { AND: [access.visibleMembers, { userId }] } });
  const educator = requirement.type === 'todo' && todoSettings(requirement).type === 'training' && todoSettings(requirement).educators.includes(ctx.viewer.user.id);
  const review = { access, member: membership, visible: visible > 0, educator };
  assertMay(ctx.viewer.user, 'requirement:progress:record', review);
  if (input.status === 'completed' && !selfCompletable(requirement)) assertMay(ctx.viewer.user, 'requirement:progress:complete', review);
  if (input.completedAt !== undefined) {
    assertMay(ctx.viewer.user, 'requirement:progress:date', review);
    if (input.status !== 'completed') throw conflict('completedAt', 'applies to completed only');
    if (input.completedAt.getTime() > Date.now()) throw new ArgumentError('completedAt', 'must not be in the future');
  }
  if (!(await isAssigned(ctx.db, requirement.competency, membership))) {
    throw new ArgumentError('requirement', 'belongs to a competency not assigned to this member', 'NOT_ASSIGNED');
  }
  return ctx.db.$transaction(async (tx) => {
    const key = { requirementId_userId: { requirementId: requirement.id, userId } };
    await audit(ctx, tx, `requirement:progress:${input.status}`, `${requirement.id}:${userId}`);
    if (input.status === 'none') {
      await tx.requirementProgress.deleteMany({ where: { requirementId: requirement.id, userId } });
      return null;
    }
    const completedAt = input.status === 'completed' ? (input.completedAt ?? new Date()) : null;
    return tx.requirementProgress.upsert({
      where: key,
      create: { requirementId: requirement.id, userId, status: input.status, completedAt },
      update: { status: input.status, completedAt },
    });
  });
}
