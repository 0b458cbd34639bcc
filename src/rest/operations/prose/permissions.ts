import { EXAMPLE as X, paragraphs as p, type OperationProse, type ProseTable } from './types.ts';

/** Content types with permissions, their parameter (the path prefix too) and an example of one. */
const CONTENT: readonly { prefix: string; noun: string; example: string }[] = [
  { prefix: 'class', noun: 'class', example: X.class },
  { prefix: 'course', noun: 'course', example: 'crs_7a9c1e3g5i7k9m' },
  { prefix: 'event', noun: 'event', example: 'evt_2n4p6r8t0v2x4z' },
  { prefix: 'exam', noun: 'exam', example: X.exam },
  { prefix: 'integration', noun: 'integration', example: X.integration },
  { prefix: 'organization', noun: 'organization', example: X.organization },
  { prefix: 'quiz', noun: 'Quiz set', example: X.quiz },
  { prefix: 'scorm', noun: 'SCORM material', example: 'scm_5b7d9f1h3j5l7n' },
  { prefix: 'tag', noun: 'tag', example: X.tag },
  { prefix: 'video', noun: 'video', example: 'vid_8o0q2s4u6w8y0a' },
];

/** The noun with its indefinite article: a class, an exam. */
const an = (noun: string) => `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;

const LEVELS = 'Levels, lowest first: view, report, control, modify, grant, admin (events add finances between modify and grant); a higher level includes the lower ones.';
const UNKNOWN_USER =
  "The named `user` must be one the caller may read, or a member or owner of the content's organization; any other is answered as an unknown user (403 `NOT_FOUND` naming `user`).";

function permissionProse({ prefix, noun, example }: (typeof CONTENT)[number]): Record<string, OperationProse> {
  const args = { [prefix]: example, user: X.user };
  return {
    [`GET ${prefix}:permission`]: {
      summary: `Check a user's permission on ${an(noun)}`,
      description: p(
        `Answers the user, the content and \`status{permission, rule}\`: \`permission\` is true when the user's effective level on the ${noun} includes the level asked; \`rule\` when a permission rule with exactly these parameters exists. Asking about oneself needs view; about another user, grant.`,
        `The effective level is the highest of: admin for instance administrators, the owner, and the owner and \`admin\`-role members of the content's organization; the user's explicit rules; the \`content\` level of its membership of the content's organization${prefix === 'class' ? '; modify for members of the organization whose role is teacher or higher' : ''}${prefix === 'organization' ? '; view for every member of the organization' : ''}.`,
        LEVELS,
      ),
      example: { ...args, permission: 'report' },
    },
    [`POST ${prefix}:permission`]: {
      summary: `Grant a user a permission on ${an(noun)}`,
      description: p(
        `Creates a permission rule. Needs grant on the ${noun} and a level at most the caller's own. Granting an existing rule answers \`success: true\` and changes nothing.`,
        UNKNOWN_USER,
        'Answers `user`, `content{type, code, id}` and `success`.',
      ),
      example: { ...args, permission: 'modify' },
    },
    [`DELETE ${prefix}:permission`]: {
      summary: `Revoke a user's permission on ${an(noun)}`,
      description: p(
        `Removes the permission rule with exactly these parameters. Needs grant and a level at most the caller's own. Revoking a missing rule answers \`success: false\`. Levels the user holds otherwise (ownership, membership) stay.`,
        UNKNOWN_USER,
      ),
      example: { ...args, permission: 'modify' },
    },
    [`POST ${prefix}:transfer`]: {
      summary: `Transfer ${an(noun)} to another user`,
      description: p(
        `Makes the user the owner. Needs admin on the ${noun}. The previous owner keeps nothing from ownership (its own rules and memberships still count); the organization, rules and tags stay.${prefix === 'integration' ? ' A transferred integration gets a new secret (or LTI 1.3 key pair) at once.' : ''}`,
        UNKNOWN_USER,
        'Answers `user`, `content{type, code, id}` and `success`.',
      ),
      example: args,
    },
  };
}

function tagProse({ prefix, noun, example }: (typeof CONTENT)[number]): Record<string, OperationProse> {
  const args = { [prefix]: example, tag: X.tag };
  return {
    [`GET ${prefix}:tags`]: {
      summary: `List the tags of ${an(noun)}`,
      description: `Takes the ${noun} as \`${prefix}\` and answers \`tags[{tag, title}]\`: the tags attached to it that the caller may view. Needs view on the ${noun}.`,
      example: { [prefix]: example },
    },
    [`GET ${prefix}:tag`]: {
      summary: `Check whether a tag is attached to ${an(noun)}`,
      description: `Answers \`tag\`, \`content{type, code, id}\` and \`status\` (true when attached). Needs view on the ${noun} and on the tag.`,
      example: args,
    },
    [`POST ${prefix}:tag`]: {
      summary: `Attach a tag to ${an(noun)}`,
      description: `Needs modify on the ${noun} and view on the tag. Attaching twice answers \`success: true\` and writes nothing. Answers \`tag\`, \`content\` and \`success\`.`,
      example: args,
    },
    [`DELETE ${prefix}:tag`]: {
      summary: `Detach a tag from ${an(noun)}`,
      description: `Needs modify on the ${noun} and view on the tag. Detaching a tag that is not attached answers \`success: false\`.`,
      example: args,
    },
  };
}

/** Content permissions, transfer and tags: the same operations for every content type. */
export const permissionsProse: ProseTable = {
  ...Object.assign({}, ...CONTENT.map(permissionProse)),
  'GET tags': {
    summary: 'List tags',
    description: 'Lists the tags the caller may view. Paging: `search`, `limit` (default 16), `page`. Answers `tags[{tag, id, title}]`; `id` is null without an external id.',
    example: { search: 'safety' },
  },
  'GET tag': {
    summary: 'Read a tag',
    description: 'Answers `tag`, `id`, `title`, `color` (`#rrggbb`) and `icon` (CSS class names). A tag without an icon has no `icon` field (never `"icon": null`). Tags are created and changed through GraphQL.',
    example: { tag: X.tag },
  },
  ...Object.assign({}, ...CONTENT.filter((c) => c.prefix !== 'tag').map(tagProse)),
};
