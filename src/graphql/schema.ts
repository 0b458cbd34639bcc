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
import './plays/play.type.ts';
import './plays/plays.mutations.ts';
import './plays/results.ts';
import './permissions/permissions.ts';

/** The GraphQL schema: every domain registers its types on the builder when imported above. */
export const schema = builder.toSchema({ sortSchema: true });
