/**
 * Worker thread of test/bench/cylinder.bench.ts: times the production bundle of the wheel query
 * alone in its own V8 isolate, as the app's simulation worker runs it (one copy of the engine,
 * nothing else compiled beside it). Plain JavaScript: it runs without tsx.
 *
 * workerData: { bundle (file URL of the esbuild bundle), terrain { cols, rows, dx, dy, x0, y0,
 * heights (Float64Array) }, poses [{ center, axis, radius, height }], runs, warmup }.
 * Posts back { wall, cpu }: queries per wall-clock second and per CPU-second of this thread
 * (pass-timer.mjs, as the bench's other rows).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { passRates } from './pass-timer.mjs';

const { bundle, terrain, poses, runs, warmup } = workerData;
const m = await import(bundle);

const hf = m.Heightfield.fromArray(terrain);
const out = new m.ContactBuffer(256);
const ws = new m.CylinderTerrainWorkspace();
const size = { radius: 0.5, halfHeight: 0.5 };
const collide = m.collideCylinderTerrainInto;
let sink = 0;
function query(p) {
  out.clear();
  size.radius = p.radius;
  size.halfHeight = p.height / 2;
  collide(out, p.center, p.axis, size, hf, ws);
  sink += out.count;
}

const rates = passRates(poses, query, runs, warmup);
parentPort.postMessage({ wall: rates.wall, cpu: rates.cpu, contacts: sink });
