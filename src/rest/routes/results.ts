import * as results from '../../services/plays/results.service.ts';
import type { Handler } from './types.ts';

/** Results of plays: the contract reads them (the player records them through GraphQL). */
export const resultRoutes: Record<string, Handler> = {
  'GET quiz:results:play': async (ctx, args) => results.getPlayResult(ctx, args),
  'DELETE quiz:results:play': async (ctx, args) => ({ ...(await results.deletePlayResult(ctx, args)), success: true }),
  'GET quiz:results:user': async (ctx, args) => ({ results: await results.listQuizResults(ctx, args) }),
  'GET exam:results:user': async (ctx, args) => ({ results: await results.listExamResults(ctx, args) }),
};
