/**
 * Contact markers: an instanced small sphere at every contact point and a line segment along its
 * normal (length from depth, or from normal force at a numeric scale in N per metre, fixed or
 * automatic (contact-style.ts AutoForceScale); with a minimum so touching contacts show), coloured by the algorithm case. Highlighted contacts (the selection, or every contact
 * of a selected body) are drawn larger and white-rimmed. Occluded by bodies and terrain unless
 * x-ray is on. Fixed-capacity GPU buffers; updating allocates nothing.
 */
import { CONTACT_INFO_STRIDE, CONTACT_STRIDE } from '../../sim/dynamics/frame-layout';
import * as THREE from 'three';
import { CONTACT_MARKER_CAPACITY, CONTACT_MARKER_RADIUS } from '../config';
import { AutoForceScale, contactColor, normalLength, normalLengthForForce, STANDARD_CONTACT_COLORS, type ContactColors } from './contact-style';
import { CONTACT_FORCE_SCALE_DEFAULT } from '../config';

/** [-] Marker scale of a highlighted contact. */
const HIGHLIGHT_SCALE = 2;

export interface ContactsView {
  group: THREE.Group;
  /** The pickable markers: instance k is contact `contactOfInstance[k]` of the last update. */
  spheres: THREE.InstancedMesh;
  contactOfInstance: Int32Array;
  /** Instances drawn highlighted at the last update. */
  highlighted: number;
  /**
   * Frame layout (sim/dynamics/spec.ts): contacts CONTACT_STRIDE per contact, info
   * CONTACT_INFO_STRIDE. `highlight(k)` says whether contact k is drawn highlighted; `dt` turns
   * impulses into forces when normals scale by force.
   */
  update(contacts: Float32Array, info: Int32Array, highlight?: (k: number) => boolean, dt?: number): void;
  setVisible(v: boolean): void;
  /** X-ray: draw contacts through bodies and terrain. */
  setXray(v: boolean): void;
  setNormalScale(mode: 'depth' | 'force'): void;
  /** Force arrows' scale [N per metre of arrow], or 'auto' (a round number fitted to the forces drawn). */
  setForceScale(newtonsPerMetre: number | 'auto'): void;
  /** [N/m] The force scale of the last update (the automatic one's current value), for the legend. */
  readonly forceScale: number;
  /** Case colours (standard or colour-blind-safe); applied at the next update. */
  setPalette(p: ContactColors): void;
  dispose(): void;
}

