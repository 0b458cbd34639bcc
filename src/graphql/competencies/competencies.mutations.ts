import { builder } from '../builder.ts';
import { RequirementKind, RequirementType, TodoKind } from './competency.type.ts';
import * as competencies from '../../services/competencies/competencies.service.ts';
import * as requirements from '../../services/competencies/requirements.service.ts';
import * as library from '../../services/competencies/library.service.ts';
import { deadlineTypes, progressStatuses } from '../../services/competencies/competencies.schemas.ts';

/** GraphQL sends null for a field set to null; the services take an absent field as "unchanged". */
const given = <T extends object>(input: T) => Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined));

const DeadlineKind = builder.enumType('DeadlineType', { values: deadlineTypes, description: 'none removes the deadline; date or days sets one.' });
const ProgressStatus = builder.enumType('ProgressStatus', {
  values: progressStatuses,
  description: 'progress: started; waiting: submitted for review; completed; none: withdraws the progress.',
});

const CreateCompetencyInput = builder.inputType('CreateCompetencyInput', {
  description: 'A new competency of an organization.',
  fields: (t) => ({
    organization: t.id({ required: true }),
    title: t.string({ required: true, description: '1-255 characters.' }),
    externalId: t.string({ description: 'External identifier, unique in the organization (1-64 characters).' }),
    description: t.string(),
    documents: t.idList({ description: 'Library documents of the organization to attach.' }),
  }),
});

const UpdateCompetencyInput = builder.inputType('UpdateCompetencyInput', {
  description: 'Changes to a competency; only given fields change.',
  fields: (t) => ({
    competency: t.id({ required: true }),
    title: t.string(),
    externalId: t.string({ description: 'Empty removes it.' }),
    description: t.string({ description: 'Empty removes it.' }),
    documents: t.idList({ description: 'Replaces the attached documents; empty detaches all.' }),
  }),
});

const AssignmentsInput = builder.inputType('SetCompetencyAssignmentsInput', {
  description: 'Who holds a competency; each given part replaces the current one.',
  fields: (t) => ({
    competency: t.id({ required: true }),
    all: t.boolean({ description: 'Every member of the organization.' }),
    departments: t.stringList({ description: 'Departments by identification string, name or external identifier; empty clears.' }),
    members: t.idList({ description: 'Members assigned directly; empty clears.' }),
  }),
});

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/** The fields requirements are written with, shared by create and update. */
const requirementFields = (t: PothosSchemaTypes.InputFieldBuilder<Types, 'InputObject'>) => ({
  title: t.string({ description: 'Empty removes it.' }),
  optional: t.boolean({ description: 'Does not count towards the status (default false).' }),
  description: t.string({ description: 'Empty removes it.' }),
  priority: t.int({ description: 'Lower first; a new requirement comes last by default.' }),
  deadlineType: t.field({ type: DeadlineKind }),
  deadlineDate: t.field({ type: 'Date', description: 'The last day (UTC), with deadlineType date.' }),
  deadlineDays: t.int({ description: 'Days from the assignment (1-3650), with deadlineType days.' }),
  validityDays: t.int({ description: 'Days a completion stays valid; 0: forever.' }),
  content: t.id({ description: 'The exam, class, library document, or starting exam of a journey.' }),
  outcomes: t.stringList({ description: 'Journey outcomes accepted; empty: any.' }),
  todoType: t.field({ type: TodoKind }),
  todoAttachments: t.boolean(),
  todoEducators: t.idList({ description: 'Educators of a training to-do.' }),
  todoFields: t.stringList({ description: 'Labels of the fields to fill in (not for default to-dos).' }),
  documents: t.idList({ description: 'Library documents to attach; empty detaches all.' }),
});

const CreateRequirementInput = builder.inputType('CreateRequirementInput', {
  description: 'A new requirement; only the fields of its type and deadline kind may be given.',
  fields: (t) => ({ competency: t.id({ required: true }), type: t.field({ type: RequirementKind, required: true }), ...requirementFields(t) }),
});

const UpdateRequirementInput = builder.inputType('UpdateRequirementInput', {
  description: 'Changes to a requirement; only given fields change. Changing the content, outcomes or to-do type outdates earlier completions.',
  fields: (t) => ({
    requirement: t.id({ required: true }),
    renew: t.boolean({ description: 'Outdate every completion made so far.' }),
    ...requirementFields(t),
  }),
});

