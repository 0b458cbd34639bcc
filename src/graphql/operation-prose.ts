import { prose } from '../rest/operations/prose/index.ts';

/**
 * The description of a GraphQL field or input that mirrors a REST operation: its own lead, then the
 * rules the operation's prose states, so both faces tell one story from one text. The rules name
 * arguments as the REST contract spells them (snake_case); GraphQL takes them in camelCase.
 */
export function mirrorDescription(lead: string, operation: string): string {
  const entry = prose[operation];
  if (!entry) throw new Error(`no prose for the operation ${operation}`);
  // What the REST call answers, and what it says about GraphQL, is not a rule of the GraphQL field.
  const rules = entry.description
    .split('\n\n')
    .filter((paragraph) => !paragraph.includes('GraphQL'))
    .map((paragraph) => paragraph.replace(/(^|\s)Answers .*?\.(?=\s|$)/g, '').trim())
    .filter(Boolean);
  return [lead, `Rules, as for REST \`${operation}\` (arguments in camelCase here):`, ...rules].join('\n\n');
}
