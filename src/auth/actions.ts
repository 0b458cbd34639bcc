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
  'exam:settings:manage': { level: 'admin', doing: 'change its round freezing and archiving' },
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
