/**
 * Minimap for the 2D panel: the terrain seen from above (north up, +x right), coloured by height,
 * with the robot as an arrow along its heading. The terrain's overview (TerrainInfo.overview, at
 * most 257² samples) is sampled once per world into at most
 * MINIMAP_CELLS × MINIMAP_CELLS rectangles in one Graphics (pixi keeps its geometry on the GPU);
 * only the small robot marker is redrawn per panel refresh.
 */
import { Container, Graphics } from 'pixi.js';
import type { TerrainInfo } from '../../sim/app/protocol';
import { heightColor } from '../view3d/height-colors';

/** [-] Most minimap cells along the longer side. */
const MINIMAP_CELLS = 48;

export class Minimap {
  readonly container = new Container();
  private readonly ground = new Graphics();
  private readonly marker = new Graphics();
  private terrain: { x0: number; y0: number; w: number; h: number } | null = null;
  private size = 0;
  private readonly rgb = new Float32Array(3);

  constructor() {
    this.container.addChild(this.ground, this.marker);
  }

  /** Rebuilds the height picture for a new world, `size` pixels on the longer side. */
  setTerrain(t: TerrainInfo, size: number): void {
    this.size = size;
    const w = (t.cols - 1) * t.dx;
    const h = (t.rows - 1) * t.dy;
    this.terrain = { x0: t.x0, y0: t.y0, w, h };
    const nx = w >= h ? MINIMAP_CELLS : Math.max(1, Math.round((MINIMAP_CELLS * w) / h));
    const ny = h >= w ? MINIMAP_CELLS : Math.max(1, Math.round((MINIMAP_CELLS * h) / w));
    const scale = size / Math.max(w, h);
    const cw = (w * scale) / nx;
    const ch = (h * scale) / ny;
    const g = this.ground;
    g.clear();
    const o = t.overview;
    for (let b = 0; b < ny; b++) {
      // Sample the overview vertex nearest the cell centre (a picture, not a measurement).
      const j = Math.min(o.rows - 1, Math.round((((b + 0.5) / ny) * h) / (t.dy * o.stride)));
      for (let a = 0; a < nx; a++) {
        const i = Math.min(o.cols - 1, Math.round((((a + 0.5) / nx) * w) / (t.dx * o.stride)));
        heightColor(this.rgb, 0, o.heights[j * o.cols + i], t.minHeight, t.maxHeight);
        const color = (Math.round(this.rgb[0] * 255) << 16) | (Math.round(this.rgb[1] * 255) << 8) | Math.round(this.rgb[2] * 255);
        // north up: row b = 0 (southmost) is drawn at the bottom
        g.rect(a * cw, (ny - 1 - b) * ch, cw + 0.5, ch + 0.5).fill({ color });
      }
    }
    g.rect(0, 0, nx * cw, ny * ch).stroke({ color: 0x8a94a3, width: 1 });
  }

  /** Puts the robot arrow at sim (x, y) pointing along yaw [rad]. */
  setRobot(x: number, y: number, yaw: number): void {
    const t = this.terrain;
    const m = this.marker;
    m.clear();
    if (!t || !Number.isFinite(x + y + yaw)) return;
    const scale = this.size / Math.max(t.w, t.h);
    const px = (x - t.x0) * scale;
    const py = (t.h - (y - t.y0)) * scale;
    const c = Math.cos(yaw), s = Math.sin(yaw);
    const L = 7, W = 4;
    // screen y grows downwards, so a heading (c, s) in the map is (c, −s) on screen
    m.moveTo(px + L * c, py - L * s)
      .lineTo(px - W * c + W * s, py + W * s + W * c)
      .lineTo(px - W * c - W * s, py + W * s - W * c)
      .closePath()
      .fill({ color: 0xff5030 })
      .stroke({ color: 0xffffff, width: 1 });
  }
}
