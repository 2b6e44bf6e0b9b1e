/**
 * Writes the bundled terrains, assets/terrains/{hills,curbs,ramp,floor}.{png,json}: 16-bit grayscale
 * PNGs (north up, black = heightRange[0], white = heightRange[1]) with their sidecars, from fixed
 * seeds, so the output is byte-identical on every run and machine.
 *
 *   npx tsx scripts/gen-terrains.ts            write the files
 *   npx tsx scripts/gen-terrains.ts --check    fail if the committed files differ from a fresh run
 *
 * Every map is centred on the world origin (a robot placed at (0, 0) starts in the middle) and
 * each file is reloaded through decodeTerrain and compared with the generated heights (within
 * half a 16-bit level) before it is written.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Heightfield } from '../sim/terrain/heightfield';
import { fractalTerrain, hillsTerrain } from '../sim/terrain/generate';
import { encodeHeightfieldPng } from '../sim/terrain/png-encode';
import { decodeTerrain } from '../sim/terrain/load-terrain';

const outDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'assets', 'terrains');
const check = process.argv.includes('--check');

interface TerrainSpec {
  name: string;
  description: string;
  build: () => Heightfield;
}

/** Sum of two heightfields on the same grid. */
function add(a: Heightfield, b: Heightfield): Heightfield {
  const heights = new Float64Array(a.heights.length);
  for (let k = 0; k < heights.length; k++) heights[k] = a.heights[k] + b.heights[k];
  return Heightfield.fromArray({ cols: a.cols, rows: a.rows, dx: a.dx, dy: a.dy, x0: a.x0, y0: a.y0, heights });
}

const specs: TerrainSpec[] = [
  {
    name: 'hills',
    description:
      'Rolling hills, 60 m x 60 m at 0.1 m: 25 seeded Gaussian hills and hollows (-1..2 m, sigma 5..12 m) plus 4 cm fractal roughness.',
    build: () => {
      const grid = { cols: 601, rows: 601, dx: 0.1 };
      const hills = hillsTerrain({ ...grid, seed: 20240601, count: 25, minHeight: -1, maxHeight: 2, minRadius: 5, maxRadius: 12 });
      const rough = fractalTerrain({ ...grid, seed: 77, amplitude: 0.04, roughness: 0.45 });
      return add(hills, rough);
    },
  },
  {
    name: 'curbs',
    description:
      'Flat ground, 30 m (x) x 20 m (y) at 0.05 m, crossed by straight curbs along y: steps up of 5, 10, 15 cm at x = -10, -6, -2 m, ' +
      'then steps down of 15, 10, 5 cm at x = 3, 7, 11 m (each step rises over one 5 cm cell).',
    build: () => {
      const grid = { cols: 601, rows: 401, dx: 0.05 };
      // Step lines at half-cell offsets (as generate.ts's randomCurbs does) so each curb is one steep cell row.
      const at = (x: number): number => x + grid.dx / 2;
      const curbs = [
        { axis: 'x' as const, at: at(-10), height: 0.05 },
        { axis: 'x' as const, at: at(-6), height: 0.1 },
        { axis: 'x' as const, at: at(-2), height: 0.15 },
        { axis: 'x' as const, at: at(3), height: -0.15 },
        { axis: 'x' as const, at: at(7), height: -0.1 },
        { axis: 'x' as const, at: at(11), height: -0.05 },
      ];
      return fractalTerrain({ ...grid, seed: 1, amplitude: 0, curbs });
    },
  },
  {
    name: 'ramp',
    description:
      'Three side-by-side ramps, 30 m (x) x 24 m (y) at 0.05 m: flat approach for x < -5 m, then inclines of 10 deg (y < -4 m), ' +
      '20 deg (-4..4 m) and 30 deg (y > 4 m) rising along +x over a 6 m run to flat plateaus.',
    build: () => {
      const cols = 601;
      const rows = 481;
      const dx = 0.05;
      const x0 = (-(cols - 1) * dx) / 2;
      const y0 = (-(rows - 1) * dx) / 2;
      const heights = new Float64Array(cols * rows);
      const start = -5;
      const run = 6;
      for (let j = 0; j < rows; j++) {
        const y = y0 + j * dx;
        const angle = ((y < -4 ? 10 : y < 4 ? 20 : 30) * Math.PI) / 180;
        const slope = Math.tan(angle);
        for (let i = 0; i < cols; i++) {
          const x = x0 + i * dx;
          const t = Math.min(Math.max(x - start, 0), run);
          heights[j * cols + i] = t * slope;
        }
      }
      return Heightfield.fromArray({ cols, rows, dx, dy: dx, x0, y0, heights });
    },
  },
  {
    name: 'floor',
    description:
      'Nearly flat floor for small robots (the TurtleBot3: wheels of 3.3 cm need cells under 1.65 cm), 10 m x 10 m at 0.015 m: ' +
      'gentle waves of 2 cm amplitude and 2.5..3.5 m wavelength.',
    build: () => {
      const cols = 667;
      const dx = 0.015;
      const x0 = (-(cols - 1) * dx) / 2;
      const heights = new Float64Array(cols * cols);
      for (let j = 0; j < cols; j++) {
        const y = x0 + j * dx;
        for (let i = 0; i < cols; i++) {
          const x = x0 + i * dx;
          heights[j * cols + i] = 0.01 * Math.sin((2 * Math.PI * x) / 3.5) + 0.01 * Math.cos((2 * Math.PI * y) / 2.5);
        }
      }
      return Heightfield.fromArray({ cols, rows: cols, dx, dy: dx, x0, y0: x0, heights });
    },
  },
];

