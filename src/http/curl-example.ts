/**
 * A curl line for an example call, as the reference shows it beside each operation. Credentials
 * come from shell variables (BASE_URL, APP, SECRET) so a reader pastes the line unchanged.
 */

/** Inside single quotes a shell takes everything literally but a single quote itself. */
const singleQuoted = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** Query text for one argument: text as it is, numbers and booleans as text, lists and objects as JSON (which the contract accepts). */
const queryValue = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value));

export function curlExample(method: string, endpoint: string, example: Readonly<Record<string, unknown>>): string {
  const address = `"$BASE_URL/api/v1/${endpoint}`;
  const auth = `-H "Authorization: Bearer $APP:$SECRET"`;
  if (method === 'GET') {
    const query = new URLSearchParams(Object.entries(example).map(([name, value]) => [name, queryValue(value)])).toString();
    return `curl ${auth} ${address}${query ? `?${query}` : ''}"`;
  }
  const body = Object.keys(example).length ? ` -H 'Content-Type: application/json' -d ${singleQuoted(JSON.stringify(example))}` : '';
  return `curl -X ${method} ${auth}${body} ${address}"`;
}
