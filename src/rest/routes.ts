import type { Handler } from './routes/types.ts';
import { testRoutes } from './routes/test.ts';
import { userRoutes } from './routes/users.ts';
import { integrationRoutes } from './routes/integrations.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { organizationRoutes } from './routes/organizations.ts';
import { classRoutes } from './routes/classes.ts';
import { competencyRoutes } from './routes/competencies.ts';
import { quizRoutes } from './routes/quizzes.ts';
import { gradingRoutes } from './routes/grading.ts';
import { tagRoutes } from './routes/tags.ts';
import { permissionRoutes } from './routes/permissions.ts';
import { questionRoutes } from './routes/questions.ts';
import { examRoutes } from './routes/exams.ts';
import { examSettingsRoutes } from './routes/exam-settings.ts';
import { resultRoutes } from './routes/results.ts';
import { journeyRoutes } from './routes/journeys.ts';
import { journeyUserRoutes } from './routes/journey-users.ts';

export type { CallInfo, Handler } from './routes/types.ts';

/**
 * The implemented operations of the contract, one module per domain, keyed 'METHOD endpoint'.
 * Operations of the catalogue (operations.ts) missing here answer 501.
 */
export const routes: Record<string, Handler> = {
  ...testRoutes,
  ...userRoutes,
  ...integrationRoutes,
  ...webhookRoutes,
  ...organizationRoutes,
  ...classRoutes,
  ...competencyRoutes,
  ...quizRoutes,
  ...gradingRoutes,
  ...tagRoutes,
  ...permissionRoutes,
  ...questionRoutes,
  ...examRoutes,
  ...examSettingsRoutes,
  ...resultRoutes,
  ...journeyRoutes,
  ...journeyUserRoutes,
};
