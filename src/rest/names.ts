/**
 * The contract names arguments in snake_case; services use camelCase. `custom_{field}` arguments
 * are gathered into `customFields`, keyed by the field.
 */
const CREDENTIALS = new Set(['app', 'secret', 'assume', 'version']);

export function toServiceArgs(args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let custom: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(args)) {
    if (CREDENTIALS.has(key)) continue;
    if (key.startsWith('custom_') && key.length > 7) {
      (custom ??= {})[key.slice(7)] = value;
      continue;
    }
    out[key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())] = value;
  }
  if (custom) out.customFields = custom;
  return out;
}

/** The contract name of a service argument path, for error headers. */
export function toContractName(name: string): string {
  if (name.startsWith('customFields.')) return `custom_${name.slice(13)}`;
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
