import { z } from 'zod';
import { contract } from './contract-meta.ts';
import { int, text } from './validation.ts';

/** Paging parameters L of the contract: search, limit (default 16), page (default 1, ignored in search mode). */
export const paging = z.object({
  search: contract(text(0, 255).optional(), { description: 'optional filter' }),
  limit: int(1, 1000).default(16),
  page: contract(int(1, 1_000_000).default(1), { description: 'not used in search mode' }),
});
export type Paging = z.output<typeof paging>;

/** The rows a page asks for, as Prisma `take`/`skip`; the contract ignores `page` in search mode. */
export const pageWindow = ({ search, limit, page }: Paging) => ({ take: limit, skip: search ? 0 : (page - 1) * limit });

/** The search box of a cursor connection: the contract's `search` rule, the page is the cursor's. */
export const searchOnly = paging.pick({ search: true });
