// `npm run bench -- <scenario>`: runs bench/<scenario>.ts, which prints its own figures.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const scenarios = fs.readdirSync(dir).filter((f) => f.endsWith('.ts') && !['run.ts'].includes(f) && !f.startsWith('_')).map((f) => f.slice(0, -3));
// Scenario names first, then the options passed to each (`inbound --messages 1000`).
const args = process.argv.slice(2);
const firstOption = args.findIndex((a) => a.startsWith('-'));
const wanted = firstOption < 0 ? args : args.slice(0, firstOption);
if (wanted.length === 0) {
  console.log(`usage: npm run bench -- <${scenarios.join('|')}> [...]`);
  process.exit(scenarios.length ? 0 : 1);
}
for (const name of wanted) {
  if (!scenarios.includes(name)) {
    console.error(`no bench scenario "${name}"; have: ${scenarios.join(', ')}`);
    process.exit(2);
  }
}
for (const name of wanted) {
  const mod = await import(path.join(dir, `${name}.ts`));
  await mod.run(args.slice(wanted.length));
}
process.exit(0);
