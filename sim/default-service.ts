/**
 * The production wiring of the simulation service: the terrain loaders and the analytic
 * wheel–terrain collision. Shared by the web worker, the Node worker and the CLI.
 */
import { SimServiceImpl } from './service';
import { decodeTerrain } from './terrain/load-terrain';
import { parseTerrainSidecar } from './terrain/sidecar';

export function createDefaultService(): SimServiceImpl {
  return new SimServiceImpl({ decodeTerrain, wheelContacts: null });
}

/** File name of the terrain data a sidecar names (validates the sidecar). */
export function terrainDataFileName(sidecar: unknown): string {
  return parseTerrainSidecar(sidecar).image;
}
