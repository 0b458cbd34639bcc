// The README's walkthrough, run as it is written: its shell blocks are taken from README.md itself,
// so the README and this test cannot drift apart, and run with bash, curl and node against a service
// listening on a port, as a reader would run them against theirs.
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { freePort } from './helpers/service-process.ts';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
/** Where the README says the service answers; the test's service listens elsewhere. */
const README_ADDRESS = 'http://localhost:4000';

/** The shell blocks between the walkthrough markers, in order. */
function walkthroughBlocks(): string[] {
  const section = /<!-- walkthrough:start -->\n([\s\S]*?)<!-- walkthrough:end -->/.exec(README)?.[1];
  if (!section) throw new Error('README.md has no walkthrough between its markers');
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

/** The answers the README shows (`# {…}` and the export's lines), with `…` standing for anything. */
function shownAnswers(script: string): RegExp[] {
  return script
    .split('\n')
    .filter((line) => /^# (\{|User;|usr_)/.test(line))
    .map((line) => line.slice(2).replace(/ {2,}\(.*\)$/, ''))
    .map((shown) => new RegExp(shown.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*?')));
}

/** The walkthrough runs curl, as a reader does; without it the test is skipped, unless REQUIRE_CURL is set (CI). */
const haveCurl = spawnSync('curl', ['--version']).status === 0;
if (!haveCurl && !process.env.REQUIRE_CURL) console.warn('curl is missing: the README walkthrough test is skipped (sudo apt-get install -y curl)');

describe.skipIf(!haveCurl && !process.env.REQUIRE_CURL)('the README walkthrough', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    // The export link points at the base URL, so it must be the address the service listens on.
    t = await createTestApp({ BASE_URL: url });
    await t.app.listen(port, '127.0.0.1');
  });
  afterAll(async () => {
    t?.app.server.server.closeAllConnections();
    await t?.close();
  });

  it('takes an empty instance to a finished play and an export that holds the examinee', async () => {
    const script = walkthroughBlocks().join('\n');
    expect(script.split(README_ADDRESS).length, 'the README address appears once').toBe(2);
    // The identification strings the walkthrough keeps, printed after it for the checks below.
    const run = `${script.replace(README_ADDRESS, url)}\nprintf '\\n@@ %s %s %s\\n' "$EXAMINEE" "$EXAM" "$PLAY"\n`;
    const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', run], {
      env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? '/tmp', APP: t.admin.app, SECRET: t.admin.secret },
      timeout: 25_000,
    });

    const [examinee, exam, play] = /^@@ (usr_\S+) (exm_\S+) (ply_\S+)$/m.exec(stdout)?.slice(1) ?? [];
    expect(play, stdout).toBeDefined();
    // What the README shows as answers is what the calls answered.
    const shown = shownAnswers(script);
    expect(shown.length).toBeGreaterThanOrEqual(6);
    for (const answer of shown) expect(stdout).toMatch(answer);

    // The play is finished with its point, as the service itself records it.
    const results = await t.rpc('GET', 'exam:results:user', { exam, user: examinee });
    expect(results.status).toBe(200);
    expect(results.body.results).toEqual([expect.objectContaining({ play, user: examinee, time_end: expect.any(String), points_correct: 1, points_total: 1 })]);
    const stored = await t.db.prisma.play.findUniqueOrThrow({ where: { id: play } });
    expect(stored).toMatchObject({ status: 'finished', userId: examinee, examId: exam });

    // The export the walkthrough downloaded holds the examinee's finished result.
    expect(stdout).toContain(`${examinee};Jane Doe;jane@example.com;1;finished;`);
  }, 30_000);
});
