import type { Argument, Operation } from './types.ts';
import { contentTypeEntry, permissionTypes, taggableTypes } from '../../services/content/content-types.ts';
import { levels } from '../../auth/levels.ts';
import { PAGING, bool, code, codes, date, datetime, either, email, int, json, oneOf, op, phone, req, text, url } from './build.ts';

/**
 * Document A: the general contract, users, classes, organizations, integrations, content
 * permissions and tags.
 */

/**
 * Path prefixes of "Content permissions and transfer" and the taggable types of "Tags" come from
 * the content registration (each prefix is also its parameter); the catalogue test holds them to
 * the documents.
 */
export const PERMISSION_PREFIXES = Object.freeze([...permissionTypes]);

export const TAGGABLE_TYPES = Object.freeze([...taggableTypes]);

export const PERMISSION_LEVELS = levels;

const test = { document: 'A', section: 'Test', area: 'foundation' } as const;
const users = { document: 'A', section: 'Users', area: 'foundation' } as const;
const classes = { document: 'A', section: 'Classes', area: 'organizations' } as const;
const orgs = { document: 'A', section: 'Organizations', area: 'organizations' } as const;
const integrations = { document: 'A', section: 'Integrations', area: 'foundation' } as const;
const permissions = { document: 'A', section: 'Content permissions and transfer', area: 'permissions' } as const;
const tags = { document: 'A', section: 'Tags', area: 'permissions' } as const;

const USER = 'user, name, status:boolean, exam:boolean';
const PERMISSION_HASH = 'permission{organization, content, members}';
const STATUS_COUNTERS = 'status{completed:integer, progress:integer, waiting:integer, expired:integer, due:integer, overdue:integer, outdated:integer}';
const DEPARTMENT = `department, id:string/null, parent:string/null, level:integer, ${PERMISSION_HASH}, members:integer, leaders[user, name]`;
const COMPETENCY = `competency, id:string/null, title, description:string/null, requirements:integer, documents:integer, assignments{all:boolean, departments:integer, members:integer}, assigned:integer, ${STATUS_COUNTERS}`;
const REQUIREMENT = [
  'requirement, title:string/null, type, optional:boolean, description?, deadline?{type, date?:date, days?:integer}, documents?:string[]',
  'exam?:hash/null{exam, id:string/null, title}',
  'class?:hash/null{class, id:string/null, title}',
  'document?:hash/null{document, prefix:string/null, title, archived:boolean}',
  'journey?:hash/null{exam, title, active:boolean, outcomes:string[]}',
  'todo?{type, attachments:boolean, educators?[user, name], fields?:string[]}',
].join(', ');
const CONTENT = 'content{type, code, id:string/null}';

const expires = either('expires', ['integer', 'datetime'], { note: 'days, or the moment the membership expires' });
const notify = bool('notify', { default: false, note: 'notify by email or SMS' });
const ORG_ROLES = ['member', 'teacher', 'reporter', 'supervisor', 'admin'];
const CONTENT_LEVELS = ['none', ...PERMISSION_LEVELS];
const MEMBER_SCOPES = ['none', 'department', 'organization'];
const permissionArgs = (defaults: boolean): Argument[] => [
  oneOf('permission_organization', ORG_ROLES, defaults ? { default: 'member' } : {}),
  oneOf('permission_content', CONTENT_LEVELS, defaults ? { default: 'none' } : {}),
  oneOf('permission_members', MEMBER_SCOPES, defaults ? { default: 'none' } : {}),
];
const membershipArgs = (departmentNote: string): Argument[] => [
  text('department', { note: departmentNote }),
  ...permissionArgs(true),
  notify,
];
const customFields = text('custom_{field}', { note: 'one argument per custom field configured on the instance' });
const firstLast = [req(text('first_name', { min: 1, max: 64 })), req(text('last_name', { min: 1, max: 64 }))];
const fullDisplay = [text('full_name', { min: 1, max: 255 }), text('display_name', { min: 1, max: 255 })];

const webhookArgs: Argument[] = [
  req(code('organization')),
  req(text('title')),
  req(oneOf('trigger_event', ['exam-play-result', 'quiz-play-result', 'journey-completed', 'api'])),
  req(url('endpoint', { note: 'destination of notifications' })),
  oneOf('method', ['POST', 'GET'], { default: 'POST' }),
  oneOf('authentication', ['none', 'key'], { default: 'none' }),
  oneOf('authentication_send', ['header', 'bearer', 'data'], { default: 'data' }),
  text('authentication_send_header', { note: 'header name; required when authentication is key and authentication_send is header' }),
  text('authentication_send_data', { note: 'data field name; required when authentication is key and authentication_send is data' }),
  text('authentication_key', { note: 'secret; required when authentication is key' }),
  text('authentication_key_custom', {
    note: 'name of a custom field used as the key; required when authentication is key; mutually exclusive with authentication_key',
  }),
  json('extra_data', { note: 'extra data sent with each notification' }),
  oneOf('retry', ['none', 'error'], { default: 'error' }),
];

