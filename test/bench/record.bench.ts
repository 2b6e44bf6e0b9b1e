/**
 * Recording benchmark (issue #16's budget): a synthetic 10-minute run at 240 Hz of a six-wheeled
 * rover towing a two-wheeled trailer (10 bodies, ~30 contacts a step; test/unit/record/synthetic.ts),
 * recorded with the default options (f32 shuffled frames every step, keyframes every 240 steps
 * with 2 KiB of incompressible state each, Foxglove channels at 30 Hz, zstd level 3, 1 MiB chunks).
 *
 * Reports:
 *  - bytes per simulated minute and the 10-minute file size (default options, and variants
 *    measured on one simulated minute: f64 frames, no shuffle, no Foxglove channels);
 *  - recorder throughput: steps/s of writing one simulated minute of pre-generated frames to
 *    memory, everything included (encoding, Foxglove JSON, zstd, MCAP): median of 5 runs after
 *    a warm-up;
 *  - open to first frame of the 10-minute file, from memory and from a file on disk (median of 5);
 *  - seek: time of `frameAt(random step)` on an open reader with a cold chunk cache (200 seeded
 *    steps: median, p95), and keyframeAtOrBefore + frameAt.
 *
 * Run: `npm run bench -- record` (or `-- --quick record`: one simulated minute instead of ten).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Rng } from '../../sim/math/random';
import { loadCodecs, type RecordingCodecs } from '../../sim/record/codecs';
import type { FrameData, FrameEncoding } from '../../sim/record/format';
import { bytesSource, MemorySink, type RecordingSource } from '../../sim/record/io';
import { RecordingReader } from '../../sim/record/reader';
import { RecordingWriter } from '../../sim/record/writer';
import { FileSource } from '../../sim/node/record-file';
import { RoverRun, roverBodies, roverTerrain } from '../unit/record/synthetic';

export interface BenchContext {
  quick: boolean;
  filter?: string;
}

const HZ = 240;
const STATE_BYTES = 2048;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}
function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}

interface Variant {
  name: string;
  encoding: FrameEncoding;
  foxgloveHz: number;
}

/** Copies of the first `n` frames of the synthetic run (so timing excludes generating them). */
function pregenerate(n: number): FrameData[] {
  const run = new RoverRun(7);
  const out: FrameData[] = [];
  for (let s = 0; s < n; s++) {
    const f = run.next();
    out.push({ ...f, poses: f.poses.slice(), velocities: f.velocities.slice(), contacts: f.contacts.slice(), contactInfo: f.contactInfo.slice() });
  }
  return out;
}

/**
 * Records `steps` steps. Frames come from `frames` (cycled, step and time renumbered; a cycle of
 * 10 s is far longer than a chunk, so the cycling cannot help compression) or, without `frames`,
 * from the synthetic run itself (the size measurement).
 */
async function record(codecs: RecordingCodecs, steps: number, v: Variant, frames?: FrameData[]): Promise<{ bytes: Uint8Array; ms: number; contacts: number }> {
  const { bodies, wheels } = roverBodies();
  const sink = new MemorySink();
  const w = await RecordingWriter.create(sink, { scenario: { name: 'bench' }, buildId: 'bench', dt: 1 / HZ, bodies, wheels, terrain: roverTerrain() }, { codecs, frameEncoding: v.encoding, foxgloveHz: v.foxgloveHz });
  const run = new RoverRun(7);
  const rng = new Rng(8);
  const state = new Uint8Array(STATE_BYTES);
  let contacts = 0;
  const t0 = performance.now();
  for (let s = 0; s < steps; s++) {
    if (s % 120 === 0) w.writeInput({ step: s, throttle: rng.range(-1, 1), steer: rng.range(-1, 1) });
    if (w.keyframeDue(s)) {
      for (let i = 0; i < STATE_BYTES; i++) state[i] = rng.int(0, 255);
      w.writeKeyframe({ step: s, hash: s.toString(16).padStart(16, '0'), bytes: state });
    }
    let f: FrameData;
    if (frames) {
      f = frames[s % frames.length];
      f.step = s;
      f.time = s / HZ;
    } else f = run.next();
    contacts += f.contactCount;
    w.writeFrame(f);
    if (w.pendingBytes > 4 << 20) await w.drain();
  }
  await w.close();
  return { bytes: sink.bytes(), ms: performance.now() - t0, contacts: contacts / steps };
}

async function openFirst(source: RecordingSource, codecs: RecordingCodecs): Promise<number> {
  const t0 = performance.now();
  const r = await RecordingReader.open(source, { codecs });
  const f = await r.frameAt(r.info.firstStep);
  if (!f) throw new Error('no first frame');
  return performance.now() - t0;
}

