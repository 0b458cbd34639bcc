/** The contract's date formats, for both faces and for what services write (webhooks, exports, certificates). */

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
