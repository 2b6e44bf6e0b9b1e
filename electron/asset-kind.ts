/**
 * Kind of a bundled asset from its path under assets/ (forward slashes). No imports, so the web
 * build (vite.config.ts, which writes assets-manifest.json) can share it: Electron's listAssets
 * and the web host's manifest must agree on what each bundled file is.
 *
 * Rules (same order as the web build's manifest): heightmap image extensions anywhere are
 * 'terrain-image'; JSON under scenarios/ and terrains/ are scenarios and terrain sidecars;
 * URDF/XML/JSON under robots/ are robots; anything under recordings/ is a recording.
 */

import type { AssetEntry } from './ipc-contract';

const TERRAIN_IMAGE_EXTENSIONS: readonly string[] = ['png', 'tif', 'tiff', 'raw', 'bin', 'f32'];
const ROBOT_EXTENSIONS: readonly string[] = ['urdf', 'xml', 'json'];

export function classifyAsset(relPath: string): AssetEntry['kind'] {
  const lower = relPath.toLowerCase();
  const top = lower.split('/')[0];
  const name = lower.slice(lower.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  const ext = dot < 0 ? '' : name.slice(dot + 1);
  if (TERRAIN_IMAGE_EXTENSIONS.includes(ext)) return 'terrain-image';
  if (top === 'scenarios' && ext === 'json') return 'scenario';
  if (top === 'terrains' && ext === 'json') return 'terrain';
  if (top === 'robots' && ROBOT_EXTENSIONS.includes(ext)) return 'robot';
  if (top === 'recordings') return 'recording';
  return 'other';
}

/** Hidden files (.DS_Store, editor swap files) are not assets. */
export function isListedAssetName(name: string): boolean {
  return !name.startsWith('.');
}
