/**
 * File-type filters of the open/save dialogs per FileKind. The last filter of each list is
 * "All Files" so a user with an unusual extension is never locked out; the handlers do not trust
 * the extension anyway (the worker's loaders validate content).
 */

import type { CaptureKind, FileKind, SaveKind } from './ipc-contract';

export interface DialogFilter {
  name: string;
  extensions: string[];
}

const ALL: DialogFilter = { name: 'All Files', extensions: ['*'] };

export const DIALOG_FILTERS: Record<FileKind, DialogFilter[]> = {
  // A terrain is a sidecar JSON (metres per pixel, height range) naming its heightmap image.
  terrain: [{ name: 'Terrain (sidecar JSON or heightmap)', extensions: ['json', 'png', 'raw', 'r16', 'r32', 'tif', 'tiff', 'pgm'] }, ALL],
  robot: [{ name: 'Robot (URDF or xacro)', extensions: ['urdf', 'xacro', 'xml'] }, ALL],
  scenario: [{ name: 'Scenario (JSON)', extensions: ['json'] }, ALL],
  recording: [{ name: 'TerraWheel recording (MCAP)', extensions: ['mcap'] }, ALL],
};

/** Save filters of the captures (screenshot, video of the 3D view). */
export const CAPTURE_FILTERS: Record<CaptureKind, DialogFilter[]> = {
  image: [{ name: 'PNG image', extensions: ['png'] }, ALL],
  video: [{ name: 'WebM video', extensions: ['webm'] }, ALL],
};

/** The save dialog's filters for `kind`. */
export function saveFilters(kind: SaveKind): DialogFilter[] {
  return kind === 'image' || kind === 'video' ? CAPTURE_FILTERS[kind] : DIALOG_FILTERS[kind];
}

export const DIALOG_TITLES: Record<FileKind, string> = {
  terrain: 'Open Terrain',
  robot: 'Open Robot',
  scenario: 'Open Scenario',
  recording: 'Open Recording',
};
