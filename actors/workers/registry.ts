// Every background worker, in one list. A worker process runs all of them.
import { maintenanceWorker } from './maintenance.ts';
import type { Worker } from './worker.ts';

export const WORKERS: Worker<any>[] = [maintenanceWorker];