/** Round to 1e-9 m so the sidecar's numbers print short and stay exact in JSON. */
function tidy(v: number): number {
  return Math.round(v * 1e9) / 1e9;
}

let failures = 0;
mkdirSync(outDir, { recursive: true });
for (const spec of specs) {
  const hf = spec.build();
  const enc = encodeHeightfieldPng(hf, 16);
  // Tidying moves the range by < 1 nm, far below half a 16-bit level; the reload check below covers it.
  const range: [number, number] = [tidy(enc.heightRange[0]), tidy(enc.heightRange[1])];
  const sidecar = {
    image: `${spec.name}.png`,
    format: 'png',
    metersPerPixel: enc.metersPerPixel[0] === enc.metersPerPixel[1] ? enc.metersPerPixel[0] : enc.metersPerPixel,
    heightRange: range,
    origin: [tidy(enc.origin[0]), tidy(enc.origin[1])],
    name: spec.name,
    description: spec.description,
    source: 'scripts/gen-terrains.ts (seeded, deterministic)',
  };
  const json = `${JSON.stringify(sidecar, null, 2)}\n`;

  // Reload through the real loader and compare.
  const back = decodeTerrain(JSON.parse(json), enc.png);
  const halfLevel = (range[1] - range[0]) / 65535 / 2 + 1e-9;
  let worst = 0;
  for (let k = 0; k < hf.heights.length; k++) worst = Math.max(worst, Math.abs(back.heights[k] - hf.heights[k]));
  if (worst > halfLevel) {
    console.error(`${spec.name}: reload differs by ${worst} m (> half a level, ${halfLevel} m)`);
    failures++;
  }

  const pngPath = join(outDir, `${spec.name}.png`);
  const jsonPath = join(outDir, `${spec.name}.json`);
  const line =
    `${spec.name}: ${hf.cols} x ${hf.rows}, dx ${hf.dx} m, heights [${range[0]}, ${range[1]}] m, ` +
    `PNG ${(enc.png.length / 1024).toFixed(0)} KiB, max reload error ${(worst * 1000).toFixed(4)} mm`;
  if (check) {
    const same =
      existsSync(pngPath) &&
      existsSync(jsonPath) &&
      Buffer.compare(readFileSync(pngPath), Buffer.from(enc.png)) === 0 &&
      readFileSync(jsonPath, 'utf8') === json;
    console.log(`${line} — ${same ? 'up to date' : 'DIFFERS from the committed file'}`);
    if (!same) failures++;
  } else {
    writeFileSync(pngPath, enc.png);
    writeFileSync(jsonPath, json);
    console.log(line);
  }
}
if (failures > 0) process.exit(1);
