import { EXAMPLE as X, paragraphs as p, type ProseTable } from './types.ts';

const PAGING = 'Paging: `search` filters, `limit` (default 16), `page` (default 1, not used with `search`).';

const membershipRules = (where: string) =>
  p(
    `A membership POST states the whole membership: the department (none when absent or empty) and the levels. A member of a department has that department's levels; otherwise \`permission_organization\` (default member), \`permission_content\` (default none) and \`permission_members\` (default none) apply. Existing memberships are updated, never duplicated. ${where}`,
    'Managers (instance administrators, the owner, `admin`-role members) and supervisors write memberships; a supervisor never gives levels above its own and cannot change a member whose levels are above its own. Users the caller may not read, and members it does not see, are unknown (403 `NOT_FOUND` naming `users`), and nothing changes.',
    '`notify=true` writes one message per added or updated member to the outbox: email, or SMS when the user has only a phone.',
  );

const classMembershipRules =
  'A membership is created or updated (never duplicated): approved, with the given expiry, or without expiry when `expires` is absent. `expires` is whole days from now (at least 1) or a future datetime. The users named must be users the caller may read, and members of the class\'s organization for a class of an organization; any other is unknown (403 `NOT_FOUND` naming `users`). `notify=true` sends each added user a message.';

/** Classes, organizations, memberships, departments, competencies and webhooks. */
export const organizationsProse: ProseTable = {
  'GET classes': {
    summary: 'List classes',
    description: p('Lists the classes the caller sees (those it manages and those it is an active member of). ' + PAGING, 'Answers `classes[{class, id, title}]`.'),
    example: { search: 'Biology', limit: 20 },
  },
  'GET class': {
    summary: 'Read a class',
    description: 'Answers `class`, `id`, `title`, `start` and `end`. A class the caller does not see is unknown (403 `NOT_FOUND` naming `class`).',
    example: { class: X.class },
  },
  'GET class:assignments': {
    summary: "List a class's assignments with the caller's status",
    description: p(
      'Answers `assignments[{assignment, title, link, status, starts, ends}]`. `status` is the caller\'s own: its submission\'s status (`STARTED`, `SUBMITTED`, `GRADED`) when it has one; otherwise `ACTIVE` when the assignment is active and now is within [starts, ends], and `INACTIVE` when it is switched off, not started yet or over.',
    ),
    notes: 'GraphQL creates classes and assignments and moves work through `startAssignmentSubmission`, `submitAssignment` and `gradeAssignmentSubmission`.',
    example: { class: X.class },
  },
  'GET class:members': {
    summary: "List a class's members",
    description: 'Answers `members[{user, name, active}]`; `active` is true when the membership is approved and not expired. Needs report on the class.',
    example: { class: X.class },
  },
  'POST class:members': {
    summary: 'Add users to a class',
    description: p(classMembershipRules, 'Needs control on the class.'),
    example: { class: X.class, users: `${X.user},${X.otherUser}`, expires: 30, notify: true },
  },
  'DELETE class:members': {
    summary: 'Remove users from a class',
    description: 'Removes the memberships of the users named (comma-separated). The users must be members the caller may read; any other is unknown (403 `NOT_FOUND` naming `users`).',
    example: { class: X.class, users: X.user },
  },
  'POST classes:members': {
    summary: 'Add users to several classes',
    description: p('Adds every user named to every class named, with the rules of POST `class:members`.', classMembershipRules),
    notes: 'GraphQL: `addClassesMembers`, answering the classes and users changed.',
    example: { classes: `${X.class},${X.otherClass}`, users: X.user, expires: '2027-06-30 23:59:59' },
  },
  'GET user:classes': {
    summary: "List a user's classes",
    description: 'Answers `classes[{class, id, title, link, active}]` of the user, as far as the caller sees them.',
    example: { user: X.user },
  },
  'POST user:classes': {
    summary: 'Add a user to several classes',
    description: p('Adds the user to every class named, with the rules of POST `class:members`.', classMembershipRules),
    notes: 'GraphQL: `addUserClasses`.',
    example: { user: X.user, classes: `${X.class},${X.otherClass}`, expires: 90 },
  },
  'DELETE user:classes': {
    summary: 'Remove a user from several classes',
    description: 'Removes the user\'s memberships of the classes named.',
    notes: 'GraphQL: `removeUserClasses`.',
    example: { user: X.user, classes: X.class },
  },
  'GET organizations': {
    summary: 'List organizations',
    description: p('Lists the organizations the caller may view (every one for administrators). ' + PAGING, 'Answers `organizations[{organization, id, title}]`.'),
    example: { limit: 50 },
  },
  'GET organization': {
    summary: 'Read an organization',
    description: 'Answers `organization`, `id`, `title` and `description` (only when set). Every member holds view on its organization.',
    example: { organization: X.organization },
  },
  'POST organization': {
    summary: 'Create an organization',
    description: p(
      'The caller becomes the owner. `title` is required; `description`, `website`, `email`, `phone` and `custom_{field}` (fields configured on the instance) are optional. `domain` (a host name without `www.`) needs the `privileged_fields` feature. An external `id` may be given.',
      'Answers `organization`.',
    ),
    example: { title: 'Northwind Academy', website: 'https://northwind.example.com', email: 'office@northwind.example.com' },
  },
  'PATCH organization': {
    summary: 'Change an organization',
    description: 'Changes `title` (1-255) and custom fields. Only managers (administrators, the owner, `admin`-role members) change an organization.',
    example: { organization: X.organization, title: 'Northwind Academy Europe' },
  },
  'DELETE organization': {
    summary: 'Delete an organization',
    description: 'Deletes the organization with its memberships, departments and webhooks. Needs admin on it (administrators, the owner, `admin`-role members).',
    example: { organization: X.organization },
  },
  'GET organization:members': {
    summary: "List an organization's members",
    description: p(
      'Answers exactly `members[{user, name, department, permission{organization, content, members}}]` (no top-level `organization` beside it). Who sees whom: managers and members with `members: organization` see every member; `members: department` sees its own department and those below; `members: none` only itself; a department leader also sees the departments it leads and those below.',
    ),
    example: { organization: X.organization },
  },
  'POST organization:members': {
    summary: 'Add or update members of an organization',
    description: membershipRules('`department` together with a `permission_` argument is refused (`ARGUMENT_CONFLICT`). Departments are named by identification string, name or external id.'),
    example: { organization: X.organization, users: `${X.user},${X.otherUser}`, permission_organization: 'teacher', permission_content: 'view', notify: true },
  },
  'DELETE organization:members': {
    summary: 'Remove members from an organization',
    description: 'Removes the memberships of the users named. Managers and supervisors remove members (a supervisor not those whose levels are above its own); members the caller does not see are unknown (403 `NOT_FOUND` naming `users`).',
    example: { organization: X.organization, users: X.user },
  },
  'POST organizations:members': {
    summary: 'Add or update members of several organizations',
    description: membershipRules('Here `department` may come with `permission_` arguments: an organization without that department uses the `permission_` arguments.'),
    notes: 'GraphQL: `addOrganizationMembers` with `departmentFallback: true`.',
    example: { organizations: `${X.organization},org_0a2c4e6g8i0k2m`, users: X.user, department: X.department, permission_organization: 'member' },
  },
  'GET organization:departments': {
    summary: "List an organization's departments",
    description: 'Answers `organization` and `departments` in hierarchy order, each with `department`, `id`, `parent`, `level`, `permission`, `members` (count) and `leaders[{user, name}]`.',
    example: { organization: X.organization },
  },
  'GET organization:department': {
    summary: 'Read a department',
    description: '`department` is the identification string, name or external id. Answers `organization` and the department record.',
    example: { organization: X.organization, department: X.department },
  },
  'POST organization:department': {
    summary: 'Create a department',
    description: p(
      '`title` (1-255) and the external `id` (up to 64) are unique in the organization (`TITLE_TAKEN`, `ID_TAKEN`). `parent` (name or external id) places it below another department; default the root level. Levels default to member/none/none. `leaders`: at most 5 users, each a member (`NOT_A_MEMBER`).',
      'Only managers change departments. Answers `organization`, `department` and `id`.',
    ),
    example: { organization: X.organization, title: 'Field sales', parent: X.department, permission_organization: 'member', permission_members: 'department', leaders: X.user },
  },
  'PATCH organization:department': {
    summary: 'Change a department',
    description: p(
      'Only given fields change. Empty `id` removes the external id; empty `parent` moves it to the root; a parent that is the department or below it is refused (`DEPARTMENT_CYCLE`). `leaders` replaces the leaders (empty removes all; at most 5, members).',
      'Changed levels are applied to the department\'s members in the same transaction.',
    ),
    example: { organization: X.organization, department: X.department, permission_content: 'report', leaders: `${X.user},${X.otherUser}` },
  },
  'DELETE organization:department': {
    summary: 'Delete a department',
    description: "Its members are left without department with the default levels, its children move to its parent, and its leaders and competency assignments are removed.",
    example: { organization: X.organization, department: X.department },
  },
  'GET organization:competencies': {
    summary: "List an organization's competencies with status counters",
    description: p(
      'Answers `organization` and `competencies`, each with its requirements and documents counts, its assignments (`all`, `departments`, `members`), `assigned` and the seven `status` counters (see the introduction of this area for how an assignment gets its status).',
      'Needs the `library` and `competencies` features (406 otherwise). Organization reporters count every member they see; department leaders count the departments they lead and those below; anyone else gets 403.',
    ),
    example: { organization: X.organization },
  },
  'GET organization:competency:requirements': {
    summary: "List a competency's requirements",
    description: p(
      '`competency` is the identification string, or the external id when `organization` is given. Answers `organization`, `competency`, `id`, `title` and `requirements` by priority: each with its type, whether it is optional, its deadline and the content it needs (an exam, class, document, journey or to-do). Referenced content that is unavailable reads as null.',
      'Needs the `library` and `competencies` features.',
    ),
    example: { competency: 'fire-safety', organization: X.organization },
  },
  'GET organization:compliance': {
    summary: 'Compliance overview of an organization',
    description: p(
      'Answers `organization`, `scope` (`organization` for reporters, `departments` for department leaders), the competencies with assignments in scope, the departments with members in scope (depth first, siblings by title, each with its own members and per-competency `assigned` and `status`), and the totals `assigned` and `status`. Members without a department come last as `department: null`, in organization scope only.',
      'Needs the `library` and `competencies` features. The counters are computed in one SQL statement per report.',
    ),
    example: { organization: X.organization },
  },
  'GET user:organizations': {
    summary: "List a user's organizations",
    description: 'Answers exactly `organizations[{organization, id, title, link, department, permission}]` (no top-level `user` beside it).',
    example: { user: X.user },
  },
  'POST user:organizations': {
    summary: 'Add a user to several organizations',
    description: membershipRules('`department` together with a `permission_` argument is refused (`ARGUMENT_CONFLICT`).'),
    example: { user: X.user, organizations: X.organization, permission_organization: 'reporter', permission_members: 'organization' },
  },
  'DELETE user:organizations': {
    summary: 'Remove a user from several organizations',
    description: "Removes the user's memberships of the organizations named, under the rules of DELETE `organization:members`.",
    example: { user: X.user, organizations: X.organization },
  },
  'GET organization:webhook': {
    summary: 'Read a webhook',
    description: 'Answers `organization`, `webhook`, `title` and `active`. Keys are never returned. Only organization managers see webhooks.',
    example: { organization: X.organization, webhook: X.webhook },
  },
  'POST organization:webhook': {
    summary: 'Configure a webhook',
    description: p(
      '`trigger_event`: `exam-play-result`, `quiz-play-result`, `journey-completed` or `api` (sent by POST `organization:webhook:trigger`). `method` POST (default: a JSON body) or GET (each top-level field as a query parameter). `retry` `error` (default: retried with backoff) or `none`.',
      'Authentication: `none` (default) or `key`. With `key`, give `authentication_key` or `authentication_key_custom` (a custom field whose value for the user is the key; not both) and choose how it travels: `authentication_send` `data` (default; the field `authentication_send_data`), `header` (the header `authentication_send_header`) or `bearer`. A field that does not apply to the chosen mode is refused (`ARGUMENT_CONFLICT`). `extra_data` is a JSON object added to every payload. Keys are encrypted at rest.',
      'The endpoint is checked without DNS: an address in a non-public range or an obviously local name is refused (`ENDPOINT_NOT_ALLOWED`, unless `WEBHOOK_ALLOW_PRIVATE=true`); names under `.invalid` are `ENDPOINT_UNRESOLVABLE`. Answers `organization` and `webhook`.',
    ),
    example: { organization: X.organization, title: 'Results to HR', trigger_event: 'exam-play-result', endpoint: 'https://hr.example.com/hooks/results', authentication: 'key', authentication_send: 'bearer', authentication_key: 's3cr3t-k3y' },
  },
  'PATCH organization:webhook': {
    summary: 'Switch a webhook on or off',
    description: 'Sets `active`. Events only write deliveries for active webhooks.',
    example: { organization: X.organization, webhook: X.webhook, active: false },
  },
  'DELETE organization:webhook': {
    summary: 'Delete a webhook',
    description: 'Removes the webhook configuration: events no longer write deliveries for it. Only organization managers change webhooks.',
    example: { organization: X.organization, webhook: X.webhook },
  },
  'POST organization:webhook:trigger': {
    summary: 'Send data through an api webhook',
    description: p(
      'Sends `data` (JSON) to the named webhook, which must be an active webhook with `trigger_event` `api`. The delivery is written at once and sent by a worker, signed and retried like any other.',
      'Answers `{organization, webhook, delivery, success}`.',
    ),
    example: { organization: X.organization, webhook: X.webhook, data: { course: 'onboarding', status: 'done' } },
  },
};
