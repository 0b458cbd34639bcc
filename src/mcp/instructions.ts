import { DEFAULT_TOOLSETS, TOOLSETS } from './toolsets.ts';

/**
 * What a client's model reads once, at initialize: how calls are authorised, how to act as
 * another user, how to get more tools, and the order in which the main work is done. Tool names
 * are the operation names (`post_quiz` is POST quiz); the words here are the contract's.
 */

const TOOLSET_LINES = TOOLSETS.map((t) => `- ${t.name}${DEFAULT_TOOLSETS.includes(t.name) ? ' (default)' : ''}: ${t.description}`).join('\n');

const STATIC_PART = `This server is the learning and assessment platform's REST/RPC contract as tools: each tool is one operation (its title says METHOD endpoint), run with the contract's rules, permissions and response fields.

Credentials. Every request to this endpoint carries the credentials of an API integration, as \`Authorization: Bearer <app>:<secret>\` (or that pair base64-encoded) or as the \`Service-API-App\` and \`Service-API-Secret\` headers. Each call acts as the integration's owner and may do what that user may do; a refusal names its status and code (403 PERMISSION_DENIED, 403 NOT_FOUND: something the caller may not see is reported as unknown). Integrations are made by administrators (integrations toolset, or the command line of the service).

Acting as another user. post_user_assume (POST user:assume, context toolset) answers a token for a user the caller may act for; pass it as the \`assume\` argument of any tool and that call acts as that user (for example an examinee). delete_user_assume ends it.

Toolsets. The client chooses the tools with the \`X-MCP-Toolsets\` header or the \`toolsets\` query parameter of the endpoint (/mcp?toolsets=exams,users): comma-separated names, \`default\` for the default set, \`all\` for every operation. \`X-MCP-Readonly: true\` (or readonly=true) keeps only the tools that change nothing. list_toolsets shows every toolset with its tools and which are selected. The toolsets:
${TOOLSET_LINES}

Workflow: from a Quiz set to results.
1. Quiz set: post_quiz (title) answers the quiz id.
2. Questions: post_question (id: your own reference, type, content, answer, options) for each question, then post_quiz_questions (quiz, questions: the question ids) puts them into the Quiz set; get_quiz_questions lists them.
3. Exam: post_exam (title, quiz, start, end as "YYYY-MM-DD HH:MM:SS") answers the exam id; its settings are in the settings toolset; get_exam_status tells whether it is open.
4. Examinees: post_exam_users (exam, users: user ids) admits users; get_exam_users lists them. Users are found or created with the users toolset (get_users, post_user).
5. Play: examinees play in the player (the exam's link), or through the GraphQL API at /graphql (startPlay, answerQuestion, finishPlay) acting as the examinee with an assume token.
6. Results: get_exam_results_user (exam, user) and get_quiz_results_play (play) read results; post_exam_results_export exports an exam's results.

Arguments are those of the contract (snake_case); lists may be JSON arrays or comma-separated text. A tool whose operation fails answers a result with isError, holding "<status> <CODE>: <message>" and the error body; nothing was changed by a refused call.`;

export function instructions(selected: ReadonlySet<string>, readOnly: boolean): string {
  const now = TOOLSETS.filter((t) => selected.has(t.name)).map((t) => t.name);
  return `${STATIC_PART}\n\nSelected for this connection: ${now.join(', ')}${readOnly ? ' (read-only)' : ''}.`;
}
