import type { ContentType } from '../services/content/content-types.ts';
import type { Level } from './levels.ts';

/**
 * What each action on content needs: the one table the policy answers from. Reading needs view;
 * results and full member lists report; managing users control; changing modify; granting grant;
 * deleting and transferring admin. An action is named like the contract, `<type>:<what>`.
 */
export interface Need {
  level: Level;
  /** What the caller was doing, for the refusal: "You need <level> permission on this <noun> to <doing>". */
  doing?: string;
  /** Only the owner and instance administrators may, whatever their level (then this is the refusal). */
  ownerOnly?: string;
  /** The content type whose policy applies, when the noun is not a content type itself. */
  as?: ContentType;
  /** The whole refusal, where the contract words it otherwise than "You need <level> permission on this <noun>…". */
  refusal?: string;
  /** The rule an argument that asks for the action breaks, for a refusal naming that argument. */
  argumentRule?: string;
}

/** Actions every content type offers. */
const everyType = {
  read: { level: 'view', doing: 'read it' },
  /** Putting content of the type into an organization without owning that content. */
  create: { level: 'modify' },
  update: { level: 'modify', doing: 'change it' },
  delete: { level: 'admin', doing: 'delete it' },
  transfer: { level: 'admin', doing: 'transfer it' },
  'tags:read': { level: 'view', doing: 'read its tags' },
  'tags:update': { level: 'modify', doing: 'tag it' },
  'permission:read': { level: 'view', doing: 'check it' },
  /** Another user's levels, and every rule on the content. */
  'permission:read-others': { level: 'grant', doing: "check another user's permissions" },
  'permission:grant': { level: 'grant', doing: 'grant permissions' },
  'permission:revoke': { level: 'grant', doing: 'revoke permissions' },
} as const satisfies Record<string, Need>;

/** Actions of one type, or answers for one type that differ from everyType's. */
const oneType = {
  /** Every member and every submission (others see only their own). */
  'class:members:read': { level: 'report' },
  'class:members:update': { level: 'control', doing: 'manage its members' },
  'class:submissions:grade': { level: 'control', doing: 'grade its work' },
  'class:assignments:update': { level: 'modify', doing: 'change its assignments' },
  // The keys act as the owner.
  'integration:keys': { level: 'view', doing: 'read it', ownerOnly: 'Only the owner of the integration or an administrator may use its keys' },
  // Journeys: the starting exam's levels; a step's content must be controlled (users are enrolled in it).
  'exam:journey:read': { level: 'view', doing: 'read its journey' },
  'exam:journey:update': { level: 'modify', doing: 'change its journey' },
  'exam:journey:step': { level: 'control', doing: 'use it as a journey step' },
  'class:journey:step': { level: 'control', doing: 'use it as a journey step' },
  'quiz:journey:step': { level: 'control', doing: 'use it as a journey step' },
  'quiz:read': { level: 'view' },
  'quiz:settings:read': { level: 'view' },
  'quiz:settings:update': { level: 'modify', doing: 'change its settings' },
  'quiz:settings:copy': { level: 'view', doing: 'copy its settings' },
  'quiz:skills:read': { level: 'view' },
  'quiz:grading-presets:read': { level: 'view' },
  'quiz:questions:read': { level: 'view' },
  'quiz:questions:update': { level: 'modify', doing: 'change its questions' },
  'quiz:questions:copy': { level: 'view', doing: 'copy its questions' },
  // A question in the scope of a Quiz set: the Quiz set's levels count for it.
  'quiz:question:read': { level: 'view', doing: 'manage its questions' },
  'quiz:question:export': { level: 'report', doing: 'manage its questions' },
  'quiz:question:update': { level: 'modify', doing: 'manage its questions' },
  'quiz:question:delete': { level: 'modify', doing: 'manage its questions' },
  // Questions carry no rules: their owner and organization give levels on the Quiz set scale.
  'question:read': { level: 'view', as: 'quiz' },
  'question:export': { level: 'report', as: 'quiz' },
  'question:update': { level: 'modify', as: 'quiz' },
  'question:delete': { level: 'modify', as: 'quiz' },
  'exam:settings:read': { level: 'view' },
  'exam:settings:update': { level: 'modify', doing: 'change its settings' },
  // freeze_round and archive: "managers only", the holders of admin on the exam.
  'exam:settings:manage': {
    level: 'admin',
    doing: 'change its round freezing and archiving',
    argumentRule: 'only managers of the exam (admin permission on it) may change it',
  },
  'exam:fields:read': { level: 'view' },
  'exam:fields:update': { level: 'modify', doing: 'change its user data fields' },
  'exam:certificate:read': { level: 'view' },
  'exam:certificate:update': { level: 'modify', doing: 'change its certificate settings' },
  'tag:use': { level: 'view', doing: 'use it' },
  'exam:status:read': { level: 'view' },
  'exam:skills:read': { level: 'view' },
  'exam:branding:read': { level: 'view' },
  'exam:branding:update': { level: 'modify', doing: 'change its branding' },
  'exam:round:read': { level: 'view' },
  'exam:round:update': { level: 'modify', doing: 'close its round' },
  'exam:summary:update': { level: 'modify', doing: 'change its summary' },
  'exam:summary:read': { level: 'view' },
  'exam:results:read': { level: 'report', doing: 'read its results' },
  'exam:users:read': { level: 'report', doing: 'read its examinees' },
  'exam:users:update': { level: 'control', doing: 'manage its examinees' },
  'exam:settings:copy': { level: 'view', doing: 'copy its settings' },
  'exam:results:grade': { level: 'control', doing: 'grade its answers' },
  'exam:results:archive': { level: 'control', doing: 'archive its results' },
  'exam:certificates:issue': { level: 'control', doing: 'issue its certificates' },
  'quiz:results:read': { level: 'report', doing: 'read its results' },
  'quiz:results:list': { level: 'report', refusal: 'You need report permission on this Quiz set to read its results' },
  'exam:certificates:read': { level: 'report', doing: 'read its certificates' },
  'exam:users:journeys:update': { level: 'control', doing: "change its users' journeys" },
  // Grading one answer of a play: control on its exam, or modify on the Quiz set of a practice play.
  'exam:answers:grade': { level: 'control', refusal: 'You need control permission on the exam to grade its answers' },
  'quiz:answers:grade': { level: 'modify', refusal: 'You need modify permission on the Quiz set to grade its answers' },
} as const satisfies Record<string, Need>;

