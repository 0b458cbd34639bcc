import { compact, contentRecord } from '../format.ts';
import * as tags from '../../services/tags/tags.service.ts';
import { taggableTypes, type TaggableType } from '../../services/content/content-types.ts';
import type { Handler } from './types.ts';


/** The answer of an attach or a detach. */
const changed = (r: tags.ContentTagResult & { success: boolean }) => ({ tag: r.tag.id, content: contentRecord(r.content), success: r.success });

/** GET `<type>:tags` and GET / POST / DELETE `<type>:tag` of one taggable type. */
const contentRoutes = (type: TaggableType): Record<string, Handler> => ({
  [`GET ${type}:tags`]: async (ctx, args) => ({
    tags: (await tags.listContentTags(ctx, type, args)).tags.map((tag) => ({ tag: tag.id, title: tag.title })),
  }),
  [`GET ${type}:tag`]: async (ctx, args) => {
    const r = await tags.contentTagStatus(ctx, type, args);
    return { tag: r.tag.id, content: contentRecord(r.content), status: r.attached };
  },
  [`POST ${type}:tag`]: async (ctx, args) => changed(await tags.attachTag(ctx, type, args)),
  [`DELETE ${type}:tag`]: async (ctx, args) => changed(await tags.detachTag(ctx, type, args)),
});

export const tagRoutes: Record<string, Handler> = {
  'GET tags': async (ctx, args) => ({
    tags: (await tags.listTags(ctx, args)).map((tag) => ({ tag: tag.id, id: tag.externalId, title: tag.title })),
  }),
  'GET tag': async (ctx, args) => {
    const tag = await tags.getTag(ctx, args);
    // The contract types icon as a string: a tag without one leaves it out.
    return compact({ tag: tag.id, id: tag.externalId, title: tag.title, color: tag.color, icon: tag.icon ?? undefined });
  },
  ...Object.assign({}, ...taggableTypes.map(contentRoutes)),
};
