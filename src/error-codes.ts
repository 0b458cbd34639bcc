/**
 * The error catalogue: every code the service answers with (REST `Service-API-Error-Code` and the
 * body's `error.code`, GraphQL `extensions.code`), its HTTP status and meaning. The documents leave
 * the catalogue "not shown"; this is the service's own.
 *
 * test/http/error-catalogue.test.ts scans the source: a code thrown anywhere must be listed here,
 * and every code listed here must be thrown somewhere, so the list cannot drift. The OpenAPI
 * description (and so /api/docs) renders it as a table.
 */
export interface ErrorCode {
  code: string;
  /** Statuses the code comes with (NOT_FOUND: 403 for an argument naming nothing visible, 404 for a page). */
  statuses: readonly number[];
  meaning: string;
  /** Where it can appear, when not on every face. */
  only?: 'REST' | 'GraphQL' | 'pages';
}

const entry = (code: string, statuses: number | number[], meaning: string, only?: ErrorCode['only']): ErrorCode =>
  Object.freeze({ code, statuses: Object.freeze(typeof statuses === 'number' ? [statuses] : statuses), meaning, ...(only ? { only } : {}) });

export const ERROR_CODES: readonly ErrorCode[] = Object.freeze([
  entry('UNKNOWN_ENDPOINT', 400, 'The endpoint does not exist.', 'REST'),
  entry('MISSING_CREDENTIALS', 401, 'No application credentials (app and secret) in any of the three forms.'),
  entry('INVALID_CREDENTIALS', 401, 'No API application with this app id and secret.'),
  entry('INTEGRATION_INACTIVE', 401, 'The API application is switched off.'),
  entry('OWNER_DISABLED', 401, 'The user owning the API application is disabled.'),
  entry('INVALID_ASSUME_TOKEN', 401, 'The assume token is invalid, expired, revoked or not one of this owner.'),
  entry('MISSING_ARGUMENT', 403, 'A required argument is missing; the error names it.'),
  entry('INVALID_ARGUMENT', 403, 'An argument breaks its rule (type, length, range, values, format); the error names it.'),
  entry('ARGUMENT_CONFLICT', 403, 'Arguments that exclude each other, or an argument that does not apply to this case.'),
  entry('NOT_FOUND', [403, 404], 'An argument names nothing the caller may see (403), or a page does not exist (404).'),
  entry('INVALID_BODY', 403, 'The body is not valid JSON, not a JSON object, or not a valid multipart form.', 'REST'),
  entry('FILE_TOO_LARGE', 403, 'An uploaded file is larger than allowed.'),
  entry('INVALID_FILE_TYPE', 403, 'An uploaded file is not of an accepted type.'),
  entry('UNKNOWN_FIELD', 403, 'A custom field that is not configured on the instance.'),
  entry('USERNAME_TAKEN', 403, 'The username is already taken.'),
  entry('TITLE_TAKEN', 403, 'The title is already used by another department of the organization.'),
  entry('ID_TAKEN', 403, 'The external id is already used by another department or question in the same place.'),
  entry('EXTERNAL_ID_TAKEN', 403, 'The external id is already used by another competency.'),
  entry('IDENTIFIER_TAKEN', 403, 'The identifier is taken by another of your skills.'),
  entry('AMBIGUOUS_ID', 403, 'An external id is used in several folders: the path is needed.'),
  entry('WRONG_PASSWORD', 403, 'The password does not match.'),
  entry('BAD_REQUEST', 400, 'The request is not valid HTTP.', 'REST'),
  entry('CLIENT_CLOSED', 400, 'The client closed the connection before its request was read (logged; nobody is answered).', 'REST'),
  entry('REQUEST_TIMEOUT', 408, 'The request head or body arrived too slowly (HTTP_HEADERS_TIMEOUT_MS, HTTP_MIN_BODY_BYTES_PER_SECOND).'),
  entry('UNSUPPORTED_MEDIA_TYPE', 415, 'The Content-Type of the body is not one this path reads (POST /graphql and the pages).'),
  entry('OVERLOADED', 503, 'The service is overloaded (event loop lag or requests in progress over OVERLOAD_*): try again after Retry-After.'),
  entry('DOCUMENT_TOO_LARGE', 413, 'The GraphQL document is larger than GRAPHQL_MAX_DOCUMENT_BYTES; it was not parsed.', 'GraphQL'),
  entry('HEADERS_TOO_LARGE', 431, 'The request line and headers are larger than Node allows.'),
  entry('CSRF_PREVENTED', 403, 'A form, multipart or text POST to /graphql without a header that forces a preflight.', 'GraphQL'),
  entry('DEPTH_LIMIT_EXCEEDED', [200, 400], 'The operation is nested deeper than GRAPHQL_MAX_DEPTH; nothing ran.', 'GraphQL'),
  entry('ALIAS_LIMIT_EXCEEDED', [200, 400], 'The operation has more aliases than GRAPHQL_MAX_ALIASES; nothing ran.', 'GraphQL'),
  entry('DIRECTIVE_LIMIT_EXCEEDED', [200, 400], 'The operation has more directives than GRAPHQL_MAX_DIRECTIVES; nothing ran.', 'GraphQL'),
  entry('COST_LIMIT_EXCEEDED', [200, 400], 'The operation costs more than GRAPHQL_MAX_COST; nothing ran.', 'GraphQL'),
  entry('START_FROZEN', 403, "An exam's start cannot change once the exam has results."),
  entry('ROUND_FROZEN', 403, "The exam's current round is frozen (freeze_round): no new round."),
  entry('ROUND_CHANGED', 403, 'The round was closed by another call at the same time; read the rounds again.'),
  entry('NOT_AN_EXAMINEE', 403, 'Only examinees of the exam may start it.', 'GraphQL'),
  entry('EXAM_NOT_ACTIVE', 403, 'New tests of the exam can be started only while it is ACTIVE.', 'GraphQL'),
  entry('EXAM_ACCOUNT_BLOCKED', 403, 'An exam account of a blocking exam cannot start other plays during the exam period.', 'GraphQL'),
  entry('PLAY_FINISHED', 403, 'The play is finished: it takes no more answers.', 'GraphQL'),
  entry('TIME_LIMIT_REACHED', 403, "The play's time limit has passed: answers are refused.", 'GraphQL'),
  entry('QUESTION_CLOSED', 403, 'TURNS mode: the question was passed or its round time is over.', 'GraphQL'),
  entry('QUESTION_NOT_REACHED', 403, 'TURNS mode: questions are answered in order.', 'GraphQL'),
  entry('PLAY_NOT_FINISHED', 403, 'The play is still open: finish it first.', 'GraphQL'),
  entry('ARCHIVE_DISABLED', 403, "Archiving results is not enabled for the exam (its 'archive' setting is off)."),
  entry('NOT_CURRENT_RESULT', 403, "Only the user's current result of an exam can be archived."),
  entry('NOT_CERTIFIED', 403, "The user's latest result of the exam holds no certificate to download."),
  entry('CERTIFICATES_DISABLED', 403, "The exam's certificate settings are not enabled: no certificates are issued."),
  entry('GRADING_NOT_CERTIFYING', 403, "The exam's grading does not decide success (no preset with certificates): its results cannot be certified."),
  entry('NOT_MEMBER', 403, 'The user is not a member of the organization.'),
  entry('NOT_A_MEMBER', 403, 'A named leader is not a member of the organization.'),
  entry('NOT_OWN_ORGANIZATION', 403, 'The organization is not one of the application owner.'),
  entry('NOT_ASSIGNED', 403, 'The requirement belongs to a competency not assigned to this member.'),
  entry('DEPARTMENT_CYCLE', 403, 'The parent is the department itself or a department below it.'),
  entry('ASSIGNMENT_INACTIVE', 403, 'The assignment accepts no work now (inactive, not started or over).'),
  entry('ALREADY_SUBMITTED', 403, 'The assignment was already submitted.'),
  entry('NOT_SUBMITTED', 403, 'The user has not submitted this assignment.'),
  entry('SAME_SOURCE', 403, 'The source Quiz set is the target itself.'),
  entry('PRESET_IN_USE', 403, 'The grading preset is used by a Quiz set.'),
  entry('PRESET_READ_ONLY', 403, 'Global and organization grading presets cannot be changed or removed.'),
  entry('WEBHOOK_INACTIVE', 403, 'The webhook is inactive.'),
  entry('NOT_API_WEBHOOK', 403, 'Only webhooks with the api trigger event can be triggered by hand.'),
  entry('ENDPOINT_NOT_ALLOWED', 403, 'The webhook endpoint is a loopback, private or other non-public address.'),
  entry('ENDPOINT_UNRESOLVABLE', 403, 'The host of the webhook endpoint does not resolve.'),
  entry('JOURNEY_INVALID', 403, 'The journey graph has problems; nothing was saved. The error lists the first 100 as issues (level, code, node, output, message), counts them (problems; exact false: at least that many) and lists ignored fields.'),
  entry('NO_JOURNEY', 403, 'The exam starts no journey (yet).'),
  entry('NOT_PUBLISHED', 403, 'The journey has no published version yet.'),
  entry('JOURNEY_NOT_PUBLISHABLE', 403, "The journey's draft has error-level issues; the message lists them."),
  entry('JOURNEY_REMAP_MISSING', 403, 'Publishing would remove nodes users are on, and the remap names no new node for them; the message lists the nodes.'),
  entry('JOURNEY_CHANGE_REFUSED', 403, "The manual change does not apply to the user's journey status (stop: running users; resume: stopped or error users)."),
  entry('PERMISSION_DENIED', 403, 'The caller (the application owner, or the assumed user) may not do this.'),
  entry('ADMIN_ONLY', 403, 'Only instance administrators may do this.'),
  entry('USER_DISABLED', 403, 'The user to act as is disabled.'),
  entry('BAD_USER_INPUT', 403, 'An argument of the GraphQL operation breaks its rule (control characters, page size, cursor); extensions.argument names it.', 'GraphQL'),
  entry('METHOD_NOT_ALLOWED', 405, 'The endpoint does not support this HTTP method; the Allow header lists those it does.', 'REST'),
  entry('UNSUPPORTED_VERSION', 406, 'The version chosen (path /v<XX> or argument version) does not exist; 1 is the only version.', 'REST'),
  entry('FEATURE_DISABLED', 406, 'A feature the call needs is switched off on this instance.'),
  entry('LINK_EXPIRED', 410, 'A file link has expired (results export links: after one hour).', 'pages'),
  entry('LINK_USED', 410, 'A results export link was used already: it gives its file once.', 'pages'),
  entry('LINK_REVOKED', 410, "The caller who asked for a results export may no longer read the exam's results.", 'pages'),
  entry('NOT_ANONYMOUS_SURVEY', 403, 'The answers preset of a results export is available only for anonymous surveys.', 'REST'),
  entry('PAYLOAD_TOO_LARGE', 413, 'The request body is larger than the service accepts.'),
  entry('RATE_LIMITED', 429, 'Too many calls of this application; Retry-After says when to try again.'),
  entry('INTERNAL_ERROR', 500, 'An unexpected error; the message carries a reference for the logs.'),
  entry('NOT_IMPLEMENTED', 501, 'The operation is part of the contract but not built yet.', 'REST'),
  entry('MAINTENANCE', 503, 'The service is in maintenance; Retry-After says when to try again.'),
  entry('SERVICE_BUSY', 503, 'The service cannot take the call now (the database is saturated, or concurrent calls of one user collided); nothing was changed. Retry-After (GraphQL: extensions.retryAfter) says when to send it again.'),
]);

/** The codes that come with a status. */
export const codesWithStatus = (status: number): ErrorCode[] => ERROR_CODES.filter((e) => e.statuses.includes(status));

/** The catalogue as a Markdown table (the reference page shows it). */
export function errorCatalogueMarkdown(): string {
  const rows = ERROR_CODES.map((e) => `| \`${e.code}\` | ${e.statuses.join(', ')} | ${e.meaning}${e.only ? ` (${e.only} only)` : ''} |`);
  return ['| Code | Status | Meaning |', '|---|---|---|', ...rows].join('\n');
}
