import { CONTACT_INFO_STRIDE, CONTACT_KIND_BODY_PAIR, CONTACT_KIND_CONVEX_TERRAIN, CONTACT_STRIDE } from '../../../sim/dynamics/frame-layout';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { driveFromKeys, FINE_DRIVE_SCALE, sameDrive } from '../../../renderer/drive-keys';
import { blendFactor, interpolatePoses } from '../../../renderer/frame-interp';
import { TimeSeries } from '../../../renderer/panels/time-series';
import { contactColor, normalLength, OTHER_CONTACT_COLOR, WHEEL_KIND_COLORS } from '../../../renderer/view3d/contact-style';
import { isSafeAssetPath } from '../../../renderer/host/asset-path';
import { CONTACT_NORMAL_MAX_LENGTH, CONTACT_NORMAL_MIN_LENGTH, TERRAIN_MESH_MAX_VERTICES, TERRAIN_MESH_MAX_VERTICES_SOFTWARE } from '../../../renderer/config';
import { isSoftwareRenderer, terrainVertexBudget } from '../../../renderer/view3d/gl-info';
import { WheelContactKind } from '../../../sim/collision/contact';
import { Rng } from '../../../sim/math/random';
import type { DriveCommand } from '../../../sim/app/protocol';

describe('driveFromKeys', () => {
  const cmd = (...codes: string[]): DriveCommand => driveFromKeys({ throttle: 9, steer: 9 }, new Set(codes));
  it('maps WASD and arrows to throttle and steer (left = +steer)', () => {
    expect(cmd('KeyW')).toEqual({ throttle: 1, steer: 0 });
    expect(cmd('ArrowUp')).toEqual({ throttle: 1, steer: 0 });
    expect(cmd('KeyS')).toEqual({ throttle: -1, steer: 0 });
    expect(cmd('ArrowLeft')).toEqual({ throttle: 0, steer: 1 });
    expect(cmd('KeyD', 'KeyW')).toEqual({ throttle: 1, steer: -1 });
  });
  it('cancels opposite keys and returns exactly zero with no keys (key up resets)', () => {
    expect(cmd('KeyW', 'ArrowDown')).toEqual({ throttle: 0, steer: 0 });
    const zero = cmd();
    expect(Object.is(zero.throttle, 0) && Object.is(zero.steer, 0)).toBe(true);
    expect(sameDrive(zero, { throttle: 0, steer: 0 })).toBe(true);
  });
  it('halves the command with Shift and ignores other keys', () => {
    expect(cmd('KeyW', 'ShiftLeft')).toEqual({ throttle: FINE_DRIVE_SCALE, steer: 0 });
    expect(cmd('KeyQ', 'Space')).toEqual({ throttle: 0, steer: 0 });
  });
});

describe('interpolatePoses', () => {
  it('returns a at 0, b at 1, and the midpoint position at 0.5', () => {
    const a = Float32Array.from([0, 0, 0, 0, 0, 0, 1]);
    const s = Math.SQRT1_2;
    const b = Float32Array.from([2, 4, -6, 0, 0, s, s]); // 90° about z
    const out = new Float32Array(7);
    expect(Array.from(interpolatePoses(out, a, b, 0))).toEqual(Array.from(a));
    interpolatePoses(out, a, b, 1);
    for (let k = 0; k < 7; k++) expect(out[k]).toBeCloseTo(b[k], 6);
    interpolatePoses(out, a, b, 0.5);
    expect([out[0], out[1], out[2]]).toEqual([1, 2, -3]);
    // nlerp halfway between identity and 90° about z is exactly 45° about z
    expect(out[5]).toBeCloseTo(Math.sin(Math.PI / 8), 6);
    expect(out[6]).toBeCloseTo(Math.cos(Math.PI / 8), 6);
  });
  it('takes the short arc when the quaternions are in opposite hemispheres (q and −q)', () => {
    const a = Float32Array.from([0, 0, 0, 0, 0, 0, 1]);
    const b = Float32Array.from([0, 0, 0, 0, 0, 0, -1]); // same rotation
    const out = interpolatePoses(new Float32Array(7), a, b, 0.5);
    expect(Math.abs(out[6])).toBeCloseTo(1, 6);
  });
  it('keeps unit quaternions and finite values for random poses (seeded)', () => {
    const rng = new Rng(42);
    const a = new Float32Array(7 * 5), b = new Float32Array(7 * 5), out = new Float32Array(7 * 5);
    for (let trial = 0; trial < 200; trial++) {
      for (const p of [a, b]) {
        for (let k = 0; k < 5; k++) {
          for (let c = 0; c < 3; c++) p[7 * k + c] = rng.range(-100, 100);
          let n = 0;
          for (let c = 3; c < 7; c++) { p[7 * k + c] = rng.gaussian(); n += p[7 * k + c] ** 2; }
          for (let c = 3; c < 7; c++) p[7 * k + c] /= Math.sqrt(n);
        }
      }
      interpolatePoses(out, a, b, rng.next());
      for (let k = 0; k < 5; k++) {
        expect(Math.hypot(out[7 * k + 3], out[7 * k + 4], out[7 * k + 5], out[7 * k + 6])).toBeCloseTo(1, 5);
      }
      expect(out.every(Number.isFinite)).toBe(true);
    }
  });
  it('copies b for bodies that a does not have (a new world) and never writes NaN for zero quaternions', () => {
    const a = new Float32Array(0);
    const b = Float32Array.from([1, 2, 3, 0, 0, 0, 1]);
    expect(Array.from(interpolatePoses(new Float32Array(7), a, b, 0.3))).toEqual(Array.from(b));
    const z = Float32Array.from([0, 0, 0, 0, 0, 0, 0]);
    expect(interpolatePoses(new Float32Array(7), z, z, 0.5).every(Number.isFinite)).toBe(true);
  });
  it('blendFactor clamps to [0, 1] and is 1 for coincident frames', () => {
    expect(blendFactor(1, 2, 1.5)).toBe(0.5);
    expect(blendFactor(1, 2, 0)).toBe(0);
    expect(blendFactor(1, 2, 9)).toBe(1);
    expect(blendFactor(1, 1, 1)).toBe(1);
    expect(blendFactor(1, 2, Number.NaN)).toBe(1);
  });
});

