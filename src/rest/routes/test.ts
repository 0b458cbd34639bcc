import type { Context } from '../../context.ts';
import type { CallInfo, Handler } from './types.ts';

async function testApp(ctx: Context, _args: Record<string, unknown>, call: CallInfo) {
  return {
    version: call.version ?? 'default',
    language: ctx.language,
    app: ctx.viewer.integration.appId,
    user: ctx.viewer.user.id,
    status: true,
  };
}

export const testRoutes: Record<string, Handler> = {
  'GET test:app': testApp,
  'POST test:app': testApp,
};
