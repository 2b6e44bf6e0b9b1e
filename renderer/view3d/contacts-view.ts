/**
 * Contact markers: an instanced small sphere at every contact point and a line segment along its
 * normal (length grows with depth, with a minimum so touching contacts show), coloured by the
 * algorithm case. Fixed-capacity GPU buffers; updating allocates nothing.
 */
import { CONTACT_INFO_STRIDE, CONTACT_STRIDE } from '../../sim/dynamics/spec';
import * as THREE from 'three';
import { CONTACT_MARKER_CAPACITY, CONTACT_MARKER_RADIUS } from '../config';
import { contactColor, normalLength } from './contact-style';

export interface ContactsView {
  group: THREE.Group;
  /** Frame layout (sim/dynamics/spec.ts): contacts CONTACT_STRIDE per contact, info CONTACT_INFO_STRIDE. */
  update(contacts: Float32Array, info: Int32Array): void;
  setVisible(v: boolean): void;
  dispose(): void;
}

export function createContactsView(): ContactsView {
  const cap = CONTACT_MARKER_CAPACITY;
  const group = new THREE.Group();
  group.name = 'contacts';

  const sphereGeom = new THREE.SphereGeometry(CONTACT_MARKER_RADIUS, 10, 8);
  const sphereMat = new THREE.MeshBasicMaterial({ color: 0xffffff, depthTest: false, transparent: true });
  const spheres = new THREE.InstancedMesh(sphereGeom, sphereMat, cap);
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
  const lineMat = new THREE.LineBasicMaterial({ vertexColors: true, depthTest: false, transparent: true });
  const lines = new THREE.LineSegments(lineGeom, lineMat);
  lines.frustumCulled = false;
  lines.renderOrder = 10;
  group.add(spheres, lines);

  const m = new THREE.Matrix4();
  const c = new THREE.Color();
  return {
    group,
    update(contacts, info) {
      const n = Math.min(cap, Math.floor(contacts.length / CONTACT_STRIDE), Math.floor(info.length / CONTACT_INFO_STRIDE));
      let drawn = 0;
      for (let k = 0; k < n; k++) {
        const o = CONTACT_STRIDE * k;
        const px = contacts[o], py = contacts[o + 1], pz = contacts[o + 2];
        const nx = contacts[o + 3], ny = contacts[o + 4], nz = contacts[o + 5];
        if (!Number.isFinite(px + py + pz + nx + ny + nz)) continue; // never draw NaN
        const rgb = contactColor(info[CONTACT_INFO_STRIDE * k]);
        m.makeTranslation(px, py, pz);
        spheres.setMatrixAt(drawn, m);
        spheres.setColorAt(drawn, c.setRGB(rgb[0], rgb[1], rgb[2]));
        const len = normalLength(contacts[o + 6]);
        const l = 6 * drawn;
        linePos[l] = px; linePos[l + 1] = py; linePos[l + 2] = pz;
        linePos[l + 3] = px + nx * len; linePos[l + 4] = py + ny * len; linePos[l + 5] = pz + nz * len;
        for (let e = 0; e < 6; e += 3) {
          lineCol[l + e] = rgb[0]; lineCol[l + e + 1] = rgb[1]; lineCol[l + e + 2] = rgb[2];
        }
        drawn++;
      }
      spheres.count = drawn;
      spheres.instanceMatrix.needsUpdate = true;
      if (spheres.instanceColor) spheres.instanceColor.needsUpdate = true;
      lineGeom.setDrawRange(0, drawn * 2);
      posAttr.needsUpdate = true;
      colAttr.needsUpdate = true;
    },
    setVisible(v) {
      group.visible = v;
    },
    dispose() {
      sphereGeom.dispose();
      sphereMat.dispose();
      spheres.dispose();
      lineGeom.dispose();
      lineMat.dispose();
    },
  };
}
