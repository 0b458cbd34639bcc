import type { ContentType } from '../../services/content/content-types.ts';
import { PERMISSION_PREFIXES } from '../operations.ts';
import { contentRecord } from '../format.ts';
import * as permissions from '../../services/permissions/permissions.service.ts';
import type { Handler } from './types.ts';


const changed = (r: permissions.PermissionChange) => ({ user: r.user.id, content: contentRecord(r.content), success: r.success });

/** The four operations of one content type; the path prefix, the parameter and the type share one name. */
const contentRoutes = (type: ContentType): Record<string, Handler> => ({
  [`GET ${type}:permission`]: async (ctx, args) => {
    const r = await permissions.checkPermission(ctx, type, args);
    return { user: r.user.id, content: contentRecord(r.content), status: { permission: r.permission, rule: r.rule } };
  },
  [`POST ${type}:permission`]: async (ctx, args) => changed(await permissions.grantPermission(ctx, type, args)),
  [`DELETE ${type}:permission`]: async (ctx, args) => changed(await permissions.revokePermission(ctx, type, args)),
  [`POST ${type}:transfer`]: async (ctx, args) => changed(await permissions.transferContent(ctx, type, args)),
});

export const permissionRoutes: Record<string, Handler> = Object.assign({}, ...PERMISSION_PREFIXES.map(contentRoutes));
