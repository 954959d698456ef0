// The environment variables the service's configuration reads.
import { loadConfig } from '../../service/config.ts';

/** The names loadConfig reads, recorded by handing it an environment that sets nothing. */
export function configVariables(): string[] {
  const read = new Set<string>();
  const env = new Proxy({} as Record<string, string | undefined>, {
    get(_, name) {
      if (typeof name === 'string') read.add(name);
      return undefined;
    },
  });
  loadConfig(env);
  return [...read].sort();
}
