/**
 * Inactive-crease fallback (step 5 of collide.ts). A round body (sphere, capsule end, cylinder
 * rim) centred over a gently convex vertex or crease has its support point along every adjacent
 * face normal just outside that face's prism, so no face contact exists while the crease pokes
 * into it, and the crease is inactive (no edge normal, by design: active-edges.ts). Jolt keeps
 * such contacts with the face normal instead of the edge normal; we do the same, only when the
 * query found nothing else (otherwise the faces already hold the body): point = the element
 * point nearest the body's support point, normal = the face normal, depth = the body's depth
 * below the face.
 */
import { GEOMETRIC_EPSILON } from '../../constants';
import type { Quat } from '../../math/quat';
import type { Vec3 } from '../../math/vec3';
import type { ConvexShape, Pose } from '../../shapes/shape';
import type { ElementKind } from '../../terrain/heightfield';
import type { Heightfield } from '../../terrain/heightfield';
import { GjkStatus, gjkDistance } from '../gjk';
import { PairContactKind, TAG_EDGE_PAIR, TAG_VERTEX, packFeature } from '../manifold/feature-id';
import { loadElement } from './element-shape';
import { bodySupportGap } from './face-contacts';
import type { ConvexHeightfieldWorkspace } from './workspace';

/**
 * Step 5 over the elements remembered in ws.fallback: a face-normal contact at the crease point
 * the body sinks onto, the deepest one only. Appends to ws.cand, which is empty on entry.
 */
export function inactiveCreaseContacts(
  ws: ConvexHeightfieldWorkspace, hf: Heightfield,
  p: Readonly<Vec3>, q: Readonly<Quat>, shape: ConvexShape, pose: Readonly<Pose>, margin: number,
): void {
  const cand = ws.cand;
  for (let f = 0; f < ws.fallbackCount; f++) {
    creaseContact(ws, hf, ws.fallback[3 * f], ws.fallback[3 * f + 1], ws.fallback[3 * f + 2] as ElementKind, p, q, shape, pose, margin);
  }
  // A rescue, not a manifold: keep the deepest crease point only (the crease points of the
  // several elements around it carry slightly different face normals and would otherwise form
  // several one-point groups for one touching point).
  if (cand.count > 1) {
    let best = 0;
    for (let c = 1; c < cand.count; c++) if (cand.depth[c] > cand.depth[best]) best = c;
    cand.move(0, best);
    cand.count = 1;
  }
}

