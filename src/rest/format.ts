/** Output types of the contract. */

export { date, datetime } from '../dates.ts';

/** Drops keys whose value is undefined: fields "present only if …" are omitted, not null. */
export function compact<T extends Record<string, unknown>>(record: T): T {
  for (const key of Object.keys(record)) if (record[key] === undefined) delete record[key];
  return record;
}

/** `content{type, code, id}` of the permission and tag result records: code is the identification string. */
export const contentRecord = (c: { type: string; id: string; externalId: string | null }) => ({ type: c.type, code: c.id, id: c.externalId });
