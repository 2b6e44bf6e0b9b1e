/**
 * three.js object construction (no WebGL needed): axis conventions of the 3D view.
 */
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { createContactsView } from '../../../renderer/view3d/contacts-view';
import { AutoForceScale, niceAtLeast } from '../../../renderer/view3d/contact-style';
import { createRobotView } from '../../../renderer/view3d/robot-view';
import { ChaseCamera } from '../../../renderer/view3d/chase-camera';
import { makeSimRoot } from '../../../renderer/view3d/sim-root';
import { yawOf } from '../../../renderer/view3d/yaw';
import { CONTACT_FORCE_AUTO_HOLD_FRAMES, CONTACT_FORCE_AUTO_LENGTH, CONTACT_FORCE_SCALE_DEFAULT, CONTACT_NORMAL_MIN_LENGTH, CONTACT_NORMAL_SCALE } from '../../../renderer/config';

describe('simulation root transform', () => {
  it('maps sim (x, y, z) to three (x, z, −y): z up becomes y up, x stays forward', () => {
    const root = makeSimRoot(new THREE.Group());
    const p = root.localToWorld(new THREE.Vector3(1, 2, 3));
    expect(p.x).toBeCloseTo(1, 12);
    expect(p.y).toBeCloseTo(3, 12);
    expect(p.z).toBeCloseTo(-2, 12);
  });
});

describe('chase camera', () => {
  it('a scenario\'s fixed view settles: its lag falls to zero while the robot drives and turns (the e2e tests wait on it)', () => {
    const cam = new ChaseCamera(1.5, new EventTarget() as unknown as HTMLElement);
    cam.setScenarioView({ mode: 'chase', target: [2, 1, 0], distance: 12, elevation: 30, heading: 40 });
    let x = 0, yaw = 0;
    for (let k = 0; k < 400; k++) {
      cam.follow(x, 0, 0.3, yaw, 1 / 60); // the robot drives off and turns: the fixed view does not care
      x += 0.02;
      yaw += 0.01;
    }
    expect(cam.lag).toBeLessThan(1e-6);
    const still = cam.camera.position.clone();
    cam.follow(x + 1, 0, 0.3, yaw + 1, 1 / 60);
    expect(cam.camera.position.distanceTo(still)).toBeLessThan(1e-9);
    // the robot's own chase view still counts its heading: a turn is lag until the camera swings round
    cam.endScenarioView();
    cam.follow(x, 0, 0.3, yaw, 1 / 60);
    cam.follow(x, 0, 0.3, yaw + 1, 1 / 60);
    expect(cam.lag).toBeGreaterThan(0.5);
  });
});

describe('robot view', () => {
  it('builds cylinders along the body\'s local z (BodyShape convention), boxes with full extents', () => {
    const view = createRobotView([
      { name: 'chassis', role: 'chassis', shape: { type: 'box', halfExtents: [0.4, 0.3, 0.1] } },
      { name: 'wheel', role: 'wheel', shape: { type: 'cylinder', radius: 0.2, height: 0.1 }, wheel: { radius: 0.2, height: 0.1, position: [0, 0, 0], orientation: [0, 0, 0, 1] } },
      { name: 'cap', role: 'obstacle', shape: { type: 'capsule', radius: 0.1, height: 0.5 } },
    ]);
    const size = (k: number): THREE.Vector3 => {
      const g = view.meshes[k].geometry;
      g.computeBoundingBox();
      return g.boundingBox!.getSize(new THREE.Vector3());
    };
    const box = size(0);
    expect(box.x).toBeCloseTo(0.8, 6);
    expect(box.y).toBeCloseTo(0.6, 6);
    expect(box.z).toBeCloseTo(0.2, 6);
    const cyl = size(1);
    expect(cyl.z).toBeCloseTo(0.1, 6); // height along z
    expect(cyl.x).toBeCloseTo(0.4, 2); // diameter across
    expect(size(2).z).toBeCloseTo(0.7, 6); // capsule: cylinder part + two caps along z
    expect(view.chassisIndex).toBe(0);
    view.dispose();
  });

  it('a wheel\'s tread stripe sits on its cylinder where the body carries it (a URDF collision origin)', () => {
    const s = Math.SQRT1_2;
    const cylinder = { type: 'cylinder', radius: 0.2, height: 0.1 } as const;
    const at = { position: [0, 0.05, 0] as [number, number, number], orientation: [s, 0, 0, s] as [number, number, number, number] };
    const view = createRobotView([{ name: 'w', role: 'wheel', shape: { type: 'compound', children: [{ shape: cylinder, ...at }] }, wheel: { radius: 0.2, height: 0.1, ...at } }]);
    const stripe = view.meshes[0].children[0] as THREE.Mesh;
    expect(stripe.position.toArray()).toEqual([0, 0.05, 0]);
    // its across-tread extent (box z, the cylinder's axis) lies along the body's −y
    const axis = new THREE.Vector3(0, 0, 1).applyQuaternion(stripe.quaternion);
    expect(axis.y).toBeCloseTo(-1, 6);
    view.dispose();
  });

  it('poses bodies from 7 floats each (position, quaternion [x, y, z, w])', () => {
    const view = createRobotView([{ name: 'c', role: 'chassis', shape: { type: 'sphere', radius: 1 } }]);
    const s = Math.SQRT1_2;
    view.setPoses(Float32Array.from([1, 2, 3, 0, 0, s, s]));
    const m = view.meshes[0];
    expect(m.position.toArray()).toEqual([1, 2, 3]);
    expect(yawOf(m.quaternion.x, m.quaternion.y, m.quaternion.z, m.quaternion.w)).toBeCloseTo(Math.PI / 2, 6);
  });
});