export function createContactsView(): ContactsView {
  const cap = CONTACT_MARKER_CAPACITY;
  const group = new THREE.Group();
  group.name = 'contacts';

  const sphereGeom = new THREE.SphereGeometry(CONTACT_MARKER_RADIUS, 10, 8);
  const sphereMat = new THREE.MeshBasicMaterial({ color: 0xffffff, depthTest: true });
  const spheres = new THREE.InstancedMesh(sphereGeom, sphereMat, cap);
  spheres.name = 'contact-markers';
  spheres.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
  spheres.count = 0;
  spheres.frustumCulled = false;
  spheres.renderOrder = 10;
  const white = new THREE.Color(1, 1, 1);
  for (let k = 0; k < cap; k++) spheres.setColorAt(k, white);

  const linePos = new Float32Array(cap * 2 * 3);
  const lineCol = new Float32Array(cap * 2 * 3);
  const lineGeom = new THREE.BufferGeometry();
  const posAttr = new THREE.BufferAttribute(linePos, 3).setUsage(THREE.DynamicDrawUsage);
  const colAttr = new THREE.BufferAttribute(lineCol, 3).setUsage(THREE.DynamicDrawUsage);
  lineGeom.setAttribute('position', posAttr);
  lineGeom.setAttribute('color', colAttr);
  lineGeom.setDrawRange(0, 0);
  const lineMat = new THREE.LineBasicMaterial({ vertexColors: true, depthTest: true });
  const lines = new THREE.LineSegments(lineGeom, lineMat);
  lines.frustumCulled = false;
  lines.renderOrder = 10;
  group.add(spheres, lines);

  const contactOfInstance = new Int32Array(cap).fill(-1);
  const m = new THREE.Matrix4();
  const c = new THREE.Color();
  let byForce = false;
  let fixedScale: number | null = CONTACT_FORCE_SCALE_DEFAULT;
  const auto = new AutoForceScale();
  let scale = CONTACT_FORCE_SCALE_DEFAULT;
  let palette = STANDARD_CONTACT_COLORS;
  const view: ContactsView = {
    group,
    spheres,
    contactOfInstance,
    highlighted: 0,
    get forceScale() {
      return scale;
    },
    update(contacts, info, highlight, dt = 0) {
      const n = Math.min(cap, Math.floor(contacts.length / CONTACT_STRIDE), Math.floor(info.length / CONTACT_INFO_STRIDE));
      if (byForce && dt > 0) {
        if (fixedScale !== null) scale = fixedScale;
        else {
          let most = 0;
          for (let k = 0; k < n; k++) {
            const f = contacts[CONTACT_STRIDE * k + 7] / dt;
            if (f > most) most = f;
          }
          scale = auto.update(most);
        }
      }
      let drawn = 0, lit = 0;
      for (let k = 0; k < n; k++) {
        const o = CONTACT_STRIDE * k;
        const px = contacts[o], py = contacts[o + 1], pz = contacts[o + 2];
        const nx = contacts[o + 3], ny = contacts[o + 4], nz = contacts[o + 5];
        if (!Number.isFinite(px + py + pz + nx + ny + nz)) continue; // never draw NaN
        const rgb = contactColor(info[CONTACT_INFO_STRIDE * k], palette);
        const hi = highlight ? highlight(k) : false;
        const s = hi ? HIGHLIGHT_SCALE : 1;
        m.makeScale(s, s, s).setPosition(px, py, pz);
        if (hi) lit++;
        spheres.setMatrixAt(drawn, m);
        if (hi) spheres.setColorAt(drawn, c.setRGB(1, 1, 1));
        else spheres.setColorAt(drawn, c.setRGB(rgb[0], rgb[1], rgb[2]));
        contactOfInstance[drawn] = k;
        const len = byForce && dt > 0 ? normalLengthForForce(contacts[o + 7] / dt, scale) : normalLength(contacts[o + 6]);
        const l = 6 * drawn;
        linePos[l] = px; linePos[l + 1] = py; linePos[l + 2] = pz;
        linePos[l + 3] = px + nx * len; linePos[l + 4] = py + ny * len; linePos[l + 5] = pz + nz * len;
        for (let e = 0; e < 6; e += 3) {
          lineCol[l + e] = hi ? 1 : rgb[0]; lineCol[l + e + 1] = hi ? 1 : rgb[1]; lineCol[l + e + 2] = hi ? 1 : rgb[2];
        }
        drawn++;
      }
      view.highlighted = lit;
      spheres.count = drawn;
      spheres.instanceMatrix.needsUpdate = true;
      if (spheres.instanceColor) spheres.instanceColor.needsUpdate = true;
      // The raycaster uses the geometry's bounds; instances move every frame, so recompute.
      spheres.computeBoundingSphere();
      lineGeom.setDrawRange(0, drawn * 2);
      posAttr.needsUpdate = true;
      colAttr.needsUpdate = true;
    },
    setVisible(v) {
      group.visible = v;
    },
    setXray(v) {
      sphereMat.depthTest = !v;
      lineMat.depthTest = !v;
      sphereMat.needsUpdate = true;
      lineMat.needsUpdate = true;
    },
    setNormalScale(mode) {
      byForce = mode === 'force';
    },
    setForceScale(s) {
      fixedScale = s === 'auto' ? null : s;
      if (fixedScale !== null) scale = fixedScale;
      else scale = auto.value;
    },
    setPalette(p) {
      palette = p;
    },
    dispose() {
      sphereGeom.dispose();
      sphereMat.dispose();
      spheres.dispose();
      lineGeom.dispose();
      lineMat.dispose();
    },
  };
  return view;
}
