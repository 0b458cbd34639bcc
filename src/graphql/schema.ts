import type { GraphQLInterfaceType } from 'graphql';
import { builder } from './builder.ts';
import './users/user.type.ts';
import './users/users.mutations.ts';
import './integrations/integration.type.ts';
import './instance/instance.ts';
import './organizations/organization.type.ts';
import './organizations/organizations.mutations.ts';
import './webhooks/webhook.type.ts';
import './notifications/notification.type.ts';
import './classes/classes.mutations.ts';
import './competencies/competency.type.ts';
import './competencies/competencies.mutations.ts';
import './tags/tags.mutations.ts';
import './questions/questions.mutations.ts';
import './quizzes/quizzes.mutations.ts';
import './grading/grading-preset.type.ts';
import './exams/exam.type.ts';
import './exams/exams.mutations.ts';
import './exams/settings.ts';
import './exams/fields.ts';
import './journeys/graph.ts';
import './plays/play.type.ts';
import './plays/plays.mutations.ts';
import './plays/results.ts';
import './plays/statistics.ts';
import './certificates/certificate.type.ts';
import './journeys/journey-users.ts';
import './permissions/permissions.ts';

/** The GraphQL schema: every domain registers its types on the builder when imported above. */
export const schema = builder.toSchema({ sortSchema: true });

/**
 * plugin-relay resolves every Node's `id` asynchronously (it awaits the field's resolver, then
 * encodes), so every object with an id completed through a promise: graphql-js then builds a
 * promise per object, which cost as much as the rest of a small query. Ids here are the records'
 * own identification strings (builder.ts: encodeGlobalID is the id itself), so they are read
 * synchronously instead. test/graphql/node-visibility.test.ts holds the ids to the records' ids.
 */
for (const type of schema.getImplementations(schema.getType('Node') as GraphQLInterfaceType).objects) {
  type.getFields().id!.resolve = (record: { id: unknown }) => String(record.id);
}
