/**
 * Bodies of the world (WorldInfo.bodies) as three.js meshes, posed from frame poses (7 floats per
 * body, simulation frame). BodyShape's axis convention is local z; three's cylinder and capsule
 * geometries run along y, so they are rotated +90° about x once at build time (y → z).
 *
 * A body with URDF visuals (robot-visuals.ts) shows them instead of its collision shape: the
 * collision mesh stays (it is what picking and the overlays use) with its material hidden, and
 * setShowCollision draws it as a wireframe on top of the visuals.
 */
import * as THREE from 'three';
import { ConvexGeometry } from 'three/examples/jsm/geometries/ConvexGeometry.js';
import type { BodyInfo, BodyShape, ConvexBodyShape } from '../../sim/app/protocol';
import type { RobotVisuals } from './robot-visuals';

const ROLE_COLORS: Record<BodyInfo['role'], number> = {
  chassis: 0xd9822b,
  wheel: 0x2b2f36,
  obstacle: 0x7a8ca3,
  static: 0x8a8a80,
};

/** One mesh per body: a compound's children merged into one geometry (each placed in the body frame). */
function geometryOf(shape: BodyShape): THREE.BufferGeometry {
  if (shape.type !== 'compound') return convexGeometryOf(shape);
  const parts = shape.children.map((c) => {
    const whole = convexGeometryOf(c.shape);
    const g = whole.index ? whole.toNonIndexed() : whole;
    g.deleteAttribute('uv');
    const m = new THREE.Matrix4().compose(
      new THREE.Vector3(...c.position),
      new THREE.Quaternion(...c.orientation),
      new THREE.Vector3(1, 1, 1),
    );
    return g.applyMatrix4(m);
  });
  if (parts.length === 0) return new THREE.BufferGeometry();
  // concatenate positions and normals
  const count = parts.reduce((n, g) => n + g.getAttribute('position').count, 0);
  const pos = new Float32Array(3 * count), nor = new Float32Array(3 * count);
  let o = 0;
  for (const g of parts) {
    pos.set(g.getAttribute('position').array as Float32Array, o);
    nor.set(g.getAttribute('normal').array as Float32Array, o);
    o += 3 * g.getAttribute('position').count;
    g.dispose();
  }
  const merged = new THREE.BufferGeometry();
  merged.setAttribute('position', new THREE.BufferAttribute(pos, 3));
  merged.setAttribute('normal', new THREE.BufferAttribute(nor, 3));
  return merged;
}

function convexGeometryOf(shape: ConvexBodyShape): THREE.BufferGeometry {
  switch (shape.type) {
    case 'hull':
      return new ConvexGeometry(shape.points.map((p) => new THREE.Vector3(p[0], p[1], p[2])));
    case 'box': {
      const [hx, hy, hz] = shape.halfExtents;
      return new THREE.BoxGeometry(2 * hx, 2 * hy, 2 * hz);
    }
    case 'sphere':
      return new THREE.SphereGeometry(shape.radius, 24, 16);
    case 'cylinder':
      // 24 sides with a visible seam so wheel spin is visible; y-axis → local z.
      return new THREE.CylinderGeometry(shape.radius, shape.radius, shape.height, 24, 1).rotateX(Math.PI / 2);
    case 'capsule':
      // `height` is the length of the cylindrical part between the two cap centres.
      return new THREE.CapsuleGeometry(shape.radius, shape.height, 6, 16).rotateX(Math.PI / 2);
  }
}

export interface RobotView {
  group: THREE.Group;
  meshes: THREE.Mesh[];
  /** Index of the chassis body (camera target), or 0. */
  chassisIndex: number;
  setPoses(poses: Float32Array): void;
  /** Collision shapes of bodies that have visuals: drawn (wireframe, on top) or hidden. */
  setShowCollision(show: boolean): void;
  /** Bodies drawn from their visuals. */
  readonly visualBodies: number;
  dispose(): void;
}

/** Colour of collision shapes drawn over visuals. */
export const COLLISION_OVERLAY_COLOR = 0x33ddff;

export function createRobotView(bodies: readonly BodyInfo[], visuals?: RobotVisuals): RobotView {
  const group = new THREE.Group();
  group.name = 'bodies';
  const meshes: THREE.Mesh[] = [];
  const collisionOverlays: THREE.MeshLambertMaterial[] = [];
  const materials = new Map<BodyInfo['role'], THREE.MeshLambertMaterial>();
  for (const b of bodies) {
    let mat = materials.get(b.role);
    if (!mat) {
      mat = new THREE.MeshLambertMaterial({ color: ROLE_COLORS[b.role] });
      materials.set(b.role, mat);
    }
    const vis = visuals?.byBody.get(b.name);
    if (vis) {
      // Its own material, hidden until collision shapes are asked for.
      mat = new THREE.MeshLambertMaterial({ color: COLLISION_OVERLAY_COLOR, wireframe: true, depthTest: false, transparent: true, opacity: 0.8 });
      mat.visible = false;
      collisionOverlays.push(mat);
    }
    const mesh = new THREE.Mesh(geometryOf(b.shape), mat);
    mesh.name = b.name;
    if (vis) mesh.add(vis);
    if (b.role === 'wheel' && b.wheel) {
      // A light stripe across the tread, so rolling is visible (over URDF visuals too), on the
      // wheel's cylinder where it sits in the body (a URDF wheel's collision origin).
      const { radius: r, height: h, position, orientation } = b.wheel;
      const stripe = new THREE.Mesh(new THREE.BoxGeometry(r * 0.25, r * 2.02, h * 1.02), new THREE.MeshLambertMaterial({ color: 0xc8c8c8 }));
      stripe.position.set(position[0], position[1], position[2]);
      stripe.quaternion.set(orientation[0], orientation[1], orientation[2], orientation[3]);
      mesh.add(stripe);
    }
    meshes.push(mesh);
    group.add(mesh);
  }
  const chassis = bodies.findIndex((b) => b.role === 'chassis');
  return {
    group,
    meshes,
    chassisIndex: chassis >= 0 ? chassis : 0,
    setPoses(poses) {
      for (let k = 0; k < meshes.length && 7 * k + 6 < poses.length; k++) {
        const o = 7 * k;
        meshes[k].position.set(poses[o], poses[o + 1], poses[o + 2]);
        meshes[k].quaternion.set(poses[o + 3], poses[o + 4], poses[o + 5], poses[o + 6]);
      }
    },
    setShowCollision(show) {
      for (const m of collisionOverlays) m.visible = show;
    },
    visualBodies: collisionOverlays.length,
    dispose() {
      group.traverse((o) => {
        if (o instanceof THREE.Mesh) {
          o.geometry.dispose();
          const m = o.material as THREE.Material | THREE.Material[];
          for (const x of Array.isArray(m) ? m : [m]) x.dispose();
        }
      });
    },
  };
}
