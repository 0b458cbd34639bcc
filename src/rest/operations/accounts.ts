import type { Operation } from './types.ts';
import { permissionTypes, taggableTypes } from '../../services/content/content-types.ts';
import { levels } from '../../auth/levels.ts';
import { op } from './build.ts';
import * as classIn from '../../services/classes/classes.schemas.ts';
import * as competencyIn from '../../services/competencies/competencies.schemas.ts';
import * as integrationIn from '../../services/integrations/integrations.schemas.ts';
import * as orgIn from '../../services/organizations/organizations.schemas.ts';
import { paging } from '../../services/paging.ts';
import * as permissionIn from '../../services/permissions/permissions.schemas.ts';
import * as tagIn from '../../services/tags/tags.schemas.ts';
import * as userIn from '../../services/users/users.schemas.ts';
import * as webhookIn from '../../services/webhooks/webhooks.schemas.ts';

/**
 * The general contract: users, classes, organizations, integrations, content
 * permissions and tags.
 */

/**
 * Path prefixes of "Content permissions and transfer" and the taggable types of "Tags" come from
 * the content registration (each prefix is also its parameter); the catalogue test holds them to
 * the contract.
 */
export const PERMISSION_PREFIXES = Object.freeze([...permissionTypes]);

export const TAGGABLE_TYPES = Object.freeze([...taggableTypes]);

export const PERMISSION_LEVELS = levels;

const test = { part: 'accounts', section: 'Test', area: 'foundation' } as const;
const users = { part: 'accounts', section: 'Users', area: 'foundation' } as const;
const classes = { part: 'accounts', section: 'Classes', area: 'organizations' } as const;
const orgs = { part: 'accounts', section: 'Organizations', area: 'organizations' } as const;
const integrations = { part: 'accounts', section: 'Integrations', area: 'foundation' } as const;
const permissions = { part: 'accounts', section: 'Content permissions and transfer', area: 'permissions' } as const;
const tags = { part: 'accounts', section: 'Tags', area: 'permissions' } as const;

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

