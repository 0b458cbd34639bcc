import { describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { TestApp } from '../helpers/app.ts';
import { bearer, connectMcp, listeningTestApp, resultText, type McpConnectOptions } from '../helpers/mcp.ts';
import { operations } from '../../src/rest/operations.ts';
import { routes } from '../../src/rest/routes.ts';

let t: TestApp;
let base: string;
listeningTestApp((app, url) => {
  t = app;
  base = url;
});

/** The tool names a client sees with these options (the client closed again). */
async function toolNames(options: McpConnectOptions): Promise<string[]> {
  const client = await connectMcp(base, bearer(t.admin), options);
  try {
    return (await client.listTools()).tools.map((tool) => tool.name);
  } finally {
    await client.close();
  }
}

/** Every implemented operation as its tool name: METHOD endpoint, lower case, ':' as '_'. */
const everyOperation = operations
  .filter((o) => routes[`${o.method} ${o.endpoint}`] !== undefined)
  .map((o) => `${o.method.toLowerCase()}_${o.endpoint.replaceAll(':', '_')}`);

/** The toolsets, each with its size and tools it must hold. */
const TOOLSETS: Record<string, { size: number; holds: string[] }> = {
  context: { size: 3, holds: ['get_user_me', 'post_user_assume', 'delete_user_assume'] },
  users: { size: 13, holds: ['get_users', 'post_user', 'delete_user', 'get_user_search', 'post_user_login'] },
  organizations: { size: 20, holds: ['post_organization', 'get_organization_departments', 'get_organization_compliance', 'post_user_organizations'] },
  classes: { size: 10, holds: ['get_classes', 'post_class_members', 'get_user_classes'] },
  integrations: { size: 9, holds: ['post_integration', 'post_integration_keys', 'get_test_app'] },
  webhooks: { size: 5, holds: ['post_organization_webhook', 'post_organization_webhook_trigger'] },
  permissions: { size: 40, holds: ['post_quiz_permission', 'post_exam_transfer', 'get_tag_permission'] },
  tags: { size: 38, holds: ['get_tags', 'get_tag', 'post_exam_tag', 'get_quiz_tags'] },
  quizzes: { size: 9, holds: ['post_quiz', 'get_quizes', 'post_quiz_questions', 'get_quiz_skills'] },
  questions: { size: 7, holds: ['post_question', 'get_questions', 'post_question_export'] },
  grading: { size: 5, holds: ['get_quiz_grading-presets', 'post_quiz_grading-preset'] },
  exams: { size: 11, holds: ['post_exam', 'get_exams', 'post_exam_users', 'get_exam_status'] },
  settings: { size: 16, holds: ['put_quiz_settings', 'patch_exam_settings', 'post_exam_fields', 'post_exam_branding', 'post_exam_round'] },
  journeys: { size: 5, holds: ['put_exam_journey_graph', 'post_exam_journey_publish'] },
  results: { size: 5, holds: ['get_exam_results_user', 'get_quiz_results_play', 'post_exam_results_export'] },
  certificates: { size: 3, holds: ['post_exam_certificates', 'get_exam_certificates_user'] },
};

describe('toolsets', () => {
  it('serves the assessment workflow by default, under 40 tools', async () => {
    const names = await toolNames({});
    expect(names.length).toBe(36);
    expect(names.length).toBeLessThan(40);
    expect(names).toEqual(expect.arrayContaining(['list_toolsets', 'get_user_me', 'post_user_assume', 'post_quiz', 'post_question', 'post_quiz_questions', 'post_exam', 'post_exam_users', 'get_exam_results_user']));
    for (const absent of ['post_user', 'get_organization', 'post_quiz_permission', 'put_exam_settings', 'post_integration']) expect(names).not.toContain(absent);
    // `default` named explicitly is the same set.
    expect(new Set(await toolNames({ toolsets: 'default' }))).toEqual(new Set(names));
  });

  it('serves every operation with all', async () => {
    const names = await toolNames({ toolsets: 'all' });
    expect(everyOperation.length).toBe(199);
    expect(new Set(names)).toEqual(new Set(['list_toolsets', ...everyOperation]));
    expect(names.length).toBe(200);
  });

  it('serves each domain toolset alone; together they are every operation, each in one', async () => {
    const seen: string[] = [];
    for (const [name, expected] of Object.entries(TOOLSETS)) {
      const names = (await toolNames({ toolsets: name })).filter((n) => n !== 'list_toolsets');
      expect(names.length, name).toBe(expected.size);
      expect(names, name).toEqual(expect.arrayContaining(expected.holds));
      seen.push(...names);
    }
    expect(seen.length).toBe(199);
    expect(new Set(seen)).toEqual(new Set(everyOperation));
  });

  it('takes the union of the header and the query parameter, names in any case', async () => {
    const names = await toolNames({ toolsets: 'Users', query: 'toolsets=webhooks,context' });
    expect(names.length).toBe(1 + 13 + 5 + 3);
    expect(names).toEqual(expect.arrayContaining(['post_user', 'post_organization_webhook', 'get_user_me']));
    expect(await toolNames({ query: 'toolsets=grading' })).toEqual(['list_toolsets', 'get_quiz_grading-presets', 'get_quiz_grading-preset', 'post_quiz_grading-preset', 'patch_quiz_grading-preset', 'delete_quiz_grading-preset']);
  });

  it('keeps only the tools that change nothing when read-only', async () => {
    const client = await connectMcp(base, bearer(t.admin), { toolsets: 'quizzes', headers: { 'x-mcp-readonly': 'true' } });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['get_quiz', 'get_quiz_questions', 'get_quiz_skills', 'get_quizes', 'list_toolsets']);
    for (const tool of tools) expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    const before = await t.db.prisma.quizSet.count();
    await expect(client.callTool({ name: 'post_quiz', arguments: { title: 'Not made' } })).rejects.toThrow(/read-only/);
    expect(await t.db.prisma.quizSet.count()).toBe(before);
    expect(await client.getInstructions()).toContain('Selected for this connection: quizzes (read-only).');
    await client.close();
    expect(await toolNames({ toolsets: 'quizzes', query: 'readonly=false' })).toContain('post_quiz');
  });

  it('keeps the hints of destructive operations in every toolset', async () => {
    const client = await connectMcp(base, bearer(t.admin), { toolsets: 'all' });
    const byName = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool]));
    expect(byName.get('delete_exam')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get('put_quiz_settings')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get('post_exam_users')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(byName.get('get_exam_results_user')!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    await client.close();
  });

  it('refuses an unknown toolset or readonly value with 400, naming it', async () => {
    await expect(connectMcp(base, bearer(t.admin), { toolsets: 'exams,repos' })).rejects.toThrow();
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const post = (url: string, headers: Record<string, string>) =>
      fetch(url, {
        method: 'POST',
        headers: { authorization: bearer(t.admin), 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(initialize),
      });
    const unknown = await post(`${base}/mcp?toolsets=exams,repos`, {});
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as any).error.message).toMatch(/^Unknown toolset 'repos'; known: all, default, context, /);
    const flag = await post(`${base}/mcp`, { 'x-mcp-readonly': 'maybe' });
    expect(flag.status).toBe(400);
    expect(((await flag.json()) as any).error.message).toBe("readonly must be true or false, not 'maybe'");
  });

  it('refuses a tool of a toolset the connection did not select, and changes nothing', async () => {
    const client = await connectMcp(base, bearer(t.admin));
    const before = await t.db.prisma.user.count();
    await expect(
      client.callTool({ name: 'post_user', arguments: { username: 'not-selected', first_name: 'N', last_name: 'S', email: 'ns@example.com' } }),
    ).rejects.toThrow(/toolset 'users'/);
    expect(await t.db.prisma.user.count()).toBe(before);
    await client.close();
  });

  it('lists the toolsets with their tools and which this connection selected', async () => {
    const client = await connectMcp(base, bearer(t.admin), { toolsets: 'exams,users' });
    const result = await client.callTool({ name: 'list_toolsets', arguments: {} });
    const { toolsets } = result.structuredContent as { toolsets: { name: string; selected: boolean; tools: string[] }[] };
    expect(toolsets.map((s) => s.name).sort()).toEqual(Object.keys(TOOLSETS).sort());
    expect(toolsets.filter((s) => s.selected).map((s) => s.name).sort()).toEqual(['exams', 'users']);
    expect(toolsets.find((s) => s.name === 'grading')!.tools).toEqual(['get_quiz_grading-presets', 'get_quiz_grading-preset', 'post_quiz_grading-preset', 'patch_quiz_grading-preset', 'delete_quiz_grading-preset']);
    await client.close();
  });
});

