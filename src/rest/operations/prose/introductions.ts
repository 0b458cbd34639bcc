import { issueCodes, issueLevel } from '../../../services/journeys/graph-validation.ts';

/**
 * Introductions of the areas of the REST/RPC contract (one per OpenAPI tag, shown at /api/docs above
 * the area's operations): the rules that hold for several operations of an area, and how this
 * service answers what the contract leaves open. Per-operation prose lives beside this file.
 */
/** The journey issue codes as a table, from the validator's own list, so it cannot drift. */
function journeyIssueTable(): string {
  const rows = Object.entries(issueCodes).map(([code, meaning]) => `| \`${code}\` | ${issueLevel(code as keyof typeof issueCodes)} | ${meaning} |`);
  return ['| Code | Level | Meaning |', '|---|---|---|', ...rows].join('\n');
}

export const introductions: Readonly<Record<string, string>> = Object.freeze({
  'Test': `The only operation that changes nothing and needs no data: it tells an integration that its credentials work and which user and language its calls act as.`,
  'Users': `- A user **manages** the users it created; instance administrators manage everyone. \`users\` lists the
  managed non-generated users by full name (\`limit\` 1-1000). A user may read, rename and regroup itself.
- Usernames are unique and case-sensitive (letters, digits, \`. _ @ + -\`); names are trimmed before their
  length is checked. \`language\` must be an active language and \`timezone\` an IANA name; both default to
  those of the user the call acts as, who also becomes the manager of the new user.
- \`notify=true\` on POST \`user\` writes one email to the outbox with the username and a single-use login
  link valid for 7 days, never the password.
- \`user:login\`: \`expires\` is 1-30 days or a date from today to 30 days ahead (valid to 23:59:59 UTC that
  day); \`logins\` defaults to 1. An equal request (same expiry, logins, redirect, exam, template, short)
  returns the same valid, unused-up link. \`BASE_URL/login/<token>\` (or \`BASE_URL/l/<code>\` for short
  links) counts a use atomically, sets a session cookie and answers 302 to \`redirect\`
  (\`[type:tag]\` goes to \`/<type>?tag=<tag>\`); an expired, used-up or deleted link answers 410. HEAD
  requests (link scanners) do not use a login.
- \`user:login\` with \`exam\`: the caller must be able to read the exam's examinees (\`exam:users\`, report
  level) and the user must be on the exam (an exam the caller cannot see, or one the user is not on,
  answers 403 \`NOT_FOUND\` naming \`exam\`). Opening the link signs the examinee in and answers 302 to
  \`BASE_URL/exam/<exam>\`, the exam's page in the web application, where a player expects to start the
  test. An examinee taken off the exam since, or an exam deleted since, still signs in, landing on \`/\`.
- \`user:assume\`: a managed user needs no password (one that is given must be right); any other user needs its password (or the secret of
  one of its active API applications). Tokens are random, stored as SHA-256, usable only by applications
  of the owner that asked for them, and live \`ASSUME_TOKEN_TTL_SECONDS\`.
- Nobody can disable or delete the account making the call.
- A user the caller may not read is answered on every operation as a user that does not exist (403
  \`NOT_FOUND\` naming the argument); one it reads but does not manage (itself) gets \`PERMISSION_DENIED\`.
- GET \`user:group\` answers \`user\` and \`group\`; a user without a group has no \`group\` field (the contract
  types it as a string, and leaves unset values out elsewhere), never \`"group": null\`.

#### Notifications

Email and SMS go through a durable outbox written in the same transaction as the change that causes
them; a worker delivers them. With \`SMTP_URL\`, email goes through that server (status \`sent\`);
otherwise, and always for SMS, messages are recorded (status \`recorded\`). Failed sends retry with
backoff (2, 4, 8 … 128 seconds), 8 attempts; then the message is \`failed\` with its last error. Administrators read the outbox with GraphQL \`notifications\`.`,
  'Classes': `- A class is managed by its owner, instance administrators and, for a class of an organization, the
  organization's owner and members with role teacher or higher. It is seen by whoever manages it and by
  its active members.
- A membership POST creates or updates (never duplicates): approved, with the given expiry, or without
  expiry when \`expires\` is absent. The users named are users the caller may read, members of the class
  and members of the class's organization; any other is unknown (403 \`NOT_FOUND\` naming \`users\`). \`expires\` is whole days from now (at least 1) or a future datetime.
  \`active\` is true when approved and not expired.
- Assignment status for the caller: its submission's status (\`STARTED\`, \`SUBMITTED\`, \`GRADED\`) when it
  has one; otherwise \`ACTIVE\` when the assignment is active and now is within [starts, ends], and
  \`INACTIVE\` when it is switched off, not started yet or over. GraphQL creates classes and assignments
  and moves work through \`startAssignmentSubmission\`, \`submitAssignment\` and \`gradeAssignmentSubmission\`.
  The bulk writes have GraphQL counterparts with the same rules: \`addClassesMembers\` (POST
  \`classes:members\`), \`addUserClasses\` and \`removeUserClasses\` (POST and DELETE \`user:classes\`), each
  answering the classes and users changed.`,
  'Organizations': `- The creator of an organization is its **owner**. **Managers** are instance administrators, the owner
  and members with the \`admin\` role; only they change or delete an organization, its departments and
  its webhooks. \`domain\` needs the \`privileged_fields\` feature. POST also accepts an external \`id\`.
- A membership POST states the whole membership: the department (none when absent or empty) and the
  levels. A member of a department has that department's levels; otherwise the \`permission_\` arguments
  apply (defaults member/none/none). Existing memberships are updated, never duplicated. In
  \`organization:members\` and \`user:organizations\`, \`department\` with a \`permission_\` argument is refused
  (\`ARGUMENT_CONFLICT\`); in \`organizations:members\` an organization without that department uses the
  \`permission_\` arguments (GraphQL: \`addOrganizationMembers\` with \`departmentFallback: true\`). Departments are named by identification string, name or external id.
- GET \`organization:members\` answers exactly \`members\`, and GET \`user:organizations\` exactly
  \`organizations\`: no top-level \`organization\` or \`user\` beside them (strict clients of this API family
  reject fields the contract does not name). The writes keep answering the identification strings
  involved with \`success\`.
- Managers and supervisors write memberships; a supervisor never gives levels above its own and cannot
  change a member whose levels are above its own. A write or removal names users the caller may read or
  members it sees in the organizations named; any other is unknown (403 \`NOT_FOUND\` naming \`users\`).
- Who sees whom: managers and members with \`members: organization\` see every member; \`members:
  department\` sees its own department and those below; \`members: none\` only itself; a department leader
  also sees the departments it leads and those below.
- Department titles and external ids are unique in the organization (\`TITLE_TAKEN\`, \`ID_TAKEN\`); at most
  5 leaders, each a member (\`NOT_A_MEMBER\`); a parent that is the department or below it is refused
  (\`DEPARTMENT_CYCLE\`). Changed levels are applied to the department's members in the same transaction.
  Deleting a department leaves its members without department with the default levels, moves its
  children to its parent and removes its leaders and competency assignments.
- A member holds a competency when it is assigned to everyone, to the member directly, or to the
  member's own department (not departments above it). Department assignments are never copied into
  member rows, so moving a member drops the competencies it held only through the old department.
- \`notify=true\` writes one message per added or updated member to the outbox: email, or SMS when the
  user has only a phone.

#### Competency status counters

An **assignment** is a (member, competency) pair of one organization where the competency applies to
the member (to all members, to the member's department, or to the member directly; counted once).
\`assigned\` counts the assignments among the members in the caller's scope: organization reporters count
every member they can see (scope \`organization\`); other department leaders count the members of the
departments they lead and those below (scope \`departments\`); anyone else gets 403.

**Assignment date**: a direct assignment dates from when it was made; an assignment through all members
or the department dates from the later of the member joining the organization and the competency's
creation; when both apply, the earlier date wins. **Clock**: the service's clock at the call, UTC.

**Per requirement** (non-optional ones only), exactly one state: *expired* (completed, the requirement
has \`validityDays\`, and completion + validityDays ≤ now); *outdated* (completed, not expired, before the
requirement's \`changedAt\`, which moves when what must be done changes or on \`renew\`); *completed*;
*waiting* (submitted, waiting for review); *progress* (started); *none*.

**Deadline**: \`date\`: the whole day (UTC) is allowed; \`days\`: the assignment date plus that many days.

**Per assignment**, the first rule that holds gives its single status:
1. **completed**: every requirement completed (also when there is no required requirement);
2. **expired**: any requirement expired;
3. **outdated**: any requirement outdated;
4. **waiting**: every requirement completed or waiting, some waiting (even after a deadline);
5. **overdue**: a requirement in *none* or *progress* has a deadline ≤ now;
6. **due**: a requirement in *none* or *progress* has a deadline ≤ now + 30 days;
7. **progress**: anything started;
8. otherwise the assignment counts in \`assigned\` and in no status.

The counters are computed in one SQL statement (GROUP BY with FILTER) per report. The compliance
overview lists only competencies with assignments in scope, departments with members in scope depth
first (siblings by title), each with its own members in scope; members without a department come last
as \`department: null\` in organization scope only; \`assigned\` and \`status\` are the totals.
\`organization:competencies\`, \`organization:competency:requirements\` and \`organization:compliance\` need
the \`library\` and \`competencies\` features (406 otherwise). Referenced content that is unavailable reads
as null.

#### Webhooks

Organization managers configure webhooks. Keys are encrypted at rest and no read returns them. A field
that does not apply to the chosen authentication mode is refused (\`ARGUMENT_CONFLICT\`); \`extra_data\` is
a JSON object. Endpoints are checked at configuration without DNS: an IP address in a non-public range
(loopback, private, link-local, CGNAT, unspecified, multicast) or an obviously local name (\`localhost\`,
\`*.localhost\`, \`.local\`, \`.localdomain\`, \`.internal\`, \`.home.arpa\`, names without a dot) is refused
(\`ENDPOINT_NOT_ALLOWED\`) unless \`WEBHOOK_ALLOW_PRIVATE=true\`; names under \`.invalid\` never resolve and are
refused (\`ENDPOINT_UNRESOLVABLE\`). Any other name is accepted, so endpoints can be configured where DNS is
unavailable. Before every attempt the name is resolved and every address checked; a name that does not
resolve, or resolves to a non-public address, is a failed attempt and is retried like any other.

An event writes one delivery per active matching webhook in the same transaction as the change that
caused it; workers (several instances may run) claim and send it at least once, so receivers should drop
repeats by \`webhook-id\`. \`organization:webhook:trigger\` sends \`data\` to the named webhook, which must be
an active \`api\` webhook, and answers \`{organization, webhook, delivery, success}\`.

**Payload** (POST: JSON body; GET: each top-level field as a query parameter, objects as JSON text):

\`\`\`json
{ "id": "dlv_…", "event": "api", "time": "2026-01-31T12:00:00.000Z",
  "organization": { "organization": "org_…", "id": "external id or null", "title": "…" },
  "webhook": { "webhook": "whk_…", "title": "…" },
  "data": "<the event's data, or null>", "…": "the extra_data keys" }
\`\`\`

The key travels in the configured header, as \`Authorization: Bearer <key>\`, or as the top-level field
named by \`authentication_send_data\` (a custom-field key is that field's value for the user the event is
about; for the trigger, the calling user).

**Signature** ([Standard Webhooks](https://www.standardwebhooks.com/)): \`webhook-id\` (the delivery id,
the same on every retry), \`webhook-timestamp\` (Unix seconds at sending) and \`webhook-signature\`
(\`v1,<base64 HMAC-SHA256>\` of \`<webhook-id>.<webhook-timestamp>.<content>\`, where content is the raw body
for POST or the query string for GET, keyed with the base64-decoded part of the signing secret
\`whsec_…\` that managers read with GraphQL \`webhookSigningSecret\`). A receiver rejects timestamps more
than 5 minutes from now, recomputes the signature, compares in constant time, and remembers processed ids:

\`\`\`js
const key = Buffer.from(secret.slice(6), 'base64');
const expected = 'v1,' + createHmac('sha256', key).update(\`\${id}.\${timestamp}.\${rawBody}\`).digest('base64');
const valid = header.split(' ').some((s) => s.length === expected.length && timingSafeEqual(Buffer.from(s), Buffer.from(expected)));
\`\`\`

**Retries**: any 2xx is success. Network errors, timeouts and other answers (redirects are not followed)
are failures; with \`retry=error\` the wait after attempt n is \`WEBHOOK_RETRY_BASE_MS × 2^(n−1)\` (5, 10,
20 … 320 s by default), up to \`WEBHOOK_MAX_ATTEMPTS\`, then the delivery is \`failed\`; \`retry=none\` tries
once. GraphQL \`Webhook.deliveries\` shows status, attempts, last status and last error.`,
  'Integrations': `- An integration belongs to its owner; administrators see all. The organization of an integration must
  be one its owner owns or administers; a plain member of an organization who administers none always
  gets that organization.
- \`lti\` accepts \`1.0\`, \`1.1\`, \`1.0/1.1\` (stored and shown as \`1.0/1.1\`) and \`1.3\`; \`lti\` and \`platform\`
  are refused for API integrations (\`ARGUMENT_CONFLICT\`).
- Secrets are encrypted at rest (AES-256-GCM with \`SECRET_KEY\`) because \`integration:keys\` shows them
  again. POST \`integration:keys\` replaces the secret (or the LTI 1.3 key pair and its \`kid\`) at once; the
  app id and consumer key stay. The LTI 1.3 public key set is served at \`BASE_URL/lti/<integration>/jwks.json\`.
- Deleting the integration that makes the call is refused; deactivating it is allowed.`,
  'Content permissions and transfer': `- Ten content types carry permissions: \`class\`, \`course\`, \`event\`, \`exam\`, \`integration\`,
  \`organization\`, \`quiz\`, \`scorm\`, \`tag\`, \`video\` (path prefix, parameter and \`content.type\`). An
  archived exam is unknown (403 \`NOT_FOUND\`), as a deleted one.
- Levels, lowest first: view, report, control, modify, grant, admin; events add finances between
  modify and grant. A higher level includes the lower ones.
- **Effective level** (one policy for every content type), the highest of: admin for instance
  administrators, the owner, and the owner and \`admin\`-role members of the content's organization; the
  user's explicit rules; the \`content\` level of its membership of the content's organization; on classes,
  modify for members whose role is teacher or higher. On an organization itself every member holds view.
- Every service declares the level an action needs: reading view, results and full member lists report,
  managing users control, changing modify, granting grant, deleting and transferring admin. Lists hold
  only what the caller may view. Integration keys stay with the owner and administrators (the keys act
  as the owner); an organization's members, departments, webhooks and reports stay with its roles.
- GET \`<prefix>:permission\`: \`status.permission\` is true when the user's effective level includes the
  level asked; \`status.rule\` when a rule with exactly these parameters exists. Asking about oneself needs
  view; about another user, grant. POST (grant) and DELETE (revoke) need grant and a level at most the
  caller's own; granting an existing rule answers \`success: true\`; revoking a missing rule answers
  \`success: false\`. The named \`user\` must be one the caller may read or a member or owner of the
  content's organization; any other is answered as an unknown user (403 \`NOT_FOUND\` naming \`user\`).
- POST \`<prefix>:transfer\` needs admin and makes the user the owner; the previous owner keeps nothing
  from ownership (its own rules and memberships still count). Organization, rules and tags stay. A
  transferred integration gets a new secret (or LTI 1.3 key pair) at once.
- Course, event, SCORM and video records have a title, external id, description, owner and organization;
  GraphQL creates, lists, updates and deletes them. Every content type has a \`permissions\` field, and
  \`permission(contentType, content, user)\` tells a dashboard what a user can do.`,
  'Tags': `- A tag has a title (1-255), an external id (1-64), a colour (\`#rgb\` or \`#rrggbb\`, stored lowercase
  \`#rrggbb\`) and an icon (1-8 CSS class names such as \`fa-solid fa-star\`). GraphQL creates, changes and
  deletes tags; the contract only reads them. Tags are content of type \`tag\` under the same policy.
  GET \`tag\` answers \`tag, id, title, color, icon\`; a tag without an icon has no \`icon\` field (the contract
  types it as a string), never \`"icon": null\`. \`id\` is null without an external id, as in every list.
- \`<type>:tags\` takes the content parameter of that type and lists the tags the caller may view.
  GET \`<type>:tag\` needs view on the content and the tag; POST and DELETE need modify on the content and
  view on the tag. Attaching twice answers \`success: true\` and writes nothing; detaching a tag that is not
  attached answers \`success: false\`.`,
  'Exams': `Exam settings and user data fields (\`exam:settings\`, \`exam:fields\`), results, certificates (POST
\`exam:certificates\` included) and journeys are described with their own operations.

**Records and rules.**
- An exam runs one Quiz set the caller may view (\`quiz\`); its language defaults to the Quiz set's; \`type\`
  defaults to \`exam\`; the creator owns it. \`organization\` follows the rules of Quiz sets (an organization
  the owner owns or administers; a plain member's exams always go to its organization).
- \`start\` < \`end\` (both datetimes in UTC); a period that breaks it is refused naming \`end\` (or, on PATCH,
  the bound that was changed). \`deadline\` lies within [\`start\`, \`end\`]; a change of \`start\` or \`end\` that
  would leave the deadline outside is refused too. \`none\` or empty removes the deadline.
- \`start\` is frozen once the exam has a result: any play of it, in any round, archived or not. Changing
  it then answers 403 \`START_FROZEN\`, whose message names \`start\`; sending the same \`start\` again is fine.
- PATCH \`exam\` takes exactly the contract's arguments. The exam's own on/off switch (read as \`active\`
  and \`status\` INACTIVE) is changed only through GraphQL \`updateExam(input: { enabled })\`: an \`enabled\`
  sent to PATCH \`exam\` is ignored like any unknown argument.
- \`description\` keeps basic HTML (paragraphs, line breaks, emphasis, lists, headings, quotes, code, links
  with http, https or mailto) through \`sanitize-html\`; scripts and styles go with their content, event
  handlers and \`javascript:\` links are dropped. Empty (also after cleaning) removes it.
- \`copy_settings\` must name an exam the caller may view (otherwise 403 \`NOT_FOUND\` naming
  \`copy_settings\`, the same as for an unknown exam); its settings are copied in the transaction that creates the exam
  (as PUT \`exam:settings\` copies them; see the exam settings).
- DELETE \`exam\`: an exam with results is archived (\`archived\`, \`archivedAt\`): gone for every reader
  (NOT_FOUND, absent from lists) while its plays stay for statistics. One without results is removed with
  its rounds, examinees, branding (and its stored image), summaries, permission rules and tags (and the
  settings and fields through their foreign keys). Deleting a user removes the exams it owns with their
  plays; a Quiz set used by an exam (or a play) is archived on DELETE \`quiz\`, and the exam keeps it.
- \`secure\` is false for every exam: nothing in the contract switches it on yet, so \`seb_launch_url\` and
  \`seb_config_url\` never appear.
- The record's \`active\` is true while the status is ACTIVE, PAUSED or REVIEW (the states the contract
  calls active). The exam's own switch (GraphQL \`Exam.enabled\`, \`updateExam(enabled)\`) switches it off.
- GET \`exams\` lists the exams the caller may view, latest \`start\` first (then by id); \`search\` matches the
  title or the external id; \`active=true\` keeps the active ones (switched on, \`start\` ≤ now < \`end\`),
  \`false\` the others.
- Who may: reading (record, status, rounds, skills, branding) view; examinees and results report;
  adding and removing examinees control; changing (PATCH, branding, summary, closing a round) modify;
  deleting and transferring admin. A caller who may not even view an exam gets, from every exam
  operation, exactly the answer for an identification string of nothing (403 \`NOT_FOUND\` naming the
  argument); one who may view it but lacks the level gets 403 \`PERMISSION_DENIED\`.

**Status**, derived at every read from the exam and its settings, never stored; the first row that
matches decides:

| # | Condition | Status |
|---|---|---|
| 1 | now ≥ \`end\` (also when switched off, also in review) | EXPIRED |
| 2 | the exam is switched off | INACTIVE |
| 3 | now < \`start\` | INACTIVE |
| 4 | \`view_results_start\` is set (datetime kinds) and now ≥ it | REVIEW |
| 5 | tests are paused, or \`deadline\` is set and now > \`deadline\` | PAUSED |
| 6 | otherwise | ACTIVE |

Tests are paused, \`view_results_start\` and \`freeze_round\` are read from the exam settings; without configured settings an exam is never
paused by its settings, has no review period and no frozen round.

**GET \`exam:status\`** (the contract does not define its output): \`exam\`, \`status\` (one of the five),
\`active\` (boolean, as in the record), \`start\`, \`end\`, \`deadline\` (datetime/null), \`paused\` (boolean:
new tests cannot start because tests are paused or the deadline has passed), \`round\` (integer, the
current round), \`users\` (integer, examinees), \`started\` (integer, current, i.e. not archived, results of
every round), \`finished\` (integer, those of them finished), \`archived\` (integer, archived results).
GraphQL \`Exam.status\` has the same fields; for a list of exams they load together (three statements).

**Rounds** (GET and POST \`exam:round\`, the contract names them without defining them; this
service designs them). An exam starts in round 1, which begins at \`start\`.
- GET \`exam:round\`: \`exam\`, \`round\` (integer, current), \`start\` (datetime, when the current round
  began), \`frozen\` (boolean, \`freeze_round\`), \`results\` (integer, current results of the current round),
  \`rounds\` (closed rounds, oldest first: \`round\`, \`start\`, \`end\` (datetime, when it was closed),
  \`results\`). Needs view.
- POST \`exam:round\` closes the current round at the current time and opens the next: \`exam\`, \`round\`
  (the new one), \`start\`, \`closed\` (the number of the round closed). Needs modify. Refused with 403
  \`ROUND_FROZEN\` while \`freeze_round\` is on; two concurrent closes close one round (the second answers
  403 \`ROUND_CHANGED\`). Closed rounds keep their results (each play records its round).
- GraphQL: \`Exam.round { current frozen closed }\` and \`closeExamRound(exam)\`.

**Branding.** \`image\` is base64 content (a \`data:\` prefix is accepted), an uploaded file part, or an
http(s) URL. Content is checked by its real type (PNG, JPEG, WebP; otherwise \`INVALID_FILE_TYPE\`) and size
(10 MiB; \`FILE_TOO_LARGE\`) and stored with the files service; a URL is kept as a reference and never
fetched. POST replaces an earlier branding (and deletes its stored image) and answers the branding record
with \`success: true\`. GET reads \`{exam, enabled: false}\` alone when none. DELETE answers \`success: false\`
when there was none. GraphQL \`Exam.branding { type color imageUrl }\`.

**Examinees.** POST and DELETE \`exam:users\` take users the caller may read (itself, the users it manages,
any for administrators); any other answers 403 \`NOT_FOUND\` naming \`users\`, as an unknown id does, and
nothing changes. They answer \`{exam, users: <how many were added or removed>, success: true}\`; adding one
twice changes nothing. GET lists examinees by full name (\`users[{user, name}]\`). Removing keeps results.
GraphQL \`Exam.users\` is a connection (report permission; null with \`PERMISSION_DENIED\` otherwise).

**Skills.** \`exam:skills\` lists the skills of the questions of the exam's Quiz set, once each, by title.

**Summaries.** POST \`exam:summary\` stores one summary per exam and language (default the exam's
language; an active language), replacing an earlier one: basic HTML as for descriptions (refused when
nothing is left after cleaning), \`type\` \`ai\`, \`llm\` (1-64) and \`model\` (1-128, needs \`llm\`:
\`ARGUMENT_CONFLICT\`). Needs modify. It answers \`{exam, language, success: true}\`. They are read back by
readers of the exam through GraphQL \`Exam.summaries\` (language, type, summary, llm, model, updatedAt),
by language.

**GraphQL.** \`Exam\` is a Node (id = the contract's \`exam\` string) with its fields, \`status\`, \`round\`,
\`skills\`, \`quizSet\`, \`organization\`, \`owner\`, \`users\`, \`branding\`, \`summaries\`, \`permissions\` and \`tags\`;
\`exams(search, active, first, after)\`; mutations \`createExam\`, \`updateExam\`, \`deleteExam\`,
\`closeExamRound\`, \`setExamBranding\`, \`deleteExamBranding\`, \`addExamUsers\`, \`removeExamUsers\`,
\`setExamSummary\`, calling the same services. The exams dashboard (\`ExamsDashboard\`: exams with status,
examinee counts and Quiz set) runs the same number of SQL statements for 3 exams as for 30.

**Time.** Statuses are derived from the service's clock at each read.`,
  'Exam settings': `- **Stored form.** Only configured settings are stored (\`ExamSettings.values\`, keyed by setting); everything
  else reads as its default, which is what PATCH fills in. Reading needs view on the exam, POST/PUT/PATCH
  modify (the source of a copy view). GET answers \`exam\` first, then the settings in the order POST \`exam:settings\` takes them.
- **Defaults and null readings.** nonblocking, pausable, questionless, freeze_round, archive,
  hide_ingame_results, hide_points, hide_grade, show_in_lasthour and export_journey default to false;
  results_page to true. nonblocking reads true for homework and surveys, pausable true for homework and
  false whenever nonblocking is off; questionless false for surveys and championships; hide_points and
  hide_grade true with view_results none. timelimit/roundtime: seconds 0-31 536 000, 0 = no limit (reads 0),
  \`default\` (or unconfigured) reads null and uses the Quiz set; roundtime reads null for TEST Quiz sets.
  grading reads null for \`default\`/unconfigured. grading_threshold (0-100, fractions allowed) is present
  only when configured. view_results_start (\`YYYY-MM-DD HH:ii:ss\` UTC), view_results_identifier and
  results_url are present only for datetime/datetime_blind, the last two only when an identifier is set.
  **export_attendance** is read only and reads true (who started and finished is part of every export).
- **Rules.** POST checks the settings as they will be after the change. A change against a rule of the
  table is refused with 403 \`ARGUMENT_CONFLICT\` naming the setting (contract name in
  \`Service-API-Error\` and \`error.argument\`) and stating the rule; malformed values 403 \`INVALID_ARGUMENT\`.
  Nothing changes on a refusal. Details the contract leaves open:
  - "results exist" means any play of the exam (archived ones are kept results); "tests are paused"
    means plays in status \`paused\`. Disabling nonblocking switches pausable off in the same change.
  - questionless is frozen while a play of the exam's current round exists; a value equal to the current
    one is not a change.
  - **freeze_round and archive, "managers only":** the managers of an exam are those holding **admin** on
    it (instance administrators, the owner, admin-role members of its organization, admin rules): the
    action \`exam:settings:manage\`. Others get 403 \`PERMISSION_DENIED\` naming the setting when they change
    the value (sending the current value is allowed).
  - grading: a preset the caller may use (403 \`NOT_FOUND\` for an unknown code), \`none\` or \`default\`;
    grading_threshold only while the exam's own grading is a go-nogo-custom preset; changing grading to one
    without a threshold drops the threshold.
  - view_results_start is mandatory with datetime kinds and lies in [start, end] of the exam; given with
    another kind it is refused. Leaving the datetime kinds drops the stored start and identifier.
  - view_results_identifier: the label of a current custom field of type text, email or phone with
    \`unique\`; \`none\` or empty clears it.
  - results_page false is refused unless view_results is datetime_blind, manual or none (also when
    view_results changes away from those while it is false); hide_grade needs hide_points; show_in_lasthour
    needs view_results after.
  - export_gender: enabling it needs the \`privileged_fields\` feature (406 \`FEATURE_DISABLED\`, the platform's
    answer for a feature that is off); switching it off needs nothing.
  - Surveys: GET leaves out grading, grading_threshold, the results viewing settings (view_results, its
    start and identifier, results_url, results_page, hide_ingame_results, hide_points, hide_grade,
    show_in_lasthour) and every export_* but export_format and export_sort. POST refuses those with
    403 \`ARGUMENT_CONFLICT\` ("does not apply to surveys").
- **PUT / PATCH.** \`source\` equal to \`exam\`: 403 \`SAME_SOURCE\`. PUT takes every configured setting of the
  source (unconfigured ones become unconfigured), PATCH only those the target has not configured (grading
  and its threshold count as one). Never copied: freeze_round (the round is the exam's own), settings that
  do not apply to the target (its type, roundtime for a TEST Quiz set), questionless for survey and
  championship targets or while the target's current round has results, archive when the caller is not a
  manager of the target, export_gender when the caller lacks the feature, an identifier the target has no
  qualifying field for, values the target's type fixes (nonblocking of homework and surveys, pausable of
  homework), and nonblocking/pausable when the copy would break their rules on the target. A copied
  setting that breaks a rule next to the target's own settings (a PATCH bringing show_in_lasthour to a
  target with view_results none) is not copied either. User data fields, branding, examinees and rounds
  are not settings and stay. A rule broken by what remains is refused like a POST (a viewing period start
  outside the target's period: 403 naming view_results_start). The
  settings have no automatic account generation, notifications, login settings or patterns, so
  "never copied" has nothing more to leave out today.
- **Certificate settings** (GraphQL \`Exam.certificateSettings\`, \`updateExamCertificateSettings\`; the
  contract has none): \`enabled\`, \`serialNumbering\` with \`serialPrefix\` (0-32 characters) and \`nextSerial\`
  (the number the next certificate gets; it never goes down, 403 \`ARGUMENT_CONFLICT\`), \`validityMonths\`
  (1-1200, \`noExpiry: true\` for none) and \`title\` (1-255, empty: the exam's title). Unconfigured: off, no
  numbering, next 1, no expiry. PUT with \`keep_certificate_settings=false\` (default) takes the source's,
  PATCH takes them only when the target has none, \`true\` keeps the target's. POST \`exam\` with
  \`copy_settings\` copies them only with \`keep_certificate_settings=true\`. A copy never takes the source's
  next number: the target keeps its own (1 for a new exam), so serials of one exam never repeat.

- **Results page** \`BASE_URL/results/<exam>\` (present as results_url when view_results is datetime or
  datetime_blind and an identifier is set): GET is an HTML form asking for the identifier field; POST
  with \`value\` (urlencoded form) shows the examinee's own latest finished, non-archived play of the exam
  (attempt, start and end) from view_results_start on, with no end while the exam exists. Everything else
  (a value nobody entered, another field's value, an unfinished or archived result, the period not begun)
  gets one identical answer: "No result is available for this value." Values match exactly after
  trimming. No exam, an archived exam, or no identifier: 404. Lookups are limited to 10 per 10 minutes per
  client address (429 with \`Retry-After\`); the address is the last \`X-Forwarded-For\` entry (the one the
  load balancer writes), else the peer's. The counters are kept in memory, per instance. The page sends
  \`no-store\`, a strict Content-Security-Policy (no script; its one stylesheet allowed by its hash; images
  from itself and from the origin of a branding image given as a URL) and no referrer.
  **Look**: the page wears the exam's branding (\`exam:branding\`): its
  colour as the header and button accent (each colour paired with a text colour of at least 4.5:1
  contrast), its image as a logo beside the title (\`foreground\`) or a cover above it (\`background\`);
  a stored image is served at \`BASE_URL/results/<exam>/image\` while the exam has a results page (404
  otherwise), an image URL is loaded from there by the browser. Its texts are in the exam's language
  where the page has them (English, German, Hungarian, as results exports), else English with the title
  marked in the exam's language (\`lang\`). One column up to 40rem, the same markup for a phone and a
  desktop; the field has its label, everything works from the keyboard, and every text from the exam
  or the examinee is escaped. A browser test checks it at 375 and 1280 pixels (branding and language
  shown, no sideways scrolling, keyboard use, no request elsewhere) and axe-core reports no violation
  on the form, a result and the no-result answer.
- **GraphQL.** \`Exam.settings\` (\`ExamSettings\`; fields a survey does not have are null),
  \`Exam.fields\` (\`ExamUserDataFields\`: built-in fields as \`{used, label}\`, label null for the default;
  \`custom\` in display order) and \`Exam.certificateSettings\` are selected with the exam, so a list of
  exams loads them in one statement per relation. Mutations \`updateExamSettings\` (timelimit and
  roundtime as text: seconds or \`default\`), \`copyExamSettings(exam, source, mode: REPLACE | FILL,
  keepCertificateSettings)\`, \`updateExamFields(exam, name, email, phone, fields)\`, \`deleteExamFields\`
  and \`updateExamCertificateSettings\` return the \`Exam\` and call the services REST uses; errors name
  the argument as GraphQL spells it (\`gradingThreshold\`, \`fields.0.options\`).
- **What the status reads** (one statement for any number of exams): REVIEW starts at the \`view_results_start\` of the datetime kinds (none otherwise), and
  \`freeze_round\` freezes the round. The settings have no switch that pauses a whole exam; paused
  plays are single examinees' pauses and do not make an exam PAUSED.`,
  'Exam user data fields': `- **User data fields.** Unconfigured: name and email used with their default labels, phone unused.
  \`true\` uses a built-in field with its default label, text uses it with that label, \`false\` switches it
  off keeping the label stored. \`fields\` (a JSON list) replaces the custom fields in display order; absent,
  they stay; \`[]\` removes them all. Settings a field leaves out are taken from the earlier field of the same
  label (current or removed) when the type is the same (required, description and icon whatever the type).
  description is at most 1000 characters; GET answers \`""\` for an unset description or icon. Settings
  given for a type they do not belong to are refused (\`ARGUMENT_CONFLICT\`, e.g. \`fields.0.options\`).
  options: empty ones dropped, at least one left, no repeats. filtering: option → label text; keys must be
  options; omitted, the previous entries of the remaining options are kept. from-to: from and to mandatory
  (\`MISSING_ARGUMENT\`), from < to, step ≠ 0. min/max: \`now\`, \`YYYY-MM-DD\`, or for datetime fields
  \`YYYY-MM-DD HH:MM\` (UTC); a max before a fixed min is refused. minlength ≤ maxlength. **pattern:** with
  the \`privileged_fields\` feature it is taken and must compile as \`^(?:pattern)$\` with the \`u\` flag; a
  caller without the feature neither sets nor removes it (its input is ignored and the previous pattern
  stays). unique is false unless set (free text only); reads show \`unique: true\` on a unique free-text
  field and leave it out otherwise ("unique (free text only, if set)").
- **DELETE \`exam:fields\`** answers \`{exam, success: true}\`. Custom fields are never dropped: a field taken
  out of the list or removed is kept with \`removedAt\`, so **entered values** (\`ExamFieldValue\`, per field
  and examinee) stay but are hidden; listing the label again brings the field back with its settings and
  values. Both POST and DELETE clear view_results_identifier when its field stops qualifying.`,
  'Exam journeys': `- **Reading and saving.** GET and PUT \`exam:journey:graph\` need the journeys feature (406
  \`FEATURE_DISABLED\`); GET needs view on the starting exam, PUT modify (action \`exam:journey:update\`). A
  caller who may not view the exam gets the unknown-exam answer (403 \`NOT_FOUND\` naming \`exam\`). GET on an
  exam that starts no journey answers 403 \`NO_JOURNEY\`; \`graph=published\` before the first publish 403
  \`NOT_PUBLISHED\` naming \`graph\`. \`journey\` is the journey's identification string (\`jrn_…\`), \`active\` its
  switch (off, users do not enter): \`exam:settings\` has no such setting, so the switch
  is GraphQL's \`setJourneyEnabled\` (modify permission). \`unpublished_changes\` compares draft and
  published settings and nodes, and is true before the first publish.
- **Strict saving.** PUT parses everything and reports the problems together: any error-level issue refuses
  the call with 403 \`JOURNEY_INVALID\`, nothing saved, and the error body (\`error.issues\`, GraphQL
  \`extensions.issues\`) lists the issues, warnings included, errors first; \`error.ignored\` lists unknown
  fields. Warnings (unreachable nodes, outputs leading nowhere, unknown fields in rules) are saved with the draft. JSON text that does
  not parse is refused before the graph is looked at (403 \`INVALID_ARGUMENT\` naming \`nodes\` or \`settings\`).
  The first PUT creates the journey, enabled. Chaining to a next exam does not exist in this service, so
  there is nothing to remove.
- **Bounded refusals.** \`error.problems\` (GraphQL \`extensions.problems\`) counts the error-level
  problems and \`error.exact\` says whether that count is all of them; the message says "has N problems"
  or "has at least N problems". A graph of more than 200 nodes, or of more than 500,000 characters of
  JSON (nodes and settings together), is refused at once with that one \`limit-exceeded\` issue
  (\`problems\` 1, \`exact\` false), before the exam is looked up and before any node is checked (stored
  graphs, within the limits when saved, are not held to them again). Validation stops at the 101st error: the refusal lists the first 100 issues with
  \`problems\` 101 and \`exact\` false. A refusal lists at most 100 issues and 100 ignored fields (a saved
  draft too lists at most 100 ignored fields, and a stored draft's issues stop at 100 errors), so even a
  10,000-node graph is answered in milliseconds with a few kilobytes.
- **Defaults filled in on save.** start/exam \`complete_on\` finish; exam \`retake\`, \`reuse\` and class \`reuse\`
  false; quiz \`min_plays\` 1; condition \`match\` all; split \`weight\` 1; wait \`timezone\` UTC; flag \`value\`
  empty; mark \`mode\` mark; end \`outcome\` completed; rule \`aggregate\` last (node.* fields), \`measure\` points
  (skill fields). Fields that do not belong to the node's type or wait mode are ignored and listed.
- **Rules checked beyond the contract's wording.** Rule values by field: results 0-100, counts and days at
  least 0, \`date.weekday\` 1-7, \`date.hour\` 0-23, \`date.date\` \`YYYY-MM-DD\`, \`date.datetime\`
  \`YYYY-MM-DD HH:MM\`, booleans for \`*.successful\`, \`node.completed\`, \`user.generated\`, \`user.gender\` one of
  male, female, other (the user record's values); text of at most 64 otherwise. Operators by kind: numbers take comparisons, between, in/not_in and empty/not_empty; booleans
  eq/neq/is_true/is_false/empty/not_empty; texts eq/neq/in/not_in/contains/empty/not_empty; dates
  comparisons and between. \`param\` of a node.* field must be the key of a step node (start, exam, class,
  quiz) of the graph. Branch keys follow the node-key rule, are unique in their node, and a condition's
  cannot be \`else\`. Time zones must be IANA names Intl knows (offsets such as \`+01:00\` are refused).
  \`exam.custom\` names a user data field of the starting exam by label, \`user.customer_field\` a configured
  user custom field by key; one that does not exist is a warning (\`field-unknown\`), as it may be added later.
- **Content.** Exam, class and Quiz set steps must name content the caller controls (control level,
  actions \`exam|class|quiz:journey:step\`: the journey enrols users in it) or content the draft or published
  version already uses; anything else, unknown identification strings included, is \`content-not-controlled\`
  with the same message, so nothing reveals content the caller may not see. Archived exams and Quiz sets are
  reported (\`exam-archived\`, \`quiz-archived\`), content the journey used that was deleted \`content-missing\`;
  a stored draft shows these as issues (publishable false) when they arise after saving.
- **The starting exam.** Championships cannot start a journey (\`exam-championship\`). An archived exam is
  gone for every reader, so it gets the unknown-exam answer before any graph is looked at; \`exam-archived\`
  on the start node is kept for publishing checks of a journey whose exam was archived since.
- **Departments and teams.** \`user.department\` values are department names of the starting exam's
  organization (none when it belongs to no organization). Teams are not modelled in this service (no
  team records or memberships exist), so \`user.team\` values are accepted as text of at most 64 characters
  and compared as such.
- **Educators.** At most 10, each the owner of the starting exam or one of its managers (admin level on
  it, as for the managers-only exam settings); duplicates are dropped.
- **Output.** Nodes are ordered by position (x, then y, then as stored). A node without a position is laid
  out in columns by its distance from the start (240 apart, rows 120 apart; unreachable ones in a last
  column) and shows that position. \`next\` lists every output of the node, unconnected ones null; \`label\` is
  null when unset. The informative fields: \`marker\` is the node's place in that order from 1 (as text),
  \`title\` the title of the step's content (the starting exam for the start; null for other nodes or content
  gone) and \`content\` its identification string; PUT ignores all three, so an exported graph goes back in
  unchanged.
- **\`$schema\`.** \`GET /api/journey.schema.json\` serves a JSON Schema (draft 2020-12) of the portable
  format, with the types and limits PUT applies. What only the service can tell (references between nodes, content, loops) is left
  to PUT. An exported graph validates against it.

Issue codes (level: error blocks saving and publishing, warning informs):

${journeyIssueTable()}

#### Journeys: moving users along a published journey

The journey engine is a pure state machine: it takes the published
graph, the user's state and visits of the current run, the facts it needs (the user's exam and
practice plays of the graph's contents, class progress, user attributes, exam user data) and the
time, and answers the new state, the visits opened or closed and the effects (enrollments,
notifications, the finish). The runtime loads those facts for a
batch of users in a fixed number of queries, runs the engine and writes the outcome in the caller's
transaction. Where the contract is silent the engine decides as follows.

- **Entering.** A user enters an enabled, published journey in the transaction that settles a play
  of its starting exam (finishing it, or an educator's grade), when the play completes the start per
  its \`complete_on\`. A user who finished (completed or stopped) enters again in a new run only when
  the journey is \`restartable\` and the new result alone completes the start. The start visit is the
  first of the history and counts as a completed step. Entering is serialised per user and journey
  (a transaction-scoped advisory lock), so two plays settling at once let the user in once.
- **complete_on** (start and exam steps): \`finish\` any finished play; \`success\` a successful play;
  \`final\` a successful play, or the last result once no new play can start or the exam has ended.
  An exam step that has not completed when no new play can start puts the user in \`error\`, unless
  a play is still open: \`content-closed\` once the exam ended (EXPIRED), \`content-locked\` once its
  results viewing period began (REVIEW), \`attempts-exhausted\` once its deadline passed (the
  contract has no other attempt limit). The engine looks at an exam step again at each of these
  moments (a timer), and whenever a play of the exam settles.
- **reuse / retake.** An exam step counts plays finished since its visit began; \`reuse\` counts
  earlier ones too. Visiting an exam step again in a run keeps the earlier result unless \`retake\` is
  set (then a new result is needed). Entering an exam step adds the user to the exam's examinees;
  entering a class step adds an approved class membership. A membership that exists but is expired
  or not approved is an educator's decision the journey does not override: entering the step puts
  the user in \`error\` (\`enroll-failed\`).
- **Quiz steps** complete once at least \`min_plays\` practice plays finished since the visit began
  and, with \`min_result\`, the best of them reached it (percent); the best play is the visit's result.
- **Class steps.** Classes measure progress by assignments: the share of the class's active
  assignments the member submitted (or that were graded). A class without active assignments is
  \`class-not-progressive\`; the step completes at 100 % (\`reuse\`: also when reached before the
  visit). A membership removed (or no longer approved) or expired while on the step is
  \`class-membership-missing\` / \`class-membership-expired\`. The engine looks at a class step when
  work on the class is handed in or graded, when memberships of the class are added or removed,
  and when the membership expires (a timer).
- **Results** are percentages 0-100 of points (\`points_correct / points_total\`). **Skills** of a
  finished play are keyed by skill identifier: \`points\` scored on the play's questions of that
  skill and \`percent\` of those questions' maxima (an unanswered question counts 0 of its maximum,
  as in the play's totals; a skill with nothing to score counts 100). A play whose questions have
  no skills has none, and a skill rule on it sees no value (which satisfies only \`empty\`, \`neq\` and
  \`not_in\`).
- **Conditions.** \`step.*\` is the last completed step of the run; \`node.*\` read the completed visits
  of the node named by \`param\` (\`node.skill\`: \`<node key>:<skill identifier>\`; \`node.visits\` counts
  the passes of instant nodes too). Aggregates: \`best\` is the highest (for \`time_spent\` the
  shortest), \`worst\` the lowest, \`average\` the mean; for \`successful\` \`best\` is "any", \`worst\`
  "all", \`average\` "at least half"; grades take the grade of the best or worst result.
  \`step.attempts\` counts the plays finished during the visit; \`time_spent\` is in minutes;
  \`journey.days\` whole days since the run began; \`journey.steps\` is steps_completed;
  \`user.department\` the user's department names in the starting exam's organization (a list);
  \`user.team\` is always empty (the service has no teams); \`exam.custom\` reads the starting exam's
  user data by field label (or id); \`date.weekday\` with \`time\` starts each day at that time;
  \`date.datetime\` values are \`YYYY-MM-DD HH:MM\` UTC or ISO 8601.
- **Operators.** Numbers compare numerically (numeric text included), text case-insensitively,
  booleans accept \`true\`/\`false\`. A missing value satisfies only \`empty\`, \`neq\` and \`not_in\`. On
  list fields (department, team) \`eq\` and \`contains\` mean "has", \`in\` "has any", \`not_in\` "has none".
  A branch with no rules under \`all\` matches.
- **Split** takes a branch by weight from a SHA-256 hash of user, node, run and visit count: the same
  user takes the same path on a replay. Branches of weight 0 are never taken (all 0: equal chances).
- **Waits.** A duration counts from the visit's start. \`date\` with a time is in the node's time
  zone; a date alone is the start of that day in the user's time zone. \`weekday\` is the next such
  day at \`time\` (default 00:00) in the node's zone at or after the visit's start. A wait already
  over ends at once.
- **Notify** writes one outbox message per recipient (the user, or the educators: the journey's
  \`educators\`, else the exam owner), subject the journey's title (else the exam's). **Flag** sets
  \`flags[name]\`; **mark** adds the node to the user's marks, **unmark** clears them. Instant nodes
  are recorded as \`decisions\` of the visit before them, not as visits; waits and ends are visits.
- **Finishing.** An end node finishes with its outcome; an unconnected output with \`completed\`.
  Entering a node visited \`max_visits\` times in the run stops the user with outcome \`loop-limit\`
  (status \`stopped\`). \`journey-completed\` webhooks are enqueued in the same transaction for
  completed users (not stopped ones) who are members of the starting exam's organization; \`data\`:
  exam, journey (title), user, run, outcome, time_start, time_end.
- **steps_remaining** is the fewest exam, class and Quiz set steps on any path from the user's node
  to an end node or an unconnected output, the current step included until completed; a property
  test (fast-check) checks on random graphs and results that it never exceeds the steps the user
  then completes, that no node is visited more than \`max_visits\` times, and that every user ends in
  one of the statuses above.
- **Timers** are durable: \`JourneyUser.dueAt\` (indexed) and one \`journeys.timers\` job per journey
  and due time (10,000 users waiting on one node with one due time make one job). The job claims
  due users in batches of 1,000 with \`FOR UPDATE SKIP LOCKED\` inside the transaction that writes
  them, so several instances share the work, each user moves once, and a crash leaves the batch
  for the next run. A batch is written with a constant number of statements: user states and
  visits through \`jsonb_to_recordset\` inserts and updates, enrollments through one insert each.

**Endpoints designed here** (the contract names them without defining them):

- GET \`exam:journey:user\`: exam (req, starting exam), user (req). The user-state record (see the operation); the user reads their own, others need report permission on the exam. \`step\`: the
  node as GET \`exam:journey:graph\` renders it (node, type, label, position, config, next, marker,
  title, content) plus time_start. History entries: run, visit, step (the node key), marker, type,
  title and content (of the step's content), outcome (the output taken; an end: its outcome),
  status, time_start, time_end, time_spent, result, successful, grade, play, skills, decisions.
  \`status: null\` (and no other field but exam, journey and user) is the answer for a user who has not
  entered yet; an id of no user, or of a user the caller can neither read nor find among the exam's
  examinees, is 403 \`NOT_FOUND\` naming \`user\`.
- GET \`exam:journey\`: exam (req). exam, journey (identification string), title, active, version,
  published, users {total, active, waiting, error, completed, stopped}, nodes [{node, type, label,
  users, active, waiting, error}] of the published version (report permission on the exam).
- POST \`exam:journey:publish\` refuses a draft with error-level issues (\`JOURNEY_NOT_PUBLISHABLE\`,
  the issues in the message) and users on removed nodes without a remap entry
  (\`JOURNEY_REMAP_MISSING\`, the nodes in the message); \`journey\` is the journey's identification
  string. Users in \`error\` on a removed node are moved too. The change events name the publisher
  as operator.
- GraphQL: \`Exam.journeyUser(user:)\`, \`Exam.journeyDashboard\` (two grouped counts whatever the
  number of users), and \`moveJourneyUser\`, \`stopJourneyUser\`, \`resumeJourneyUser\`,
  \`restartJourneyUser\` for educators with control on the exam (\`JOURNEY_CHANGE_REFUSED\` when the
  change does not apply: stop needs a running user, resume a stopped or error one). Educators may
  restart whatever \`restartable\` says. Each change is a change event of source \`operator\`.

**Scale** (measured on 2 shared cores): 10,000
users waiting on the first wait of a 50-node journey (12 segments of wait -> condition -> flag ->
split, then an end), all due at once, moved by \`runDueUsers\` one wait per tick until all completed
(140,000 visits written):

| Database | Whole journey | Per tick (10,000 users) | Statements per tick |
|---|---|---|---|
| PGlite | 42.4 s | 2.4-5.1 s (4,205-1,979 users/s) | 162 (10 batches of 1,000); 193 on the last |
| PostgreSQL 17 | 26.0 s | 1.5-3.0 s (6,609-3,357 users/s) | 184 (10 batches of 1,000); 215 on the last |

Measured on a quiet machine (load average about 1) on 2026-11-23; an earlier run on a machine
busy with other work took 115 s and 133 s. The statement count per batch is constant (about 16:
the facts now include the skills of the users' plays and each exam's results viewing period); the
last tick completes the users (journey requirements, webhooks) and adds a few per batch. A tick
slows as each user's visits grow, since a batch reads the users' visits of the current run to give
the engine its history.`,
  'Results and certificates': `**Player API (GraphQL).** \`startPlay(input: { exam } | { quiz })\` (an \`@oneOf\` input; graphql-js 16 prints
but does not enforce it, so the service refuses both or neither with \`INVALID_ARGUMENT\` naming \`input\`)
starts a play for the caller (or the assumed user). An exam needs an examinee of it (anyone else who may
not view the exam gets \`NOT_FOUND\`, one who may view it \`NOT_AN_EXAMINEE\`) and an ACTIVE exam
(\`EXAM_NOT_ACTIVE\`); a practice play needs view on the Quiz set (\`NOT_FOUND\` otherwise). A start while the
user has an open play of the exam (or of the Quiz set, for practice) continues it; otherwise it is a new
attempt (\`attempt\` 1, 2, … per exam round, per Quiz set for practice). An exam account (a generated user)
that is an examinee of a blocking exam (nonblocking off) in its period may start no other play
(\`EXAM_ACCOUNT_BLOCKED\`). Questions are the Quiz set's active items of active groups, active questions, in
its order; with \`shuffle\` they are shuffled once at the start and the order is kept for the play.
\`Play.questions\` shows each question without its answers; \`choices\` (choice, multiple-choice,
true/false: answers and options mixed; order: the items) are in an order fixed per play. \`myPlays\` lists
the caller's own plays.

\`answerQuestion(input: { play, question, response, hints, solutionSteps })\` records or replaces the
response (the answer checker's shapes: a scalar, a list, a list of lists, or an object of those). Only
the play's user answers (anyone else: \`NOT_FOUND\`); a finished play answers \`PLAY_FINISHED\`, one past its
deadline \`TIME_LIMIT_REACHED\`. \`hints\`/\`solutionSteps\` (how many were shown) apply to practice plays
only; in exams they are refused (\`ARGUMENT_CONFLICT\`), since exams do not show them. TURNS mode: the
question shown is the next one; an earlier one answers \`QUESTION_CLOSED\`, a later one
\`QUESTION_NOT_REACHED\`; with \`roundtime\` each question is open for that many seconds from when it was
shown, and one left longer is skipped (0 points). \`timeAnswer\`/\`time_answer\` is the seconds a TURNS
question was shown before its answer, and for TEST mode the seconds from the start of the play.

**For player authors: exam day.** The player acts for the examinee: the school's application
assumes each examinee (POST \`user:assume\`, no password for a user it manages) and sends the token as
\`Service-API-Assume\` with its own credentials, or the examinee's own application calls. Every call of
the player may be sent again; that is how a player deals with timeouts, lost connections and refusals:

| Call | Sent again (after a timeout, a lost connection, an instance gone) |
|---|---|
| \`startPlay\` | continues the open play: the same \`id\`, never a second attempt (a unique key held while a play is open makes two starts at the same moment one) |
| \`answerQuestion\` | leaves one answer to the question, the later response; an answer the service acknowledged is in the result |
| \`finishPlay\` | \`PLAY_FINISHED\` when the first one went through: read the result from the play (\`node(id)\`, \`myPlays\`, or REST \`quiz:results:play\`) |

A call refused with \`SERVICE_BUSY\` (GraphQL \`extensions.code\`, with \`extensions.retryAfter\` in seconds;
REST 503 with \`Retry-After\`) changed nothing: wait that long and send it again. Every other refusal is
final for that input (\`PLAY_FINISHED\`, \`TIME_LIMIT_REACHED\`, \`QUESTION_CLOSED\`, \`NOT_FOUND\`, …) and
changed nothing either. A play of \`n\` questions is one \`startPlay\`, \`n\` answers (each one SQL statement
when accepted) and one \`finishPlay\`; several instances over one PostgreSQL database share the work,
and an examinee may go on on any of them (a test kills one mid-answer).

What a play needs is fixed at its start: its questions in its order, each question's points (the
\`pointsMaximum\` an answer shows), the Quiz set's mode and, for TURNS, the roundtime. What every start of
one exam reads alike (the exam, its settings, its questions) is reused for \`PLAYER_CACHE_TTL_MS\`
(default 1 s; writes through the same instance clear it at once). At the finish every answer is scored
as its question then stands (within that same second on exam day: a finish scores by the answer keys
read with the exam's starts, and a change made through another instance reaches them within
\`PLAYER_CACHE_TTL_MS\`). The service listens with a backlog of \`HTTP_LISTEN_BACKLOG\` connections (4096)
so that a synchronized start is queued by the kernel rather than dropped into TCP retries, and
\`HTTP_CONNECTION_TIMEOUT_MS\` closes idle connections only: a start that waits for the database keeps
its connection and gets its answer.
On a quiet 2-core machine (service, database and load generator together), 3,000 examinees starting at once were all started in 8.0 s on PostgreSQL
and 18.5 s on the embedded database, with no error and no second attempt; their 12,000 answers ran at
1,579 and 1,724 per second (32.6 % and 31.2 % of REST \`user:me\`, p99 77 and 74 ms), and their finishes
at 238 and 126 per second. On PostgreSQL 10,000 examinees were all started and finished too.

**Scoring.** \`finishPlay\` scores every answer with the answer checker: the question's \`points\` (default
1; \`reading\` questions score nothing and are not counted) times the checker's score, less the
penalties: \`EACH:p\` takes p% per hint (solution step) shown, \`ONCE:p\` p% once; hint and solution
penalties add up to at most 100%. Unanswered questions score 0. free-text, file and hotspot answers
with a response wait for \`gradeAnswer(input: { play, question, points })\` (0 to the question's points;
control on the exam, modify on the Quiz set for practice; an educator may also correct any other
answer); until none waits the play is not \`valid\` and \`grade\`/\`successful\` are null. \`questions_correct\`
counts questions with full points; \`points_total\` sums the maxima; floats are JSON numbers.

**Grading.** The exam's \`grading\` setting picks the preset, or the Quiz set's when it is \`default\`
(unset); \`none\` (or a Quiz set without grading) grades nothing: \`successful\` and \`grade\` null. The
percentage points_correct / points_total (100 when a play has no points, e.g. questionless) reaches the
last grade whose threshold it meets. go-nogo-custom: the second grade passes, its threshold replaced by
\`grading_threshold\` when set; Hungarian presets: 2 and up pass; custom presets: every grade passes with
\`successful_all\`, otherwise the percentage against \`grading_threshold\` when set, else null; \`custom\`
without a preset: the threshold alone. Surveys are not graded.

**Time limits.** The time limit is the exam's \`timelimit\`, else the Quiz set's. An exam play's
\`deadline\` is its start plus the limit, capped at the end of the exam period; without a limit, and
always in pausable exams (homework is always pausable), the end of the period: an open play stays open
(and a start continues it) until then. A practice play's deadline is its start plus the Quiz set's limit,
or none. At the deadline a job of the job kit (\`plays.finish-overdue\`, enqueued with the play, so it
survives restarts and runs on any instance) finishes the play with the answers it has; \`time_end\` is
then the deadline. A start that finds an overdue open play finishes it first. Questionless exams finish
on start with a valid empty play.

**Exam settings and status.** The player reads the few exam settings it needs (timelimit, roundtime,
grading, grading_threshold, nonblocking, pausable, archive, questionless) and the exam status through
one module only. Defaults: timelimit, roundtime and grading defer to the Quiz
set; nonblocking false (true for homework and survey), pausable false (true for homework), archive false,
questionless false (never for survey and championship). The status is ACTIVE while the exam is switched
on, started, not ended and not past its start \`deadline\`.

**Reading results (REST).** \`quiz:results:play\` GET answers the detailed result (\`attempt\` for exam
plays; \`questions\` in the play's order, \`time_answer\` only where an answer was given, \`points\` 0 until
scored). \`quiz:results:user\` lists the user's practice results of the Quiz set, \`exam:results:user\` the
user's results in the exam over every round, with \`attempt\`; both oldest first, archived results left
out, open plays included (\`time_end\` null, \`valid\` false); an unknown user simply has none. Reading needs
report on the exam (Quiz set), or being the user. A play the caller may not read answers \`NOT_FOUND\`
exactly like a nonexistent id; for the lists, a caller who may not view the exam (Quiz set) gets
\`NOT_FOUND\`, one who may view it but lacks report \`PERMISSION_DENIED\`.

**Archive and forget.** DELETE \`quiz:results:play\` on an exam result archives it: control on the exam,
the exam's \`archive\` setting on (else 403 \`ARCHIVE_DISABLED\`), and only the user's current result, the
latest finished unarchived result of the current round (else 403 \`NOT_CURRENT_RESULT\`). An archived
result leaves the lists, is kept, reads back with \`valid\` false, and \`restoreArchivedResults\` (for POST
\`exam:users\` adding the user again) makes the current round's archived results current again. On a
practice result it forgets it: administrators only (\`PERMISSION_DENIED\` otherwise); the play is detached
from its user (\`user\` null), kept for statistics and readable only by report holders. Output:
\`{play, archived: true, success: true}\` or \`{play, forgotten: true, success: true}\`. GraphQL
\`removeResult(play)\` does the same and answers \`{ play archived forgotten }\`; \`Play.resultQuestions\` lists
what the REST result's \`questions\` does (external id, maximum of unanswered questions included).

**Result webhooks.** Finishing a play (by the user, the time-limit job or a start) enqueues, in the same
transaction, \`exam-play-result\` (exam) or \`quiz-play-result\` (practice) to the organization of the exam
(of the Quiz set) when the user is a member of it. \`data\` is the result:

\`\`\`json
{ "play": "ply_…", "user": "usr_…", "time_start": "2026-01-31 12:00:00", "time_end": "2026-01-31 12:20:00",
  "questions_total": 10, "questions_correct": 8, "points_total": 12, "points_correct": 9.5,
  "valid": true, "successful": true, "exam": "exm_… (exam only)", "attempt": 1, "quiz": "qz_…", "grade": "pass" }
\`\`\`

\`exam\` and \`attempt\` are present for exam results only. A result finished with answers awaiting review
is sent then (\`valid\` false, \`successful\` and \`grade\` null); grading does not send it again.

**Competencies.** A requirement of type exam follows the member's results in that exam: a finished
result whose answers await review sets it \`waiting\`; a valid successful result completes it (dated at
the end of the play); a failed result changes nothing and no result takes a completion back. Results
of exams graded \`none\` (successful null) complete nothing.

**GraphQL reads.** \`Exam.results\` (report on the exam; filters \`round\`, \`archived\` default false, \`user\`)
and \`QuizSet.results\` (report on the Quiz set; filter \`user\`) are connections of \`Play\`, oldest first,
each with \`result\` (\`PlayResult\`) and \`answers\` (\`PlayAnswer\` with their scores), loaded in a fixed number
of statements whatever the number of results. \`node(id)\` reads a play under the same rule as REST.

**Live results.** \`subscription { examResultFinished(exam: ID!) { … Play … } }\` pushes each play of the
exam as it finishes (by the user, the time-limit job or a start) or an educator grades an answer of it,
over server-sent events (yoga's GraphQL over SSE: POST or GET \`/graphql\` with
\`Accept: text/event-stream\`). Subscribing needs report on the exam, checked when the subscription
starts (\`PERMISSION_DENIED\`; a caller who may not view the exam gets \`NOT_FOUND\` as for an unknown id).
Plays are announced after their transaction commits, never one that was rolled back. With \`REDIS_URL\`
the announcements go through Redis pub/sub (\`@graphql-yoga/redis-event-target\`, yoga's own event
target, so no second pub/sub layer), and a play finished on any instance reaches subscribers on every
instance; without it, subscribers hear the plays of their own instance. Delivery is best effort, as
pub/sub is: a dashboard that reconnects reads \`Exam.results\` again. A stopping instance ends its
streams at once, so they do not hold its shutdown.

#### Certificates

The exam's certificate settings are described with the exam settings.

**Eligibility.** A result is eligible when all of these hold: the grading preset the exam grades by
(its own \`grading\`, else its Quiz set's) decides success (\`certificates\` true in the preset record:
every type but \`custom\` without \`successful_all\`; grading \`none\`, a bare threshold and surveys never
qualify); the exam's certificate settings are \`enabled\`; and the result is valid (finished, every
answer evaluated, not archived) and \`successful\`.

**Issue.** A result is certified in the transaction that settles it: the finish (by the user, the
time-limit job or a start) or the manual grade that evaluates its last answer. One certificate per result;
it keeps what it was issued with: \`serial\`, \`title\` (the settings' title, else the exam's), \`grade\`,
issue time and \`expires\`. With serial numbering on, the serial is \`<prefix><number>\`, the number taken
from the settings' \`nextSerial\` by an increment in that same transaction, so the row stays locked until
the certificate is written and concurrent finishes get distinct, consecutive numbers (a unique index on
exam and serial backs it). \`expires\` is the issue time plus \`validityMonths\` calendar months (the last day
of a shorter month); none without validity months. A certificate stays once issued: archiving the result
or a later correction of its grade does not withdraw it, and deleting the user removes it.

**GET \`exam:certificates:user\`** (exam, user) answers the user's latest certificate of the exam with its
result; without one, the user's latest finished result (archived ones included), with \`certified\` false
and \`eligible\` telling whether it qualifies now (POST \`exam:certificates\` would certify it). \`serial\` is
present only for a certificate issued with numbering, \`expires\` (date) only with validity months. Reading
needs report on the exam, or being the user; a caller who may not view the exam gets the answer of an
unknown exam (403 \`NOT_FOUND\` naming \`exam\`), one who may view it but lacks report \`PERMISSION_DENIED\`; a
user without a finished result in the exam answers 403 \`NOT_FOUND\` naming \`user\` (naming \`exam\` when
callers ask for themselves about an exam they may not view: it stays unknown to them).

\`\`\`json
{ "play": "ply_…", "user": "usr_…", "archived": false, "eligible": true, "certified": true, "serial": "SAFE-41", "expires": "2027-11-23" }
\`\`\`

**POST \`exam:certificates:user:download\`** (exam, user; the same reading rule) answers a link to a PDF of
that certificate: \`{play, user, url, valid}\`, \`url\` being \`BASE_URL/files/<40 random characters>\` like
question exports. The link needs no credentials (the token is the credential; only its digest is stored,
with a sealed copy to hand the same link out again), works until the end of the UTC day 7 days ahead
(\`valid\`), and while it is valid every call answers the same link. An expired link answers 410 and the
next call makes a new one; the job \`certificates.expire-link\` removes expired links with their files. A
user whose latest result holds no certificate is refused with 403 \`NOT_CERTIFIED\`. The PDF (one landscape
A4 page) prints the certificate's title, the user's full name as it is when the link is made (else the
username), the grade, the issue date, the serial and the expiry when present. A certificate is a document
of record, so names print exactly: the PDF embeds Noto Sans (regular and bold, the TrueType files of the
npm package \`@expo-google-fonts/noto-sans\`, SIL Open Font License) as subsets of the characters the page
uses. **Scripts covered**: Latin with Latin-1 Supplement and Latin Extended-A/B and Additional
(Hungarian, Polish, Czech, Vietnamese, …), Greek and Cyrillic, mixed freely in one line ("Pál Erdős",
"Łukasz Żółć", "Дмитрий Шостакович"). **Not covered**: CJK, Arabic, Hebrew, Indic and other scripts; such a
character prints as its base letter where it has one, else \`?\` (never an empty box). A packaged CJK font
(Noto Sans SC/JP) is about 10 MB per weight and would need a font per language; it is left out. Subsetting
keeps a certificate at 7-9 kB (1.3 kB with the standard fonts before, which printed "Erdős" as "Erdos" and
Cyrillic as \`?\`); rendering takes about 0.2 s once warm, since the font is parsed for every document.

**POST \`exam:certificates\`** (the contract shows only its name; designed here, an addition of the
catalogue): exam (req). Certifies every eligible result of the exam that has no certificate yet, every
round, in the order the results were finished (so serial numbers follow it). It needs control on the exam,
the level that grades and archives its results: issuing is acting on results, more than reading them. It is
refused, changing nothing, while the certificate settings are off (403 \`CERTIFICATES_DISABLED\`) or the
grading decides nothing (403 \`GRADING_NOT_CERTIFYING\`), so an owner learns why nothing would be issued.
A second call issues nothing new. Out: the certificates issued by this call.

\`\`\`json
{ "exam": "exm_…", "issued": 2, "certificates": [{ "play": "ply_…", "user": "usr_…", "serial": "L1" }, { "play": "ply_…", "user": "usr_…", "serial": "L2", "expires": "2027-11-23" }] }
\`\`\`

**GraphQL.** \`Certificate\` (\`id\`, \`serial\`, \`title\`, \`grade\`, \`issued\`, \`expires\`, \`play\`, \`user\`,
\`exam\`) is \`Play.certificate\` (null without one; readable with the play) and \`Exam.certificates\` (a
connection, report on the exam, newest first, filter \`user\`). \`downloadCertificate(exam, user)\` answers
the link (\`url\`, \`valid\`, \`certificate\`), \`issueExamCertificates(exam)\` the exam and the certificates it
issued. \`examCertificateStatus(exam, user)\` is GET \`exam:certificates:user\` (\`play\`, \`archived\`,
\`eligible\`, \`certified\`, and the latest \`certificate\`). The results dashboard (the exam, its results, each user, grade and certificate) costs the same 9
statements for 10 and 200 results.

#### Results exports

POST \`exam:results:export\`. GraphQL
\`requestResultsExport(input)\` takes the same arguments (camelCase) and answers the same link.

**The call.** Needs report permission on the exam; a caller who may not view it gets 403 \`NOT_FOUND\`
naming \`exam\`, exactly as for an unknown exam, one who may view it 403 \`PERMISSION_DENIED\`. Archived
exams are unknown. It answers \`{exam, format, url, valid}\`: \`url\` is absolute
(\`<BASE_URL>/exports/<token>\`), \`valid\` a datetime (\`YYYY-MM-DD HH:ii:ss\`, UTC) one hour ahead.
Input rules, all checked before anything is stored (a refused call stores no link):
- \`format\` csv / xlsx, default the exam's \`export_format\`; \`sort\` default / name, default the exam's
  \`export_sort\`; \`preset\` default / answers (INVALID_ARGUMENT otherwise).
- \`preset=answers\` only for an anonymous survey, else 403 \`NOT_ANONYMOUS_SURVEY\`. The service has no
  separate anonymity switch: a survey is anonymous when it asks for none of the built-in user data
  (\`exam:fields\` name, email and phone all false).
- \`round\`: a closed round of the exam (GET \`exam:round\` lists them); the current round or a round that
  does not exist is INVALID_ARGUMENT naming \`round\`. Every exam keeps the results of its closed rounds
  here (closing a round never drops them), so the "keeps previous round results" condition always holds.
  Without \`round\` the current round is exported.
- \`filters\`: JSON text (or an object in a JSON body) keyed by the label of a current select field
  whose \`filtering\` is configured; each value is one of its filterable options (options that have a
  filtering entry) or a non-empty list of them. Anything else (unknown label, another type, no
  filtering, another option, an empty list, a non-text value) is INVALID_ARGUMENT naming \`filters\`.
  Any value per field matches; all fields given must match. \`{}\` means no filters.
  With \`round\` as well: 403 \`ARGUMENT_CONFLICT\` naming \`filters\`.
- \`language\`: an active language (INVALID_ARGUMENT otherwise), default the call's language
  (\`Service-Language\`, else the caller's). It names the columns and the fixed values (yes/no, the
  attendance words): English, German and Hungarian are written out; any other active language gets
  English.

**The link.** Only the SHA-256 digest of a random 48-character token is stored (\`ResultsExport\`, with
the exam, the caller, its application and the choices above), in one transaction with an audit event
and a job of the job kit (\`exams.remove-results-export\`) due at the end of its validity, which deletes
the row (and any other expired one). \`GET /exports/<token>\` needs no credentials and:
- gives the file once. The download claims the link with one conditional update (unused and
  unexpired), so of two simultaneous downloads exactly one gets the file; the other, and every later
  one, gets 410 \`LINK_USED\`;
- answers 410 \`LINK_EXPIRED\` after its hour, 404 \`NOT_FOUND\` for a token of nothing (and once the
  clean-up job removed the row);
- applies the caller's permissions again, as they are at the download: a caller that lost report
  permission (or was disabled, or whose application was switched off or removed) gets 410
  \`LINK_REVOKED\`, and the link is not used up by that refusal;
- answers HEAD with 200 without using the link (link scanners probe with HEAD).
Refusals carry the contract's error headers (\`Service-API-Error\`, \`Service-API-Error-Code\`) and the
JSON error body. The file comes with \`content-disposition: attachment; filename="results-<exam>[-round-<n>].<csv|xlsx>"\`
and \`cache-control: private, no-store\`.

**Streaming.** The file is not made at the call and never stored: the download that claims the link
writes it into the response while it reads. Examinees are read 500 at a time (keyset pagination in
the chosen order), each batch with its results, answers and custom field values; the writer waits
whenever the response's buffer is full, so a slow reader slows the reads instead of filling memory.
The status (200) is sent before the first row: a failure while writing (logged) ends the response
unfinished, and the link stays used. The fetch adapter answers a streamed \`Response\`, \`app.node\`
pipes the same stream into the socket.

**Rows and columns.** Rows are the results of the round (archived results never), one per result,
in the chosen order: \`default\` is the order of the exam users page (GET \`exam:users\`: full name, then
id), \`name\` is family name, then given name, then id. In the current round examinees without a result
get one row with the status \`not started\`; an examinee whose result of the round is archived (DELETE
\`quiz:results:play\`) has no row at all, as the result "disappears from result lists and reports", until
POST \`exam:users\` adds the examinee again and restores it; a closed round lists those who played it. Only examinees
the caller may see are exported (itself and the users it manages; every user for administrators),
the same rule as \`exam:users\`. Columns, in this order:
- always: \`User\` (identification string), the name field's label (full name), the email and phone
  fields' labels when those built-in fields are used (the user's email and phone);
- \`export_gender\`: \`Gender\` (the user's); \`export_custom_fields\` (default on): one column per current
  custom field, by its label, with the value the examinee entered;
- attendance and the result: \`Attempt\`, \`Status\` (not started, in progress, paused, finished),
  \`Started\`, \`Finished\` (datetimes in the contract's format, UTC), \`Valid\`, \`Successful\` (yes/no, empty
  when the grading decides nothing), \`Grade\`;
- \`export_stats\`: \`Questions\`, \`Correct answers\`, \`Points available\`, \`Points scored\`, \`Result (%)\`
  (two decimals; 100 for a result without points), \`Duration (s)\`; empty until the result is finished;
- \`export_skills\` (default on): \`Skill (%): <title>\` per skill of the Quiz set's questions (none when it
  has no skills): the points scored on that skill's questions of the result over their maxima, an
  unanswered question counting 0 of its maximum;
- \`export_answers\`: \`Answer: <question>\` per question, \`export_points\`: \`Points: <question>\` per
  question (empty until finished). Questions are those of the Quiz set in its order, then any other
  question answered in the round; \`<question>\` is its external id, else its identification string.
  Answers are written as text: lists joined with commas, matrices row by row with \` | \`, keyed
  answers as \`key: value\` pairs;
- \`export_suspicion\`: \`Suspicion\`, always empty: nothing in the service records suspicious behaviour
  (no proctoring signals) yet;
- \`export_journey\`: \`Journey\`, only when the exam starts a published journey: the examinee's place
  in it, its status with the outcome once completed or stopped and the error code in error
  (\`completed: passed\`, \`waiting\`, \`error: content-locked\`); empty before the examinee entered.
- \`export_finished_only\` keeps only finished results (and so drops examinees without one).
A survey has only \`export_format\` and \`export_sort\`: its export is the examinee columns (built-in
fields and custom fields) and its answers (the latest result's), without attendance, grading or
points. The \`answers\` preset of an anonymous survey has only the answer columns, one row per result,
ordered by result id (not by time or examinee, so rows cannot be matched to people).

**Formats.** CSV: semicolon separated, UTF-8 with a byte order mark (so spreadsheet programs read it as
UTF-8), CRLF line ends, fields with \`;\`, \`"\` or line breaks quoted with \`""\` doubling, numbers with a
\`.\` decimal point. A text starting with \`=\`, \`+\`, \`-\`, \`@\`, a tab or a carriage return gets a leading
apostrophe (\`'=1+1\`), so an examinee's answer or name never runs as a formula when the file is opened.
XLSX: one worksheet (\`Results\`, localised), header row then one row per result; numbers are number
cells, everything else text cells (never formulas), written by ExcelJS's streaming \`WorkbookWriter\`
(no shared strings table and no styles, so nothing is kept per row).

**Why ExcelJS.** ExcelJS 4.4 (\`exceljs\`) is the maintained JavaScript library that writes XLSX as a
stream (rows are zipped into the output as they are committed) and reads it back (the tests read
every workbook with it); SheetJS's community build (\`xlsx\` on npm, no longer updated there) builds an
XLSX workbook whole in memory. ExcelJS reads through \`unzipper\` → \`binary\` → \`chainsaw\` → \`traverse\`,
and installs here only with \`traverse\` pinned to 0.3.9, the version \`chainsaw\` was written for:
\`package.json\` has \`overrides: { "traverse": "0.3.9" }\`. ExcelJS is pure JavaScript and runs on
Node 20.

**Memory** (measured on both databases): an exam of 1,000 and one of 10,000 results, each with 10 answers and a custom field
value, exported as XLSX with stats, answers and points through \`app.node\` on a port; peak deltas over
the process before the call (worst of 3 runs), and the heap peak of a run that collects garbage
before every sample (what the export keeps referenced):

| database | results | peak RSS delta | peak heap delta | peak live heap delta | time | file |
|---|---|---|---|---|---|---|
| PGlite | 1,000 | 0 MB | 27.7 MB | 0.7 MB | 1.9 s | 169 KB |
| PGlite | 10,000 | 79.7 MB | 154 MB | 1.0 MB | 11.1 s | 1,683 KB |
| PostgreSQL | 1,000 | 0 MB | 19.2 MB | 3.1 MB | 1.2 s | 169 KB |
| PostgreSQL | 10,000 | 58.6 MB | 79 MB | 4.4 MB | 5.4 s | 1,683 KB |

What the export keeps referenced stays at a few MB whatever the number of results (the live column:
one batch of examinees with their results and answers, and the zip writer's buffers). The heap and
RSS peaks without forced collections grow with the size of the export because V8 lets garbage (the
rows of earlier batches) pile up between collections and keeps the pages it grew: they are the
collector's slack, not data the export holds. On PGlite the database runs in the same process, so its
own work counts in these figures too. 1,000 results show no RSS delta because the process had grown
beyond that while seeding. Each file is read back with ExcelJS at the end of the run (one row per result).

#### Item analysis (exam and question statistics)

\`Exam.statistics(round: Int, attempts: StatisticsAttempts = FIRST)\` and \`QuizSet.statistics(attempts)\`
(GraphQL) answer the figures of Moodle's quiz statistics
report, so an educator sees which questions worked. Report permission on the exam (the Quiz set) is
needed (\`PERMISSION_DENIED\`); a caller who may not view it gets \`NOT_FOUND\` naming \`exam\` (\`quiz\`),
the answer to an unknown id. The schema's descriptions carry the same definitions.

**Which results.** An exam's round (default the current one; a round that does not exist is
\`INVALID_ARGUMENT\` naming \`round\`), or a Quiz set's practice results (not those of its exams).
Finished results, archived ones never, forgotten ones included; one per examinee, its first
finished attempt (\`FIRST\`) or its last (\`LAST\`), or every finished attempt as an examinee of its own
(\`ALL\`); a result without a user (forgotten) is an examinee of its own. A result with an answer
awaiting a person's grading is left out until it is graded, and a result without any question worth
points (questionless, only reading questions) has no score: \`leftOut { awaitingGrading withoutPoints }\`
counts both. The cells of a result are the questions it asked (\`Play.questionIds\`) worth points: an
unanswered one scores 0 of its maximum, as in the play's totals (the answer's maximum where there is
an answer, else the question's \`points\`, default 1); a question deleted since is not part of it.

**Definitions** (N results; p the points of a result on a question, m its maximum; P and M their sums
over the result's questions; sample variances, n - 1):
- a result's score S = 100 * P / M; \`results\` N; \`mean\`, \`median\`, \`standardDeviation\` of S;
  \`skewness\` = n/((n-1)(n-2)) * sum(((S - mean)/sd)^3) (null under 3 results or sd 0); \`kurtosis\` =
  n(n+1)/((n-1)(n-2)(n-3)) * sum(((S - mean)/sd)^4) - 3(n-1)^2/((n-2)(n-3)) (null under 4 or sd 0);
- \`cronbachAlpha\` = k/(k-1) * (1 - sum over questions of var(p) / var(P)), k the questions listed
  (null under 2 questions or var(P) 0); \`errorRatio\` = 100 * sqrt(1 - alpha) (null when alpha is null
  or negative); \`standardError\` = errorRatio / 100 * standardDeviation;
- per question, over the results that asked it (\`results\`; \`answered\` of them with an answer):
  \`facilityIndex\` 100 * mean(p/m), \`standardDeviation\` 100 * sd(p/m) (null under 2 results),
  \`discriminationIndex\` 100 * Pearson correlation of p with P - p (null when either does not vary),
  \`randomGuessScore\` 100 / items for single-answer choice questions (else null), \`options\` for choice
  and multiple-choice questions: every item (answers, then options) with \`correct\` and how many
  results \`chosen\` it (responses read as the answer checker reads them), and \`flags\` \`VERY_EASY\`
  (facility > 90), \`VERY_HARD\` (< 10), \`POOR_DISCRIMINATION\` (discrimination < 20),
  \`NEGATIVE_DISCRIMINATION\` (< 0), compared on the rounded figures.
Questions come in the Quiz set's order, then any question no longer in it. Figures are JSON numbers
rounded to 4 decimals; null exactly where a definition is not defined (no results: only counts).

**How it is computed.** In the database, in a fixed number of statements whatever the number of
results and questions (counted by a test at 3 and 300 results): in one
REPEATABLE READ transaction, the questions the chosen results asked (their maxima come from the
same \`pointsMaximumOf\` as the play's totals), then one aggregate statement. That statement reads each
result's answers with one index range scan, matches them to its questions in memory, takes its total,
maximum and waiting state with window functions over that result alone, and aggregates the results,
the questions and the distinct choice responses with GROUPING SETS in one pass (the process receives
one row per question and per distinct choice response, never the answers). Whether a variance is 0
decides several nulls, so it is decided exactly: scores and totals are numeric sums at a fixed scale
and the moments come from exact power sums; a question's points are compared exactly, and the rest of
the test (P - p) counts as constant when its range is below 1e-9 of its size. On the embedded
database the isolation level is moot (one connection serves every statement in turn). Tests: hand-
worked fixtures (all right, all wrong, a question everybody gets, one that anti-correlates, a single
result, no variance, choice distractors, attempts, rounds, archived, forgotten and waiting results)
and a property test against a plain two-pass implementation of the definitions on random answer
matrices (fast-check), on both databases.`,
  'Quiz sets': `- Reading a Quiz set needs view, changing it, its settings or its questions modify, deleting it admin
  (it is removed with its groups, items, rules and tags; its questions stay in the question base).
  Its organization follows the rules for exams (an organization of the owner; a plain member always gets
  its organization). \`copy_questions\` copies groups and items (same questions, new items).
- \`quiz:questions\` lists top-level questions and groups in order; each group is followed by its
  questions, which carry \`group\`. Assigning a question again moves it; a missing group is created last.
- Unconfigured settings read as \`shuffle: false\`, \`timelimit: null\`, \`roundtime: null\`, \`grading: "none"\`.
  \`timelimit\`/\`roundtime\` take 0-31 536 000 seconds; 0 or \`default\` means no limit (read as null).
  \`roundtime\` is refused on TEST sets. \`grading_threshold\` (0-100) only with a \`go-nogo-custom\` preset.
  **One rule for \`grading_threshold\`** in \`quiz:settings\` and \`exam:settings\`: a number from 0 to 100,
  decimals allowed and kept as given (55.5 reads back as 55.5), as both POST descriptions say ("number
  0-100"); anything else is 403 \`INVALID_ARGUMENT\`. The Quiz set record's "integer percentage" holds for
  whole-number thresholds, which read as JSON integers; a fractional pass mark is not rounded, because
  rounding would move it. GraphQL reads and takes it as \`Float\` on both.
  PUT replaces the configuration, PATCH fills only unconfigured settings; questions, groups, selection,
  filtering and export settings stay; a source equal to the target is refused (\`SAME_SOURCE\`).`,
  'Grading presets': `- Global presets ship with the service (pass/fail 50 %, passed/failed 60 % (en), bestanden 50 % (de),
  megfelelt 50 % (hu), Hungarian school and university five-grade (hu), letter grades A-F (en), German
  Schulnoten 1-6 (de)); global and organization presets are read-only (\`PRESET_READ_ONLY\`).
- \`configurable\`: the pass mark can be set per Quiz set (\`go-nogo-custom\`). \`certificates\`: the preset
  decides success (go-nogo: the second grade passes; Hungarian: 2 and up; custom: only with
  \`successful_all\`).
- Grades: custom 2-20 unique non-empty grades, go-nogo-custom exactly 2, Hungarian types exactly 5;
  thresholds 0-100 strictly ascending, the first stored as 0. Changing the type or removing a preset in
  use is refused (\`PRESET_IN_USE\`). Creating needs the \`custom_grading\` feature.
- **In use** means named by a Quiz set's \`grading\` or by an exam's \`grading\` setting (exams deleted with
  results do not count; an exam on \`default\` uses its Quiz set's preset, which counts through the Quiz
  set). One function of the grading service answers it for \`used\`, the type-change refusal and the
  removal refusal. \`used\` on a single read: for the caller's own preset, any Quiz set or exam uses it;
  for a global or organization preset, a Quiz set or exam owned by the caller does.
- GET \`quiz:grading-presets\` with \`exam\` (view on the exam; unknown and invisible exams are
  \`NOT_FOUND\`): answers \`exam\` (as it answers \`quiz\` for a Quiz set), filters by the exam's language unless \`language\`
  is given, and \`current\` marks the preset the exam plays by: its own \`grading\`, or under \`default\` its
  Quiz set's; with \`none\` no preset is current. GraphQL \`gradingPresets(exam:)\` answers the same.`,
  'Questions': `- An external id is unique within its scope: a folder of its owner (\`path\`, default \`/API\`) or a Quiz set
  (\`quiz\`, which needs modify on it). POST \`question\` creates or updates the question of that scope and
  never duplicates, also under concurrent identical calls (a unique index). POST replaces the whole
  question (fields left out take their defaults; \`organization\` left out stays).
- GET, DELETE and \`question:export\` find a question by its \`id\` argument (external id) wherever the
  caller keeps questions: every folder of the caller and every Quiz set it may do the operation on (view
  for GET, report for the export, modify for DELETE), which are the scopes POST \`question\` writes to.
  \`quiz\` and \`path\` narrow the search to that one Quiz set or folder. An id found in several of those
  places is not guessed at: it is refused with 403 \`AMBIGUOUS_ID\` whose message names the folders and
  Quiz sets, naming the argument \`quiz\` when a Quiz set is among them (\`path\` when only folders are);
  giving that \`path\` or \`quiz\` resolves it. GraphQL \`questionByExternalId(id, quiz, path)\` finds one
  the way GET does (\`question(id)\` takes the identification string).
- Validation: unknown fields are ignored; an invalid field answers 403 naming it; a field given for a type
  it does not apply to answers \`ARGUMENT_CONFLICT\`. Answers are checked against the type with the answer
  checker's own parsers, so every stored question can be scored. \`hint_penalty\`/\`solution_penalty\` are
  \`EACH:<percent>\` (per hint or step shown) or \`ONCE:<percent>\`; \`parameters\` are
  \`{name; INT|FLOAT; min; max}\`.
- Media (\`image\`, \`solution_image\`, \`graph\`, \`hotspot_image\`: PNG, JPEG, WebP; \`media_audio\`: MP3, AAC,
  M4A; \`media_video\`, \`video\`: MP4, WebM; \`attachment\`: any) are \`<filename>=<base64>\` or a multipart file
  part; the type is read from the content (\`INVALID_FILE_TYPE\`), at most 10 MiB (\`FILE_TOO_LARGE\`), stored
  in the database. A \`<filename>=<URL>\` is kept as a reference and never fetched.
- \`question:export\` returns \`BASE_URL/files/<token>\`, a JSON file in the fields of POST \`question\`,
  without credentials, valid to the end of its \`valid\` day (7 days); the same link is returned while valid.
  A background job removes the link and its file at the end of that day.

#### The answer checker

The answer checker scores a response for every type: \`score\` 0..1, \`correct\`
(true only at 1; null for free-text, file, hotspot, reading), \`grading\` (\`auto\`, \`semi-automatic\` for
free-text, \`manual\` for file and hotspot, \`none\` for reading). Partial credit is min(right units,
required) / required, where \`answer_require\` sets the required units. generic: exact after trimming;
text: case, spaces and punctuation ignored; numerical: fractions, constants, intervals, rounding to
\`decimals\` and the tolerances ABSOLUTE (|x−a| ≤ v), RELATIVE (|x−a| ≤ v·|a|), QUOTIENT (x/a within
[1/v, v]) and QUOTIENT2 (x = a·10^k); date/time at YEAR/MONTH/DAY precision and ranges; expression:
equivalence at seeded random points; choice; multiple-choice (a wrong selection scores 0); order;
true/false with the third option; pairing; grouping; set and set:text; matrix types. A malformed
response never throws; it scores 0.`,
});
