import type { GraphiQLOptions } from 'graphql-yoga';
import type { AssetResponse } from '../http/asset.ts';

/**
 * GraphiQL that works on a closed network. yoga's own page loads GraphiQL from a CDN; this one
 * serves the same build (yoga's @graphql-yoga/render-graphiql package, the version that matches
 * yoga) from this service under /graphiql/, split into files the browser caches instead of one
 * 9 MB page. The first minute:
 * - the Headers editor is open and holds the shape of the credentials, `{"Authorization": "Bearer
 *   <app>:<secret>"}`; GraphiQL keeps the headers in the browser's storage;
 * - until real credentials are there, nothing is sent: the result pane (and the docs) say where
 *   to put them, instead of a 401;
 * - once they are there, the schema is fetched again (GraphiQL's own re-fetch action);
 * - tabs hold the operations a dashboard sends first: me, a users page, organizations with their
 *   departments, an organization's compliance, an exam's item analysis.
 */

export const GRAPHIQL_ASSET_PREFIX = '/graphiql/';

export const CREDENTIALS_SHAPE = JSON.stringify({ Authorization: 'Bearer <app>:<secret>' }, null, 2);

/** Example operations, one tab each; test/graphql/graphiql.test.ts runs them. */
export const EXAMPLE_OPERATIONS: readonly { query: string; variables?: string }[] = [
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
];

/** The options yoga hands to renderYogaGraphiQL (GraphiQL's own props). */
export function graphiqlOptions(title: string): GraphiQLOptions {
  return {
    title,
    headers: CREDENTIALS_SHAPE,
    defaultHeaders: CREDENTIALS_SHAPE,
    shouldPersistHeaders: true,
    defaultEditorToolsVisibility: 'headers',
    defaultTabs: EXAMPLE_OPERATIONS.map((e) => ({ query: e.query, variables: e.variables ?? null, headers: CREDENTIALS_SHAPE })),
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
 * Runs after GraphiQL's bundle: workers from this service, a fetcher that sends nothing without
 * credentials, and a schema re-fetch when credentials are entered.
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
  function hasCredentials(headers) {
    if (!headers) return false;
    var lower = {};
    Object.keys(headers).forEach(function (k) { lower[k.toLowerCase()] = String(headers[k]); });
    if (lower['service-api-app'] && lower['service-api-secret']) return true;
    return /^Bearer\\s+[^<>\\s]+$/i.test(lower.authorization || '');
  }
  // GraphiQL keeps the last edited headers under graphiql:headers. Credentials entered once serve
  // every tab, now (the fetcher falls back to them) and after a reload (each tab opens with them).
  var HEADERS_KEY = 'graphiql:headers';
  function savedCredentials() { var saved = parse(localStorage.getItem(HEADERS_KEY)); return hasCredentials(saved) ? saved : undefined; }
  var saved = savedCredentials();
  if (saved) {
    var text = JSON.stringify(saved, null, 2);
    options.headers = text;
    options.defaultHeaders = text;
    options.defaultTabs = (options.defaultTabs || []).map(function (tab) { return Object.assign({}, tab, { headers: text }); });
  }
  // Tabs are not restored from storage: restored tabs came back with empty operations and an extra
  // tab (GraphiQL 5 under yoga's wrapper), so a reload opens the examples again; headers are kept.
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
    var headers = (fetcherOptions && fetcherOptions.headers) || {};
    if (!hasCredentials(headers)) headers = Object.assign({}, headers, savedCredentials() || {});
    if (!hasCredentials(headers)) return Promise.resolve({ errors: [{ message: HINT }] });
    return fetch(endpoint, {
      method: 'POST',
      credentials: 'same-origin',
      headers: Object.assign({ 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' }, headers),
      body: JSON.stringify(params)
    }).then(function (response) { return response.json(); });
  };
  var timer, fetchedWith;
  options.onEditHeaders = function (text) {
    clearTimeout(timer);
    timer = setTimeout(function () {
      if (!hasCredentials(parse(text)) || text === fetchedWith) return;
      fetchedWith = text;
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