export type Action = `${ContentType}:${keyof typeof everyType}` | keyof typeof oneType;
/** The actions on one noun (a content type, or `question`). */
export type ActionOn<T extends string> = Extract<Action, `${T}:${string}`>;

/** The noun of an action: its content type, or what borrows one (`question`). */
export const nounOf = (action: Action): string => action.slice(0, action.indexOf(':'));

export function needOf(action: Action): Need {
  const own = (oneType as Record<string, Need>)[action];
  return own ?? (everyType as Record<string, Need>)[action.slice(action.indexOf(':') + 1)]!;
}

/** The content type whose levels the action is answered from. */
export const typeOf = (action: Action): ContentType => needOf(action).as ?? (nounOf(action) as ContentType);

/** Every action the table answers, for every content type (tests walk it). */
export const allActions = (types: readonly ContentType[]): Action[] => [
  ...types.flatMap((type) => Object.keys(everyType).map((verb) => `${type}:${verb}` as Action)),
  ...(Object.keys(oneType) as Action[]),
];

// ---------------------------------------------------------------------------------------------
// Actions no level on content decides: who the caller is does.

/**
 * Who may:
 * - `filtered`: those a filter of the service admits; the service asks it and throws refused();
 * - `administrator`: instance administrators;
 * - `owner`: the owner of the thing, or an administrator;
 * - `manager`: an organization's managers (its owner, its admins, instance administrators);
 * - `member`: its members and managers;
 * - `member-manager`: those who manage its members (managers and supervisors);
 * - `reporter-or-leader`: its reporters and managers, and department leaders;
 * - `reviewer`: who reviews a member's requirements (an educator of the to-do, or a member
 *   manager or department leader who sees the member); `reviewer-or-self`: that or the member;
 * - `creator`: the creator of a user (who manages it), or an administrator; `creator-or-self`: that
 *   or the user itself; `creator-or-application-owner`: that or the owner of the calling
 *   application (an application acting as an assumed user may go back to its owner);
 * - `level-ceiling`: those who manage an organization's members, for levels no higher than their
 *   own (managers: any levels), so managing members never lifts anyone above the one doing it;
 * - `class-member`: the holder of an active (approved, unexpired) membership of the class.
 */
export type Role =
  | 'filtered'
  | 'administrator'
  | 'owner'
  | 'manager'
  | 'member'
  | 'member-manager'
  | 'reporter-or-leader'
  | 'reviewer'
  | 'reviewer-or-self'
  | 'creator'
  | 'creator-or-self'
  | 'creator-or-application-owner'
  | 'level-ceiling'
  | 'class-member';

