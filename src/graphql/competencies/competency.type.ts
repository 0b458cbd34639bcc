import { builder } from '../builder.ts';
import { serviceNode } from '../node.ts';
import { DepartmentType } from '../organizations/organization.type.ts';
import { UserType } from '../users/user.type.ts';
import * as competencies from '../../services/competencies/competencies.service.ts';
import * as requirements from '../../services/competencies/requirements.service.ts';
import * as library from '../../services/competencies/library.service.ts';
import { requirementTypes, todoTypes } from '../../services/competencies/competencies.schemas.ts';
import type { ContentSummary, DocumentSummary, JourneySummary } from '../../services/competencies/content.ts';

export const RequirementKind = builder.enumType('RequirementType', { values: requirementTypes, description: 'What a requirement asks for.' });
export const TodoKind = builder.enumType('TodoType', { values: todoTypes, description: 'Kind of to-do: default, document, exam or training.' });

/** Assignments counted, and how many of them are in each status (the reference, /api/docs, defines each with `organization:compliance`). */
export const StatusType = builder.objectRef<competencies.Counters>('CompetencyStatus').implement({
  description: 'Assignments (member, competency) in the caller\'s scope and the status of each; an assignment is in one status at most.',
  fields: (t) => ({
    assigned: t.exposeInt('assigned', { description: 'Assignments counted.' }),
    completed: t.int({ description: 'Every required requirement completed and still valid.', resolve: (c) => c.status.completed }),
    progress: t.int({ description: 'Started, with no other status applying.', resolve: (c) => c.status.progress }),
    waiting: t.int({ description: 'Nothing missing but items waiting for review.', resolve: (c) => c.status.waiting }),
    expired: t.int({ description: 'A completion older than its validity.', resolve: (c) => c.status.expired }),
    due: t.int({ description: 'A deadline within 30 days on an item not done.', resolve: (c) => c.status.due }),
    overdue: t.int({ description: 'A deadline passed on an item not done.', resolve: (c) => c.status.overdue }),
    outdated: t.int({ description: 'A completion made before its requirement changed.', resolve: (c) => c.status.outdated }),
  }),
});

export const LibraryDocumentType = builder.prismaObject('LibraryDocument', {
  description: 'A document of an organization\'s library.',
  fields: (t) => ({
    title: t.exposeString('title', { description: 'Title.' }),
    prefix: t.exposeString('prefix', { nullable: true, description: 'Numbering prefix.' }),
    archived: t.exposeBoolean('archived', { description: 'Archived: kept for reference, no longer current.' }),
    organization: t.relation('organization', { description: 'The organization whose library holds it.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was added.' }),
  }),
});

// Read as Organization.library reads it: the library feature, the organization's members and managers.
serviceNode(LibraryDocumentType, { description: 'The identification string.', load: library.findReadableDocument });

const ContentType = builder.objectRef<ContentSummary>('RequirementContent').implement({
  description: 'The exam or class a requirement points at.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identification string.' }),
    externalId: t.exposeString('externalId', { nullable: true, description: 'External identifier.' }),
    title: t.exposeString('title', { description: 'Title.' }),
  }),
});

const DocumentContentType = builder.objectRef<DocumentSummary>('RequirementDocument').implement({
  description: 'The library document a requirement points at.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identification string.' }),
    title: t.exposeString('title', { description: 'Title.' }),
    prefix: t.exposeString('prefix', { nullable: true, description: 'Numbering prefix.' }),
    archived: t.exposeBoolean('archived', { description: 'Archived.' }),
  }),
});

const JourneyType = builder.objectRef<JourneySummary & { outcomes: string[] }>('RequirementJourney').implement({
  description: 'The exam journey a requirement points at, by its starting exam.',
  fields: (t) => ({
    exam: t.exposeID('exam', { description: 'The starting exam.' }),
    title: t.exposeString('title', { description: 'Title.' }),
    active: t.exposeBoolean('active', { description: 'The journey is active.' }),
    outcomes: t.exposeStringList('outcomes', { description: 'Outcomes accepted; empty: any outcome.' }),
  }),
});

const EducatorType = builder.objectRef<{ id: string; name: string }>('RequirementEducator').implement({
  description: 'An educator of a training to-do.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The user.' }),
    name: t.exposeString('name', { description: 'Full name.' }),
  }),
});

const TodoType = builder.objectRef<requirements.TodoView>('RequirementTodo').implement({
  description: 'The settings of a to-do requirement.',
  fields: (t) => ({
    type: t.field({ type: TodoKind, description: 'Kind of to-do.', resolve: (v) => v.type }),
    attachments: t.exposeBoolean('attachments', { description: 'Attachments may be (or must be) uploaded.' }),
    educators: t.field({
      type: [EducatorType],
      nullable: true,
      description: 'Educators, for training only, and only those the caller may see.',
      resolve: (v) => v.educators ?? null,
    }),
    fields: t.exposeStringList('fields', { nullable: true, description: 'Labels of the fields to fill in; null for default to-dos.' }),
  }),
});