const ProgressInput = builder.inputType('RecordRequirementProgressInput', {
  description: 'Where a member stands on a requirement.',
  fields: (t) => ({
    requirement: t.id({ required: true }),
    user: t.id({ description: 'The member (default: the caller).' }),
    status: t.field({ type: ProgressStatus, required: true }),
    completedAt: t.field({ type: 'DateTime', description: 'When it was completed (reviewers; not in the future).' }),
  }),
});

const ProgressType = builder.prismaObject('RequirementProgress', {
  description: 'Where a member stands on a requirement.',
  fields: (t) => ({
    requirement: t.exposeID('requirementId', { description: 'The requirement.' }),
    user: t.exposeID('userId', { description: 'The member.' }),
    status: t.exposeString('status', { description: 'progress, waiting or completed.' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true, description: 'When it was completed.' }),
  }),
});

const CreateDocumentInput = builder.inputType('CreateLibraryDocumentInput', {
  description: 'A new document of an organization\'s library.',
  fields: (t) => ({
    organization: t.id({ required: true }),
    title: t.string({ required: true }),
    prefix: t.string(),
    archived: t.boolean(),
  }),
});

const UpdateDocumentInput = builder.inputType('UpdateLibraryDocumentInput', {
  description: 'Changes to a library document; only given fields change.',
  fields: (t) => ({
    document: t.id({ required: true }),
    title: t.string(),
    prefix: t.string({ description: 'Empty removes it.' }),
    archived: t.boolean(),
  }),
});

builder.mutationFields((t) => ({
  createCompetency: t.prismaField({
    type: 'Competency',
    description: 'Creates a competency (organization managers).',
    args: { input: t.arg({ type: CreateCompetencyInput, required: true }) },
    resolve: (query, _root, args, ctx) => competencies.createCompetency(ctx, given(args.input), query),
  }),
  updateCompetency: t.prismaField({
    type: 'Competency',
    description: 'Changes a competency.',
    args: { input: t.arg({ type: UpdateCompetencyInput, required: true }) },
    resolve: (query, _root, args, ctx) => competencies.updateCompetency(ctx, given(args.input), query),
  }),
  deleteCompetency: t.id({
    description: 'Deletes a competency with its requirements, assignments and progress; returns its identification string.',
    args: { competency: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => (await competencies.deleteCompetency(ctx, args)).id,
  }),
  setCompetencyAssignments: t.prismaField({
    type: 'Competency',
    description: 'Assigns a competency to all members, departments or members.',
    args: { input: t.arg({ type: AssignmentsInput, required: true }) },
    resolve: (query, _root, args, ctx) => competencies.setAssignments(ctx, given(args.input), query),
  }),
  createRequirement: t.field({
    type: RequirementType,
    description: 'Adds a requirement to a competency.',
    args: { input: t.arg({ type: CreateRequirementInput, required: true }) },
    resolve: (_root, args, ctx) => requirements.createRequirement(ctx, given(args.input)),
  }),
  updateRequirement: t.field({
    type: RequirementType,
    description: 'Changes a requirement.',
    args: { input: t.arg({ type: UpdateRequirementInput, required: true }) },
    resolve: (_root, args, ctx) => requirements.updateRequirement(ctx, given(args.input)),
  }),
  deleteRequirement: t.id({
    description: 'Deletes a requirement with its progress; returns its identification string.',
    args: { requirement: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => (await requirements.deleteRequirement(ctx, args)).id,
  }),
  recordRequirementProgress: t.field({
    type: ProgressType,
    nullable: true,
    description: 'Records progress on a requirement: members start, submit and complete what needs no review; reviewers complete. Null after `none`.',
    args: { input: t.arg({ type: ProgressInput, required: true }) },
    resolve: (_root, args, ctx) => requirements.recordProgress(ctx, given(args.input)),
  }),
  createLibraryDocument: t.prismaField({
    type: 'LibraryDocument',
    description: 'Adds a document to an organization\'s library.',
    args: { input: t.arg({ type: CreateDocumentInput, required: true }) },
    resolve: (query, _root, args, ctx) => library.createDocument(ctx, given(args.input), query),
  }),
  updateLibraryDocument: t.prismaField({
    type: 'LibraryDocument',
    description: 'Changes a library document.',
    args: { input: t.arg({ type: UpdateDocumentInput, required: true }) },
    resolve: (query, _root, args, ctx) => library.updateDocument(ctx, given(args.input), query),
  }),
  deleteLibraryDocument: t.id({
    description: 'Deletes a library document and detaches it; requirements pointing at it read it as unavailable.',
    args: { document: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => (await library.deleteDocument(ctx, args)).id,
  }),
}));
