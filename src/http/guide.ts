import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectRoot } from '../project-root.ts';

/**
 * The guide (src/http/guide.md): how to call, run and operate the service, beside the code it
 * describes. Read from the project folder, so the compiled service in dist/ serves the same file.
 */
const GUIDE_FILE = path.join(projectRoot(path.dirname(fileURLToPath(import.meta.url))), 'src', 'http', 'guide.md');

let cached: string | undefined;

export function guideMarkdown(): string {
  return (cached ??= readFileSync(GUIDE_FILE, 'utf8'));
}