const DeadlineType = builder.objectRef<{ type: 'date' | 'days'; date: Date | null; days: number | null }>('RequirementDeadline').implement({
  description: 'When a requirement must be done: by a date, or within days of the assignment.',
  fields: (t) => ({
    type: t.exposeString('type', { description: 'date or days.' }),
    date: t.expose('date', { type: 'Date', nullable: true, description: 'The last day (UTC), when the type is date.' }),
    days: t.exposeInt('days', { nullable: true, description: 'Days from the assignment, when the type is days.' }),
  }),
});

/** The content hash of a requirement of the given type, null when unavailable or of another type. */
const contentOf = <T>(type: string) => (v: requirements.RequirementView) => (v.requirement.type === type ? (v.content as T | null) : null);

export const RequirementType = builder.objectRef<requirements.RequirementView>('Requirement').implement({
  description: 'A requirement of a competency: an exam, class, document, journey or to-do to complete.',
  fields: (t) => ({
    id: t.id({ description: 'The identification string.', resolve: (v) => v.requirement.id }),
    type: t.field({ type: RequirementKind, description: 'What it asks for.', resolve: (v) => v.requirement.type as (typeof requirementTypes)[number] }),
    title: t.string({ nullable: true, description: 'Title.', resolve: (v) => v.requirement.title }),
    optional: t.boolean({ description: 'Optional requirements do not count towards the status.', resolve: (v) => v.requirement.optional }),
    description: t.string({ nullable: true, description: 'Description.', resolve: (v) => v.requirement.description }),
    priority: t.int({ description: 'Requirements are listed by priority, lowest first.', resolve: (v) => v.requirement.priority }),
    deadline: t.field({
      type: DeadlineType,
      nullable: true,
      description: 'The deadline, when one is configured.',
      resolve: ({ requirement: r }) => (r.deadlineType ? { type: r.deadlineType as 'date' | 'days', date: r.deadlineDate, days: r.deadlineDays } : null),
    }),
    validityDays: t.int({ nullable: true, description: 'Days a completion stays valid; null: forever.', resolve: (v) => v.requirement.validityDays }),
    changedAt: t.field({ type: 'DateTime', description: 'Completions before this moment are outdated.', resolve: (v) => v.requirement.changedAt }),
    content: t.id({ nullable: true, description: 'The identification string it points at, even when that is unavailable.', resolve: (v) => v.requirement.contentId }),
    exam: t.field({ type: ContentType, nullable: true, description: 'The exam (exam requirements); null when unavailable.', resolve: contentOf<ContentSummary>('exam') }),
    class: t.field({ type: ContentType, nullable: true, description: 'The class (class requirements); null when unavailable.', resolve: contentOf<ContentSummary>('class') }),
    document: t.field({
      type: DocumentContentType,
      nullable: true,
      description: 'The library document (document requirements); null when unavailable.',
      resolve: contentOf<DocumentSummary>('document'),
    }),
    journey: t.field({
      type: JourneyType,
      nullable: true,
      description: 'The journey (journey requirements); null when unavailable.',
      resolve: contentOf<JourneySummary & { outcomes: string[] }>('journey'),
    }),
    todo: t.field({ type: TodoType, nullable: true, description: 'To-do settings (to-do requirements).', resolve: (v) => v.todo }),
    documents: t.field({ type: [LibraryDocumentType], description: 'Library documents attached to it.', resolve: (v) => v.documents }),
  }),
});

const AssignmentsType = builder.objectRef<{ all: boolean; departments: number; members: number }>('CompetencyAssignments').implement({
  description: 'How a competency is assigned.',
  fields: (t) => ({
    all: t.exposeBoolean('all', { description: 'To every member of the organization.' }),
    departments: t.exposeInt('departments', { description: 'Departments it is assigned to (their members hold it).' }),
    members: t.exposeInt('members', { description: 'Members it is assigned to directly.' }),
  }),
});

