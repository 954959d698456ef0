// A job queue on a database of its own, with a pool and a listener for wake-ups, for tests that run
// workers without a service; closed after the file.
import { createListener, type Listener } from '../service/listener.ts';
import { createLogger, type Logger } from '../service/logger.ts';
import { startQueue, type Queue } from '../service/queue.ts';
import { createPool, endPool, type Pool } from '../storage/db.ts';
import { createTestDatabase } from './db.ts';
import { after } from './test.ts';

export async function openTestQueue(): Promise<{ db: Pool; queue: Queue; listener: Listener; log: Logger }> {
  const database = await createTestDatabase();
  const log = createLogger('silent');
  const db = createPool(database.url, log, 4);
  const queue = await startQueue(database.url, log);
  const listener = createListener(database.url, log);
  after(async () => {
    await listener.close();
    await queue.stop();
    await endPool(db);
    await database.drop();
  });
  return { db, queue, listener, log };
}
