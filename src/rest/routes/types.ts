import type { Context } from '../../context.ts';

/**
 * A REST operation: parse (the service validates), call the service, map the result to the
 * documented fields. ~20 lines each; no rule lives here.
 */
export type Handler = (ctx: Context, args: Record<string, unknown>, call: CallInfo) => Promise<unknown>;

export interface CallInfo {
  /** The version the caller selected, or undefined for the default. */
  version?: string;
}
