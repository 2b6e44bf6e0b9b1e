/**
 * The manifold view (pixi.js): the selected wheel's contact patch drawn in the contact plane
 * (manifold-geometry.ts): the terrain elements under it, the wheel's footprint, and the contact
 * points as discs whose size grows with depth, coloured by algorithm case; the selected contact
 * is ringed. Rolling direction (u) to the right, across the tread (v) up; a scale bar gives
 * the length in the settings' unit (scale-bar.ts). Resolves null when no pixi renderer works here
 * (the caller shows a note).
 */
import 'pixi.js/unsafe-eval';
import { Graphics, Text, type Application } from 'pixi.js';
import { createPanelApp } from './pixi-app';
import { contactKindName } from '../../sim/dynamics/plain-world';
import type { WorldInfo } from '../../sim/app/protocol';
import type { ContactFrame } from '../inspect/contact-detail';
import { manifoldPicture, wheelOfSelection, type ManifoldPicture } from '../inspect/manifold-geometry';
import type { TerrainHeights } from '../inspect/terrain-heights';
import type { Selection } from '../inspect/selection';
import { contactColor, STANDARD_CONTACT_COLORS, type ContactColors } from '../view3d/contact-style';
import { DEFAULT_UNITS, type DisplayUnits } from '../app/units';
import { scaleBar } from './scale-bar';

const PAD = 10;
/** [m] Smallest extent shown (a touching wheel's footprint is a sliver). */
const MIN_EXTENT = 0.05;
/** [px per mm] Disc radius growth with depth, above a 3 px minimum; capped at 12 px. */
const DISC_PX_PER_MM = 1.5;

const rgbHex = (c: readonly number[]): number => (Math.round(c[0] * 255) << 16) | (Math.round(c[1] * 255) << 8) | Math.round(c[2] * 255);

export class ManifoldView {
  /** The last picture drawn (tests and the inspector read it), or null. */
  picture: ManifoldPicture | null = null;
  private key = '';
  private palette: ContactColors = STANDARD_CONTACT_COLORS;
  private units: DisplayUnits = DEFAULT_UNITS;

  private constructor(private readonly app: Application, private readonly g: Graphics, private readonly title: Text, private readonly scale: Text) {}

  static async create(canvas: HTMLCanvasElement): Promise<ManifoldView | null> {
    const app = await createPanelApp(canvas, 0x161b22);
    if (app === null) return null;
    const g = new Graphics();
    const style = { fontFamily: 'monospace', fontSize: 10, fill: 0xd0d6de };
    const title = new Text({ text: '', style });
    const scale = new Text({ text: '', style });
    app.stage.addChild(g, title, scale);
    return new ManifoldView(app, g, title, scale);
  }

  resize(): void {
    const c = this.app.canvas;
    const w = Math.max(1, c.clientWidth), h = Math.max(1, c.clientHeight);
    if (this.app.renderer.width !== w || this.app.renderer.height !== h) {
      this.app.renderer.resize(w, h);
      this.key = '';
    }
  }

  /** Case colours (the settings' palette); redraws at the next update. */
  setPalette(p: ContactColors): void {
    if (p === this.palette) return;
    this.palette = p;
    this.key = '';
  }

  /** Length unit of the scale bar (the settings' units); redraws at the next update. */
  setUnits(u: DisplayUnits): void {
    if (u.length === this.units.length) return;
    this.units = { ...u };
    this.key = '';
  }

  /** The scale bar's label as drawn ('' when nothing is drawn). */
  get scaleLabel(): string {
    return this.scale.text;
  }