export const CompetencyType = builder.prismaObject('Competency', {
  description: 'A competency members of an organization acquire by completing its requirements.',
  fields: (t) => ({
    externalId: t.exposeString('externalId', { nullable: true, description: 'External identifier.' }),
    title: t.exposeString('title', { description: 'Title.' }),
    description: t.exposeString('description', { nullable: true, description: 'Description.' }),
    organization: t.relation('organization', { description: 'The organization.' }),
    assignments: t.field({
      type: AssignmentsType,
      description: 'How it is assigned.',
      select: { assignAll: true, _count: { select: { departments: true, members: true } } },
      resolve: (c) => ({ all: c.assignAll, departments: c._count.departments, members: c._count.members }),
    }),
    departments: t.field({
      type: [DepartmentType],
      description: 'Departments it is assigned to, by title.',
      select: (_args, _ctx, nested) => competencies.assignedDepartmentsSelection(nested()),
      resolve: (c) => c.departments.map((d) => d.department),
    }),
    members: t.field({
      type: [UserType],
      description: 'Members it is assigned to directly, those the caller may see.',
      select: (_args, _ctx, nested) => competencies.directMembersSelection(nested()),
      resolve: (c, _args, ctx) => competencies.visibleDirectMembers(ctx, c, c.members),
    }),
    documents: t.field({ type: [LibraryDocumentType], description: 'Library documents attached to it.', resolve: (c, _args, ctx) => library.attachedDocuments(ctx, c) }),
    requirements: t.loadableList({
      type: RequirementType,
      description: 'Its requirements, by priority.',
      load: (ids: string[], ctx) => requirements.requirementsOf(ctx, ids),
      resolve: (c) => c.id,
    }),
    status: t.loadable({
      type: StatusType,
      nullable: true,
      description: 'Assignments and their status among the members the caller reports on; null for callers who do not report on the organization.',
      load: (ids: string[], ctx) => competencies.countersOf(ctx, ids),
      resolve: (c) => c.id,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
  }),
});

serviceNode(CompetencyType, {
  description: 'The identification string, the same as in the REST contract.',
  load: competencies.findReadableCompetency,
});

const ComplianceCompetencyType = builder.objectRef<competencies.Counters & { competency: competencies.CompetencyRecord['competency'] }>('ComplianceCompetency').implement({
  description: 'A competency among the members of one department.',
  fields: (t) => ({
    competency: t.field({ type: CompetencyType, description: 'The competency.', resolve: (c) => c.competency }),
    status: t.field({ type: StatusType, description: 'Its assignments there and their status.', resolve: (c) => c }),
  }),
});

const ComplianceDepartmentType = builder.objectRef<competencies.ComplianceDepartment>('ComplianceDepartment').implement({
  description: 'The members in scope of one department (or without a department).',
  fields: (t) => ({
    department: t.field({ type: DepartmentType, nullable: true, description: 'The department; null for members without one.', resolve: (d) => d.department }),
    parent: t.field({ type: DepartmentType, nullable: true, description: 'Its parent department.', resolve: (d) => d.parent }),
    level: t.exposeInt('level', { description: 'Depth in the tree, 0 at the root.' }),
    members: t.exposeInt('members', { description: 'Members in scope.' }),
    competencies: t.field({ type: [ComplianceCompetencyType], description: 'Competencies assigned to them.', resolve: (d) => d.competencies }),
  }),
});

const ScopeType = builder.enumType('ComplianceScope', {
  values: ['organization', 'departments'] as const,
  description: 'organization: every member the caller sees; departments: the members of the departments it leads.',
});

const ComplianceType = builder.objectRef<competencies.Compliance>('Compliance').implement({
  description: 'The compliance overview of an organization in the caller\'s scope.',
  fields: (t) => ({
    scope: t.field({ type: ScopeType, description: 'Whose assignments are counted.', resolve: (c) => c.scope }),
    competencies: t.field({ type: [CompetencyType], description: 'Competencies with assigned members in scope.', resolve: (c) => c.competencies }),
    departments: t.field({ type: [ComplianceDepartmentType], description: 'Departments with members in scope, in hierarchy order; members without a department last.', resolve: (c) => c.departments }),
    status: t.field({ type: StatusType, description: 'All assignments in scope and their status.', resolve: (c) => c }),
  }),
});

builder.prismaObjectFields('Organization', (t) => ({
  competencies: t.field({
    type: [CompetencyType],
    description: 'Competencies, by title (organization reporters and department leaders).',
    select: (_args, _ctx, nested) => ({ competencies: nested(competencies.competenciesQuery) }),
    resolve: (organization, _args, ctx) => competencies.reportedCompetencies(ctx, organization, organization.competencies),
  }),
  compliance: t.field({
    type: ComplianceType,
    description: 'The compliance overview (organization reporters and department leaders).',
    resolve: (organization, _args, ctx) => competencies.complianceOf(ctx, organization),
  }),
  library: t.field({
    type: [LibraryDocumentType],
    description: 'The documents of its library, by title (members).',
    select: (_args, _ctx, nested) => ({ documents: nested(library.libraryQuery) }),
    resolve: (organization, _args, ctx) => library.memberLibrary(ctx, organization, organization.documents),
  }),
}));
