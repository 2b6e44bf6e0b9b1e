/**
 * Benchmark runner: `npm run bench [-- [--quick] [filter]]`.
 *
 * Finds every test/bench/*.bench.ts, keeps those whose file name contains `filter` (all when
 * absent), and awaits each one's default export `run({ quick, filter })` in name order, one at a
 * time (benchmarks must not share the CPU). Each bench prints its own markdown table; the runner
 * prints a header with the machine and the command, and exits non-zero if a bench throws (after
 * running the others).
 *
 * Benchmarks are not tests: they are never run by vitest, never assert on timings, and report
 * medians of 5 timed runs after a warm-up (the contract every *.bench.ts follows).
 */
import { readdirSync } from 'node:fs';
import { cpus, platform, arch } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface BenchContext {
  /** Smoke run: fewer iterations, same code paths. */
  quick: boolean;
  /** The name filter given on the command line, if any. */
  filter?: string;
}

type BenchRun = (ctx: BenchContext) => Promise<void>;

function isBenchRun(x: unknown): x is BenchRun {
  return typeof x === 'function';
}

async function main(argv: readonly string[]): Promise<number> {
  const quick = argv.includes('--quick');
  const positional = argv.filter((a) => !a.startsWith('--'));
  const filter = positional[0];
  const here = dirname(fileURLToPath(import.meta.url));
  const files = readdirSync(here)
    .filter((f) => f.endsWith('.bench.ts'))
    .filter((f) => filter === undefined || f.includes(filter))
    .sort();
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  console.log(`# Benchmarks (${quick ? 'quick smoke run' : 'full run'})`);
  console.log(`\nnode ${process.version}, ${platform()} ${arch()}, ${cpus().length} × ${cpu}`);
  console.log(`command: npm run bench --${quick ? ' --quick' : ''}${filter ? ` ${filter}` : ''}`);
  if (files.length === 0) {
    console.log(`\nno test/bench/*.bench.ts matches ${JSON.stringify(filter)}`);
    return 1;
  }
  let failed = 0;
  for (const f of files) {
    console.log(`\n## ${f}`);
    const t0 = performance.now();
    try {
      const mod: { default?: unknown } = await import(pathToFileURL(join(here, f)).href);
      if (!isBenchRun(mod.default)) throw new Error(`${f} has no default export run(ctx)`);
      await mod.default({ quick, filter });
    } catch (e) {
      failed++;
      console.error(`\n${f} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    }
    console.log(`\n(${f}: ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  }
  return failed === 0 ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