  /** `terrain`: exact heights (fetched around the patch); a new tile (its version) redraws. */
  update(f: (ContactFrame & { contacts: Float32Array }) | null, w: WorldInfo, terrain: TerrainHeights & { version?: number }, sel: Selection): void {
    const selIndex = sel.type === 'contact' ? sel.index : -1;
    const key = f ? `${f.step}|${f.contacts.length}|${sel.type}|${selIndex}|${sel.type === 'body' ? sel.body : ''}|${terrain.version ?? 0}` : 'none';
    if (key === this.key) return;
    this.key = key;
    const W = this.app.renderer.width, H = this.app.renderer.height;
    const g = this.g;
    g.clear();
    const wheel = f ? wheelOfSelection(w, sel, f.contactInfo) : -1;
    const pic = f && wheel >= 0 ? manifoldPicture(w, terrain, f.poses, f.contacts, f.contactInfo, wheel, selIndex) : null;
    this.picture = pic;
    if (!pic) {
      this.title.text = wheel >= 0 ? `${w.bodies[wheel].name}: no contact` : 'select a wheel or one of its contacts';
      this.title.position.set(6, 4);
      this.scale.text = '';
      this.app.render();
      return;
    }
    // Fit the footprint and the points, with a margin.
    let lo = [Infinity, Infinity], hi = [-Infinity, -Infinity];
    const grow = (u: number, v: number): void => {
      lo = [Math.min(lo[0], u), Math.min(lo[1], v)];
      hi = [Math.max(hi[0], u), Math.max(hi[1], v)];
    };
    for (let k = 0; k < pic.footprint.length; k += 2) grow(pic.footprint[k], pic.footprint[k + 1]);
    for (const p of pic.points) grow(p.u, p.v);
    const cu = (lo[0] + hi[0]) / 2, cv = (lo[1] + hi[1]) / 2;
    const ext = Math.max(MIN_EXTENT, (hi[0] - lo[0]) * 1.3, (hi[1] - lo[1]) * 1.3);
    const s = Math.min(W - 2 * PAD, H - 2 * PAD - 24) / ext; // px per metre
    const X = (u: number): number => W / 2 + (u - cu) * s;
    const Y = (v: number): number => H / 2 + 6 - (v - cv) * s;
    const poly = (pts: number[]): void => {
      g.moveTo(X(pts[0]), Y(pts[1]));
      for (let k = 2; k < pts.length; k += 2) g.lineTo(X(pts[k]), Y(pts[k + 1]));
      g.closePath();
    };
    for (const e of pic.elements) {
      poly(e);
      g.stroke({ color: 0x8a94a3, width: 1 });
    }
    if (pic.footprint.length >= 6) {
      poly(pic.footprint);
      g.fill({ color: 0x4fc3f7, alpha: 0.25 });
      poly(pic.footprint);
      g.stroke({ color: 0x4fc3f7, width: 1.5 });
    }
    for (const p of pic.points) {
      const r = Math.min(12, 3 + Math.max(0, p.depth) * 1000 * DISC_PX_PER_MM);
      g.circle(X(p.u), Y(p.v), r).fill({ color: rgbHex(contactColor(p.kind, this.palette)) });
      if (p.index === selIndex) g.circle(X(p.u), Y(p.v), r + 3).stroke({ color: 0xffff00, width: 2 });
    }
    // scale bar: a round length (in the settings' unit) up to a quarter of the width
    const bar = scaleBar(this.units, (W / 4) / s);
    if (bar) g.moveTo(PAD, H - PAD).lineTo(PAD + bar.metres * s, H - PAD).stroke({ color: 0xffffff, width: 2 });
    this.scale.text = bar?.label ?? '';
    this.scale.position.set(PAD + (bar?.metres ?? 0) * s + 6, H - PAD - 7);
    const n = pic.normal;
    this.title.text = `${w.bodies[pic.wheel].name}: ${pic.points.length} pts, ${pic.group.kinds.map(contactKindName).join('+')}, n ${n[0].toFixed(2)} ${n[1].toFixed(2)} ${n[2].toFixed(2)}\n→ rolling   ↑ across tread`;
    this.title.position.set(6, 2);
    this.app.render();
  }

  dispose(): void {
    this.app.destroy();
  }
}
