/**
 * The fault pause in the renderer's pure parts (issue #30 item 1): the status bar says FAULT
 * instead of "running · rtf", the state notifies a fault once (not every frame of it), the map
 * edge is warned of before it is reached and drawn closed around the terrain.
 */
import { describe, expect, it } from 'vitest';
import { statusText } from '../../../renderer/app/status-text';
import { AppState } from '../../../renderer/app-state';
import { edgeOutline } from '../../../renderer/view3d/map-edge';
import { edgeWarning, EDGE_WARN_M, EDGE_WARN_S } from '../../../sim/app/warnings';
import type { TerrainInfo } from '../../../sim/app/protocol';

const terrain: TerrainInfo = {
  cols: 5, rows: 3, dx: 1, dy: 2, x0: -2, y0: -2, minHeight: 0, maxHeight: 1,
  overview: { stride: 1, cols: 5, rows: 3, heights: Float32Array.from([0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2]) },
};

describe('fault pause: status, state, map edge', () => {
  const frame = { time: 3, step: 600, realtimeFactor: 0.97, speed: 1, contactInfo: new Int32Array(0) };
  const base = { frame, fps: 30, paused: false, timeScale: 1, host: 'web', softwareGL: false, terrainStride: 1, workerError: null, selection: null };

  it('the status bar says FAULT and no realtime factor during a fault, running otherwise', () => {
    expect(statusText(base)).toMatch(/rtf 0\.97×.*running/);
    const t = statusText({ ...base, fault: { step: 601 } });
    expect(t).toContain('FAULT at step 601');
    expect(t).not.toMatch(/running|rtf 0/);
    expect(statusText({ ...base, paused: true, fault: { step: 601 } })).not.toContain('PAUSED');
  });

  it('the state notifies a fault once, its end once, and a new world clears it', () => {
    const s = new AppState();
    const heard: (number | null)[] = [];
    s.subscribe('fault', (f) => heard.push(f ? f.step : null));
    s.setFault({ message: 'left', step: 5, time: 0.025 });
    s.setFault({ message: 'left', step: 5, time: 0.025 }); // the same fault, the next frame
    s.setFault(null);
    s.setFault(null);
    s.setFault({ message: 'left', step: 9, time: 0.045 });
    expect(heard).toEqual([5, null, 9]);
    s.worldLoaded({ info: { scenarioName: 'x', dt: 0.005, terrain, bodies: [], joints: [], baseBody: -1 }, bodySizes: [], staticWarnings: [], seriesDefs: [], terrainBytes: 0 }, null);
    expect(s.fault).toBeNull();
  });

  it('warns within EDGE_WARN_M of an edge, or EDGE_WARN_S of it at speed, naming the nearest edge', () => {
    // terrain x −2..2, y −2..2
    expect(edgeWarning(terrain, 0, 0, 0)).toBeNull();
    expect(EDGE_WARN_M).toBeLessThanOrEqual(2);
    expect(edgeWarning(terrain, 1.5, 0, 0)).toMatch(/map edge \(x max\) 0\.5 m away/);
    expect(edgeWarning(terrain, 0, -1.9, 0)).toMatch(/\(y min\) 0\.1 m/);
    // 2 m from every edge: only a speed that reaches an edge within EDGE_WARN_S warns
    const far = { ...terrain, cols: 101, rows: 101, dx: 0.1, dy: 0.1, x0: 0, y0: 0 };
    expect(edgeWarning(far, 5, 5, 0)).toBeNull();
    expect(edgeWarning(far, 5, 5, 4.9 / EDGE_WARN_S)).toBeNull();
    expect(edgeWarning(far, 5, 5, 5.1 / EDGE_WARN_S)).toMatch(/5\.0 m away/);
    expect(edgeWarning(terrain, 3, 0, 0)).toBeNull(); // off the map: frameWarnings says so
  });

  it('the edge outline goes round the border at the overview heights and closes', () => {
    const p = edgeOutline(terrain);
    const n = p.length / 3;
    expect(n).toBe(2 * (5 + 3) - 3); // every border sample once, the first repeated at the end
    expect([p[0], p[1]]).toEqual([-2, -2]);
    expect([p[3 * (n - 1)], p[3 * (n - 1) + 1]]).toEqual([-2, -2]);
    for (let k = 0; k < n; k++) {
      const x = p[3 * k], y = p[3 * k + 1];
      expect(x === -2 || x === 2 || y === -2 || y === 2).toBe(true);
    }
    // the far corner (x 2, y 2) at the overview's last height, lifted a little
    const corner = [...Array(n).keys()].find((k) => p[3 * k] === 2 && p[3 * k + 1] === 2)!;
    expect(p[3 * corner + 2]).toBeGreaterThan(2);
    expect(p[3 * corner + 2]).toBeLessThan(2.1);
  });
});
