import type { Context } from '../../context.ts';
import { builder } from '../builder.ts';
import { ArgumentError } from '../../errors.ts';
import * as classes from '../../services/classes/classes.service.ts';
import * as memberships from '../../services/classes/memberships.service.ts';
import * as assignments from '../../services/classes/assignments.service.ts';
import * as submissions from '../../services/classes/submissions.service.ts';
import './class.type.ts';

const CreateClassInput = builder.inputType('CreateClassInput', {
  description: 'A new class owned by the caller.',
  fields: (t) => ({
    title: t.string({ required: true, description: '1-255 characters.' }),
    externalId: t.string({ description: 'External identifier, 1-64 characters.' }),
    description: t.string({ description: 'Description.' }),
    start: t.field({ type: 'DateTime', description: 'When the class starts.' }),
    end: t.field({ type: 'DateTime', description: 'When the class ends, after start.' }),
    organization: t.id({ description: 'An organization where the caller is a teacher or more, or its owner.' }),
  }),
});

const UpdateClassInput = builder.inputType('UpdateClassInput', {
  description: 'Changes to a class: only given fields change; null clears an optional one (organization: null makes it personal).',
  fields: (t) => ({
    class: t.id({ required: true, description: 'The class to change.' }),
    title: t.string({ description: '1-255 characters.' }),
    externalId: t.string({ description: 'External identifier, 1-64 characters.' }),
    description: t.string({ description: 'Description.' }),
    start: t.field({ type: 'DateTime', description: 'When the class starts.' }),
    end: t.field({ type: 'DateTime', description: 'When the class ends, after start.' }),
    organization: t.id({ description: 'An organization where the caller is a teacher or more, or its owner.' }),
  }),
});

const CreateClassAssignmentInput = builder.inputType('CreateClassAssignmentInput', {
  description: 'A new assignment of a class the caller manages.',
  fields: (t) => ({
    class: t.id({ required: true, description: 'The class.' }),
    title: t.string({ required: true, description: '1-255 characters.' }),
    description: t.string({ description: 'Description.' }),
    starts: t.field({ type: 'DateTime', required: true, description: 'Work is accepted from this moment.' }),
    ends: t.field({ type: 'DateTime', required: true, description: 'Work is accepted until this moment, after starts.' }),
    active: t.boolean({ description: 'Default true.' }),
  }),
});

const UpdateClassAssignmentInput = builder.inputType('UpdateClassAssignmentInput', {
  description: 'Changes to an assignment: only given fields change.',
  fields: (t) => ({
    assignment: t.id({ required: true, description: 'The assignment to change.' }),
    title: t.string({ description: '1-255 characters.' }),
    description: t.string({ description: 'Description; null removes it.' }),
    starts: t.field({ type: 'DateTime', description: 'Work is accepted from this moment.' }),
    ends: t.field({ type: 'DateTime', description: 'Work is accepted until this moment, after starts.' }),
    active: t.boolean({ description: 'An inactive assignment accepts no work.' }),
  }),
});

const refetchClass = (ctx: Context, query: object, id: string) =>
  ctx.db.class.findUniqueOrThrow({ ...query, where: { id } });
const refetchAssignment = (ctx: Context, query: object, id: string) =>
  ctx.db.classAssignment.findUniqueOrThrow({ ...query, where: { id } });