describe('TimeSeries', () => {
  it('keeps the newest `capacity` samples in order', () => {
    const s = new TimeSeries(4);
    for (let k = 0; k < 10; k++) s.push(k, k * 10);
    expect(s.count).toBe(4);
    expect([0, 1, 2, 3].map((k) => s.timeAt(k))).toEqual([6, 7, 8, 9]);
    expect(s.range([0, 0], 7.5)).toEqual([80, 90]);
  });
  it('restarts when time goes backwards (new world or seek) and drops non-finite samples', () => {
    const s = new TimeSeries(8);
    s.push(5, 1);
    s.push(6, 2);
    s.push(1, 3);
    expect(s.count).toBe(1);
    s.push(2, Number.NaN);
    expect(s.count).toBe(1);
    expect(new TimeSeries(2).range([7, 7], 0)).toEqual([0, 0]);
  });
});

describe('contact style', () => {
  it('colours wheel contacts by algorithm case, other shapes on the terrain and body–body contacts apart', () => {
    const kinds = Object.values(WheelContactKind);
    const colors = new Set([...kinds, CONTACT_KIND_CONVEX_TERRAIN, CONTACT_KIND_BODY_PAIR].map((k) => contactColor(k).join()));
    expect(colors.size).toBe(kinds.length + 2);
    expect(WHEEL_KIND_COLORS.length).toBe(kinds.length);
    expect(contactColor(CONTACT_KIND_BODY_PAIR)).toBe(OTHER_CONTACT_COLOR);
    expect(contactColor(99)).toBe(OTHER_CONTACT_COLOR);
  });
  it('draws normals with a minimum length, growing with depth, clamped', () => {
    expect(normalLength(0)).toBe(CONTACT_NORMAL_MIN_LENGTH);
    expect(normalLength(Number.NaN)).toBe(CONTACT_NORMAL_MIN_LENGTH);
    expect(normalLength(0.02)).toBeGreaterThan(normalLength(0.01));
    expect(normalLength(100)).toBe(CONTACT_NORMAL_MAX_LENGTH);
  });
});

describe('isSafeAssetPath', () => {
  it('accepts plain relative paths and refuses escapes', () => {
    expect(isSafeAssetPath('terrains/hills.json')).toBe(true);
    for (const bad of ['', '/etc/passwd', '../x', 'a/../../b', 'a//b', 'a\\b', './a', 'a/.', 'a\0b']) expect(isSafeAssetPath(bad)).toBe(false);
  });
});

describe('renderer boundary', () => {
  it('renderer/ never imports electron or node modules (only electron/ipc-contract types)', () => {
    const root = join(__dirname, '../../../renderer');
    const offenders: string[] = [];
    let scanned = 0;
    const walk = (d: string): void => {
      for (const name of readdirSync(d)) {
        const full = join(d, name);
        if (statSync(full).isDirectory()) walk(full);
        else if (name.endsWith('.ts')) {
          const src = readFileSync(full, 'utf8');
          for (const m of src.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
            const spec = m[1];
            scanned++;
            const bad = spec.startsWith('node:') || spec === 'electron' || /^(fs|path|os|child_process|url|worker_threads)$/.test(spec) ||
              (spec.includes('electron/') && !spec.endsWith('electron/ipc-contract'));
            if (bad) offenders.push(`${relative(root, full)}: ${spec}`);
          }
        }
      }
    };
    walk(root);
    expect(scanned).toBeGreaterThan(20); // the scan saw the renderer's imports at all
    expect(offenders).toEqual([]);
  });
});

describe('terrainVertexBudget', () => {
  it('draws coarser meshes on software GL only', () => {
    for (const sw of ['ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)', 'llvmpipe (LLVM 15.0.6, 256 bits)', 'Microsoft Basic Render Driver']) {
      expect(isSoftwareRenderer(sw)).toBe(true);
      expect(terrainVertexBudget(sw)).toBe(TERRAIN_MESH_MAX_VERTICES_SOFTWARE);
    }
    for (const hw of ['ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 Direct3D11 vs_5_0 ps_5_0, D3D11)', 'Apple M1', 'Mesa Intel(R) UHD Graphics 620 (KBL GT2)', '']) {
      expect(isSoftwareRenderer(hw)).toBe(false);
      expect(terrainVertexBudget(hw)).toBe(TERRAIN_MESH_MAX_VERTICES);
    }
    expect(TERRAIN_MESH_MAX_VERTICES_SOFTWARE).toBeLessThan(TERRAIN_MESH_MAX_VERTICES);
  });
});
