// The inbound bench's durable reference, a process of its own: the least an MTA must do before it
// may say 250 and keep its word through a power cut. Each message's DATA goes to a file of its own
// in a Maildir's tmp/, the file is fsync'd, renamed into new/, and new/ is fsync'd so the rename
// lasts; only then the 250. Nothing is parsed, indexed or threaded. The service's own SMTP server
// (smtp-server, greeting at once) takes the sessions, so the difference is what is done with each
// message.
//
//   node --import tsx bench/_durable-mta.ts <maildir>     prints its port, then serves until killed
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { PromptGreetingServer } from '../mail/inbound/prompt-greeting.ts';

const maildir = process.argv[2]!;
await Promise.all(['tmp', 'new', 'cur'].map((d) => fs.mkdir(path.join(maildir, d), { recursive: true })));

async function deliver(stream: NodeJS.ReadableStream): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const name = `${Date.now()}.${randomUUID()}.bench`;
  const tmp = path.join(maildir, 'tmp', name);
  const file = await fs.open(tmp, 'wx');
  try {
    await file.writev(chunks);
    await file.sync();
  } finally {
    await file.close();
  }
  await fs.rename(tmp, path.join(maildir, 'new', name));
  const dir = await fs.open(path.join(maildir, 'new'), 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}

const server = new PromptGreetingServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  disableReverseLookup: true,
  logger: false,
  onData: (stream, _session, callback) => deliver(stream).then(() => callback(), callback),
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${(server.server.address() as { port: number }).port}\n`);
});
