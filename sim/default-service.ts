/**
 * The production wiring of the simulation service: the terrain loaders and the analytic
 * wheel–terrain collision. Shared by the web worker, the Node worker and the CLI.
 */
import { collideCylinderTerrainInto } from './collision/cylinder-terrain/collide';
import { CylinderTerrainWorkspace } from './collision/cylinder-terrain/workspace';
import { SimServiceImpl } from './service';
import { decodeTerrain } from './terrain/load-terrain';
import { parseTerrainSidecar } from './terrain/sidecar';
import type { WheelContactFn } from './world';

/** Wheel contacts through the analytic cylinder–terrain algorithm, one reused workspace. */
export function analyticWheelContacts(): WheelContactFn {
  const ws = new CylinderTerrainWorkspace();
  return (out, center, axis, wheel, hf) => {
    collideCylinderTerrainInto(out, center, axis, wheel, hf, ws);
  };
}

export function createDefaultService(): SimServiceImpl {
  return new SimServiceImpl({ decodeTerrain, wheelContacts: analyticWheelContacts() });
}

/** File name of the terrain data a sidecar names (validates the sidecar). */
export function terrainDataFileName(sidecar: unknown): string {
  return parseTerrainSidecar(sidecar).image;
}
