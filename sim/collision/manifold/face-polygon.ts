/**
 * A convex planar polygon in world space with a tag per edge, the unit of face clipping.
 * Edge k runs from vertex k to vertex k+1 (mod count); `tag[k]` names it for feature ids.
 * Fixed capacity CLIP_MAX_POLYGON_VERTICES: clipping a face of CLIP_MAX_FACE_VERTICES vertices
 * by as many planes cannot exceed it.
 */
import {
  CLIP_MAX_POLYGON_VERTICES,
} from '../../constants';

export class FacePolygon {
  count = 0;
  readonly xyz = new Float64Array(CLIP_MAX_POLYGON_VERTICES * 3);
  /** Tag of the edge leaving vertex k (clipping keeps tags so ids survive across frames). */
  readonly edgeTag = new Uint8Array(CLIP_MAX_POLYGON_VERTICES);
  /** Feature X/Y of vertex k (see feature-id.ts): original vertex → (0xFF, v), clip point → (E, side). */
  readonly tagX = new Uint8Array(CLIP_MAX_POLYGON_VERTICES);
  readonly tagY = new Uint8Array(CLIP_MAX_POLYGON_VERTICES);

  clear(): void {
    this.count = 0;
  }

  /**
   * Claims the next vertex slot and returns its index, or −1 when full; the caller writes xyz and
   * the tags itself. For hot paths: no double crosses a call (V8 boxes a double argument of a
   * call it does not inline).
   */
  reserve(): number {
    if (this.count >= CLIP_MAX_POLYGON_VERTICES) return -1;
    return this.count++;
  }

  /** Appends a vertex; returns false (and drops it) when full. */
  push(x: number, y: number, z: number, edgeTag: number, tagX: number, tagY: number): boolean {
    if (this.count >= CLIP_MAX_POLYGON_VERTICES) return false;
    const k = this.count++;
    this.xyz[3 * k] = x;
    this.xyz[3 * k + 1] = y;
    this.xyz[3 * k + 2] = z;
    this.edgeTag[k] = edgeTag;
    this.tagX[k] = tagX;
    this.tagY[k] = tagY;
    return true;
  }
}
