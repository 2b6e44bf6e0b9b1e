/**
 * Materials (friction, restitution, rolling resistance) per body and per terrain region, and how
 * two materials combine at a contact:
 *   friction            geometric mean √(μ_A·μ_B)   (Box2D's and Jolt's default: a frictionless
 *                       surface makes the pair frictionless; ice on rubber is in between)
 *   restitution         the larger                   (a bouncy ball bounces on anything)
 *   rolling resistance  the larger                   (sand resists any wheel)
 */
import type { MaterialSpec, TerrainMaterialMapSpec, TerrainRegionSpec } from './spec';
import { DEFAULT_FRICTION, DEFAULT_RESTITUTION, DEFAULT_ROLLING_RESISTANCE } from './constants';

export class MaterialTable {
  readonly names: string[] = [];
  readonly friction: number[] = [];
  readonly restitution: number[] = [];
  readonly rolling: number[] = [];
  private readonly regions: { material: number; region: TerrainRegionSpec }[] = [];
  private terrainDefault = 0;

  constructor(materials: Record<string, MaterialSpec>, map: TerrainMaterialMapSpec | undefined) {
    this.add('default', materials.default ?? {});
    for (const name of Object.keys(materials).sort()) if (name !== 'default') this.add(name, materials[name]);
    if (map) {
      if (map.material !== undefined) this.terrainDefault = this.index(map.material, 'terrainMaterials.material');
      (map.regions ?? []).forEach((r, k) => this.regions.push({ material: this.index(r.material, `terrainMaterials.regions[${k}].material`), region: r }));
    }
  }

  private add(name: string, m: MaterialSpec): void {
    this.names.push(name);
    this.friction.push(m.friction ?? DEFAULT_FRICTION);
    this.restitution.push(m.restitution ?? DEFAULT_RESTITUTION);
    this.rolling.push(m.rollingResistance ?? DEFAULT_ROLLING_RESISTANCE);
  }

  /** Index of a named material; throws naming the field when it does not exist. */
  index(name: string | undefined, field: string): number {
    if (name === undefined) return 0;
    const i = this.names.indexOf(name);
    if (i < 0) throw new Error(`${field}: unknown material "${name}"; defined: ${this.names.join(', ')}`);
    return i;
  }

  /** Material of the terrain at (x, y): the first region containing the point, else the terrain's. */
  terrainAt(x: number, y: number): number {
    for (let k = 0; k < this.regions.length; k++) {
      if (regionContains(this.regions[k].region, x, y)) return this.regions[k].material;
    }
    return this.terrainDefault;
  }
}

export function regionContains(r: TerrainRegionSpec, x: number, y: number): boolean {
  switch (r.shape) {
    case 'rect':
      return x >= r.min[0] && x <= r.max[0] && y >= r.min[1] && y <= r.max[1];
    case 'circle': {
      const dx = x - r.center[0], dy = y - r.center[1];
      return dx * dx + dy * dy <= r.radius * r.radius;
    }
    case 'polygon': {
      // crossing number (even–odd)
      const p = r.points;
      let inside = false;
      for (let i = 0, j = p.length - 1; i < p.length; j = i++) {
        const yi = p[i][1], yj = p[j][1];
        if (yi > y !== yj > y && x < ((p[j][0] - p[i][0]) * (y - yi)) / (yj - yi) + p[i][0]) inside = !inside;
      }
      return inside;
    }
  }
}
