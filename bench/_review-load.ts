// Send load for the review bench, in its own process so the client does not share the API's event
// loop: one concurrent loop per agent, each posting sends with an intent until `count` are done.
// With `category_id` the sends name that category. Prints one JSON line:
// {accepted, released, refused, seconds, rate, firstError, loadMs}; `released` counts the 202s
// whose outcome is `released` (sent without review).
import http from 'node:http';

type Args = { bases: string[]; agents: Array<{ key: string; inbox: string }>; count: number; category_id?: string };

async function main(args: Args): Promise<void> {
  const agentPool = new http.Agent({ keepAlive: true, maxSockets: args.agents.length });
  let next = 0;
  let accepted = 0;
  let released = 0;
  let refused = 0;
  let firstError: string | null = null;
  const started = process.hrtime.bigint();
  await Promise.all(
    args.agents.map(async (agent, i) => {
      // Each agent talks to one API process, spread evenly.
      const url = new URL(args.bases[i % args.bases.length]!);
      for (;;) {
        const n = next++;
        if (n >= args.count) return;
        const res = await post(agentPool, url, `/v1/inboxes/${agent.inbox}/send`, agent.key, {
          to: `customer${n % 97}@acme.example`,
          subject: `Follow-up ${n}`,
          text: 'Thanks for the call today. The proposal is attached as discussed; let me know what you think.',
          intent: { summary: 'Follow up with the customer after the demo call, as they asked' },
          ...(args.category_id ? { category_id: args.category_id } : {}),
        });
        const body = res.body;
        if (res.status === 202) {
          accepted++;
          if (body.includes('"outcome":"released"')) released++;
        }
        else {
          refused++;
          firstError ??= `${res.status} ${body.slice(0, 300)}`;
        }
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage();
  console.log(JSON.stringify({ accepted, released, refused, seconds, rate: accepted / seconds, firstError, loadMs: (cpu.user + cpu.system) / 1000 }));
}

function post(agent: http.Agent, url: URL, path: string, key: string, body: unknown): Promise<{ status: number; body: string }> {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': payload.length, authorization: `Bearer ${key}` },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

main(JSON.parse(process.argv[2]!)).then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
