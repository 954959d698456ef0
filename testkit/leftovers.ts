// Finds timers and sockets a stopped service left behind. A service is started inside `owned`,
// so everything it creates from then on (its loops, its pools, the connections its servers
// accept) carries its owner through async context; a timer or socket that outlives stop() keeps
// the test process from exiting, or fires into a closed pool.
import { AsyncLocalStorage, createHook } from 'node:async_hooks';

type Owner = { name: string };
// Where it was created, captured cheaply and turned into text only when a leftover is looked at:
// formatting a stack (through source maps) at every timer and socket cost a second a file.
type Tracked = { owner: Owner; type: string; resource: unknown; created: Error };

const stackOf = (t: Tracked): string => t.created.stack!.split('\n').slice(2, 12).join('\n');

const owners = new AsyncLocalStorage<Owner>();
const tracked = new Map<number, Tracked>();
// Timers and the socket handles of servers and clients; each is destroyed when cleared or closed.
const TYPES = new Set(['Timeout', 'TCPWRAP', 'TCPSERVERWRAP']);

createHook({
  init(id, type, _trigger, resource) {
    if (!TYPES.has(type)) return;
    const owner = owners.getStore();
    if (!owner) return;
    tracked.set(id, { owner, type, resource, created: new Error() });
  },
  destroy(id) {
    tracked.delete(id);
  },
}).enable();

/** Runs `fn` (a service's start) so that what it creates, now or later, belongs to `owner`. */
export function owned<T>(owner: Owner, fn: () => Promise<T>): Promise<T> {
  return owners.run(owner, fn);
}

/** What `owner` still holds: timers that have not fired or been cleared, sockets not closed. */
function remaining(owner: Owner): Tracked[] {
  return [...tracked.values()].filter((t) => {
    if (t.owner !== owner) return false;
    // Not the service's to close: fetch() keeps its sockets (and their timers) in one pool for
    // the whole process, which closes them itself once idle; AbortSignal.timeout's timer is
    // unref'd and dropped with its signal.
    if (/undici|setWeakAbortSignalTimeout/.test(stackOf(t))) return false;
    // A timer that fired and was not re-armed is destroyed on a later tick; skip it meanwhile.
    // An unref'd one (a pool's connect timeout, an idle session's) does not hold the process.
    if (t.type === 'Timeout') return !(t.resource as { _destroyed?: boolean })._destroyed && (t.resource as NodeJS.Timeout).hasRef();
    return true;
  });
}

/**
 * Throws, naming where each was created, if `owner` still holds a timer or socket once its stop
 * has resolved. Destroy notices arrive asynchronously, so this waits for them a little first.
 */
export async function assertNothingLeft(owner: Owner, graceMs = 2_000): Promise<void> {
  const deadline = Date.now() + graceMs;
  let left = remaining(owner);
  while (left.length && Date.now() < deadline) {
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setTimeout(r, 20).unref());
    left = remaining(owner);
  }
  if (!left.length) return;
  const lines = left.map((t) => {
    const timer = t.type === 'Timeout' ? (t.resource as NodeJS.Timeout & { _idleTimeout: number; _repeat: number | null }) : null;
    const what = timer ? `${timer.hasRef() ? '' : 'unref\'d '}${timer._repeat ? 'interval' : 'timeout'} of ${timer._idleTimeout} ms` : t.type;
    return `${what}, created\n${stackOf(t)}`;
  });
  throw new Error(`${owner.name} left ${left.length} timer(s) or socket(s) behind after stop():\n${lines.join('\n\n')}`);
}
