import type { GraphiQLOptions } from 'graphql-yoga';
import type { AssetResponse } from '../http/asset.ts';

/**
 * GraphiQL that works on a closed network. yoga's own page loads GraphiQL from a CDN; this one
 * serves the same build (yoga's @graphql-yoga/render-graphiql package, the version that matches
 * yoga) from this service under /graphiql/, split into files the browser caches instead of one
 * 9 MB page. The first minute:
 * - the Headers editor is open and holds the shape of the credentials, `{"Authorization": "Bearer
 *   <app>:<secret>"}`;
 * - until real credentials are there, nothing is sent: the result pane (and the docs) say where
 *   to put them, instead of a 401;
 * - credentials typed in the Headers of any tab are kept in one store (the browser's storage) that
 *   serves every tab at once and survives a reload; a tab still showing the placeholder sends the
 *   kept ones and never replaces them; once they are there, the schema is fetched again;
 * - tabs hold the operations a dashboard sends first and the player's flow (assume an examinee,
 *   start, answer, finish).
 */

export const GRAPHIQL_ASSET_PREFIX = '/graphiql/';

const CREDENTIALS = { Authorization: 'Bearer <app>:<secret>' };
export const CREDENTIALS_SHAPE = JSON.stringify(CREDENTIALS, null, 2);

/** What the player tabs send as the examinee: the token of the AssumeExaminee tab. */
export const ASSUME_SHAPE = '<token from the AssumeExaminee tab>';

/**
 * Example operations, one tab each; test/graphql/graphiql.test.ts runs them through /graphql and
 * test/browser/graphiql.test.ts in the page. `headers` are the tab's own, besides the credentials.
 */
