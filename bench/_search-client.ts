// The search bench's client, run as its own process so that its requests and the parsing of
// their answers do not share the service's event loop (as the SMTP and SSE loads run apart).
// Reads one JSON object on stdin: the service's URL, an agent key, the inbox, the database URL and
// the queries in the order to run them; for each, its search (paged as far as asked), then the two
// references timed in the same loop: a primary-key SELECT of one message on its own connection,
// and the HTTP read of one message. Prints one JSON line with every timing, in ms.
import pg from 'pg';

export type SearchClientArgs = {
  httpUrl: string;
  key: string;
  inbox: { org_id: string; id: string };
  databaseUrl: string;
  /** Message ids to read by key and over HTTP, one at random each time. */
  ids: string[];
  /** Each query with its kind; `counted` false for the warm-up rounds. */
  queries: Array<{ kind: string; params: Record<string, string>; pages: number; counted: boolean }>;
};

export type SearchClientResult = { byKind: Record<string, number[]>; hits: Record<string, number>; pk: number[]; get: number[] };

async function main(args: SearchClientArgs): Promise<SearchClientResult> {
  const headers = { authorization: `Bearer ${args.key}` };
  const db = new pg.Client({ connectionString: args.databaseUrl });
  await db.connect();
  const id = () => args.ids[Math.floor(Math.random() * args.ids.length)]!;
  const get = async (url: string) => {
    const started = performance.now();
    const r = await fetch(url, { headers });
    const body = await r.json();
    const ms = performance.now() - started;
    if (r.status !== 200) throw new Error(`${url} answered ${r.status}: ${JSON.stringify(body)}`);
    return { ms, body };
  };
  const search = (params: Record<string, string>) => get(`${args.httpUrl}/v1/inboxes/${args.inbox.id}/messages/search?${new URLSearchParams(params)}`);
  const result: SearchClientResult = { byKind: {}, hits: {}, pk: [], get: [] };
  const hitSums: Record<string, number> = {};
  try {
    for (const q of args.queries) {
      let page = await search(q.params);
      for (let p = 1; p < q.pages && page.body.next_cursor; p++) page = await search({ ...q.params, cursor: page.body.next_cursor });
      const started = performance.now();
      await db.query('SELECT id, subject FROM messages WHERE org_id = $1 AND inbox_id = $2 AND id = $3', [args.inbox.org_id, args.inbox.id, id()]);
      const pkMs = performance.now() - started;
      const read = await get(`${args.httpUrl}/v1/messages/${id()}`);
      if (!q.counted) continue;
      (result.byKind[q.kind] ??= []).push(page.ms);
      hitSums[q.kind] = (hitSums[q.kind] ?? 0) + page.body.data.length;
      result.pk.push(pkMs);
      result.get.push(read.ms);
    }
  } finally {
    await db.end();
  }
  result.hits = Object.fromEntries(Object.entries(hitSums).map(([k, v]) => [k, Math.round(v / result.byKind[k]!.length)]));
  return result;
}

let input = '';
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) input += chunk;
console.log(JSON.stringify(await main(JSON.parse(input) as SearchClientArgs)));
