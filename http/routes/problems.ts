// The problem type pages: `{problems_base}/<code>`, the `type` of every problem+json the service
// answers, resolves here to the code's status, meaning and what to do about it. Rendered from the
// one error registry (machines/problems.ts), so a page exists for exactly the codes the API uses.
import { ERROR_CODES, Problem, type ErrorCode } from '../../machines/problems.ts';
import type { ApiContext, RouteTable, Services } from '../context.ts';
import { escapeHtml, inlineCode, pageShell, sendPage } from '../pages.ts';
import { problemsBase } from '../pipeline.ts';

type ProblemType = { type: string; code: string; title: string; status: number; meaning: string; action: string };

const isCode = (code: string): code is ErrorCode => Object.hasOwn(ERROR_CODES, code);

function problemType(s: Services, code: ErrorCode): ProblemType {
  const { title, status, meaning, action } = ERROR_CODES[code];
  return { type: `${problemsBase(s)}/${code}`, code, title, status, meaning, action };
}

/** JSON only when the client prefers it; browsers, and clients that name no preference, get the page. */
function wantsJson(ctx: ApiContext): boolean {
  const best = ctx.accepts('text/html', 'application/json', 'application/problem+json');
  return best === 'application/json' || best === 'application/problem+json';
}

function typePage(p: ProblemType): string {
  return pageShell(
    `${p.code}: ${p.title}`,
    `<p><a href="../problems">All problem types</a></p>` +
      `<h1><code>${escapeHtml(p.code)}</code></h1>` +
      `<p><strong>${escapeHtml(p.title)}</strong>. HTTP status <strong>${p.status}</strong>.</p>` +
      `<h2>What it means</h2><p>${inlineCode(p.meaning)}</p>` +
      `<h2>What to do</h2><p>${inlineCode(p.action)}</p>` +
      `<p>Branch on the response's <code>code</code> member, not on <code>title</code> or <code>detail</code>.</p>`,
  );
}

function listPage(types: ProblemType[]): string {
  const rows = types
    .map((p) => `<tr><td><a href="problems/${p.code}"><code>${p.code}</code></a></td><td>${p.status}</td><td>${inlineCode(p.meaning)}</td></tr>`)
    .join('');
  return pageShell(
    'Problem types',
    `<h1>Problem types</h1><p>Every error is <code>application/problem+json</code> with one of these <code>code</code> values; ` +
      `its <code>type</code> links to the code's page.</p>` +
      `<table><thead><tr><th>code</th><th>status</th><th>meaning</th></tr></thead><tbody>${rows}</tbody></table>`,
  );
}

export function problemRoutes(s: Services): RouteTable {
  return {
    listProblems: async (ctx) => {
      const types = (Object.keys(ERROR_CODES) as ErrorCode[]).map((code) => problemType(s, code));
      ctx.vary('Accept');
      if (wantsJson(ctx)) ctx.body = { data: types };
      else sendPage(ctx, listPage(types));
    },
    getProblem: async (ctx) => {
      const code = ctx.state.params.code!;
      if (!isCode(code)) throw new Problem('not_found', { detail: `No problem type ${code}; GET /problems lists them.` });
      const type = problemType(s, code);
      ctx.vary('Accept');
      if (wantsJson(ctx)) ctx.body = type;
      else sendPage(ctx, typePage(type));
    },
  };
}