export const EXAMPLE_OPERATIONS: readonly { query: string; variables?: string; headers?: Record<string, string> }[] = [
  {
    query: `# Who the call acts as: the owner of the application, or the user of an assume token.
# Credentials go in the Headers tab below: {"Authorization": "Bearer <app>:<secret>"}.
query Me {
  me {
    id
    username
    name
    email
    admin
    language
    integrations {
      id
      title
    }
  }
}
`,
  },
  {
    query: `# A page of the users the caller manages; pass pageInfo.endCursor as $after for the next page.
query Users($first: Int, $after: String, $search: String) {
  users(first: $first, after: $after, search: $search) {
    edges {
      node {
        id
        username
        name
        email
        status
        group
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
`,
    variables: JSON.stringify({ first: 20 }, null, 2),
  },
  {
    query: `# Organizations with their department tree (two levels) and members.
query OrganizationsWithDepartments($first: Int) {
  organizations(first: $first) {
    edges {
      node {
        id
        title
        departments {
          id
          title
          memberCount
          leaders {
            userId
            name
          }
          children {
            id
            title
            memberCount
          }
        }
      }
    }
  }
}
`,
    variables: JSON.stringify({ first: 10 }, null, 2),
  },
  {
    query: `# The compliance overview of one organization (for its reporters and department leaders).
# Put an organization's id (see the OrganizationsWithDepartments tab) in Variables.
query Compliance($organization: ID!) {
  organization(id: $organization) {
    title
    compliance {
      scope
      competencies {
        id
        title
      }
      departments {
        department {
          id
          title
        }
        members
        competencies {
          competency {
            title
          }
          status {
            completed
            progress
            waiting
            expired
            due
            overdue
          }
        }
      }
    }
  }
}
`,
    variables: JSON.stringify({ organization: '' }, null, 2),
  },
  {
    query: `# Item analysis of an exam's results (report permission on the exam): test statistics, and per
# question its facility, discrimination and flags for review. Put an exam's id in Variables;
# round (default: the current one) and attempts (FIRST, LAST or ALL) are optional.
query ExamStatistics($exam: ID!, $round: Int, $attempts: StatisticsAttempts) {
  node(id: $exam) {
    ... on Exam {
      title
      statistics(round: $round, attempts: $attempts) {
        round
        results
        leftOut {
          awaitingGrading
          withoutPoints
        }
        mean
        median
        standardDeviation
        skewness
        kurtosis
        cronbachAlpha
        errorRatio
        standardError
        questions {
          question {
            id
            externalId
            content
          }
          results
          answered
          facilityIndex
          standardDeviation
          discriminationIndex
          randomGuessScore
          options {
            text
            correct
            chosen
          }
          flags
        }
      }
    }
  }
}
`,
    variables: JSON.stringify({ exam: '', attempts: 'FIRST' }, null, 2),
  },
  {
    query: `# The exams dashboard: exams the caller may view, latest start first, with their state
# (status and the counts of examinees, started and finished results) and the current round.
query Exams($first: Int, $active: Boolean, $search: String) {
  exams(first: $first, active: $active, search: $search) {
    edges {
      node {
        id
        title
        type
        language
        start
        end
        status {
          status
          users
          started
          finished
        }
        round {
          current {
            round
            results
          }
        }
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
`,
    variables: JSON.stringify({ first: 20 }, null, 2),
  },
  {
    query: `# The player's flow, step 1 of 4: act as an examinee. A user you manage needs no password.
# Put the token in the Headers of the next tabs as "Service-API-Assume"; your credentials stay.
mutation AssumeExaminee($user: String!, $password: String) {
  assumeUser(user: $user, password: $password) {
    token
    valid
  }
}
`,
    variables: JSON.stringify({ user: '' }, null, 2),
  },
  {
    query: `# Step 2: the examinee starts its play of an exam (or continues its open one) and gets the questions.
mutation StartPlay($exam: ID!) {
  startPlay(input: { exam: $exam }) {
    id
    status
    attempt
    deadline
    questions {
      index
      question {
        id
        type
        content
        choices
      }
    }
  }
}
`,
    variables: JSON.stringify({ exam: '' }, null, 2),
    headers: { 'Service-API-Assume': ASSUME_SHAPE },
  },
  {
    query: `# Step 3: the examinee answers a question of its play (a string, or a list for choices);
# a new answer replaces the last one.
mutation AnswerQuestion($play: ID!, $question: ID!, $response: JSON!) {
  answerQuestion(input: { play: $play, question: $question, response: $response }) {
    question
    index
    response
    timeAnswer
  }
}
`,
    variables: JSON.stringify({ play: '', question: '', response: '' }, null, 2),
    headers: { 'Service-API-Assume': ASSUME_SHAPE },
  },
  {
    query: `# Step 4: the examinee finishes its play; every answer is scored.
mutation FinishPlay($play: ID!) {
  finishPlay(input: { play: $play }) {
    id
    status
    timeEnd
    result {
      questionsTotal
      questionsCorrect
      pointsTotal
      pointsCorrect
      grade
      successful
      valid
    }
  }
}
`,
    variables: JSON.stringify({ play: '' }, null, 2),
    headers: { 'Service-API-Assume': ASSUME_SHAPE },
  },
];

/** The options yoga hands to renderYogaGraphiQL (GraphiQL's own props). */
export function graphiqlOptions(title: string): GraphiQLOptions {
  return {
    title,
    headers: CREDENTIALS_SHAPE,
    defaultHeaders: CREDENTIALS_SHAPE,
    // The page keeps the credentials itself (start.js): GraphiQL's own persistence saves whatever
    // the Headers editor shows, the placeholder of a tab just opened too.
    shouldPersistHeaders: false,
    defaultEditorToolsVisibility: 'headers',
    defaultTabs: EXAMPLE_OPERATIONS.map((e) => ({
      query: e.query,
      variables: e.variables ?? null,
      headers: JSON.stringify({ ...CREDENTIALS, ...e.headers }, null, 2),
    })),
  };
}

