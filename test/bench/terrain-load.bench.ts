/**
 * Terrain loading benchmark: decodeTerrain on a 4097 × 4097 map (the "loads in a few
 * seconds with progress reported"), in three formats built in memory from one seeded fractal:
 *   png16     16-bit grayscale PNG (zlib level 6, per-row adaptive filters, as image tools write)
 *   raw-f32   headerless float32, little-endian
 *   geotiff   float32, Deflate + predictor 3, 256 × 256 tiles (the usual GDAL COG-style layout)
 * Each row: median of 5 timed loads after one warm-up, wall time of the whole call (decode, flip,
 * Heightfield.fromArray with its classification and min/max pyramid), the process CPU time of the
 * call (user + system, all threads: GC included; less sensitive than wall time to a busy shared
 * machine), and the number of progress callbacks with the largest gap between two of them (the
 * last gap is Heightfield.fromArray, which cannot report). `--quick` uses 1025².
 *
 * Run: `npm run bench -- terrain-load` or `npx tsx test/bench/terrain-load.bench.ts [--quick]`.
 */
import { fractalTerrain } from '../../sim/terrain/generate';
import { encodeHeightfieldPng } from '../../sim/terrain/png-encode';
import { loadTerrain } from '../../sim/terrain/load-terrain';
import { writeTiff } from '../unit/terrain/tiff-writer';

export interface BenchContext {
  quick: boolean;
  filter?: string;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

export default async function run(ctx: BenchContext): Promise<void> {
  const n = ctx.quick ? 1025 : 4097;
  const runs = ctx.quick ? 1 : 5;
  const t0 = performance.now();
  const hf = fractalTerrain({ cols: n, dx: 0.1, seed: 4097, amplitude: 8, roughness: 0.5 });
  const png = encodeHeightfieldPng(hf, 16, { level: 6 });
  const raw = new Uint8Array(n * n * 4);
  const rawView = new DataView(raw.buffer);
  const north = new Float32Array(n * n);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const h = hf.heights[(n - 1 - r) * n + c];
      rawView.setFloat32((r * n + c) * 4, h, true);
      north[r * n + c] = h;
    }
  }
  const tif = writeTiff({
    width: n, height: n, kind: 'float32', values: north, compression: 'deflate', predictor: 3, tile: [256, 256],
    pixelScale: [0.1, 0.1, 0], tiepoint: [0, 0, 0, 500000, 5000000, 0], geoKeys: [[1024, 1], [1025, 1], [3072, 32633]],
  });
  console.log(`\n${n} × ${n} map prepared in ${((performance.now() - t0) / 1000).toFixed(1)} s ` +
    `(png ${(png.png.length / 2 ** 20).toFixed(1)} MiB, raw ${(raw.length / 2 ** 20).toFixed(1)} MiB, geotiff ${(tif.length / 2 ** 20).toFixed(1)} MiB)\n`);

  const cases: { name: string; sidecar: unknown; data: Uint8Array }[] = [
    { name: 'png16', sidecar: { image: 'a.png', format: 'png', metersPerPixel: 0.1, heightRange: png.heightRange }, data: png.png },
    { name: 'raw-f32', sidecar: { image: 'a.raw', format: 'raw-f32', metersPerPixel: 0.1, size: [n, n] }, data: raw },
    { name: 'geotiff', sidecar: null, data: tif },
  ];
  console.log('| format | file MiB | median load s | min s | median CPU s | progress calls | largest progress gap |');
  console.log('|---|---|---|---|---|---|---|');
  for (const c of cases) {
    const times: number[] = [];
    const cpu: number[] = [];
    let calls = 0;
    let gap = 0;
    for (let k = 0; k <= runs; k++) {
      let last = 0;
      calls = 0;
      gap = 0;
      const s = performance.now();
      const c0 = process.cpuUsage();
      loadTerrain(c.sidecar, c.data, (f) => {
        calls++;
        gap = Math.max(gap, f - last);
        last = f;
      });
      const dc = process.cpuUsage(c0);
      if (k > 0) {
        times.push((performance.now() - s) / 1000);
        cpu.push((dc.user + dc.system) / 1e6);
      }
    }
    console.log(`| ${c.name} | ${(c.data.length / 2 ** 20).toFixed(1)} | ${median(times).toFixed(2)} | ${Math.min(...times).toFixed(2)} | ${median(cpu).toFixed(2)} | ${calls} | ${gap.toFixed(3)} |`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  void run({ quick: process.argv.includes('--quick') });
}
