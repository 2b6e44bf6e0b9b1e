/**
 * The manifold view (pixi.js): the selected wheel's contact patch drawn in the contact plane
 * (manifold-geometry.ts): the terrain elements under it, the wheel's footprint, the paper's
 * construction on the deepest contact's element (case A's base ellipse, case B's side trapezoid
 * around the projected lowest line; sim/collision/cylinder-terrain/paper-construction.ts), and the
 * contact points as discs whose size grows with depth, coloured by algorithm case; the selected
 * contact is ringed. Under the plan a side strip shows each point's depth (exaggerated) and
 * normal. Rolling direction (u) to the right (stretched up to MAX_STRETCH× when the patch is a
 * sliver; the footer says by how much), across the tread (v) up; a scale bar gives
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
/** [px] The two header lines' band (its own backdrop: the drawing never covers it). */
const HEADER_PX = 28;
/** [px] The side strip (depth and normals) and the scale bar's line under the plan. */
const SIDE_PX = 40;
const SCALE_PX = 18;
/** [m] Smallest extent shown (a touching wheel's footprint is a sliver). */
const MIN_EXTENT = 0.05;
/** Most the rolling direction (u) is stretched against the tread's (v) to fill the plan; the header says by how much. */
const MAX_STRETCH = 20;
/** Element names as the header gives them. */
const ELEMENT_SHORT: Record<string, string> = { rectangle: 'rect', 'lower triangle': 'lower tri', 'upper triangle': 'upper tri' };
/** [px per mm] Disc radius growth with depth, from DISC_MIN_PX; capped at DISC_MAX_PX. */
const DISC_PX_PER_MM = 1.5;
const DISC_MIN_PX = 3;
const DISC_MAX_PX = 12;
/** [px] Length of a contact's normal arrow in the side strip. */
const NORMAL_PX = 14;
const BACKGROUND = 0x161b22;
const ELEMENT_COLOR = 0x8a94a3;
const FOOTPRINT_COLOR = 0x4fc3f7;
/** The paper's case A ellipse and case B trapezoid (orange and magenta: apart from the case colours' blues and greens). */
const ELLIPSE_COLOR = 0xffa726;
const TRAPEZOID_COLOR = 0xec407a;
const NORMAL_COLOR = 0xe0e0e0;

const rgbHex = (c: readonly number[]): number => (Math.round(c[0] * 255) << 16) | (Math.round(c[1] * 255) << 8) | Math.round(c[2] * 255);

export class ManifoldView {
  /** The last picture drawn (tests and the inspector read it), or null. */
  picture: ManifoldPicture | null = null;
  private key = '';
  private palette: ContactColors = STANDARD_CONTACT_COLORS;
  private units: DisplayUnits = DEFAULT_UNITS;

  private constructor(
    private readonly app: Application, private readonly g: Graphics, private readonly header: Graphics, private readonly title: Text, private readonly scale: Text,
    private readonly footer: Text,
  ) {}

  static async create(canvas: HTMLCanvasElement): Promise<ManifoldView | null> {
    const app = await createPanelApp(canvas, BACKGROUND);
    if (app === null) return null;
    const g = new Graphics();
    const header = new Graphics();
    const style = { fontFamily: 'monospace', fontSize: 10, fill: 0xd0d6de };
    const title = new Text({ text: '', style });
    const scale = new Text({ text: '', style });
    const footer = new Text({ text: '', style });
    app.stage.addChild(g, header, title, scale, footer);
    return new ManifoldView(app, g, header, title, scale, footer);
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
    this.header.clear();
    const wheel = f ? wheelOfSelection(w, sel, f.contactInfo) : -1;
    const pic = f && wheel >= 0 ? manifoldPicture(w, terrain, f.poses, f.contacts, f.contactInfo, wheel, selIndex) : null;
    this.picture = pic;
    if (!pic) {
      this.title.text = wheel >= 0 ? `${w.bodies[wheel].name}: no contact` : 'select a wheel or one of its contacts';
      this.title.position.set(6, 4);
      this.scale.text = '';
      this.footer.text = '';
      this.app.render();
      return;
    }
    this.draw(pic, w.bodies[pic.wheel].name, selIndex, W, H);
  }

