// Reading an SMTP server's replies off a bare socket, for the tests and benches that speak SMTP
// themselves (to see replies nodemailer would not show, or to keep a load generator lean).
import net from 'node:net';

/**
 * The replies arriving on `socket`, in order. `next()` resolves with the next whole reply, its
 * lines joined by "\n" ("250-" continues a reply, "250 " ends it), and rejects once the
 * connection has closed or failed with no reply left to give.
 */
export function smtpReplies(socket: net.Socket): { next(): Promise<string> } {
  const arrived: string[] = [];
  const waiting: Array<{ resolve: (reply: string) => void; reject: (err: Error) => void }> = [];
  let ended: Error | null = null;
  let buffer = '';
  let current: string[] = [];
  socket.on('data', (chunk: Buffer | string) => {
    buffer += typeof chunk === 'string' ? chunk : chunk.toString('latin1');
    let nl: number;
    while ((nl = buffer.indexOf('\r\n')) >= 0) {
      current.push(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 2);
      if (/^\d{3} /.test(current[current.length - 1]!)) {
        const reply = current.join('\n');
        current = [];
        const waiter = waiting.shift();
        if (waiter) waiter.resolve(reply);
        else arrived.push(reply);
      }
    }
  });
  const end = (err: Error) => {
    ended ??= err;
    for (const w of waiting.splice(0)) w.reject(ended);
  };
  socket.on('error', end);
  socket.on('close', () => end(new Error('connection closed')));
  return {
    next: () => {
      if (arrived.length > 0) return Promise.resolve(arrived.shift()!);
      if (ended) return Promise.reject(ended);
      return new Promise<string>((resolve, reject) => waiting.push({ resolve, reject }));
    },
  };
}

/** A bare SMTP dialogue with the server on `port`: the greeting, then the reply to each line. */
export async function smtpDialogue(port: number, lines: string[]): Promise<string[]> {
  const socket = net.connect(port, '127.0.0.1');
  const { next } = smtpReplies(socket);
  const replies = [await next()];
  for (const line of lines) {
    socket.write(`${line}\r\n`);
    replies.push(await next());
  }
  socket.end();
  return replies;
}