export const accountOperations: readonly Operation[] = [
  ...op(test, 'test:app', ['GET', 'POST'], { output: 'version, language, app, user, status:boolean' }),

  ...op(users, 'users', 'GET', { input: paging, output: 'users[user, name]' }),
  ...op(users, 'user:me', 'GET', { output: USER }),
  ...op(users, 'user', 'GET', { input: userIn.userRef, output: USER }),
  ...op(users, 'user', 'POST', {
    input: userIn.createUser,
    output: 'user, username?, password?',
  }),
  ...op(users, 'user', 'PATCH', { input: userIn.setUserActive }),
  ...op(users, 'user', 'DELETE', { input: userIn.userRef }),
  ...op(users, 'user:name', 'GET', { input: userIn.userRef, output: 'user, first_name, last_name, full_name, display_name' }),
  ...op(users, 'user:name', 'POST', {
    input: userIn.setUserName,
    output: 'user, success:boolean, changed:boolean',
  }),
  ...op(users, 'user:group', 'GET', { input: userIn.userRef, output: 'user, group?' }),
  ...op(users, 'user:group', 'POST', { input: userIn.setUserGroup, output: 'user, success:boolean, changed:boolean' }),
  ...op(users, 'user:login', 'GET', { input: userIn.userRef, output: 'user, url:url, valid:datetime' }),
  ...op(users, 'user:login', 'POST', {
    input: userIn.createLoginLink,
    output: 'user, url:url, valid:datetime, count:integer',
  }),
  ...op(users, 'user:login', 'DELETE', { input: userIn.deleteLoginLink }),
  ...op(users, 'user:search', 'GET', { input: userIn.searchUser, output: 'user, exam:boolean' }),
  ...op(users, 'user:assume', 'POST', {
    input: userIn.assume,
    output: 'user, token, valid:datetime',
  }),
  ...op(users, 'user:assume', 'DELETE', { input: userIn.revokeAssume }),

  ...op(classes, 'classes', 'GET', { input: paging, output: 'classes[class, id:string/null, title]' }),
  ...op(classes, 'class', 'GET', { input: classIn.classRef, output: 'class, id:string/null, title, start:datetime/null, end:datetime/null' }),
  ...op(classes, 'class:assignments', 'GET', {
    input: classIn.classRef,
    output: 'assignments[assignment, title, link, status, starts:datetime, ends:datetime]',
  }),
  ...op(classes, 'class:members', 'GET', { input: classIn.classRef, output: 'members[user, name, active:boolean]' }),
  ...op(classes, 'class:members', 'POST', {
    input: classIn.addMembers,
  }),
  ...op(classes, 'class:members', 'DELETE', { input: classIn.removeMembers }),
  ...op(classes, 'classes:members', 'POST', { input: classIn.addManyMembers }),
  ...op(classes, 'user:classes', 'GET', {
    input: classIn.userRef,
    output: 'classes[class, id:string/null, title, link, active:boolean]',
  }),
  ...op(classes, 'user:classes', 'POST', { input: classIn.addUserClasses }),
  ...op(classes, 'user:classes', 'DELETE', { input: classIn.removeUserClasses }),

  ...op(orgs, 'organizations', 'GET', { input: paging, output: 'organizations[organization, id:string/null, title]' }),
  ...op(orgs, 'organization', 'GET', { input: orgIn.organizationRef, output: 'organization, id:string/null, title, description?' }),
  ...op(orgs, 'organization', 'POST', {
    input: orgIn.createOrganization,
    output: 'organization',
  }),
  ...op(orgs, 'organization', 'PATCH', { input: orgIn.updateOrganization }),
  ...op(orgs, 'organization', 'DELETE', { input: orgIn.organizationRef }),
  ...op(orgs, 'organization:members', 'GET', {
    input: orgIn.organizationRef,
    output: `members[user, name, department:string/null, ${PERMISSION_HASH}]`,
  }),
  ...op(orgs, 'organization:members', 'POST', {
    input: orgIn.addMembers,
  }),
  ...op(orgs, 'organization:members', 'DELETE', { input: orgIn.removeMembers }),
  ...op(orgs, 'organizations:members', 'POST', {
    input: orgIn.addMembersToOrganizations,
  }),
  ...op(orgs, 'organization:departments', 'GET', {
    input: orgIn.organizationRef,
    output: `organization, departments[${DEPARTMENT}]`,
  }),
  ...op(orgs, 'organization:department', 'GET', {
    input: orgIn.departmentRef,
    output: `organization, ${DEPARTMENT}`,
  }),
  ...op(orgs, 'organization:department', 'POST', {
    input: orgIn.createDepartment,
    output: 'organization, department, id:string/null',
  }),
  ...op(orgs, 'organization:department', 'PATCH', {
    input: orgIn.updateDepartment,
  }),
  ...op(orgs, 'organization:department', 'DELETE', { input: orgIn.departmentRef }),
  ...op(orgs, 'organization:competencies', 'GET', {
    input: competencyIn.organizationRef,
    output: `organization, competencies[${COMPETENCY}]`,
  }),
  ...op(orgs, 'organization:competency:requirements', 'GET', {
    input: competencyIn.requirementsOf,
    output: `organization, competency, id:string/null, title, requirements[${REQUIREMENT}]`,
  }),
  ...op(orgs, 'organization:compliance', 'GET', {
    input: competencyIn.organizationRef,
    output: [
      'organization, scope, competencies[competency, id:string/null, title]',
      `departments[department:string/null, id:string/null, parent:string/null, level:integer, members:integer, competencies[competency, assigned:integer, ${STATUS_COUNTERS}]]`,
      `assigned:integer, ${STATUS_COUNTERS}`,
    ].join(', '),
  }),
  ...op(orgs, 'user:organizations', 'GET', {
    input: orgIn.userRef,
    output: `organizations[organization, id:string/null, title, link, department:string/null, ${PERMISSION_HASH}]`,
  }),
  ...op(orgs, 'user:organizations', 'POST', {
    input: orgIn.addUserOrganizations,
  }),
  ...op(orgs, 'user:organizations', 'DELETE', { input: orgIn.removeUserOrganizations }),
  ...op(orgs, 'organization:webhook', 'GET', {
    input: webhookIn.webhookRef,
    output: 'organization, webhook, title, active:boolean',
  }),
  ...op(orgs, 'organization:webhook', 'POST', { input: webhookIn.createWebhook, output: 'organization, webhook' }),
  ...op(orgs, 'organization:webhook', 'PATCH', { input: webhookIn.updateWebhook }),
  ...op(orgs, 'organization:webhook', 'DELETE', { input: webhookIn.webhookRef }),
  ...op(orgs, 'organization:webhook:trigger', 'POST', {
    input: webhookIn.triggerWebhook,
  }),

  ...op(integrations, 'integrations', 'GET', { input: paging, output: 'integrations[integration, id:string/null, title]' }),
  ...op(integrations, 'integration', 'GET', {
    input: integrationIn.integrationRef,
    output: 'integration, id:string/null, title, type, active:boolean, lti?',
  }),
  ...op(integrations, 'integration', 'POST', {
    input: integrationIn.createIntegration,
    output: 'integration',
  }),
  ...op(integrations, 'integration', 'PATCH', {
    input: integrationIn.updateIntegration,
  }),
  ...op(integrations, 'integration', 'DELETE', { input: integrationIn.integrationRef }),
  ...op(integrations, 'integration:keys', ['GET', 'POST'], {
    input: integrationIn.integrationRef,
    output: 'app?, consumer?, secret?, jwk?:url, pem?',
  }),

  ...PERMISSION_PREFIXES.flatMap((prefix) => {
    const input = permissionIn.permissionInput(prefix, prefix);
    return [
      ...op(permissions, `${prefix}:permission`, 'GET', { input, output: `user, ${CONTENT}, status{permission:boolean, rule:boolean}` }),
      ...op(permissions, `${prefix}:permission`, ['POST', 'DELETE'], { input, output: `user, ${CONTENT}, success:boolean` }),
      ...op(permissions, `${prefix}:transfer`, 'POST', { input: permissionIn.transferInput(prefix), output: `user, ${CONTENT}, success:boolean` }),
    ];
  }),

  ...op(tags, 'tags', 'GET', { input: paging, output: 'tags[tag, id:string/null, title]' }),
  ...op(tags, 'tag', 'GET', { input: tagIn.tagRef, output: 'tag, id:string/null, title, color, icon?' }),
  ...TAGGABLE_TYPES.flatMap((type) => {
    const input = tagIn.contentTag(type);
    return [
      ...op(tags, `${type}:tags`, 'GET', { input: tagIn.contentRef(type), output: 'tags[tag, title]', notShown: ['input'] }),
      ...op(tags, `${type}:tag`, 'GET', { input, output: `tag, ${CONTENT}, status:boolean` }),
      ...op(tags, `${type}:tag`, ['POST', 'DELETE'], { input, output: `tag, ${CONTENT}, success:boolean` }),
    ];
  }),
];