builder.mutationFields((t) => ({
  createClass: t.prismaField({
    type: 'Class',
    description: 'Creates a class owned by the caller.',
    args: { input: t.arg({ type: CreateClassInput, required: true }) },
    resolve: async (query, _root, args, ctx) => refetchClass(ctx, query, (await classes.createClass(ctx, { ...args.input })).id),
  }),
  updateClass: t.prismaField({
    type: 'Class',
    description: 'Changes a class the caller manages.',
    args: { input: t.arg({ type: UpdateClassInput, required: true }) },
    resolve: async (query, _root, args, ctx) => refetchClass(ctx, query, (await classes.updateClass(ctx, { ...args.input })).id),
  }),
  deleteClass: t.id({
    description: 'Deletes a class the caller manages, with its memberships and assignments; returns its identification string.',
    args: { class: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => (await classes.deleteClass(ctx, args)).id,
  }),
  addClassMembers: t.prismaField({
    type: 'Class',
    description:
      'Adds users to a class the caller manages, approved; existing memberships are updated. Without an expiry the membership does not expire.',
    args: {
      class: t.arg.id({ required: true }),
      users: t.arg.idList({ required: true }),
      expires: t.arg({ type: 'DateTime', description: 'The membership ends at this moment (in the future).' }),
      expiresInDays: t.arg.int({ description: 'The membership ends this many days from now (at least 1); instead of expires.' }),
      notify: t.arg.boolean({ description: 'Send each member a message (email, or SMS when it has only a phone). Default false.' }),
    },
    resolve: async (query, _root, { expires, expiresInDays, ...args }, ctx) => {
      if (expires != null && expiresInDays != null) throw new ArgumentError('expiresInDays', 'give expires or expiresInDays, not both', 'ARGUMENT_CONFLICT');
      await memberships.addMembers(ctx, { ...args, expires: expires ?? expiresInDays ?? undefined });
      return refetchClass(ctx, query, args.class);
    },
  }),
  removeClassMembers: t.prismaField({
    type: 'Class',
    description: 'Removes users from a class the caller manages.',
    args: { class: t.arg.id({ required: true }), users: t.arg.idList({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      await memberships.removeMembers(ctx, args);
      return refetchClass(ctx, query, args.class);
    },
  }),
  createClassAssignment: t.prismaField({
    type: 'ClassAssignment',
    description: 'Adds an assignment to a class the caller manages.',
    args: { input: t.arg({ type: CreateClassAssignmentInput, required: true }) },
    resolve: async (query, _root, args, ctx) => refetchAssignment(ctx, query, (await assignments.createAssignment(ctx, { ...args.input })).id),
  }),
  updateClassAssignment: t.prismaField({
    type: 'ClassAssignment',
    description: 'Changes an assignment of a class the caller manages.',
    args: { input: t.arg({ type: UpdateClassAssignmentInput, required: true }) },
    resolve: async (query, _root, args, ctx) => refetchAssignment(ctx, query, (await assignments.updateAssignment(ctx, { ...args.input })).id),
  }),
  deleteClassAssignment: t.id({
    description: 'Deletes an assignment with its submissions; returns its identification string.',
    args: { assignment: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => (await assignments.deleteAssignment(ctx, args)).id,
  }),
  startAssignmentSubmission: t.prismaField({
    type: 'ClassAssignment',
    description: 'Begins work on an open assignment (status STARTED; stands for uploading files). Only active members; starting again changes nothing.',
    args: { assignment: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => refetchAssignment(ctx, query, (await submissions.startSubmission(ctx, args)).assignmentId),
  }),
  submitAssignment: t.prismaField({
    type: 'ClassAssignment',
    description: 'Hands in work on an open assignment (status SUBMITTED), started or not. Only active members, once.',
    args: { assignment: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => refetchAssignment(ctx, query, (await submissions.submitAssignment(ctx, args)).assignmentId),
  }),
  gradeAssignmentSubmission: t.prismaField({
    type: 'AssignmentSubmission',
    description: "Grades a member's submitted work (status GRADED) in a class the caller manages; grading again replaces the grade.",
    args: { assignment: t.arg.id({ required: true }), user: t.arg.id({ required: true }), grade: t.arg.string({ required: true, description: '1-64 characters.' }) },
    resolve: async (query, _root, args, ctx) => {
      const graded = await submissions.gradeSubmission(ctx, args);
      return ctx.db.assignmentSubmission.findUniqueOrThrow({ ...query, where: { assignmentId_userId: { assignmentId: graded.assignmentId, userId: graded.userId } } });
    },
  }),
}));
