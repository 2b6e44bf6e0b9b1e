/**
 * The layering holds (import-rules.ts has the table): every import of sim/, renderer/ and
 * electron/ is checked, and the checker itself is shown to fail on planted bad imports.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { areaOf, checkImports, CORE, importSpecifiers, SIM_RULES, type SourceFile } from './import-rules';

const repo = join(__dirname, '../../..');

function sources(dir: string): SourceFile[] {
  const out: SourceFile[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(ts|mts)$/.test(name)) out.push({ path: relative(repo, full).split(sep).join('/'), source: readFileSync(full, 'utf8') });
    }
  };
  walk(join(repo, dir));
  return out;
}

describe('import boundaries', () => {
  const files = [...sources('sim'), ...sources('renderer'), ...sources('electron')];

  it('sim/, renderer/ and electron/ break no rule of the layer table', () => {
    const imports = files.reduce((n, f) => n + importSpecifiers(f.source).length, 0);
    expect(files.length).toBeGreaterThan(200); // the scan saw the code base at all
    expect(imports).toBeGreaterThan(800);
    // every core folder and the app/scenario layers exist and hold files
    for (const layer of [...CORE.filter((l) => l !== 'constants'), 'scenario', 'app', 'node']) {
      expect(files.some((f) => areaOf(f.path) === `sim/${layer}`), layer).toBe(true);
    }
    expect(checkImports(files)).toEqual([]);
  });

  it('the core imports neither the app nor the scenario layer, and dynamics does not import robot', () => {
    for (const layer of CORE) {
      expect(SIM_RULES[layer]).not.toContain('app');
      expect(SIM_RULES[layer]).not.toContain('scenario');
      expect(SIM_RULES[layer]).not.toContain('node');
    }
    expect(SIM_RULES.dynamics).not.toContain('robot');
    expect(SIM_RULES.collision).not.toContain('dynamics');
    expect(SIM_RULES.terrain).not.toContain('collision');
  });

  it('fails on planted bad imports (each rule, every import form)', () => {
    const planted: SourceFile[] = [
      { path: 'sim/dynamics/drive.ts', source: "import { createDriveController } from '../robot/controllers/drive-controller';" },
      { path: 'sim/terrain/patch.ts', source: "import type {\n  TerrainPatch,\n} from '../app/protocol';" },
      { path: 'sim/scenario/create-world.ts', source: "export { SimWorld } from '../app/sim-world';" },
      { path: 'sim/collision/gjk.ts', source: "const m = await import('../scenario/scenario-v2');" },
      { path: 'sim/record/io.ts', source: "import { readFile } from 'node:fs/promises';" },
      { path: 'sim/math/vec3.ts', source: "import * as Comlink from 'comlink';" },
      { path: 'sim/app/service.ts', source: "import { x } from '../node/cli';" },
      { path: 'sim/robot/skid-steer.ts', source: "import '../../renderer/main';" },
      { path: 'renderer/sim-client.ts', source: "const w = new Worker(new URL('../sim/node/worker-node.ts', import.meta.url));" },
      { path: 'renderer/main.ts', source: "import { ipcRenderer } from 'electron';" },
      { path: 'renderer/host/x.ts', source: "import { f } from '../../electron/main';" },
      { path: 'sim/newfolder/a.ts', source: '' },
    ];
    const v = checkImports(planted);
    expect(v.map((x) => x.file)).toEqual(planted.map((p) => p.path));
    expect(v[0].rule).toMatch(/sim\/dynamics may not import sim\/robot/);
    expect(v[1].rule).toMatch(/sim\/terrain may not import sim\/app/);
    expect(v[11].rule).toMatch(/not in the layer table/);
  });

  it('passes allowed imports and ignores imports quoted in comments', () => {
    const fine: SourceFile[] = [
      { path: 'sim/robot/place-robot.ts', source: "import { createDynamicsWorld } from '../dynamics/build';" },
      { path: 'sim/app/sim-world.ts', source: "import { buildScenarioWorld } from '../scenario/build-world';\nimport { transfer } from 'comlink';" },
      { path: 'sim/node/cli.ts', source: "import { readFileSync } from 'node:fs';\nimport { SimWorld } from '../app/sim-world';" },
      { path: 'sim/dynamics/world.ts', source: "/** like `import { x } from '../robot/y'` */\n// import { y } from '../app/protocol';\nimport { vec3 } from '../math/vec3';" },
      { path: 'renderer/main.ts', source: "import type { Api } from '../electron/ipc-contract';\nimport { POSE_STRIDE } from '../sim/dynamics/frame-layout';" },
    ];
    expect(checkImports(fine)).toEqual([]);
  });
});
