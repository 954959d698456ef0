// Folders tests write to, removed when the test process exits: a worker runs many files, and a
// folder removed at its end cannot be pulled from under a service another hook has yet to stop.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const made: string[] = [];

/** A new empty folder in the system's temporary folder, named `agent-inbox-<name>-…`. */
export function scratchDir(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `agent-inbox-${name}-`));
  if (made.length === 0) process.on('exit', removeAll);
  made.push(dir);
  return dir;
}

function removeAll(): void {
  for (const dir of made.splice(0)) {
    try {
      fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // A folder a child process still writes to is left: the exit goes on.
    }
  }
}
