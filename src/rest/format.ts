/** Output types of the contract. */

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD HH:ii:ss` in UTC. */
export function datetime(d: Date): string;
export function datetime(d: Date | null | undefined): string | null;
export function datetime(d: Date | null | undefined): string | null {
  if (!d) return null;
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** `YYYY-MM-DD` (UTC). */
export function date(d: Date): string;
export function date(d: Date | null | undefined): string | null;
export function date(d: Date | null | undefined): string | null {
  return d ? d.toISOString().slice(0, 10) : null;
}

/** Drops keys whose value is undefined: fields "present only if …" are omitted, not null. */
export function compact<T extends Record<string, unknown>>(record: T): T {
  for (const key of Object.keys(record)) if (record[key] === undefined) delete record[key];
  return record;
}

/** `content{type, code, id}` of the permission and tag result records: code is the identification string. */
export const contentRecord = (c: { type: string; id: string; externalId: string | null }) => ({ type: c.type, code: c.id, id: c.externalId });