export interface RoleNeed {
  who: Role;
  /**
   * The refusal's message, for actions a service asserts (PERMISSION_DENIED unless `code`); a
   * `{field}` in it is that field of the subject (the user or member the refusal names).
   */
  refusal?: string;
  code?: string;
}

const byRole = {
  /** Lists and lookups: administrators read every record, whoever owns it. */
  'instance:records:read-all': { who: 'administrator' },
  /** Administrators administer every organization: content they own may go in any. */
  'instance:organizations:administer-all': { who: 'administrator' },
  /** The service stays open to administrators during maintenance. */
  'instance:maintenance:use': { who: 'administrator' },
  'instance:settings:update': { who: 'administrator', refusal: 'Only instance administrators may change instance settings', code: 'ADMIN_ONLY' },
  'instance:notifications:read': { who: 'administrator', refusal: 'Only instance administrators may read notifications' },
  /** A result outside an exam is forgotten, not archived. */
  'result:forget': { who: 'administrator', refusal: 'Only administrators may forget a result outside an exam' },
  /** Global presets, one's own and those of one's organizations (a filter of the grading service). */
  'grading-preset:use': { who: 'filtered', refusal: 'You may not use this grading preset: only global presets, your own and those of your organizations' },
  'grading-preset:update': { who: 'owner', refusal: 'Only its owner may modify a grading preset' },
  'grading-preset:delete': { who: 'owner', refusal: 'Only its owner may remove a grading preset' },
  // Moving content to another organization: explicit, so that granted permissions never extend to it.
  'integration:organization:update': { who: 'owner', refusal: 'Only the owner of the integration or an administrator may change its organization' },
  'quiz:organization:update': { who: 'owner', refusal: 'Only the owner of the Quiz set or an administrator may change its organization' },
  'exam:organization:update': { who: 'owner', refusal: 'Only the owner of the exam or an administrator may change its organization' },
  'question:organization:update': { who: 'owner', refusal: 'Only the owner of the question or an administrator may change its organization' },
  /** Members and managers view their organization without a rule (others: organization:read). */
  'organization:view-as-member': { who: 'member' },
  'organization:departments:update': { who: 'manager', refusal: 'You may not manage departments in this organization' },
  'organization:members:update': { who: 'member-manager', refusal: 'You may not manage members in this organization' },
  'organization:webhooks:update': { who: 'manager', refusal: 'You may not manage webhooks in this organization' },
  'organization:competencies:read': { who: 'member', refusal: 'You may not read competencies in this organization' },
  'organization:competencies:report': { who: 'reporter-or-leader', refusal: 'Only organization reporters and department leaders see competency reports' },
  'organization:competencies:update': { who: 'manager', refusal: 'You may not manage competencies and library documents in this organization' },
  'requirement:progress:record': { who: 'reviewer-or-self', refusal: 'You may not record progress for this member' },
  /** A requirement the member may not complete itself. */
  'requirement:progress:complete': { who: 'reviewer', refusal: 'This requirement is completed by a reviewer' },
  'requirement:progress:date': { who: 'reviewer', refusal: 'Only reviewers date completions' },
  /** Users: who sees one (and may name it), who changes its name, group and login links, who manages it. */
  'user:read': { who: 'creator-or-self' },
  'user:update': { who: 'creator-or-self', refusal: 'You do not manage this user' },
  'user:manage': { who: 'creator', refusal: 'You do not manage this user' },
  /** Assuming a user without its password (anyone may with it; assume.service.ts asks for it instead of refusing). */
  'user:assume': { who: 'creator-or-application-owner' },
  /** A new member of an organization is a user the caller sees. */
  'organization:member:add': { who: 'creator-or-self', refusal: "You do not manage user '{id}'" },
  /** The levels a membership is given, and the levels of a member changed or removed: at most the caller's own. */
  'organization:member:levels': { who: 'level-ceiling', refusal: 'You may not give levels above your own' },
  'organization:member:update': { who: 'level-ceiling', refusal: "You may not change member '{userId}', whose levels are above your own" },
  'organization:member:remove': { who: 'level-ceiling', refusal: "You may not remove member '{userId}', whose levels are above your own" },
  /** Starting and handing in work on a class's assignments. */
  'class:assignments:work': { who: 'class-member', refusal: 'Only active members of the class work on its assignments' },
} as const satisfies Record<string, RoleNeed>;

export type RoleAction = keyof typeof byRole;
/** The role an action needs. */
export type RoleOf<A extends RoleAction> = (typeof byRole)[A]['who'];

export const roleNeedOf = (action: RoleAction): RoleNeed => byRole[action];

/** Every action decided by role (tests walk it). */
export const roleActions = Object.keys(byRole) as RoleAction[];
