// pnpm bench [scenario…] [--scale smoke|small|medium|large] [--json out.json]
//            [--target-url URL --token KEY]
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { SCENARIOS, runAgainstTarget, runBench, type ScenarioName } from './harness';
import { renderReport } from './report';
import { SCALES } from './scenarios/context';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    scale: { type: 'string', default: 'small' },
    json: { type: 'string' },
    'target-url': { type: 'string' },
    token: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

if (values.help) {
  console.log(`pnpm bench [${SCENARIOS.join('|')}…] [--scale ${Object.keys(SCALES).join('|')}] [--json out.json] [--target-url URL --token KEY]`);
  process.exit(0);
}
const scale = values.scale as keyof typeof SCALES;
if (!(scale in SCALES)) throw new Error(`--scale must be one of ${Object.keys(SCALES).join(', ')}`);
const unknown = positionals.filter((name) => !(SCENARIOS as readonly string[]).includes(name));
if (unknown.length > 0) throw new Error(`unknown scenario ${unknown.join(', ')}; choose from ${SCENARIOS.join(', ')}`);
const log = (line: string) => console.error(`[bench] ${line}`);

const result = values['target-url']
  ? await runAgainstTarget({ targetUrl: values['target-url'], token: values.token ?? '', scale, log })
  : await runBench({
      scenarios: positionals.length > 0 ? (positionals as ScenarioName[]) : [...SCENARIOS],
      scale,
      databaseServerUrl: (() => {
        const url = new URL(process.env.DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/memory_bank');
        url.pathname = '';
        return url.toString().replace(/\/$/, '');
      })(),
      log,
    });

console.log(`# Memory Bank benchmark — scale ${result.scale.name}, ${result.seconds} s, ${result.environment.node}\n`);
console.log(renderReport(result.reports));
if (values.json) writeFileSync(values.json, `${JSON.stringify(result, null, 2)}\n`);
process.exit(0);
