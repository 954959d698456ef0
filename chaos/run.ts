// `npm run chaos`: the durability drills at scale, on loopback. The service runs as its own process
// on a throwaway embedded PostgreSQL with a recording relay, under SMTP load (some senders hanging
// up after the final dot) and send load; each round SIGKILLs PostgreSQL's postmaster and then the
// service itself, and restarts them. At the end it prints the ledger of what was acknowledged
// against what was stored and relayed, and exits 1 if anything was lost or duplicated, or the
// service exited by itself.
//
//   npm run chaos -- [--minutes 3] [--rounds N] [--smtp-senders 8] [--api-senders 4] [--settle 150]
//
// Each flag may also come from the environment (CHAOS_MINUTES, CHAOS_ROUNDS, ...).
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createLogger } from '../service/logger.ts';
import { createPool } from '../storage/db.ts';
import { openScratchEmbedded } from '../storage/embedded.ts';
import { startRelay } from '../testkit/relay.ts';
import {
  SendLoad,
  SmtpLoad,
  closeScratch,
  killPostmaster,
  ledger,
  restartPostgres,
  setUpAgent,
  sleep,
  spawnService,
  until,
  type ServiceProcess,
} from '../testkit/drills.ts';

const fromEnv = (flag: string, fallback?: string) => process.env[`CHAOS_${flag.toUpperCase().replace(/-/g, '_')}`] ?? fallback;
const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: fromEnv('minutes', '3') },
    rounds: { type: 'string', default: fromEnv('rounds') },
    'smtp-senders': { type: 'string', default: fromEnv('smtp-senders', '8') },
    'api-senders': { type: 'string', default: fromEnv('api-senders', '4') },
    settle: { type: 'string', default: fromEnv('settle', '150') },
  },
});
const minutes = Number(values.minutes);
const rounds = values.rounds ? Number(values.rounds) : Infinity;
const settleSeconds = Number(values.settle);
const say = (line: string) => console.error(`[chaos] ${line}`);

const pg = await openScratchEmbedded({ database: 'chaos' });
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-inbox-chaos-'));
const relay = await startRelay('accept');
const env = { DATABASE_URL: pg.url, DATA_DIR: dataDir, SMTP_URL: relay.url };

let unexpectedExits = 0;
let finishing = false;
let drillKills = 0;
let svc: ServiceProcess | null = null;
/** Starts the service; one that exits without being told to is counted and started again. */
async function startService(): Promise<void> {
  const started = await spawnService(env);
  svc = started;
  void started.exited.then(async ({ code, signal }) => {
    if (finishing || signal === 'SIGKILL' || svc !== started) return;
    unexpectedExits++;
    say(`the service exited by itself (code ${code}, signal ${signal}):\n${started.output().slice(-3000)}`);
    await startService();
  });
}

let code = 1;
try {
  await startService();
  const agent = await setUpAgent(svc!, pg.url, dataDir);
  const smtp = new SmtpLoad(() => svc!.smtpPort, agent.address, { hangUpEvery: 7 }).start(Number(values['smtp-senders']));
  const sends = new SendLoad(() => svc!.api, agent).start(Number(values['api-senders']));
  const deadline = Date.now() + minutes * 60_000;
  let stalled = false;

  for (let round = 1; round <= rounds && Date.now() < deadline; round++) {
    await sleep(3_000);
    // On a busy machine the load may take longer to get going: each round hits some in flight.
    // A load that stops altogether ends the rounds, and the ledger still says what happened.
    const [acked, accepted] = [smtp.acknowledged.size, sends.accepted.size];
    const going = await until(() => smtp.acknowledged.size > acked && sends.accepted.size > accepted, 'the load to go on', 60_000).then(
      () => true,
      () => false,
    );
    if (!going) {
      stalled = true;
      say(`round ${round}: the load stopped (${sends.refusals} sends refused so far); ending the rounds`);
      break;
    }
    say(`round ${round}: SIGKILL the postmaster (${smtp.acknowledged.size} mails acknowledged, ${sends.accepted.size} sends accepted so far)`);
    await killPostmaster(path.join(pg.dir, 'postgres'));
    await sleep(2_000);
    await restartPostgres(pg);
    await until(async () => (await svc!.api.get('/readyz').catch(() => null))?.status === 200, 'the service to be ready again', 60_000);
    await sleep(3_000);
    say(`round ${round}: SIGKILL the service`);
    const killed = svc!;
    drillKills++;
    killed.child.kill('SIGKILL');
    await killed.exited;
    await startService();
  }

  say('stopping the load');
  await Promise.all([smtp.stop(), sends.stop()]);
  // Deliveries of a killed service wait for the sweep (every minute) to hand them on.
  const subjects = () => relay.received.map((m) => m.mail.subject ?? '');
  await until(() => [...sends.accepted.keys()].every((k) => subjects().includes(sends.subjectOf(k))), 'accepted sends to reach the relay', settleSeconds * 1000).catch(
    () => say(`not every accepted send reached the relay within ${settleSeconds} s`),
  );
  const db = createPool(pg.url, createLogger('silent'), 2);
  const counted = await ledger(db, agent.inboxId, [smtp], [sends], subjects(), unexpectedExits).finally(() => db.end());
  console.log(
    [
      'chaos ledger',
      `  mails acknowledged        ${counted.mails_acknowledged}`,
      `  mails stored              ${counted.mails_stored}`,
      `  mails lost                ${counted.mails_lost}`,
      `  mails duplicated          ${counted.mails_duplicated}`,
      `  sender hang-ups (retried) ${smtp.hangUps}`,
      `  sends accepted            ${counted.sends_accepted}`,
      `  sends lost                ${counted.sends_lost}`,
      `  sends delivered           ${counted.sends_delivered}`,
      `  sends pending             ${counted.sends_pending}`,
      `  sends duplicated at relay ${counted.sends_duplicated_at_relay}`,
      `  keys answered twice       ${counted.sends_answered_twice_differently}`,
      `  drill kills               ${drillKills}`,
      `  process exits             ${counted.process_exits}`,
      `  load stalled              ${stalled ? `yes (${sends.refusals} sends refused)` : 'no'}`,
    ].join('\n'),
  );
  console.log(JSON.stringify({ ...counted, hang_ups: smtp.hangUps, drill_kills: drillKills, stalled, send_refusals: sends.refusals }));
  const bad =
    counted.mails_lost + counted.mails_duplicated + counted.sends_lost + counted.sends_duplicated_at_relay + counted.sends_answered_twice_differently + counted.process_exits;
  code = bad === 0 && !stalled ? 0 : 1;
} finally {
  finishing = true;
  await (svc as ServiceProcess | null)?.stop();
  relay.release();
  await relay.close();
  await closeScratch(pg);
  await fs.rm(dataDir, { recursive: true, force: true });
}
process.exit(code);