  /**
   * Lays out, top to bottom: the header (two lines, on its own backdrop so nothing drawn below
   * covers it), the plan (the contact plane: elements, footprint, the construction, points), the
   * side strip (depth downward, exaggerated, with each contact's normal), the scale bar.
   */
  private draw(pic: ManifoldPicture, wheelName: string, selIndex: number, W: number, H: number): void {
    const g = this.g;
    const con = pic.construction;
    const showEllipse = con !== null && con.case === 'A';
    const showTrapezoid = con !== null && (con.case === 'B' || con.case === 'C');
    // Fit the footprint, the points and the construction drawn, with a margin.
    let lo = [Infinity, Infinity], hi = [-Infinity, -Infinity];
    const grow = (pts: readonly number[]): void => {
      for (let k = 0; k + 1 < pts.length; k += 2) {
        lo = [Math.min(lo[0], pts[k]), Math.min(lo[1], pts[k + 1])];
        hi = [Math.max(hi[0], pts[k]), Math.max(hi[1], pts[k + 1])];
      }
    };
    grow(pic.footprint);
    for (const p of pic.points) grow([p.u, p.v]);
    if (showEllipse) grow(con.ellipse);
    if (showTrapezoid) grow(con.trapezoid);
    const cu = (lo[0] + hi[0]) / 2, cv = (lo[1] + hi[1]) / 2;
    const ext = [Math.max(MIN_EXTENT / MAX_STRETCH, (hi[0] - lo[0]) * 1.2), Math.max(MIN_EXTENT, (hi[1] - lo[1]) * 1.2)];
    const planTop = HEADER_PX + 2, planBottom = H - SCALE_PX - SIDE_PX;
    // px per metre along v (across the tread), and along u (rolling) up to MAX_STRETCH times that:
    // a touching wheel's patch is a sliver across the tread, stretched along u to be read
    const sv = Math.max(1, Math.min((W - 2 * PAD) / ext[0], (planBottom - planTop) / ext[1]));
    const su = Math.max(sv, Math.min(sv * MAX_STRETCH, (W - 2 * PAD) / ext[0]));
    const stretch = su / sv;
    const s = su;
    const X = (u: number): number => W / 2 + (u - cu) * su;
    const planMid = (planTop + planBottom) / 2;
    const Y = (v: number): number => planMid - (v - cv) * sv;
    const poly = (pts: readonly number[]): void => {
      g.moveTo(X(pts[0]), Y(pts[1]));
      for (let k = 2; k < pts.length; k += 2) g.lineTo(X(pts[k]), Y(pts[k + 1]));
      g.closePath();
    };
    for (const e of pic.elements) {
      poly(e);
      g.stroke({ color: ELEMENT_COLOR, width: 1 });
    }
    if (pic.footprint.length >= 6) {
      poly(pic.footprint);
      g.fill({ color: FOOTPRINT_COLOR, alpha: 0.18 });
      poly(pic.footprint);
      g.stroke({ color: FOOTPRINT_COLOR, width: 1 });
    }
    if (showEllipse) {
      poly(con.ellipse);
      g.stroke({ color: ELLIPSE_COLOR, width: 2 });
    }
    if (showTrapezoid) {
      poly(con.trapezoid);
      g.stroke({ color: TRAPEZOID_COLOR, width: 2 });
      const l = con.lowestLine;
      g.moveTo(X(l[0]), Y(l[1])).lineTo(X(l[2]), Y(l[3])).stroke({ color: TRAPEZOID_COLOR, width: 1, alpha: 0.7 });
    }
    const radius = (depth: number): number => Math.min(DISC_MAX_PX, DISC_MIN_PX + Math.max(0, depth) * 1000 * DISC_PX_PER_MM);
    for (const p of pic.points) {
      const r = radius(p.depth);
      g.circle(X(p.u), Y(p.v), r).fill({ color: rgbHex(contactColor(p.kind, this.palette)) });
      if (p.index === selIndex) g.circle(X(p.u), Y(p.v), r + 3).stroke({ color: 0xffff00, width: 2 });
    }
    // Side strip: u across as in the plan, depth below the plane line exaggerated to fit, each
    // contact's normal an arrow of fixed length (its tilt out of the plane shows as a lean).
    const top = planBottom + 4, base = top + 8;
    g.moveTo(PAD, base).lineTo(W - PAD, base).stroke({ color: ELEMENT_COLOR, width: 1 });
    let maxDepth = 0;
    for (const p of pic.points) maxDepth = Math.max(maxDepth, p.depth);
    const dScale = maxDepth > 0 ? (SIDE_PX - 16) / maxDepth : 0; // px per metre of depth
    for (const p of pic.points) {
      const x = X(p.u), y = base + Math.max(0, p.depth) * dScale;
      g.moveTo(x, base).lineTo(x, y).stroke({ color: ELEMENT_COLOR, width: 1, alpha: 0.6 });
      g.moveTo(x, y).lineTo(x + p.nu * NORMAL_PX, y - p.nn * NORMAL_PX).stroke({ color: NORMAL_COLOR, width: 1.5 });
      g.circle(x, y, 2.5).fill({ color: rgbHex(contactColor(p.kind, this.palette)) });
    }
    // scale bar: a round length (in the settings' unit) up to a quarter of the width
    const bar = scaleBar(this.units, (W / 4) / s); // along u (→)
    if (bar) g.moveTo(PAD, H - PAD).lineTo(PAD + bar.metres * s, H - PAD).stroke({ color: 0xffffff, width: 2 });
    this.scale.text = bar?.label ?? '';
    this.scale.position.set(PAD + (bar?.metres ?? 0) * s + 6, H - PAD - 7);
    const mm = (m: number): string => (m * 1000).toFixed(m < 0.1 ? 2 : 0);
    this.footer.text = `${stretch > 1.05 ? `→ ×${stretch.toFixed(stretch < 10 ? 1 : 0)}  ` : ''}depth ≤ ${(maxDepth * 1000).toPrecision(2)} mm`;
    this.footer.position.set(W - PAD - this.footer.width, H - PAD - 7);
    // the header last, on its own backdrop
    this.header.clear().rect(0, 0, W, HEADER_PX).fill({ color: BACKGROUND });
    const n = pic.normal;
    const what = con === null ? 'construction: waiting for heights'
      : con.case === 'A' ? `A base ellipse ${mm(con.semiW)}×${mm(con.semiU)} mm`
      : con.case === 'B' ? `B trapezoid ½w ${mm(con.halfWidthL)}/${mm(con.halfWidthU)} mm`
      : con.case === 'C' ? 'C single point (rim)' : 'above the element plane';
    const where = con === null ? '' : ` · ${ELEMENT_SHORT[con.element] ?? con.element} ${con.cell[0]},${con.cell[1]}`;
    this.title.text = `${wheelName}: ${pic.points.length} pts ${pic.group.kinds.map(contactKindName).join('+')} · n ${n[0].toFixed(2)} ${n[1].toFixed(2)} ${n[2].toFixed(2)}\n${what}${where}`;
    this.title.position.set(6, 2);
    this.app.render();
  }

  dispose(): void {
    this.app.destroy();
  }
}
