// The benches' relay, started as a process of its own (_relay-process.ts): a relay is another
// machine's work, and taking thousands of mails must not share the service's event loop. Tells
// when each message arrived, on the clock epochNow reads, and the CPU the relay used.
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Now, in ms since the epoch: the clock the relay's arrivals are read on. */
export const epochNow = (): number => performance.timeOrigin + performance.now();

export type Relay = {
  url: string;
  /** When the message arrived, in ms since the epoch (epochNow's clock). */
  arrival(messageId: string): Promise<number>;
  /** The CPU the relay's process has used so far, in ms. */
  cpuMs(): Promise<number>;
  close(): Promise<void>;
};

export async function startRelay(): Promise<Relay> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, '_relay-process.ts')], {
    cwd: path.resolve(here, '..'),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const arrivals = new Map<string, (at: number) => void>();
  let cpu: ((ms: number) => void) | null = null;
  let ready: (port: number) => void = () => {};
  const port = new Promise<number>((resolve, reject) => {
    ready = resolve;
    void exited.then(() => reject(new Error('the relay exited before it was ready')));
  });
  readline.createInterface({ input: child.stdout! }).on('line', (line) => {
    const m = JSON.parse(line) as { ready?: true; port?: number; id?: string; at?: number; cpuMs?: number };
    if (m.ready) ready(m.port!);
    else if (m.id !== undefined) arrivals.get(m.id)?.(m.at!);
    else if (m.cpuMs !== undefined) cpu?.(m.cpuMs);
  });
  const ask = (line: object) => child.stdin!.write(`${JSON.stringify(line)}\n`);
  return {
    url: `smtp://127.0.0.1:${await port}`,
    arrival: (messageId) =>
      new Promise<number>((resolve) => {
        arrivals.set(messageId, resolve);
        ask({ watch: messageId });
      }),
    cpuMs: () =>
      new Promise<number>((resolve) => {
        cpu = resolve;
        ask({ cpu: true });
      }),
    close: async () => {
      child.stdin!.end();
      await exited;
    },
  };
}
