/**
 * Terrain transfer and LOD memory: what crosses from the worker to the renderer for a terrain,
 * and what the renderer holds for it, before (every height in WorldInfo, one mesh decimated to
 * the vertex budget) and after (overview + chunks by LOD + exact tiles), for 1025² and 4097²
 * maps at 5 cm with a seeded fractal relief.
 *
 *   WorldInfo bytes   v8 structured-clone size (what postMessage copies): before = the old
 *                     TerrainInfo with Float32Array heights; after = the real SimWorld.info().
 *   chunks            LOD chunks drawn for the chase camera (4 m behind, 2.5 m above the map's
 *                     centre, focus on the robot there), on a GPU budget (1025² vertices, 32-cell
 *                     chunks) and a software-GL budget (257², 16-cell chunks).
 *   patch bytes       float32 bytes of the chunks that need a request (finer than the overview).
 *   mesh MB           renderer memory of the drawn chunk meshes (positions, normals, colours,
 *                     indices); before: the single decimated mesh plus the heights copy.
 *   select+build ms   main-thread time to select the chunks and build every drawn chunk's mesh
 *                     from scratch (median of 5 after a warm-up): the worst case, a cold cache.
 *
 * Run: `npm run bench -- terrain-lod` or `npx tsx test/bench/terrain-lod.bench.ts [--quick]`.
 */
import { serialize } from 'node:v8';
import { fractalTerrain } from '../../sim/terrain/generate';
import { chooseTerrainStride, sampleCount } from '../../sim/terrain/mesh';
import { terrainPatch } from '../../sim/terrain/patch';
import { SimWorld } from '../../sim/app/sim-world';
import { parseScenarioFile } from '../../sim/scenario/scenario-v2';
import { chunkMesh, chunkRequest, patchFromOverview, selectChunks, type LodGrid } from '../../renderer/view3d/terrain-lod';
import { LOD_CHUNK_CELLS, LOD_CHUNK_CELLS_SOFTWARE, LOD_FOCUS_RADIUS, LOD_SPLIT_FACTOR, TERRAIN_MESH_MAX_VERTICES, TERRAIN_MESH_MAX_VERTICES_SOFTWARE } from '../../renderer/config';
import { EXACT_TILE_CACHE, TILE_CELLS } from '../../renderer/inspect/terrain-heights';

export interface BenchContext {
  quick: boolean;
  filter?: string;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

const MB = 2 ** 20;

export default async function run(ctx: BenchContext): Promise<void> {
  const sizes = ctx.quick ? [1025] : [1025, 4097];
  console.log('\n### Terrain transfer and LOD memory (chase camera at the map centre)\n');
  console.log('| map | WorldInfo before | WorldInfo after | budget | chunks drawn | vertices | patch requests | patch bytes | mesh MB after | renderer MB before | select+build ms |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const n of sizes) {
    const hf = fractalTerrain({ cols: n, dx: 0.05, seed: n, amplitude: 4, roughness: 0.5 });
    const scenario = { format: 'terrawheel-scenario', version: 2, name: 'bench', terrain: 't.json', dt: 0.005, robot: { type: 'skid-steer', position: [hf.x0 + 1, hf.y0 + 1], yaw: 0 } };
    const info = SimWorld.create(parseScenarioFile(scenario), hf).info();
    const after = serialize(info).length;
    const { overview: _o, ...shape } = info.terrain;
    const before = serialize({ ...info, terrain: { ...shape, heights: Float32Array.from(hf.heights) } }).length;
    const grid: LodGrid = { cols: hf.cols, rows: hf.rows, dx: hf.dx, dy: hf.dy, x0: hf.x0, y0: hf.y0, minHeight: hf.minHeight, maxHeight: hf.maxHeight };
    const cx = hf.x0 + (hf.cols - 1) * hf.dx / 2, cy = hf.y0 + (hf.rows - 1) * hf.dy / 2;
    const eye = [cx - 4, cy, hf.heightAt(cx, cy) + 2.5];
    for (const [label, budget, cells] of [['GPU', TERRAIN_MESH_MAX_VERTICES, LOD_CHUNK_CELLS], ['software', TERRAIN_MESH_MAX_VERTICES_SOFTWARE, LOD_CHUNK_CELLS_SOFTWARE]] as const) {
      const build = () => {
        const sel = selectChunks(grid, eye, { chunkCells: cells, splitFactor: LOD_SPLIT_FACTOR, maxVertices: budget, focus: [cx, cy], focusRadius: LOD_FOCUS_RADIUS });
        let bytes = 0, patchBytes = 0, requests = 0;
        for (const c of sel.chunks) {
          let p = patchFromOverview(grid, info.terrain.overview, c);
          if (!p) {
            p = terrainPatch(hf, ...chunkRequest(c));
            requests++;
            patchBytes += p.heights.byteLength;
          }
          const m = chunkMesh(grid, c, p);
          bytes += m.positions.byteLength + m.normals.byteLength + m.colors.byteLength + m.indices.byteLength;
        }
        return { sel, bytes, patchBytes, requests };
      };
      const times: number[] = [];
      let r = build();
      for (let k = 0; k < (ctx.quick ? 1 : 5); k++) {
        const t = performance.now();
        r = build();
        times.push(performance.now() - t);
      }
      // before: Float32 heights copy + one mesh at the old stride (xyz, normal, colour per vertex; u32 indices)
      const s = chooseTerrainStride(n, n, budget);
      const mc = sampleCount(n, s);
      const oldMesh = mc * mc * 36 + (mc - 1) * (mc - 1) * 6 * 4;
      const oldTotal = n * n * 4 + oldMesh;
      const newTotal = r.bytes + info.terrain.overview.heights.byteLength + EXACT_TILE_CACHE * (TILE_CELLS + 1) ** 2 * 4;
      console.log(`| ${n}² | ${(before / MB).toFixed(1)} MB | ${(after / 1024).toFixed(0)} KB | ${label} | ${r.sel.chunks.length} | ${r.sel.vertices} | ${r.requests} | ${(r.patchBytes / 1024).toFixed(0)} KB | ${(newTotal / MB).toFixed(1)} | ${(oldTotal / MB).toFixed(1)} (stride ${s}) | ${median(times).toFixed(1)} |`);
    }
  }
  console.log('\n"mesh MB after" includes the overview and a full exact-tile cache; the chunk cache may keep up to TERRAIN_CHUNK_CACHE chunks (≈ 58 KB each) that are not drawn.');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  void run({ quick: process.argv.includes('--quick') });
}
