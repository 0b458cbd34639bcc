import type { ClassAssignment } from '../../generated/prisma/client.ts';
import { builder } from '../builder.ts';
import { serviceNode } from '../node.ts';
import * as classes from '../../services/classes/classes.service.ts';
import * as access from '../../services/classes/access.ts';
import * as memberships from '../../services/classes/memberships.service.ts';
import * as assignments from '../../services/classes/assignments.service.ts';
import * as submissions from '../../services/classes/submissions.service.ts';

export const AssignmentStatusType = builder.enumType('AssignmentStatus', {
  values: assignments.assignmentStatuses,
  description:
    'INACTIVE: inactive, not started yet or over (and no own work); ACTIVE: accepts work; STARTED: work begun, not submitted; SUBMITTED: handed in; GRADED: handed in and graded.',
});

/** A class. Seen with view permission on it (owner, rules, its organization's content level and teachers) and by its active members. */
export const ClassType = builder.prismaObject('Class', {
  description: 'A class with members and assignments.',
  fields: (t) => ({
    title: t.exposeString('title', { description: 'Title, 1-255 characters.' }),
    externalId: t.exposeString('externalId', { nullable: true, description: 'External identifier (1-64 characters).' }),
    description: t.exposeString('description', { nullable: true, description: 'Description.' }),
    start: t.expose('start', { type: 'DateTime', nullable: true, description: 'When the class starts; null when unset.' }),
    end: t.expose('end', { type: 'DateTime', nullable: true, description: 'When the class ends; null when unset.' }),
    link: t.string({ description: 'The class page.', resolve: (c, _args, ctx) => classes.classLink(ctx, c.id) }),
    organization: t.relation('organization', {
      nullable: true,
      description: 'The organization running the class, whose teachers and managers manage it; null for a personal class.',
    }),
    owner: t.relation('owner', { description: 'The user who created the class and manages it.' }),
    members: t.relatedConnection('members', {
      cursor: 'classId_userId',
      totalCount: true,
      description: 'Memberships, oldest first. Those with report permission on the class see every member; a member sees only itself.',
      query: (_args, ctx) => memberships.classMembersQuery(ctx),
    }),
    assignments: t.relation('assignments', { description: 'Assignments, by start.', query: assignments.classAssignmentsQuery }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
  }),
});

// node(id) answers null, not an error, for a class that is missing or not the caller's to see.
serviceNode(ClassType, { description: 'The identification string, the same as in the REST contract.', load: access.findVisibleClass });

builder.prismaObject('ClassMember', {
  name: 'ClassMembership',
  description: 'A user in a class.',
  fields: (t) => ({
    class: t.relation('class', { description: 'The class.' }),
    user: t.relation('user', { description: 'The member.' }),
    active: t.boolean({
      description: 'The membership is approved and not expired.',
      resolve: (m) => access.isActiveMembership(m),
    }),
    approved: t.exposeBoolean('approved', { description: 'Approved (memberships added by managers always are).' }),
    expires: t.expose('expiresAt', { type: 'DateTime', nullable: true, description: 'When the membership ends; null: never.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the user joined.' }),
  }),
});

/** An assignment of a class; seen by whoever sees the class. */
export const ClassAssignmentType = builder.prismaObject('ClassAssignment', {
  description: 'An assignment of a class: members start, submit and get graded within its dates.',
  fields: (t) => ({
    title: t.exposeString('title', { description: 'Title, 1-255 characters.' }),
    description: t.exposeString('description', { nullable: true, description: 'Description.' }),
    starts: t.expose('starts', { type: 'DateTime', description: 'Work is accepted from this moment.' }),
    ends: t.expose('ends', { type: 'DateTime', description: 'Work is accepted until this moment.' }),
    active: t.exposeBoolean('active', { description: 'An inactive assignment accepts no work whatever its dates.' }),
    link: t.string({ description: 'The assignment page.', resolve: (a, _args, ctx) => assignments.assignmentLink(ctx, a) }),
    status: t.loadable({
      type: AssignmentStatusType,
      description: 'The status for the caller, from its own submission and the dates.',
      load: (list: ClassAssignment[], ctx) => assignments.statusesFor(ctx, list),
      loaderOptions: { cacheKeyFn: (a) => a.id },
      resolve: (a) => a,
    }),
    class: t.relation('class', { description: 'The class.' }),
    submissions: t.relation('submissions', {
      description: 'Submissions, oldest first. Those with report permission on the class see all; a member sees only its own.',
      query: (_args, ctx) => submissions.visibleSubmissionsQuery(ctx),
    }),
  }),
});

serviceNode(ClassAssignmentType, { description: 'The identification string, the same as in the REST contract.', load: access.findVisibleAssignment });

builder.prismaObject('AssignmentSubmission', {
  description: "A member's work on an assignment.",
  fields: (t) => ({
    assignment: t.relation('assignment', { description: 'The assignment.' }),
    user: t.relation('user', { description: 'The member.' }),
    status: t.field({
      type: AssignmentStatusType,
      description: 'STARTED, SUBMITTED or GRADED.',
      resolve: (sub) => sub.status as assignments.AssignmentStatus,
    }),
    grade: t.exposeString('grade', { nullable: true, description: 'The grade, once graded.' }),
    submittedAt: t.expose('submittedAt', { type: 'DateTime', nullable: true, description: 'When it was handed in.' }),
    gradedAt: t.expose('gradedAt', { type: 'DateTime', nullable: true, description: 'When it was (last) graded.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When work began.' }),
  }),
});

builder.prismaObjectFields('User', (t) => ({
  classes: t.relation('classMemberships', {
    description: "The user's class memberships the caller may see (its own, or in classes the caller sees), by class title.",
    query: (_args, ctx) => memberships.userClassesQuery(ctx),
  }),
}));

builder.prismaObjectFields('Organization', (t) => ({
  classes: t.relation('classes', {
    description: 'Classes of the organization the caller sees, by title.',
    query: (_args, ctx) => classes.organizationClassesQuery(ctx),
  }),
}));

builder.queryFields((t) => ({
  classes: t.prismaConnection({
    type: 'Class',
    cursor: 'id',
    description: 'Classes the caller sees, by title (as GET classes lists them).',
    args: { search: t.arg.string({ description: 'Matches the title or the external identifier.' }) },
    resolve: (query, _root, args, ctx) => classes.classesConnection(ctx, { search: args.search ?? undefined }, query),
  }),
  class: t.prismaField({
    type: 'Class',
    description: 'One class by identification string.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => classes.getClass(ctx, { class: args.id }, query),
  }),
}));