describe('contacts view', () => {
  it('draws one marker and one normal segment per finite contact and skips NaN ones', () => {
    const view = createContactsView();
    // frame layout: 10 floats (p, n, depth, impulses) and 5 ints (kind, bodyA, bodyB, cell) per contact
    const contacts = Float32Array.from([
      1, 2, 3, 0, 0, 1, 0, 0, 0, 0, // touching: minimum normal length
      4, 5, 6, 0, 1, 0, 0.01, 0, 0, 0,
      Number.NaN, 0, 0, 0, 0, 1, 0, 0, 0, 0,
    ]);
    const info = Int32Array.from([0, 1, -1, 3, 4, 0, 2, 1, -1, 5, 6, 1, 1, 1, -1, 0, 0, 2]);
    view.update(contacts, info);
    const spheres = view.group.children[0] as THREE.InstancedMesh;
    const lines = view.group.children[1] as THREE.LineSegments;
    expect(spheres.count).toBe(2);
    expect(lines.geometry.drawRange.count).toBe(4);
    const pos = lines.geometry.getAttribute('position');
    expect([pos.getX(0), pos.getY(0), pos.getZ(0)]).toEqual([1, 2, 3]);
    expect(pos.getZ(1)).toBeCloseTo(3 + CONTACT_NORMAL_MIN_LENGTH, 6);
    expect(pos.getY(3) - pos.getY(2)).toBeGreaterThan(CONTACT_NORMAL_MIN_LENGTH); // deeper → longer
    view.update(new Float32Array(0), new Int32Array(0));
    expect(spheres.count).toBe(0);
    view.dispose();
  });

  it('contacts are hidden behind bodies by default (depth-tested); x-ray draws them through', () => {
    const view = createContactsView();
    const spheres = view.group.children[0] as THREE.InstancedMesh;
    const lines = view.group.children[1] as THREE.LineSegments;
    const mats = [spheres.material as THREE.Material, lines.material as THREE.Material];
    expect(mats.map((m) => m.depthTest)).toEqual([true, true]);
    view.setXray(true);
    expect(mats.map((m) => m.depthTest)).toEqual([false, false]);
    view.setXray(false);
    expect(mats.map((m) => m.depthTest)).toEqual([true, true]);
    view.dispose();
  });

  it('normals scale by depth, or by force (normal impulse / dt) when set', () => {
    const view = createContactsView();
    const lines = view.group.children[1] as THREE.LineSegments;
    // depth 10 mm, normal impulse 0.25 N·s over dt 0.005 s = 50 N: 0.2 m by depth, 0.25 m by force
    const contacts = Float32Array.from([0, 0, 0, 0, 0, 1, 0.01, 0.25, 0, 0]);
    const info = Int32Array.from([0, 1, -1, 0, 0, 0]);
    const length = (): number => (lines.geometry.getAttribute('position') as THREE.BufferAttribute).getZ(1);
    view.update(contacts, info, undefined, 0.005);
    expect(length()).toBeCloseTo(0.01 * CONTACT_NORMAL_SCALE, 6);
    view.setNormalScale('force');
    view.setForceScale(CONTACT_FORCE_SCALE_DEFAULT);
    view.update(contacts, info, undefined, 0.005);
    expect(length()).toBeCloseTo(50 / CONTACT_FORCE_SCALE_DEFAULT, 6);
    // a numeric scale: 100 N per metre draws the 50 N contact 0.5 m long
    view.setForceScale(100);
    view.update(contacts, info, undefined, 0.005);
    expect(length()).toBeCloseTo(0.5, 6);
    expect(view.forceScale).toBe(100);
    // auto: a round scale at which the largest force is at most CONTACT_FORCE_AUTO_LENGTH long
    view.setForceScale('auto');
    view.update(contacts, info, undefined, 0.005);
    expect(view.forceScale).toBe(niceAtLeast(50 / CONTACT_FORCE_AUTO_LENGTH));
    expect(length()).toBeLessThanOrEqual(CONTACT_FORCE_AUTO_LENGTH);
    expect(length()).toBeCloseTo(50 / view.forceScale, 6);
    view.dispose();
  });

  it('the automatic force scale: round numbers, up at once, down one step after a calm spell, held without contacts', () => {
    expect([0.3, 1, 1.5, 2, 2.01, 4.9, 5, 7, 10, 125, 1000].map(niceAtLeast)).toEqual([0.5, 1, 2, 2, 5, 5, 5, 10, 10, 200, 1000]);
    const a = new AutoForceScale();
    expect(a.update(2000)).toBe(5000); // 2000 N at 0.4 m → 5000 N/m
    expect(a.update(0)).toBe(5000); // no contacts: held
    let frames = 0;
    while (a.value === 5000 && frames < 10 * CONTACT_FORCE_AUTO_HOLD_FRAMES) {
      a.update(30); // needs 100 N/m
      frames++;
    }
    expect(frames).toBe(CONTACT_FORCE_AUTO_HOLD_FRAMES);
    expect(a.value).toBe(2000); // one step down the 1-2-5 series, not straight to 100
    expect(a.update(900)).toBe(5000); // back up at once
    // a force that needs the present scale keeps it from falling
    for (let k = 0; k < 3 * CONTACT_FORCE_AUTO_HOLD_FRAMES; k++) a.update(k % 2 ? 1900 : 10);
    expect(a.value).toBe(5000);
  });
});