/** `<` in JSON inside a script element would let text end the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** yoga's `renderGraphiQL`: the page references only this service's own files. */
export function renderOfflineGraphiQL(options: GraphiQLOptions): string {
  const p = GRAPHIQL_ASSET_PREFIX;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(options.title ?? 'GraphiQL')}</title>
<link rel="icon" href="${p}favicon.ico">
<link rel="stylesheet" href="${p}graphiql.css">
</head>
<body id="body" class="no-focus-outline">
<noscript>GraphiQL needs JavaScript.</noscript>
<div id="root"></div>
<script type="application/json" id="graphiql-options">${scriptJson(options)}</script>
<script src="${p}graphiql.js"></script>
<script src="${p}start.js"></script>
</body>
</html>`;
}

/**
 * Runs after GraphiQL's bundle: workers from this service, one credentials store for every tab, a
 * fetcher that sends nothing without credentials, and a schema re-fetch when credentials are entered.
 */
const START_SCRIPT = `(function () {
  'use strict';
  var options = JSON.parse(document.getElementById('graphiql-options').textContent);
  var endpoint = options.endpoint || location.pathname;
  var workers = { editorWorkerService: 'editor', json: 'json', graphql: 'graphql' };
  self.MonacoEnvironment = {
    globalAPI: false,
    getWorkerUrl: function (_moduleId, label) { return '${GRAPHIQL_ASSET_PREFIX}' + (workers[label] || 'editor') + '.worker.js'; }
  };
  var HINT = 'Enter your credentials in the Headers tab below: {"Authorization": "Bearer <app>:<secret>"} ' +
    '(or Bearer <base64(app:secret)>, or the Service-API-App and Service-API-Secret headers).';
  function parse(text) { try { var v = JSON.parse(text || '{}'); return v && typeof v === 'object' ? v : {}; } catch (e) { return undefined; } }
  // A value with <...> is a placeholder of the examples, never sent.
  function placeholder(value) { return /[<>]/.test(String(value)); }
  var CREDENTIAL_NAMES = ['authorization', 'service-api-app', 'service-api-secret'];
  function isCredential(name) { return CREDENTIAL_NAMES.indexOf(name.toLowerCase()) >= 0; }
  /** The credential headers of a headers object, when they are real ones; else undefined. */
  function credentialsOf(headers) {
    if (!headers) return undefined;
    var found = {}, lower = {};
    Object.keys(headers).forEach(function (k) {
      if (!isCredential(k) || placeholder(headers[k])) return;
      found[k] = String(headers[k]);
      lower[k.toLowerCase()] = String(headers[k]);
    });
    if (lower['service-api-app'] && lower['service-api-secret']) return found;
    return /^Bearer\\s+\\S+$/i.test(lower.authorization || '') ? found : undefined;
  }
  // One store for every tab: credentials typed in any tab's Headers replace it; a text without
  // real credentials (a tab that still shows the placeholder) never does.
  var CREDENTIALS_KEY = 'service:credentials';
  function savedCredentials() { return credentialsOf(parse(localStorage.getItem(CREDENTIALS_KEY))); }
  /**
   * What a tab sends: its own credentials if it has real ones, else the kept ones, with the tab's
   * other headers (such as Service-API-Assume) unless they are placeholders.
   */
  function headersFor(tab) {
    var own = credentialsOf(tab);
    var out = Object.assign({}, own || savedCredentials() || {});
    Object.keys(tab || {}).forEach(function (k) { if (!isCredential(k) && !placeholder(tab[k])) out[k] = String(tab[k]); });
    return own || Object.keys(out).some(isCredential) ? out : undefined;
  }
  // After a reload every tab opens with the kept credentials in place of the placeholder.
  var saved = savedCredentials();
  if (saved) {
    var shown = function (text) {
      var tab = parse(text) || {}, out = Object.assign({}, saved);
      Object.keys(tab).forEach(function (k) { if (!isCredential(k)) out[k] = tab[k]; });
      return JSON.stringify(out, null, 2);
    };
    options.headers = shown(options.headers);
    options.defaultHeaders = shown(options.defaultHeaders);
    options.defaultTabs = (options.defaultTabs || []).map(function (tab) { return Object.assign({}, tab, { headers: shown(tab.headers) }); });
  }
  // Tabs are not restored from storage: restored tabs came back with empty operations and an extra
  // tab (GraphiQL 5 under yoga's wrapper), so a reload opens the examples again.
  var forgotten = /(^|:)(tabState|query)$/;
  options.storage = {
    getItem: function (key) { return forgotten.test(key) ? null : localStorage.getItem(key); },
    setItem: function (key, value) { if (!forgotten.test(key)) localStorage.setItem(key, value); },
    removeItem: function (key) { localStorage.removeItem(key); },
    clear: function () { localStorage.clear(); },
    key: function (i) { return localStorage.key(i); },
    get length() { return localStorage.length; }
  };
  options.fetcher = function (params, fetcherOptions) {
    var headers = headersFor((fetcherOptions && fetcherOptions.headers) || {});
    if (!headers) return Promise.resolve({ errors: [{ message: HINT }] });
    return fetch(endpoint, {
      method: 'POST',
      credentials: 'same-origin',
      headers: Object.assign({ 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' }, headers),
      body: JSON.stringify(params)
    }).then(function (response) { return response.json(); });
  };
  var timer;
  options.onEditHeaders = function (text) {
    clearTimeout(timer);
    timer = setTimeout(function () {
      var typed = credentialsOf(parse(text));
      if (!typed) return;
      var value = JSON.stringify(typed);
      if (value === localStorage.getItem(CREDENTIALS_KEY)) return;
      localStorage.setItem(CREDENTIALS_KEY, value);
      var refetch = document.querySelector('[aria-label^="Re-fetch GraphQL schema"]');
      if (refetch) refetch.click();
    }, 400);
  };
  YogaGraphiQL.renderYogaGraphiQL(document.getElementById('root'), options);
})();
`;

interface Asset {
  type: string;
  body: () => Promise<string | Uint8Array<ArrayBuffer>>;
}

/** The bundle is 9 MB of text: loaded on the first request for it, not at start. */
const bundle = () => import('@graphql-yoga/render-graphiql/graphiql');

const ASSETS: Record<string, Asset> = {
  'graphiql.js': { type: 'text/javascript; charset=utf-8', body: async () => (await bundle()).js },
  'graphiql.css': { type: 'text/css; charset=utf-8', body: async () => (await bundle()).css },
  'editor.worker.js': { type: 'text/javascript; charset=utf-8', body: async () => (await bundle()).editorWorkerService },
  'json.worker.js': { type: 'text/javascript; charset=utf-8', body: async () => (await bundle()).jsonWorker },
  'graphql.worker.js': { type: 'text/javascript; charset=utf-8', body: async () => (await bundle()).graphqlWorker },
  'favicon.ico': { type: 'image/x-icon', body: async () => Buffer.from((await bundle()).favicon.replace(/^data:[^,]*;base64,/, ''), 'base64') },
  'start.js': { type: 'text/javascript; charset=utf-8', body: async () => START_SCRIPT },
};

/** `GET /graphiql/<file>`; undefined when the path is not one of them. */
export async function graphiqlAsset(path: string): Promise<AssetResponse | undefined> {
  if (!path.startsWith(GRAPHIQL_ASSET_PREFIX)) return undefined;
  const asset = ASSETS[path.slice(GRAPHIQL_ASSET_PREFIX.length)];
  if (!asset) return undefined;
  return {
    status: 200,
    headers: { 'content-type': asset.type, 'cache-control': 'public, max-age=86400', 'x-content-type-options': 'nosniff' },
    body: await asset.body(),
  };
}
