import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The folder of the project a module belongs to: the nearest folder with a package.json, from
 * `from` upwards. Files read at run time (migrations, the guide) are found from it, so neither the
 * working directory nor where the code runs from (src/ under tsx, dist/ once built) matters.
 */
export function projectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return from;
  }
}
