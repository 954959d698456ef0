// A real DNS server on loopback (dns2, UDP) serving a zone the test edits as it goes: TXT, MX and A
// records by name. `silent` makes it drop every query, as a server that never answers.
import { after } from './test.ts';
import dns2 from 'dns2';

const { Packet } = dns2;

type Rr = { type: 'TXT'; value: string } | { type: 'MX'; exchange: string; priority: number } | { type: 'A'; address: string };

export type TestDns = {
  /** `127.0.0.1:<port>`, for DNS_SERVERS. */
  server: string;
  set(name: string, records: Rr[]): void;
  txt(name: string, ...values: string[]): void;
  remove(name: string): void;
  silent: boolean;
  close(): Promise<void>;
};

// TXT character-strings hold 255 bytes; a DKIM key is longer, so it is split as publishers do.
const chunks = (s: string) => s.match(/.{1,255}/gs) ?? [''];

export async function startTestDns(): Promise<TestDns> {
  const zone = new Map<string, Rr[]>();
  const state = { silent: false };
  const server = dns2.createServer({
    udp: true,
    handle: (request: any, send: (r: any) => void) => {
      if (state.silent) return;
      const response: any = Packet.createResponseFromRequest(request);
      const [q] = request.questions;
      const name = String(q.name).toLowerCase().replace(/\.$/, '');
      const records = zone.get(name) ?? [];
      if (records.length === 0 && ![...zone.keys()].some((k) => k.endsWith(`.${name}`))) response.header.rcode = 3; // NXDOMAIN
      for (const r of records) {
        if (r.type === 'TXT' && q.type === Packet.TYPE.TXT) response.answers.push({ name: q.name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 60, data: chunks(r.value) });
        if (r.type === 'MX' && q.type === Packet.TYPE.MX) response.answers.push({ name: q.name, type: Packet.TYPE.MX, class: Packet.CLASS.IN, ttl: 60, exchange: r.exchange, priority: r.priority });
        if (r.type === 'A' && q.type === Packet.TYPE.A) response.answers.push({ name: q.name, type: Packet.TYPE.A, class: Packet.CLASS.IN, ttl: 60, address: r.address });
      }
      send(response);
    },
  });
  const addresses: any = await server.listen({ udp: { port: 0, address: '127.0.0.1' } } as any);
  const dns: TestDns = {
    server: `127.0.0.1:${addresses.udp.port}`,
    set: (name, records) => zone.set(name.toLowerCase(), records),
    txt: (name, ...values) => zone.set(name.toLowerCase(), values.map((value) => ({ type: 'TXT' as const, value }))),
    remove: (name) => zone.delete(name.toLowerCase()),
    get silent() {
      return state.silent;
    },
    set silent(v: boolean) {
      state.silent = v;
    },
    close: () => server.close(),
  };
  after(() => dns.close());
  return dns;
}

/** Publishes every record a domain answered at onboarding (body of POST .../domains). */
export function publishRecords(dns: TestDns, domain: { records: Array<{ kind: string; type: string; host: string; value: string; priority?: number }> }, except: string[] = []): void {
  const byHost = new Map<string, Rr[]>();
  for (const r of domain.records) {
    if (except.includes(r.kind)) continue;
    const list = byHost.get(r.host) ?? [];
    list.push(r.type === 'MX' ? { type: 'MX', exchange: r.value, priority: r.priority ?? 10 } : { type: 'TXT', value: r.value });
    byHost.set(r.host, list);
  }
  for (const [host, list] of byHost) dns.set(host, list);
}