/** The fallback for one element. */
function creaseContact(
  ws: ConvexHeightfieldWorkspace, hf: Heightfield, i: number, j: number, kind: ElementKind,
  p: Readonly<Vec3>, q: Readonly<Quat>, shape: ConvexShape, pose: Readonly<Pose>, margin: number,
): void {
  const nP = ws.nP, cand = ws.cand, sup = ws.sup;
  loadElement(ws.elemPoly, ws.element, hf, i, j, kind);
  hf.elementPlaneInto(nP, i, j, kind);
  const e = ws.elemPoly.xyz, ne = ws.elemPoly.count;
  const g = ws.gapArgs;
  g[0] = -nP[0]; g[1] = -nP[1]; g[2] = -nP[2]; g[3] = e[0]; g[4] = e[1]; g[5] = e[2];
  bodySupportGap(ws, p, q, shape);
  const gap = g[6];
  if (gap > margin) return;
  // the body's deepest point w.r.t. the plane (sup, body-relative) projected onto the plane
  const sx = p[0] + sup[0], sy = p[1] + sup[1], sz = p[2] + sup[2];
  const off = (sx - e[0]) * nP[0] + (sy - e[1]) * nP[1] + (sz - e[2]) * nP[2];
  const rx = sx - off * nP[0], ry = sy - off * nP[1], rz = sz - off * nP[2];
  // nearest point of the element polygon (inside: the projection itself)
  let inside = true;
  let best = Infinity;
  let cx = rx, cy = ry, cz = rz; // nearest element point so far
  for (let k = 0; k < ne; k++) {
    const k1 = k + 1 === ne ? 0 : k + 1;
    const ex = e[3 * k1] - e[3 * k], ey = e[3 * k1 + 1] - e[3 * k + 1], ez = e[3 * k1 + 2] - e[3 * k + 2];
    const mx = ey * nP[2] - ez * nP[1], my = ez * nP[0] - ex * nP[2], mz = ex * nP[1] - ey * nP[0];
    if (mx * (rx - e[3 * k]) + my * (ry - e[3 * k + 1]) + mz * (rz - e[3 * k + 2]) > 0) inside = false;
    // closest point on edge k
    const l2 = ex * ex + ey * ey + ez * ez;
    let t = l2 > 0 ? ((rx - e[3 * k]) * ex + (ry - e[3 * k + 1]) * ey + (rz - e[3 * k + 2]) * ez) / l2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    const ox = e[3 * k] + t * ex, oy = e[3 * k + 1] + t * ey, oz = e[3 * k + 2] + t * ez;
    const d2 = (ox - rx) ** 2 + (oy - ry) ** 2 + (oz - rz) ** 2;
    if (d2 < best) {
      best = d2;
      cx = ox;
      cy = oy;
      cz = oz;
    }
  }
  if (inside) {
    cx = rx;
    cy = ry;
    cz = rz;
  }
  // cheap reject before GJK: the element point must lie in the body's (margin-grown) AABB
  const lo = ws.boxMin, hi = ws.boxMax;
  if (cx < lo[0] || cx > hi[0] || cy < lo[1] || cy > hi[1] || cz < lo[2] || cz > hi[2]) return;
  // the element point must touch the body (GJK of the body against that single point)
  // (the point written in place: setPoint would take boxed arguments)
  const el = ws.element;
  el.count = 1;
  el.v[0] = cx;
  el.v[1] = cy;
  el.v[2] = cz;
  const gjk = ws.gjk;
  gjkDistance(gjk, shape, pose, ws.element, ws.identity, undefined, ws.gjkWs);
  if (gjk.status === GjkStatus.Degenerate) return;
  if (gjk.status !== GjkStatus.Intersecting && gjk.status !== GjkStatus.Touching && !(gjk.distance <= margin)) return;
  // The elements around one crease point all report it, each with its own face normal: keep
  // one contact per point, the deepest (its face is the one the body sinks into most).
  for (let c = 0; c < cand.count; c++) {
    const dx = cand.point[3 * c] - cx, dy = cand.point[3 * c + 1] - cy, dz = cand.point[3 * c + 2] - cz;
    if (dx * dx + dy * dy + dz * dz > GEOMETRIC_EPSILON * GEOMETRIC_EPSILON) continue;
    if (-gap > cand.depth[c]) {
      cand.depth[c] = -gap;
      cand.normal[3 * c] = nP[0];
      cand.normal[3 * c + 1] = nP[1];
      cand.normal[3 * c + 2] = nP[2];
      cand.cellI[c] = i;
      cand.cellJ[c] = j;
    }
    return;
  }
  // reserve and write the slot (cand.push would take its doubles as boxed arguments)
  const slot = cand.reserve();
  if (slot < 0) return;
  const s3 = 3 * slot;
  cand.point[s3] = cx; cand.point[s3 + 1] = cy; cand.point[s3 + 2] = cz;
  cand.normal[s3] = nP[0]; cand.normal[s3 + 1] = nP[1]; cand.normal[s3 + 2] = nP[2];
  cand.depth[slot] = -gap;
  cand.kind[slot] = PairContactKind.HeightfieldCrease;
  cand.cellI[slot] = i;
  cand.cellJ[slot] = j;
  cand.feature[slot] = packFeature(true, kind, ((i & 0xf) | ((j & 0xf) << 4)), TAG_EDGE_PAIR, TAG_VERTEX);
}
