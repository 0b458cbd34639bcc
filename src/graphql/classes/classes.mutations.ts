import type { ArgBuilder } from '@pothos/core';
import { builder } from '../builder.ts';
import { ArgumentError } from '../../errors.ts';
import * as classes from '../../services/classes/classes.service.ts';
import * as memberships from '../../services/classes/memberships.service.ts';
import * as assignments from '../../services/classes/assignments.service.ts';
import * as submissions from '../../services/classes/submissions.service.ts';
import { ClassType } from './class.type.ts';
import { UserType } from '../users/user.type.ts';
import { mirrorDescription } from '../operation-prose.ts';

/** The expiry arguments of a membership write: a moment or a number of days, not both. */
type ExpiryArgs = { expires?: Date | null; expiresInDays?: number | null };
function expiry({ expires, expiresInDays }: ExpiryArgs): Date | number | undefined {
  if (expires != null && expiresInDays != null) throw new ArgumentError('expiresInDays', 'give expires or expiresInDays, not both', 'ARGUMENT_CONFLICT');
  return expires ?? expiresInDays ?? undefined;
}

/** The optional arguments of every membership write. */
const membershipWriteArgs = (t: { arg: ArgBuilder<typeof builder.$inferSchemaTypes> }) => ({
  expires: t.arg({ type: 'DateTime', description: 'The membership ends at this moment (in the future).' }),
  expiresInDays: t.arg.int({ description: 'The membership ends this many days from now (at least 1); instead of expires.' }),
  notify: t.arg.boolean({ description: 'Send each member a message (email, or SMS when it has only a phone). Default false.' }),
});

const MembershipChangeType = builder.objectRef<memberships.MembershipChange>('ClassMembershipChange').implement({
  description: 'The classes and users whose memberships a bulk change wrote or removed.',
  fields: (t) => ({
    classes: t.field({ type: [ClassType], description: 'The classes.', resolve: (c) => c.classes }),
    users: t.field({ type: [UserType], description: 'The users.', resolve: (c) => c.users }),
  }),
});

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

builder.mutationFields((t) => ({
  createClass: t.prismaField({
    type: 'Class',
    description: 'Creates a class owned by the caller.',
    args: { input: t.arg({ type: CreateClassInput, required: true }) },
    resolve: (query, _root, args, ctx) => classes.createClass(ctx, { ...args.input }, query),
  }),
  updateClass: t.prismaField({
    type: 'Class',
    description: 'Changes a class the caller manages.',
    args: { input: t.arg({ type: UpdateClassInput, required: true }) },
    resolve: (query, _root, args, ctx) => classes.updateClass(ctx, { ...args.input }, query),
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
      ...membershipWriteArgs(t),
    },
    resolve: (query, _root, { expires, expiresInDays, ...args }, ctx) =>
      memberships.addMembersToClass(ctx, { ...args, expires: expiry({ expires, expiresInDays }) }, query),
  }),
  removeClassMembers: t.prismaField({
    type: 'Class',
    description: 'Removes users from a class the caller manages.',
    args: { class: t.arg.id({ required: true }), users: t.arg.idList({ required: true }) },
    resolve: (query, _root, args, ctx) => memberships.removeMembersFromClass(ctx, args, query),
  }),
  addClassesMembers: t.field({
    type: MembershipChangeType,
    description: mirrorDescription('Adds every user to every class the caller manages, approved; existing memberships are updated (REST POST classes:members).', 'POST classes:members'),
    args: {
      classes: t.arg.idList({ required: true }),
      users: t.arg.idList({ required: true }),
      ...membershipWriteArgs(t),
    },
    resolve: (_root, { expires, expiresInDays, ...args }, ctx) => memberships.addManyMembers(ctx, { ...args, expires: expiry({ expires, expiresInDays }) }),
  }),
  addUserClasses: t.field({
    type: MembershipChangeType,
    description: mirrorDescription('Adds a user the caller manages to classes it manages, approved; existing memberships are updated (REST POST user:classes).', 'POST user:classes'),
    args: {
      user: t.arg.id({ required: true }),
      classes: t.arg.idList({ required: true }),
      ...membershipWriteArgs(t),
    },
    resolve: (_root, { expires, expiresInDays, ...args }, ctx) => memberships.addUserClasses(ctx, { ...args, expires: expiry({ expires, expiresInDays }) }),
  }),
  removeUserClasses: t.field({
    type: MembershipChangeType,
    description: mirrorDescription('Removes a user the caller manages from classes it manages (REST DELETE user:classes).', 'DELETE user:classes'),
    args: { user: t.arg.id({ required: true }), classes: t.arg.idList({ required: true }) },
    resolve: (_root, args, ctx) => memberships.removeUserClasses(ctx, args),
  }),
  createClassAssignment: t.prismaField({
    type: 'ClassAssignment',
    description: 'Adds an assignment to a class the caller manages.',
    args: { input: t.arg({ type: CreateClassAssignmentInput, required: true }) },
    resolve: (query, _root, args, ctx) => assignments.createAssignment(ctx, { ...args.input }, query),
  }),
  updateClassAssignment: t.prismaField({
    type: 'ClassAssignment',
    description: 'Changes an assignment of a class the caller manages.',
    args: { input: t.arg({ type: UpdateClassAssignmentInput, required: true }) },
    resolve: (query, _root, args, ctx) => assignments.updateAssignment(ctx, { ...args.input }, query),
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
    resolve: (query, _root, args, ctx) => submissions.startSubmission(ctx, args, query),
  }),
  submitAssignment: t.prismaField({
    type: 'ClassAssignment',
    description: 'Hands in work on an open assignment (status SUBMITTED), started or not. Only active members, once.',
    args: { assignment: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => submissions.submitAssignment(ctx, args, query),
  }),
  gradeAssignmentSubmission: t.prismaField({
    type: 'AssignmentSubmission',
    description: "Grades a member's submitted work (status GRADED) in a class the caller manages; grading again replaces the grade.",
    args: { assignment: t.arg.id({ required: true }), user: t.arg.id({ required: true }), grade: t.arg.string({ required: true, description: '1-64 characters.' }) },
    resolve: (query, _root, args, ctx) => submissions.gradeSubmission(ctx, args, query),
  }),
}));