describe('instructions', () => {
  it('explain credentials, assume, toolsets and the workflow', async () => {
    const client = await connectMcp(base, bearer(t.admin));
    const instructions = client.getInstructions()!;
    expect(instructions).toContain('Authorization: Bearer <app>:<secret>');
    expect(instructions).toContain('Service-API-App');
    expect(instructions).toContain('POST user:assume');
    expect(instructions).toContain('`assume` argument');
    expect(instructions).toContain('X-MCP-Toolsets');
    expect(instructions).toContain('- users: User accounts');
    for (const step of ['post_quiz', 'post_question', 'post_quiz_questions', 'post_exam', 'post_exam_users', 'startPlay', 'get_exam_results_user']) {
      expect(instructions).toContain(step);
    }
    expect(instructions).toContain('Selected for this connection: context, results, questions, quizzes, exams.');
    // Self-contained: no pointers to outside texts.
    expect(instructions).not.toMatch(/Document [AB]|section/i);
    await client.close();
  });
});

describe('the workflow through tools', () => {
  it('creates a Quiz set with questions, an exam, and admits an examinee who can then act through assume', async () => {
    const client = await connectMcp(base, bearer(t.admin), { toolsets: 'default,users' });
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, `${name}: ${resultText(result)}`).toBeFalsy();
      return result.structuredContent as Record<string, any>;
    };
    const { quiz } = await call('post_quiz', { title: 'Capitals' });
    expect(quiz).toMatch(/^qz_/);
    const { question: paris } = await call('post_question', { id: 'capital-fr', type: 'choice', content: 'Capital of France?', answer: 'Paris', options: ['Lyon', 'Nice'] });
    const { question: rome } = await call('post_question', { id: 'capital-it', type: 'generic', content: 'Capital of Italy?', answer: 'Rome' });
    await call('post_quiz_questions', { quiz, questions: [paris, rome] });
    const listed = await call('get_quiz_questions', { quiz });
    expect(JSON.stringify(listed)).toContain(paris);
    expect(JSON.stringify(listed)).toContain(rome);

    const { exam } = await call('post_exam', { title: 'Capitals exam', quiz, start: '2030-01-01 08:00:00', end: '2030-01-31 20:00:00' });
    expect(exam).toMatch(/^exm_/);
    const { user: examinee } = await call('post_user', { username: 'mcp-examinee', first_name: 'Eva', last_name: 'Examinee', email: 'eva@example.com', password: 'secret-1' });
    expect(await call('post_exam_users', { exam, users: [examinee] })).toEqual({ exam, users: 1, success: true });
    expect(await call('get_exam_users', { exam })).toEqual({ users: [{ user: examinee, name: 'Eva Examinee' }] });

    // In the database: the Quiz set holds both questions, the exam runs on it, the examinee is admitted.
    const items = await t.db.prisma.quizItem.findMany({ where: { quizId: quiz } });
    expect(items.map((i) => i.questionId).sort()).toEqual([paris, rome].sort());
    expect(await t.db.prisma.exam.findUniqueOrThrow({ where: { id: exam } })).toMatchObject({ title: 'Capitals exam', quizId: quiz });
    expect(await t.db.prisma.examUser.findMany({ where: { examId: exam }, select: { userId: true } })).toEqual([{ userId: examinee }]);

    // Acting as the examinee: user:me answers for that user, who is in an exam now.
    const { token } = await call('post_user_assume', { user: examinee });
    const me = await call('get_user_me', { assume: token });
    expect(me).toMatchObject({ user: examinee, name: 'Eva Examinee' });
    expect(await call('get_exam_results_user', { exam, user: examinee })).toEqual({ results: [] });
    await client.close();
  });
});
