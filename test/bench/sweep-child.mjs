// The throughput benchmark's (sweep.bench.ts) command for a pool of one worker thread, which the
// CLI does not offer (`terrawheel sweep --workers 1` runs the runs in its own thread): started
// like bin/terrawheel.mjs (tsx's loader, then the TypeScript), then runSweep on the pool; the
// summary as JSON on stdout, like `terrawheel sweep --json`.
//   node test/bench/sweep-child.mjs <sweep.json> <out> <workers>
import { register } from 'tsx/esm/api';

register();
const { runSweep } = await import('../../sim/node/sweep.ts');
const [sweepPath, out, workers] = process.argv.slice(2);
const summary = await runSweep({ sweepPath, out, workers: Number(workers), pool: true });
process.stdout.write(JSON.stringify(summary) + '\n');
