/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof`): where the self time goes, grouped by area
 * (a package under node_modules, a file under src/, node internals, garbage collection) and by
 * function. Self time, not inclusive time: the hot path is asynchronous, so a caller's stack does
 * not contain the database work it awaits.
 *
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/rest-vs-bare.ts
 *   npx tsx bench/profile-summary.ts /tmp/prof/CPU.*.001.cpuprofile     (the main thread's profile)
 *   npx tsx bench/profile-summary.ts <file> 40 --last 6      (top 40, only the profile's last 6 s:
 *                                                             the measured run, without start-up)
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  endTime: number;
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function area(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const src = /\/(src\/.*)$/.exec(url);
  if (src) return src[1]!;
  if (url.startsWith('node:')) return url.replace(/^node:internal\/([^/]+).*/, 'node:$1');
  return url.replace(/^.*\//, '');
}

const [file, topArg] = process.argv.slice(2).filter((a, i, all) => a !== '--last' && all[i - 1] !== '--last');
const lastAt = process.argv.indexOf('--last');
const lastSeconds = lastAt > 0 ? Number(process.argv[lastAt + 1]) : Infinity;
if (!file) {
  console.error('usage: tsx bench/profile-summary.ts <file.cpuprofile> [top]');
  process.exit(2);
}
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfByArea = new Map<string, number>();
const selfByFunction = new Map<string, number>();
let total = 0;
const from = profile.endTime - lastSeconds * 1e6;
let at = profile.startTime;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  at += dt;
  if (at < from) return;
  const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
  if (functionName === '(idle)' || functionName === '(program)') return;
  total += dt;
  const a = area(url, functionName);
  selfByArea.set(a, (selfByArea.get(a) ?? 0) + dt);
  const f = `${functionName || '(anonymous)'} ${a}:${lineNumber + 1}`;
  selfByFunction.set(f, (selfByFunction.get(f) ?? 0) + dt);
});

const print = (title: string, map: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${key}`);
  }
};
console.log(`busy time (without idle): ${(total / 1000).toFixed(0)} ms`);
print('self time by area', selfByArea);
print('self time by function', selfByFunction);
