import * as journeyUsers from '../../services/journeys/journey-users.service.ts';
import { publishJourney } from '../../services/journeys/publish.service.ts';
import { datetime } from '../format.ts';
import type { Handler } from './types.ts';

/** Every Date of a record in the contract's datetime format (the user-state record nests them). */
function withContractDates(value: unknown): unknown {
  if (value instanceof Date) return datetime(value);
  if (Array.isArray(value)) return value.map(withContractDates);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withContractDates(v)]));
  return value;
}

/** Publishing a journey, its summary, and a user's place in it (the user-state record). */
export const journeyUserRoutes: Record<string, Handler> = {
  'POST exam:journey:publish': async (ctx, args) => {
    const r = await publishJourney(ctx, args);
    return {
      exam: r.exam,
      journey: r.journey,
      active: r.active,
      version: r.version,
      published: datetime(r.published),
      ...(r.unchanged ? { unchanged: true } : {}),
      ...(r.remapped ? { remapped: r.remapped } : {}),
      ...(r.issues ? { issues: r.issues } : {}),
      ...(r.warning ? { warning: r.warning } : {}),
    };
  },
  'GET exam:journey': async (ctx, args) => withContractDates(await journeyUsers.getJourneySummary(ctx, args)),
  'GET exam:journey:user': async (ctx, args) => withContractDates(await journeyUsers.getJourneyUser(ctx, args)),
};
