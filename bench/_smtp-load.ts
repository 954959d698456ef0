// SMTP load, run as its own process so the sender does not share the server's event loop:
// `concurrency` connections, each sending its share of `count` messages one after another; with
// `reuse: false` each message has a connection of its own (connect, greeting, EHLO, one
// transaction, QUIT), as many MTAs deliver.
// A lean client (PIPELINING: MAIL, RCPT and DATA in one write, then the body) keeps the
// sender's CPU small, since it shares this 2-core machine with the server it measures.
// Prints one JSON line: {sent, failed, seconds, rate, firstError, loadMs} (loadMs: this process's CPU);
// with `progress`, a line {progress: sent} before it each time that many more were sent.
import net from 'node:net';
import { smtpReplies } from '../testkit/smtp-replies.ts';
import { bodyOf } from './_mail-bodies.ts';

type Args = { port: number; to: string[]; bytes: number; count: number; concurrency: number; tag: string; reuse: boolean; progress?: number };

/** One SMTP connection; `send` resolves with the reply to the end of DATA. */
async function connect(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  const reply = smtpReplies(socket).next;
  const expect = async (code: string) => {
    const r = await reply();
    if (!r.startsWith(code)) throw new Error(r);
  };
  await expect('220');
  socket.write('EHLO load.sender.example\r\n');
  await expect('250');
  return {
    async send(from: string, to: string, raw: Buffer): Promise<void> {
      const replies = [expect('250'), expect('250'), expect('354')];
      socket.write(`MAIL FROM:<${from}> SIZE=${raw.length}\r\nRCPT TO:<${to}>\r\nDATA\r\n`);
      const settled = await Promise.allSettled(replies);
      const failed = settled.find((r) => r.status === 'rejected') as PromiseRejectedResult | undefined;
      if (failed) {
        if (settled[2]!.status === 'fulfilled') socket.write('.\r\n');
        throw failed.reason;
      }
      const done = expect('250');
      socket.write(Buffer.concat([dotStuff(raw), Buffer.from(raw.subarray(-2).toString() === '\r\n' ? '.\r\n' : '\r\n.\r\n')]));
      await done;
    },
    destroy: () => socket.destroy(),
    close: async () => {
      const bye = expect('221').catch(() => {});
      socket.write('QUIT\r\n');
      await bye;
      socket.end();
    },
  };
}

function dotStuff(raw: Buffer): Buffer {
  const text = raw.toString('latin1');
  return text.includes('\n.') || text.startsWith('.') ? Buffer.from(text.replace(/(^|\n)\./g, '$1..'), 'latin1') : raw;
}

async function main(args: Args): Promise<void> {
  const template = bodyOf(args.bytes, args.tag);
  let next = 0;
  let sent = 0;
  let failed = 0;
  let firstError: string | null = null;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: args.concurrency }, async () => {
      let conn: Awaited<ReturnType<typeof connect>> | null = null;
      for (;;) {
        const n = next++;
        if (n >= args.count) break;
        const to = args.to[n % args.to.length]!;
        try {
          conn ??= await connect(args.port);
          await conn.send('load@sender.example', to, template(n, to));
          sent++;
          if (args.progress && sent % args.progress === 0) console.log(JSON.stringify({ progress: sent }));
          if (!args.reuse) await conn.close();
        } catch (err) {
          failed++;
          firstError ??= (err as Error).message;
          conn?.destroy();
          conn = null;
        }
        if (!args.reuse) conn = null;
      }
      await conn?.close();
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage();
  console.log(JSON.stringify({ sent, failed, seconds, rate: sent / seconds, firstError, loadMs: (cpu.user + cpu.system) / 1000 }));
}

main(JSON.parse(process.argv[2]!)).then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
