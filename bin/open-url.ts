// Opens a URL in the system's browser through the platform's opener (xdg-open, open, or cmd's
// start), found on PATH. Nothing here fails the command: when no opener can be run, the caller
// says so and the link it printed is still there to open by hand.
import { spawn } from 'node:child_process';

type Opener = { command: string; args: (url: string) => string[] };

/** The openers to try on this platform, in order. */
export function openersFor(platform: NodeJS.Platform): Opener[] {
  if (platform === 'darwin') return [{ command: 'open', args: (u) => [u] }];
  // start is a cmd built-in; its first quoted argument is the window title.
  if (platform === 'win32') return [{ command: 'cmd', args: (u) => ['/c', 'start', '""', u.replace(/&/g, '^&')] }];
  return [{ command: 'xdg-open', args: (u) => [u] }];
}

/** How long an opener may take to hand the URL over before it is left to run on its own. */
const HAND_OVER_MS = 5_000;

/** Runs one opener; why it did not work, or null when it took the URL. */
function tryOpener(opener: Opener, url: string): Promise<string | null> {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(opener.command, opener.args(url), { stdio: 'ignore', detached: true });
    } catch (err) {
      resolve(`${opener.command}: ${(err as Error).message}`);
      return;
    }
    const timer = setTimeout(() => {
      // Still running (it waits on the browser): it has the URL; let it be.
      child.unref();
      resolve(null);
    }, HAND_OVER_MS);
    child.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve(err.code === 'ENOENT' ? `no ${opener.command} to run` : `${opener.command}: ${err.message}`);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(code === 0 ? null : `${opener.command} exited with ${signal ?? `code ${code}`}`);
    });
  });
}

/** The opener that took the URL, or why none did. */
export async function openInBrowser(url: string, platform = process.platform): Promise<{ opened: string } | { failed: string }> {
  const reasons: string[] = [];
  for (const opener of openersFor(platform)) {
    const why = await tryOpener(opener, url);
    if (why === null) return { opened: opener.command };
    reasons.push(why);
  }
  return { failed: reasons.join('; ') };
}