export default async function run(ctx: BenchContext): Promise<void> {
  const codecs = await loadCodecs();
  const minutes = ctx.quick ? 1 : 10;
  const steps = minutes * 60 * HZ;
  const minute = 60 * HZ;
  const def: Variant = { name: 'default: f32 shuffled, Foxglove 30 Hz', encoding: { f32: true, shuffle: true }, foxgloveHz: 30 };

  // Size of the whole run with the default options.
  const full = await record(codecs, steps, def);
  const mb = full.bytes.length / 1e6;
  console.log(`\n${minutes}-minute run, ${steps} steps, ${full.contacts.toFixed(1)} contacts/step: ${mb.toFixed(1)} MB (${(mb / minutes).toFixed(2)} MB per simulated minute)\n`);

  // Variants on one simulated minute (size scales linearly with the run).
  const variants: Variant[] = [
    def,
    { name: 'f32, no shuffle', encoding: { f32: true, shuffle: false }, foxgloveHz: 30 },
    { name: 'f64 (exact) shuffled', encoding: { f32: false, shuffle: true }, foxgloveHz: 30 },
    { name: 'f32 shuffled, no Foxglove channels', encoding: { f32: true, shuffle: true }, foxgloveHz: 0 },
  ];
  const runs = ctx.quick ? 1 : 5;
  const frames = pregenerate(10 * HZ);
  await record(codecs, minute, def, frames); // warm-up
  console.log('| options | MB per simulated minute | 10-minute file MB | recorder steps/s (median) | recorder µs/step (median, min) |');
  console.log('|---|---:|---:|---:|---:|');
  for (const v of variants) {
    const ms: number[] = [];
    for (let k = 0; k < runs; k++) ms.push((await record(codecs, minute, v, frames)).ms);
    const bytes = (await record(codecs, minute, v)).bytes.length;
    const med = median(ms);
    console.log(`| ${v.name} | ${(bytes / 1e6).toFixed(2)} | ${((bytes / 1e6) * 10).toFixed(0)} | ${Math.round(minute / (med / 1000))} | ${((med * 1000) / minute).toFixed(1)}, ${((Math.min(...ms) * 1000) / minute).toFixed(1)} |`);
  }

  // Open and seek in the full-length file.
  const dir = mkdtempSync(join(tmpdir(), 'terrawheel-bench-'));
  try {
    const path = join(dir, 'run.mcap');
    writeFileSync(path, full.bytes);
    await openFirst(bytesSource(full.bytes), codecs); // warm-up
    const memOpen: number[] = [];
    const fileOpen: number[] = [];
    for (let k = 0; k < 5; k++) {
      memOpen.push(await openFirst(bytesSource(full.bytes), codecs));
      const src = await FileSource.open(path);
      fileOpen.push(await openFirst(src, codecs));
      await src.close();
    }
    // The same file cut at 60 % (a killed recorder): scanned, not indexed.
    const cutPath = join(dir, 'cut.mcap');
    writeFileSync(cutPath, full.bytes.subarray(0, Math.floor(full.bytes.length * 0.6)));
    const cutOpen: number[] = [];
    for (let k = 0; k < 5; k++) {
      const c = await FileSource.open(cutPath);
      cutOpen.push(await openFirst(c, codecs));
      await c.close();
    }
    const src = await FileSource.open(path);
    const reader = await RecordingReader.open(src, { codecs });
    const rng = new Rng(99);
    const seek: number[] = [];
    const seekKf: number[] = [];
    for (let k = 0; k < 200; k++) {
      const s = rng.int(0, steps - 1);
      let t0 = performance.now();
      if (!(await reader.frameAt(s))) throw new Error(`no frame at ${s}`);
      seek.push(performance.now() - t0);
      const s2 = rng.int(0, steps - 1);
      t0 = performance.now();
      const kf = await reader.keyframeAtOrBefore(s2);
      if (!kf || !(await reader.frameAt(s2))) throw new Error(`no keyframe/frame at ${s2}`);
      seekKf.push(performance.now() - t0);
    }
    // Sequential playback from a seek point (cache hits after the first frame of each chunk).
    const t0 = performance.now();
    const from = rng.int(0, steps - 2400);
    for (let s = from; s < from + 2400; s++) await reader.frameAt(s);
    const playUs = ((performance.now() - t0) * 1000) / 2400;
    await src.close();
    console.log(`\n| ${minutes}-minute file (${mb.toFixed(1)} MB, ${reader.info.chunkCount} chunks) | median ms | p95 ms |`);
    console.log('|---|---:|---:|');
    console.log(`| open to first frame, in memory | ${median(memOpen).toFixed(1)} | ${pct(memOpen, 0.95).toFixed(1)} |`);
    console.log(`| open to first frame, file on disk | ${median(fileOpen).toFixed(1)} | ${pct(fileOpen, 0.95).toFixed(1)} |`);
    console.log(`| open to first frame, file cut at 60 % (linear scan) | ${median(cutOpen).toFixed(1)} | ${pct(cutOpen, 0.95).toFixed(1)} |`);
    console.log(`| seek: frameAt(random step), cold cache (200) | ${median(seek).toFixed(2)} | ${pct(seek, 0.95).toFixed(2)} |`);
    console.log(`| seek: keyframeAtOrBefore + frameAt (200) | ${median(seekKf).toFixed(2)} | ${pct(seekKf, 0.95).toFixed(2)} |`);
    console.log(`\nsequential playback after a seek: ${playUs.toFixed(1)} µs per frame`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run({ quick: process.argv.includes('--quick') }).catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
