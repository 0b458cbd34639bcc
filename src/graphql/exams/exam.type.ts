import { builder } from '../builder.ts';
import { viewableExamsWhere } from '../../services/exams/access.ts';

/** An exam; readable with view permission on it. node(id) answers null for one the caller may not view. */
export const ExamType = builder.prismaNode('Exam', {
  id: { field: 'id', description: 'The identification string, the same as the `exam` of the REST contract.' },
  nullable: true,
  description: 'An exam: a time-bound run of a Quiz set with its own examinees, branding and rules.',
  findUnique: async (id, ctx) => ({ id, AND: [await viewableExamsWhere(ctx)] }),
  fields: (t) => ({
    title: t.exposeString('title', { description: 'Title, 1-255 characters.' }),
    externalId: t.exposeString('externalId', { nullable: true, description: 'External identifier (1-64 characters).' }),
    description: t.exposeString('description', { nullable: true, description: 'Description in basic HTML.' }),
    language: t.exposeString('language', { description: 'Language code.' }),
    type: t.exposeString('type', { description: 'exam, championship, homework or survey.' }),
    start: t.expose('start', { type: 'DateTime', description: 'Start of the exam period.' }),
    end: t.expose('end', { type: 'DateTime', description: 'End of the exam period.' }),
    deadline: t.expose('deadline', { type: 'DateTime', nullable: true, description: 'Latest moment a test can be started; null: until the end.' }),
    active: t.exposeBoolean('active', { description: 'The exam is switched on.' }),
    secure: t.exposeBoolean('secure', { description: 'Can be started only with a secure exam browser.' }),
    organization: t.relation('organization', { nullable: true, description: 'The organization whose members hold their content level on it; null for personal content.' }),
    owner: t.relation('owner', { description: 'The owner, who holds admin on it.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
  }),
});
