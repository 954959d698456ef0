// Group commit for inbound mail. A message is stored at once when a storing slot is free; while
// every slot is busy, the messages that arrive wait and are then stored together in one
// transaction. Under load each message then costs a share of one BEGIN and one COMMIT instead of
// its own; when idle nothing waits. Each sender still gets
// its 250 only once its own message is committed. When a batch fails, its messages are retried
// one by one, so one message that cannot be stored never takes others down with it.
import { ingestMessage, ingestMessages, type IngestInput, type IngestServices, type StoredMessage } from './ingest.ts';

export type Ingest = (input: IngestInput) => Promise<StoredMessage[]>;

type Waiting = { input: IngestInput; resolve: (stored: StoredMessage[]) => void; reject: (err: unknown) => void };

export function batchingIngest(s: IngestServices, opts: { slots?: number; maxBatch?: number } = {}): Ingest {
  // Measured on two cores (npm run bench -- inbound): three slots store the most a second.
  const slots = opts.slots ?? 3;
  const maxBatch = opts.maxBatch ?? 32;
  const queue: Waiting[] = [];
  let busy = 0;

  const run = async (batch: Waiting[]): Promise<void> => {
    if (batch.length > 1) {
      try {
        const stored = await ingestMessages(s, batch.map((w) => w.input));
        batch.forEach((w, i) => w.resolve(stored[i]!));
        return;
      } catch {
        // retried one by one below
      }
    }
    for (const w of batch) await ingestMessage(s, w.input).then(w.resolve, w.reject);
  };

  const pump = (): void => {
    while (busy < slots && queue.length > 0) {
      busy++;
      void run(queue.splice(0, maxBatch)).finally(() => {
        busy--;
        pump();
      });
    }
  };

  return (input) =>
    new Promise<StoredMessage[]>((resolve, reject) => {
      queue.push({ input, resolve, reject });
      pump();
    });
}
