/**
 * Fuzzing the drag-and-drop dispatcher (renderer/app/drop-plan.ts, issue #28): sets of one to
 * six dropped files, each a mutated file of a kind the app opens (recording, PNG, GeoTIFF, RAW,
 * scenario v1/v2, sidecar, URDF, meshes) or junk (empty, random bytes, deep JSON, XML that is no
 * URDF), under names drawn from plain, misleading, unicode and extension-less ones.
 *
 * The property, for every set: planDrop returns a plan and never throws; an error plan's message
 * is bounded by the number of files; a load plan opens one of the dropped files, of the kind its
 * action says, and every classification of an unknown file says why. Memory: the property's
 * peak-RSS growth stays under PEAK_RSS_BUDGET_BYTES. Bounded by counts and sizes (each file
 * under 64 KiB), never by a clock.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../sim/math/random';
import { classifyDropped, planDrop, type DroppedFile } from '../../renderer/app/drop-plan';
import { encodeGrayPng } from '../../sim/terrain/png-encode';
import { FUZZ_SEED, FUZZ_TIMEOUT_MS, MAX_MESSAGE_LENGTH, PEAK_RSS_BUDGET_BYTES, peakRss, runs } from './fuzz-budget';

const enc = new TextEncoder();
const CI_RUNS = 800;
const ROBOTS = join(__dirname, '../../assets/robots');
const URDFS = readdirSync(ROBOTS)
  .filter((f) => f.endsWith('.urdf'))
  .sort()
  .map((f) => readFileSync(join(ROBOTS, f), 'utf8'));

function pick<T>(rng: Rng, a: readonly T[]): T {
  return a[rng.int(0, a.length - 1)];
}

const NAMES = ['run.mcap', 'hills.png', 'hills.json', 'dem.tif', 'dem.tiff', 'h.raw', 'scenario.json', 'robot.urdf', 'robot.xml', 'robot.json', 'shell.stl', 'mast.obj', 'look.dae', 'notes.txt', 'noext', '.hidden', 'a.b.c.PNG', 'ünï cødé.json', 'x'.repeat(300) + '.json', 'meshes/base.stl', '../up.png', 'C:\\evil.json'];

/** A file of one kind (its bytes), before mutation. */
function content(rng: Rng): Uint8Array {
  switch (rng.int(0, 11)) {
    case 0:
      return new Uint8Array([0x89, 0x4d, 0x43, 0x41, 0x50, 0x30, 0x0d, 0x0a, ...Array.from({ length: rng.int(0, 64) }, () => rng.int(0, 255))]);
    case 1:
      return encodeGrayPng(4, 4, 16, new Uint16Array(16));
    case 2:
      return new Uint8Array([0x49, 0x49, 0x2a, 0x00, ...Array.from({ length: rng.int(0, 64) }, () => rng.int(0, 255))]);
    case 3:
      return enc.encode(JSON.stringify({ format: 'terrawheel-scenario', version: rng.int(1, 3), name: 's', terrain: pick(rng, ['hills.json', 'terrains/flat.json', '', 7]), robot: rng.next() < 0.5 ? { urdf: pick(rng, ['robot.urdf', 'robot.json', '../r.urdf']) } : undefined }));
    case 4:
      return enc.encode(JSON.stringify({ image: pick(rng, ['hills.png', 'dem.tif', '../x.png', '', 3]), format: pick(rng, ['png', 'geotiff', 'raw', 'x']), metersPerPixel: 0.1, heightRange: [0, 1] }));
    case 5:
      return enc.encode(pick(rng, URDFS));
    case 6:
      return enc.encode(pick(rng, ['solid x\nendsolid x\n', 'v 0 0 0\nf 1 1 1\n', '<COLLADA/>']));
    case 7:
      return new Uint8Array(0);
    case 8:
      return Uint8Array.from({ length: rng.int(1, 4096) }, () => rng.int(0, 255));
    case 9:
      return enc.encode(`{"a":${'['.repeat(rng.int(1, 20_000))}${']'.repeat(rng.int(0, 20_000))}}`);
    case 10:
      return enc.encode(pick(rng, ['<html></html>', '<?xml version="1.0"?><robot', '<robot name="&foo;"><link name="b"/></robot>', '<!DOCTYPE r [<!ENTITY a "b">]><robot name="r"/>']));
    default:
      return enc.encode(pick(rng, ['null', '[]', '"s"', '{"format":"terrawheel-scenario"}', '{"toString":1,"image":"a.png","format":"png"}']));
  }
}

function mutate(bytes: Uint8Array, rng: Rng): Uint8Array {
  const op = rng.int(0, 3);
  if (op === 0 || bytes.length === 0) return bytes;
  if (op === 1) return bytes.slice(0, rng.int(0, bytes.length));
  const b = bytes.slice();
  for (let k = rng.int(1, 6); k > 0; k--) b[rng.int(0, b.length - 1)] ^= 1 << rng.int(0, 7);
  return b;
}

describe('drag-and-drop dispatcher fuzz (issue #28)', () => {
  it(
    `${runs(CI_RUNS)} seeded dropped sets: a plan, never an exception, messages bounded, loads open a dropped file`,
    () => {
      const rng = new Rng(FUZZ_SEED + 28_101);
      const before = peakRss();
      const actions = new Map<string, number>();
      for (let n = 0; n < runs(CI_RUNS); n++) {
        const count = rng.int(1, 6);
        const files: DroppedFile[] = [];
        for (let k = 0; k < count; k++) files.push({ name: pick(rng, NAMES), bytes: mutate(content(rng), rng) });
        const what = `set ${n}: ${files.map((f) => `${f.name} (${f.bytes.length} B)`).join(', ')}`;
        for (const f of files) {
          const c = classifyDropped(f);
          if (c.kind === 'unknown') expect(c.why, what).toMatch(/\S/);
        }
        let plan: ReturnType<typeof planDrop>;
        try {
          plan = planDrop(files, 'tok', rng.next() < 0.5);
        } catch (e) {
          throw new Error(`${what}: planDrop threw ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
        }
        actions.set(plan.action, (actions.get(plan.action) ?? 0) + 1);
        if (plan.action === 'error') {
          expect(plan.message.length, what).toBeGreaterThan(10);
          expect(plan.message.length, what).toBeLessThan(MAX_MESSAGE_LENGTH * (count + 1));
        } else {
          const dropped = files.some((f) => f.bytes === plan.file.bytes && f.name === plan.file.name);
          if (!dropped) {
            // A terrain image dropped alone opens through a made-up sidecar that names it.
            expect(plan.action, what).toBe('terrain');
            const image = (JSON.parse(new TextDecoder().decode(plan.file.bytes)) as { image: string }).image;
            expect(files.some((f) => f.name === image), what).toBe(true);
          }
          const kind = { recording: 'recording', scenario: 'scenario', terrain: 'terrain', robot: 'robot' }[plan.action];
          expect(plan.file.kind, what).toBe(kind);
          for (const note of plan.notes) expect(note.length, what).toBeLessThan(MAX_MESSAGE_LENGTH * (count + 1));
        }
      }
      expect(peakRss() - before).toBeLessThan(PEAK_RSS_BUDGET_BYTES);
      // Every action occurs, or the generator misses a branch of the dispatcher.
      for (const a of ['error', 'recording', 'scenario', 'terrain', 'robot']) expect(actions.get(a) ?? 0, a).toBeGreaterThan(0);
    },
    FUZZ_TIMEOUT_MS,
  );
});