export const documentA: readonly Operation[] = [
  ...op(test, 'test:app', ['GET', 'POST'], { output: 'version, language, app, user, status:boolean' }),

  ...op(users, 'users', 'GET', { args: PAGING, output: 'users[user, name]' }),
  ...op(users, 'user:me', 'GET', { output: USER }),
  ...op(users, 'user', 'GET', { args: [req(code('user', { note: 'the literal `me` means the current user' }))], output: USER }),
  ...op(users, 'user', 'POST', {
    args: [
      req(text('username', { min: 4, max: 64 })),
      text('password', { min: 4, max: 64, note: 'when absent a random initial password is generated' }),
      ...firstLast,
      ...fullDisplay,
      req(email('email')),
      phone('phone'),
      oneOf('gender', ['male', 'female', 'other']),
      date('birthdate'),
      bool('exam', { default: false, note: 'true means the account may log in only to reach exams' }),
      text('group', { note: 'user group name' }),
      oneOf(
        'template',
        ['corporate_test', 'corporate_user', 'corporate_reporter', 'corporate_supervisor', 'corporate_teacher', 'corporate_admin', 'streaming'],
        { note: 'default none' },
      ),
      customFields,
      text('language', { note: 'default: language of the application owner' }),
      text('timezone', { note: 'default: timezone of the application owner' }),
      oneOf('color', ['default', 'branding', 'red', 'blue', 'yellow', 'green', 'purple', 'gray'], { default: 'default' }),
      bool('must_change_password', { default: false }),
      notify,
    ],
    output: 'user, username?, password?',
  }),
  ...op(users, 'user', 'PATCH', { args: [req(code('user')), bool('active')] }),
  ...op(users, 'user', 'DELETE', { args: [req(code('user'))] }),
  ...op(users, 'user:name', 'GET', { args: [req(code('user'))], output: 'user, first_name, last_name, full_name, display_name' }),
  ...op(users, 'user:name', 'POST', {
    args: [req(code('user')), ...firstLast, ...fullDisplay],
    output: 'user, success:boolean, changed:boolean',
  }),
  ...op(users, 'user:group', 'GET', { args: [req(code('user'))], output: 'user, group?' }),
  ...op(users, 'user:group', 'POST', { args: [req(code('user')), req(text('group'))], output: 'user, success:boolean, changed:boolean' }),
  ...op(users, 'user:login', 'GET', { args: [req(code('user'))], output: 'user, url:url, valid:datetime' }),
  ...op(users, 'user:login', 'POST', {
    args: [
      req(code('user')),
      text('redirect', { note: 'URI path, or a content type and tag in the form [{content_type}:{tag}]' }),
      code('exam', { note: 'the user must already be on the exam; mutually exclusive with redirect' }),
      either('expires', ['integer', 'date'], { min: 1, max: 30, default: 1, note: 'days (1-30), or a date' }),
      int('logins', { max: 255 }),
      text('template'),
      bool('short', { note: 'shortened link; only if the feature is enabled' }),
    ],
    output: 'user, url:url, valid:datetime, count:integer',
  }),
  ...op(users, 'user:login', 'DELETE', { args: [req(code('user')), req(url('url', { note: 'the link to invalidate' }))] }),
  ...op(users, 'user:search', 'GET', { args: [req(text('query', { note: 'matches email, username or code' }))], output: 'user, exam:boolean' }),
  ...op(users, 'user:assume', 'POST', {
    args: [req(text('user', { note: 'identification string, username or email' })), text('password', { note: 'password or user secret' })],
    output: 'user, token, valid:datetime',
  }),
  ...op(users, 'user:assume', 'DELETE', { args: [req(text('token'))] }),

  ...op(classes, 'classes', 'GET', { args: PAGING, output: 'classes[class, id:string/null, title]' }),
  ...op(classes, 'class', 'GET', { args: [req(code('class'))], output: 'class, id:string/null, title, start:datetime/null, end:datetime/null' }),
  ...op(classes, 'class:assignments', 'GET', {
    args: [req(code('class'))],
    output: 'assignments[assignment, title, link, status, starts:datetime, ends:datetime]',
  }),
  ...op(classes, 'class:members', 'GET', { args: [req(code('class'))], output: 'members[user, name, active:boolean]' }),
  ...op(classes, 'class:members', 'POST', {
    args: [req(code('class')), req(codes('users')), expires, notify],
  }),
  ...op(classes, 'class:members', 'DELETE', { args: [req(code('class')), req(codes('users'))] }),
  ...op(classes, 'classes:members', 'POST', { args: [req(codes('classes')), req(codes('users')), expires, notify] }),
  ...op(classes, 'user:classes', 'GET', {
    args: [req(code('user'))],
    output: 'classes[class, id:string/null, title, link, active:boolean]',
  }),
  ...op(classes, 'user:classes', 'POST', { args: [req(code('user')), req(codes('classes')), expires, notify] }),
  ...op(classes, 'user:classes', 'DELETE', { args: [req(code('user')), req(codes('classes'))] }),

  ...op(orgs, 'organizations', 'GET', { args: PAGING, output: 'organizations[organization, id:string/null, title]' }),
  ...op(orgs, 'organization', 'GET', { args: [req(code('organization'))], output: 'organization, id:string/null, title, description?' }),
  ...op(orgs, 'organization', 'POST', {
    args: [
      req(text('title')),
      text('description'),
      text('domain', { note: 'FQDN without www prefix; needs special privileges' }),
      url('website'),
      email('email'),
      phone('phone'),
      text('custom_{field}', { note: 'one argument per custom field configured on the instance; only if configured' }),
    ],
    output: 'organization',
  }),
  ...op(orgs, 'organization', 'PATCH', { args: [req(code('organization')), text('title', { min: 1, max: 255 }), customFields] }),
  ...op(orgs, 'organization', 'DELETE', { args: [req(code('organization'))] }),
  ...op(orgs, 'organization:members', 'GET', {
    args: [req(code('organization'))],
    output: `members[user, name, department:string/null, ${PERMISSION_HASH}]`,
  }),
  ...op(orgs, 'organization:members', 'POST', {
    args: [req(code('organization')), req(codes('users')), ...membershipArgs('department name; should not be combined with the permission_ fields')],
  }),
  ...op(orgs, 'organization:members', 'DELETE', { args: [req(code('organization')), req(codes('users'))] }),
  ...op(orgs, 'organizations:members', 'POST', {
    args: [
      req(codes('organizations')),
      req(codes('users')),
      ...membershipArgs('when an organization has no such department, the permission_ fields set the levels'),
    ],
  }),
  ...op(orgs, 'organization:departments', 'GET', {
    args: [req(code('organization'))],
    output: `organization, departments[${DEPARTMENT}]`,
  }),
  ...op(orgs, 'organization:department', 'GET', {
    args: [req(code('organization')), req(text('department', { note: 'name or external identifier' }))],
    output: `organization, ${DEPARTMENT}`,
  }),
  ...op(orgs, 'organization:department', 'POST', {
    args: [
      req(code('organization')),
      req(text('title', { min: 1, max: 255, note: 'unique in the organization' })),
      text('id', { min: 0, max: 64 }),
      text('parent', { note: 'name or external identifier; default root level' }),
      ...permissionArgs(true),
      codes('leaders', { max: 5, note: 'each a member of the organization' }),
    ],
    output: 'organization, department, id:string/null',
  }),
  ...op(orgs, 'organization:department', 'PATCH', {
    args: [
      req(code('organization')),
      req(text('department', { note: 'name or external identifier' })),
      text('title', { min: 1, max: 255, note: 'unique in the organization' }),
      text('id', { min: 0, max: 64, note: 'empty removes it' }),
      text('parent', { note: 'empty moves to root; the department itself or one below it is refused' }),
      ...permissionArgs(false).map((a) => ({ ...a, note: 'changed levels are applied automatically' })),
      codes('leaders', { min: 0, max: 5, note: 'replaces the current leaders; empty removes all; members of the organization' }),
    ],
  }),
  ...op(orgs, 'organization:department', 'DELETE', { args: [req(code('organization')), req(text('department'))] }),
  ...op(orgs, 'organization:competencies', 'GET', {
    args: [req(code('organization'))],
    output: `organization, competencies[${COMPETENCY}]`,
  }),
  ...op(orgs, 'organization:competency:requirements', 'GET', {
    args: [
      req(code('competency', { note: 'the external identifier also works when organization is given' })),
      code('organization'),
    ],
    output: `organization, competency, id:string/null, title, requirements[${REQUIREMENT}]`,
  }),
  ...op(orgs, 'organization:compliance', 'GET', {
    args: [req(code('organization'))],
    output: [
      'organization, scope, competencies[competency, id:string/null, title]',
      `departments[department:string/null, id:string/null, parent:string/null, level:integer, members:integer, competencies[competency, assigned:integer, ${STATUS_COUNTERS}]]`,
      `assigned:integer, ${STATUS_COUNTERS}`,
    ].join(', '),
  }),
  ...op(orgs, 'user:organizations', 'GET', {
    args: [req(code('user'))],
    output: `organizations[organization, id:string/null, title, link, department:string/null, ${PERMISSION_HASH}]`,
  }),
  ...op(orgs, 'user:organizations', 'POST', {
    args: [req(code('user')), req(codes('organizations')), ...membershipArgs('same rules as for members')],
  }),
  ...op(orgs, 'user:organizations', 'DELETE', { args: [req(code('user')), req(codes('organizations'))] }),
  ...op(orgs, 'organization:webhook', 'GET', {
    args: [req(code('organization')), req(code('webhook'))],
    output: 'organization, webhook, title, active:boolean',
  }),
  ...op(orgs, 'organization:webhook', 'POST', { args: webhookArgs, output: 'organization, webhook' }),
  ...op(orgs, 'organization:webhook', 'PATCH', { args: [req(code('organization')), req(code('webhook')), bool('active')] }),
  ...op(orgs, 'organization:webhook', 'DELETE', { args: [req(code('organization')), req(code('webhook'))] }),
  ...op(orgs, 'organization:webhook:trigger', 'POST', {
    args: [req(code('organization')), req(code('webhook')), json('data', { note: 'custom payload; triggers only webhooks whose trigger_event is api' })],
  }),

  ...op(integrations, 'integrations', 'GET', { args: PAGING, output: 'integrations[integration, id:string/null, title]' }),
  ...op(integrations, 'integration', 'GET', {
    args: [req(code('integration'))],
    output: 'integration, id:string/null, title, type, active:boolean, lti?',
  }),
  ...op(integrations, 'integration', 'POST', {
    args: [
      req(text('title')),
      text('description'),
      oneOf('type', ['api', 'lms_a', 'lms_b', 'lms_c', 'lms_d', 'lms'], { default: 'api' }),
      oneOf('lti', ['1.0/1.1', '1.3'], { note: 'required for LMS integrations' }),
      url('platform', { note: 'LMS platform URL; required for LMS integrations' }),
      code('organization', { note: 'organization of the application owner only; for organizational members always the organization of the user' }),
    ],
    output: 'integration',
  }),
  ...op(integrations, 'integration', 'PATCH', {
    args: [
      req(code('integration')),
      bool('active'),
      code('organization', {
        note: 'only an organization of the application owner; only the owner or an administrator may change it; `none` or empty removes the integration from its organization; for organizational members always their organization',
      }),
    ],
  }),
  ...op(integrations, 'integration', 'DELETE', { args: [req(code('integration'))] }),
  ...op(integrations, 'integration:keys', ['GET', 'POST'], {
    args: [req(code('integration'))],
    output: 'app?, consumer?, secret?, jwk?:url, pem?',
  }),

  ...PERMISSION_PREFIXES.flatMap((prefix) => {
    const args = [req(code(prefix)), req(code('user')), req(oneOf('permission', contentTypeEntry(prefix).levels))];
    return [
      ...op(permissions, `${prefix}:permission`, 'GET', { args, output: `user, ${CONTENT}, status{permission:boolean, rule:boolean}` }),
      ...op(permissions, `${prefix}:permission`, ['POST', 'DELETE'], { args, output: `user, ${CONTENT}, success:boolean` }),
      ...op(permissions, `${prefix}:transfer`, 'POST', { args: [req(code(prefix)), req(code('user'))], output: `user, ${CONTENT}, success:boolean` }),
    ];
  }),

  ...op(tags, 'tags', 'GET', { args: PAGING, output: 'tags[tag, id:string/null, title]' }),
  ...op(tags, 'tag', 'GET', { args: [req(code('tag'))], output: 'tag, id:string/null, title, color, icon?' }),
  ...TAGGABLE_TYPES.flatMap((type) => {
    const args = [req(code(type)), req(code('tag'))];
    return [
      ...op(tags, `${type}:tags`, 'GET', {
        args: [req(code(type, { note: 'not shown in the document; the service takes the content parameter' }))],
        output: 'tags[tag, title]',
        notShown: ['input'],
      }),
      ...op(tags, `${type}:tag`, 'GET', { args, output: `tag, ${CONTENT}, status:boolean` }),
      ...op(tags, `${type}:tag`, ['POST', 'DELETE'], { args, output: `tag, ${CONTENT}, success:boolean` }),
    ];
  }),
];
