/**
 * Real robots on the bundled hills through the CLI (issue #27's speed check, issue #29's
 * "≥ 20× real time, the 48-body rovers included"): for each of the ten-robot check's robots
 * (test/scenarios/robots/ten-robots.ts: unmodified public descriptions, a scenario file naming
 * each), `terrawheel run <scenario> --duration 8 --json` in a fresh process (settle 1 s, 5 s
 * straight at throttle 0.5, turn 2 s): the CLI's own stepping time (wallSeconds: the world's steps,
 * not the process start or the file reads) as × real time, median of 5 runs (1 with --quick), with
 * the machine's load average before and after; and the same world built in this process as the
 * CLI builds it (readScenarioFilesAsync + worldFromScenarioFiles), its steps timed in process CPU
 * time (user + system): on a loaded shared machine wall time counts the other processes' turns,
 * CPU time much less so (the stepping is single-threaded: on an idle machine the two agree).
 *
 * Run: `npm run bench -- robots` or `npx tsx test/bench/robots.bench.ts [--quick]`; `ROBOTS=dingo,ridge`
 * keeps only the robots whose name contains one of the words (case-insensitive).
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readScenarioFilesAsync } from '../../sim/node/open-scenario';
import { worldFromScenarioFiles } from '../../sim/scenario/open-scenario';
import { TEN_ROBOTS, writeCheckScenario } from '../scenarios/robots/ten-robots';

const HERE = fileURLToPath(new URL('.', import.meta.url));

export interface BenchContext {
  quick: boolean;
  filter?: string;
}

const CLI = join(HERE, '../../bin/terrawheel.mjs');
const DURATION = 8;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

interface CliRun {
  bodies: number;
  joints: number;
  wallSeconds: number;
  realtimeFactor: number;
  contactsPerStep: number;
  contactKinds: Record<string, number>;
  fault: string | null;
}

function runCli(scenario: string): CliRun {
  const out = execFileSync(process.execPath, [CLI, 'run', scenario, '--duration', String(DURATION), '--json'], { encoding: 'utf8', maxBuffer: 1 << 26 });
  return JSON.parse(out) as CliRun;
}

export default async function run(ctx: BenchContext): Promise<void> {
  const runs = ctx.quick ? 1 : 5;
  const load0 = loadavg();
  console.log(`\nload average before: ${load0.map((x) => x.toFixed(2)).join(' ')}; ${runs} run(s) of ${DURATION} s simulated per robot, dt 1/240 s, 4 substeps\n`);
  console.log('| robot | bodies | joints | CLI × real time (wall, median) | min–max | × real time (CPU time, in process) | contacts/step | contact kinds (all bodies) | fault |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  const only = (process.env.ROBOTS ?? '').toLowerCase().split(',').filter((w) => w !== '');
  for (const robot of TEN_ROBOTS) {
    if (only.length > 0 && !only.some((w) => robot.name.toLowerCase().includes(w))) continue;
    let scenario: string;
    try {
      scenario = writeCheckScenario(robot, 'hills');
      runCli(scenario); // warm-up (and the file cache)
    } catch (e) {
      console.log(`| ${robot.name} | – | – | – | – | – | – | – | does not load: ${((e as { stderr?: string }).stderr ?? (e as Error).message).trim().split('\n')[0].slice(0, 200)} |`);
      continue;
    }
    const rows: CliRun[] = [];
    for (let k = 0; k < runs; k++) rows.push(runCli(scenario));
    const cpu: number[] = [];
    const files = await readScenarioFilesAsync(scenario);
    for (let k = 0; k < runs; k++) {
      const w = worldFromScenarioFiles(files);
      const c0 = process.cpuUsage();
      w.step(Math.round(DURATION * 240));
      const c = process.cpuUsage(c0);
      cpu.push(DURATION / ((c.user + c.system) / 1e6));
    }
    const f = rows.map((r) => r.realtimeFactor);
    const r0 = rows[0];
    const kinds = Object.entries(r0.contactKinds).map(([k, n]) => `${k} ${n}`).join(', ');
    console.log(`| ${robot.name} | ${r0.bodies} | ${r0.joints} | ${median(f).toFixed(1)}× | ${Math.min(...f).toFixed(1)}–${Math.max(...f).toFixed(1)} | ${median(cpu).toFixed(1)}× | ${r0.contactsPerStep.toFixed(1)} | ${kinds} | ${r0.fault ?? 'none'} |`);
  }
  console.log(`\nload average after: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
}

if (import.meta.url === `file://${process.argv[1]}`) void run({ quick: process.argv.includes('--quick') });
