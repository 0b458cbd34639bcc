import { EXAMPLE as X, paragraphs as p, type ProseTable } from './types.ts';

const FEATURE = 'Needs the journeys feature (406 `FEATURE_DISABLED`).';

/** Exam journeys: the graph, publishing and the users on it. */
export const journeysProse: ProseTable = {
  'GET exam:journey:graph': {
    summary: 'Read the journey an exam starts',
    description: p(
      `Answers the draft (\`graph=draft\`, default) or the published version (\`graph=published\`; before the first publish 403 \`NOT_PUBLISHED\` naming \`graph\`) in the portable format: \`$schema\`, \`schema\`, \`exam\`, \`journey\` (\`jrn_…\`), \`active\`, \`version\`, \`published\`, \`graph\`, \`unpublished_changes\` (true before the first publish), \`settings\` and \`nodes\`; for the draft also \`issues\` and \`publishable\`.`,
      'Nodes are ordered by position; a node without a position is laid out in columns by its distance from the start and shows that position. `next` lists every output, unconnected ones null. `marker`, `title` and `content` are informative and ignored by PUT, so an exported graph goes back unchanged.',
      `${FEATURE} Needs view on the exam; an exam that starts no journey answers 403 \`NO_JOURNEY\`.`,
    ),
    example: { exam: X.exam, graph: 'published' },
  },
  'PUT exam:journey:graph': {
    summary: "Save the draft of an exam's journey",
    description: p(
      'Strict: everything is parsed and every problem reported together; any error-level issue refuses the call with 403 `JOURNEY_INVALID` and nothing is saved. The error body lists the issues (errors first, at most 100), `problems` (how many errors), `exact` (false when validation stopped early) and `ignored` (unknown fields). Warnings are saved with the draft. JSON text that does not parse is 403 `INVALID_ARGUMENT` naming `nodes` or `settings`. More than 200 nodes or 500,000 characters is refused at once with one `limit-exceeded` issue.',
      '`settings` are merged over the current ones; defaults are filled in on save. Exam, class and Quiz set steps must name content the caller controls or content the journey already uses (`content-not-controlled` otherwise, also for unknown identification strings). Championships and archived exams cannot start a journey. The first PUT creates the journey, switched on.',
      `${FEATURE} Needs modify on the exam. Answers the saved draft as GET does, plus \`ignored\` when any.`,
    ),
    example: {
      exam: X.exam,
      settings: { title: 'Onboarding', max_visits: 3 },
      nodes: [
        { node: 'start', type: 'start', config: { complete_on: 'final' }, next: { done: 'check' } },
        { node: 'check', type: 'condition', config: { branches: [{ key: 'passed', rules: [{ field: 'step.successful', operator: 'is_true' }] }] }, next: { passed: 'end', else: 'retry' } },
        { node: 'retry', type: 'quiz', config: { quiz: X.quiz, min_result: 80 }, next: { done: 'end' } },
        { node: 'end', type: 'end', config: { outcome: 'completed' } },
      ],
    },
  },
  'POST exam:journey:publish': {
    summary: "Publish the draft of an exam's journey",
    description: p(
      'A draft with error-level issues is refused (`JOURNEY_NOT_PUBLISHABLE`, the issues in the message). Users on nodes the draft removes need a `remap` entry: removed node key -> an existing draft node key, or empty text to stop their journeys; without one the call is refused (`JOURNEY_REMAP_MISSING`, the nodes in the message). Users in `error` on a removed node are moved too; those changes name the publisher as operator.',
      `Answers \`exam\`, \`journey\`, \`active\`, \`version\`, \`published\`, \`unchanged\` (only when true), \`remapped\` (only when users moved), \`issues\` (remaining warnings) and \`warning\` when the journey is switched off. ${FEATURE} Needs modify.`,
    ),
    example: { exam: X.exam, remap: { retry: 'end' } },
  },
  'GET exam:journey': {
    summary: "Overview of an exam's journey and its users",
    description: p(
      'Answers `exam`, `journey`, `title`, `active`, `version`, `published`, `users {total, active, waiting, error, completed, stopped}` and `nodes[{node, type, label, users, active, waiting, error}]` of the published version. Needs report on the exam.',
    ),
    notes: 'The contract names this endpoint without defining it; this service designs it. GraphQL: `Exam.journeyDashboard`.',
    example: { exam: X.exam },
  },
  'GET exam:journey:user': {
    summary: "Read a user's place on an exam's journey",
    description: p(
      'Answers the user-state record: `exam`, `journey`, `user`, `status` (active, waiting, error, completed, stopped), `outcome`, `error`, `run`, `step` (the current node as GET `exam:journey:graph` renders it, plus `time_start`), `wait_until`, `time_start`, `time_end`, `steps_completed`, `steps_total`, `steps_remaining` (the fewest steps to an end), `flags`, `history` (visits with their results, skills and decisions) and `events` (manual changes).',
      'A user who has not entered yet answers `status: null` with only `exam`, `journey` and `user`. The user reads their own; others need report on the exam. An id of no user, or of a user the caller can neither read nor find among the examinees, is 403 `NOT_FOUND` naming `user`.',
    ),
    notes: 'The contract describes this record without its endpoint; this service designs it. GraphQL: `Exam.journeyUser(user:)`; educators move, stop, resume and restart users with `moveJourneyUser`, `stopJourneyUser`, `resumeJourneyUser` and `restartJourneyUser`.',
    example: { exam: X.exam, user: X.user },
  },
};
