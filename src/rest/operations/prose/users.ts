import { EXAMPLE as X, paragraphs as p, type ProseTable } from './types.ts';

/** Test, users, login links, assume tokens and integrations. */
export const usersProse: ProseTable = {
  'GET test:app': {
    summary: 'Check the credentials and see whom the call acts as',
    description: p(
      'Changes nothing. Answers the API version, the language of the call, the application (`app`) and the user the call acts as (the application owner, or the assumed user), and `status` true.',
      'Use it first when connecting an integration: a 401 here means the credentials are wrong, the application is switched off or its owner is disabled.',
    ),
    example: {},
  },
  'POST test:app': {
    summary: 'Check the credentials (POST form)',
    description: 'The same as GET `test:app` for clients that only send POST: changes nothing and answers `version`, `language`, `app`, `user` and `status`.',
    example: {},
  },
  'GET users': {
    summary: 'List the users the caller manages',
    description: p(
      'Lists the non-generated users the caller manages, by full name: the users it created (every user for instance administrators). Generated exam accounts are left out.',
      'Paging: `search` filters by part of the full name, username or email (any case), `limit` 1-1000 (default 16), `page` from 1 (not used with `search`).',
    ),
    example: { search: 'smith', limit: 20 },
  },
  'GET user:me': {
    summary: 'Read the user the call acts as',
    description: 'Answers `user`, `name`, `status` (enabled) and `exam` (an exam-only account) of the application owner, or of the assumed user when the call carries `assume`.',
    example: {},
  },
  'GET user': {
    summary: 'Read a user',
    description: p(
      'Answers `user`, `name`, `status` and `exam` of one user. `user` is an identification string, or `me` for the user the call acts as.',
      'A user the caller may not read (neither itself, nor one it manages, nor any for administrators) is answered as a user that does not exist: 403 `NOT_FOUND` naming `user`.',
    ),
    example: { user: X.user },
  },
  'POST user': {
    summary: 'Create a user',
    description: p(
      'Creates a user managed by the user the call acts as. Required: `username` (4-64 characters, unique, case-sensitive; letters, digits and `. _ @ + -`), `first_name`, `last_name` (1-64) and `email`. Names are trimmed before their length is checked.',
      'Defaults: a random password when `password` is absent; `language` (an active language) and `timezone` (an IANA name) of the user the call acts as; `exam` false (true: an account that may log in only to reach exams); `color` default; no template. `custom_{field}` sets a custom field configured on the instance (`UNKNOWN_FIELD` otherwise).',
      '`notify=true` writes one email to the outbox with the username and a single-use login link valid for 7 days, never the password.',
      'Answers `user`, and `username` and `password` when `exam` is false. A username in use answers 403 `USERNAME_TAKEN`.',
    ),
    example: { username: 'jane.smith', first_name: 'Jane', last_name: 'Smith', email: 'jane.smith@example.com', language: 'en', timezone: 'Europe/Berlin', notify: true },
  },
  'PATCH user': {
    summary: 'Enable or disable a user',
    description: p(
      'Sets `active` of a user the caller manages. Nobody can disable the account making the call. A user the caller may not read is unknown (403 `NOT_FOUND`); one it reads but does not manage (itself) gets `PERMISSION_DENIED`.',
    ),
    example: { user: X.user, active: false },
  },
  'DELETE user': {
    summary: 'Delete a user',
    description: p(
      'Deletes a user the caller manages, with the exams it owns and their plays, its certificates and memberships. Nobody can delete the account making the call.',
    ),
    example: { user: X.user },
  },
  'GET user:name': {
    summary: "Read a user's names",
    description: 'Answers `user`, `first_name`, `last_name`, `full_name` and `display_name`. A user may read its own names; others need to manage the user.',
    example: { user: X.user },
  },
  'POST user:name': {
    summary: "Change a user's names",
    description: p(
      '`first_name` and `last_name` are required (1-64 characters, trimmed), `full_name` and `display_name` optional (1-255). A user may rename itself.',
      'Answers `user`, `success` and `changed` (false when the names were already these).',
    ),
    example: { user: X.user, first_name: 'Jane', last_name: 'Smith-Jones', full_name: 'Jane Smith-Jones' },
  },
  'GET user:group': {
    summary: "Read a user's group",
    description: 'Answers `user` and `group`. A user without a group has no `group` field (never `"group": null`).',
    example: { user: X.user },
  },
  'POST user:group': {
    summary: "Set a user's group",
    description: 'Sets the user group name. A user may regroup itself. Answers `user`, `success` and `changed`.',
    example: { user: X.user, group: 'Night shift' },
  },
  'GET user:login': {
    summary: "Read a user's latest valid login link",
    description: 'Answers `user`, `url` and `valid` of the latest login link that is still valid and not used up.',
    example: { user: X.user },
  },
  'POST user:login': {
    summary: 'Create a login link for a user',
    description: p(
      'Makes a link that signs the user in without a password. `expires` is 1-30 days or a date from today to 30 days ahead (valid to 23:59:59 UTC that day; default 1 day); `logins` (at most 255) defaults to 1; `short=true` makes a short link `BASE_URL/l/<code>`.',
      '`redirect` is a path, or `[type:tag]` (which goes to `/<type>?tag=<tag>`). `exam` (exclusive with `redirect`) makes a link into an exam: the caller must be able to read the exam\'s examinees and the user must be on the exam (otherwise 403 `NOT_FOUND` naming `exam`). Opening it signs the examinee in and answers 302 to `BASE_URL/exam/<exam>`; an examinee taken off the exam since, or an exam deleted since, still signs in and lands on `/`.',
      'An equal request (same expiry, logins, redirect, exam, template and short) returns the same valid link that is not used up. Opening `BASE_URL/login/<token>` counts a use atomically, sets a session cookie and answers 302; an expired, used-up or deleted link answers 410. HEAD requests (link scanners) use no login.',
      'Answers `user`, `url`, `valid` and `count`.',
    ),
    example: { user: X.user, redirect: '/courses', expires: 7, logins: 3 },
  },
  'DELETE user:login': {
    summary: 'Invalidate a login link',
    description: 'Invalidates the given link (`url`, as POST `user:login` answered it) of the user. Opening it afterwards answers 410.',
    example: { user: X.user, url: 'https://learning.example.com/login/3k9x0c2m1q7b0a8d6f4h2j' },
  },
  'GET user:search': {
    summary: 'Find a user by email, username or code',
    description: '`query` matches a user\'s identification string, username or email exactly (the email in any case), among the users the caller may read; no match answers 403 `NOT_FOUND` naming `query`. Answers `user` and `exam`.',
    example: { query: 'jane.smith@example.com' },
  },
  'POST user:assume': {
    summary: 'Get a token to act as another user',
    description: p(
      '`user` is an identification string, username or email. A user the caller manages needs no password (one that is given must be right); any other user needs its password, or the secret of one of its active API applications.',
      'Answers `user`, `token` and `valid`. Send the token as `assume` (or the `Service-API-Assume` header) with the application\'s own credentials: the call then acts as that user. Tokens are random, stored only as a SHA-256 digest, usable only by applications of the owner that asked for them, and live for the configured token lifetime (ASSUME_TOKEN_TTL_SECONDS, one hour by default).',
    ),
    example: { user: 'jane.smith' },
  },
  'DELETE user:assume': {
    summary: 'Revoke an assume token',
    description: 'Revokes the token at once: calls carrying it answer 401 `INVALID_ASSUME_TOKEN`.',
    example: { token: 'atk_0a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p' },
  },
  'GET integrations': {
    summary: 'List integrations',
    description: 'Lists the integrations (API applications and LMS connections) the caller owns; administrators see all. Paging: `search`, `limit`, `page`. Answers `integrations[{integration, id, title}]`.',
    example: { limit: 50 },
  },
  'GET integration': {
    summary: 'Read an integration',
    description: 'Answers `integration`, `id`, `title`, `type`, `active` and, for LMS integrations, `lti`. Only the owner and administrators see an integration.',
    example: { integration: X.integration },
  },
  'POST integration': {
    summary: 'Create an integration',
    description: p(
      '`type` is `api` (default) or an LMS type; LMS integrations need `lti` (`1.0`, `1.1`, `1.0/1.1`, stored and shown as `1.0/1.1`, or `1.3`) and `platform` (the LMS address), which are refused for API integrations (`ARGUMENT_CONFLICT`).',
      '`organization` must be one the owner owns or administers; a plain member of an organization who administers none always gets that organization. Answers `integration`; read the keys with GET `integration:keys`.',
    ),
    example: { title: 'HR system', type: 'api', organization: X.organization },
  },
  'PATCH integration': {
    summary: 'Switch an integration on or off, or move it',
    description: p(
      '`active` switches the integration; deactivating the integration making the call is allowed. `organization` moves it to an organization of the owner (only the owner or an administrator); `none` or empty takes it out of its organization.',
    ),
    example: { integration: X.integration, active: false },
  },
  'DELETE integration': {
    summary: 'Delete an integration',
    description: 'Deletes the integration and its keys. Deleting the integration that makes the call is refused.',
    example: { integration: X.integration },
  },
  'GET integration:keys': {
    summary: "Read an integration's keys",
    description: 'Answers the keys record: the app id and secret (API), or the consumer key and secret (LTI 1.0/1.1), or the LTI 1.3 key pair and its `kid`. Secrets are encrypted at rest so they can be shown again; only the owner and administrators read them. The LTI 1.3 public key set is served at `BASE_URL/lti/<integration>/jwks.json`.',
    example: { integration: X.integration },
  },
  'POST integration:keys': {
    summary: "Rotate an integration's keys",
    description: 'Replaces the secret (or the LTI 1.3 key pair and its `kid`) at once and answers the new keys record; the app id and consumer key stay. Calls with the old secret answer 401 from then on.',
    example: { integration: X.integration },
  },
};
