import { callCheck } from '../../services/instance/instance.service.ts';
import type { Handler } from './types.ts';

const testApp: Handler = async (ctx, _args, call) => callCheck(ctx, call.version);

export const testRoutes: Record<string, Handler> = {
  'GET test:app': testApp,
  'POST test:app': testApp,
};
