/**
 * Which files beside an opened file the renderer may read (readRelated): exactly the ones that
 * file names, in the same folder. Main parses the opened bytes itself (it never trusts the
 * renderer to say what a file references), so a compromised page holding a token for
 * ~/Downloads/hills.json can read hills.png and nothing else there: not ~/Downloads/.ssh-key,
 * not .env, not the next stranger's file.
 *
 *   terrain sidecar JSON   "image"           ("maps/hills.png" → "hills.png": the renderer reads the
 *                                             base name beside the sidecar, renderer/scenario-files.ts)
 *   scenario JSON          "terrain"         only a plain name (a path goes to the bundled assets)
 *                          "robot": {"urdf"} the same
 *   URDF / XML             filename="..."    of <mesh> elements, plain names and "./name" only
 *
 * A name is allowed only if it is a plain file name (validate.ts rules: no '/', '\', '..', control
 * or reserved characters) and not a dotfile. Files read through readRelated are parsed the same
 * way, so scenario → sidecar → image works as a chain.
 *
 * Parsing is bounded: JSON above RELATED_MAX_PARSE_BYTES is not parsed (no names), and only the
 * top-level fields above are read.
 */
import { LIMITS } from './ipc-contract';

/** [bytes] Largest opened file parsed for references (sidecars and scenarios are a few KB; URDFs a few hundred). */
export const RELATED_MAX_PARSE_BYTES = 4 * 1024 * 1024;

/** Most names taken from one file. */
export const RELATED_MAX_NAMES = 1024;

const FORBIDDEN = /[/\\\0<>:"|?*\u0001-\u001f\u007f]/;

/** True for a name readRelated may ever serve: plain, not a dotfile, not too long. */
export function isAllowedRelatedName(name: string): boolean {
  return name.length > 0 && name.length <= LIMITS.maxNameLength && !name.startsWith('.') && !FORBIDDEN.test(name);
}

function baseName(p: string): string {
  const k = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'));
  return k >= 0 ? p.slice(k + 1) : p;
}

/**
 * File names that the file `fileName` (its `bytes`) references beside itself. Never throws: a file
 * that does not parse references nothing (the loaders report what is wrong with it).
 */
export function referencedFileNames(fileName: string, bytes: Uint8Array): string[] {
  if (bytes.length > RELATED_MAX_PARSE_BYTES) return [];
  const lower = fileName.toLowerCase();
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  } catch {
    return [];
  }
  const names: string[] = [];
  if (lower.endsWith('.urdf') || lower.endsWith('.xml')) {
    for (const m of text.matchAll(/<mesh\b[^>]*?\bfilename\s*=\s*(["'])([^"']*)\1/g)) {
      const ref = m[2].startsWith('./') ? m[2].slice(2) : m[2];
      if (isAllowedRelatedName(ref)) names.push(ref);
      if (names.length >= RELATED_MAX_NAMES) break;
    }
    return names;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return [];
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return [];
  const obj = json as Record<string, unknown>;
  if (typeof obj.image === 'string') {
    const image = baseName(obj.image);
    if (isAllowedRelatedName(image) && !obj.image.split(/[/\\]/).includes('..')) names.push(image);
  }
  if (typeof obj.terrain === 'string' && isAllowedRelatedName(obj.terrain)) names.push(obj.terrain);
  const robot = obj.robot;
  if (robot !== null && typeof robot === 'object' && !Array.isArray(robot)) {
    const urdf = (robot as Record<string, unknown>).urdf;
    if (typeof urdf === 'string' && isAllowedRelatedName(urdf)) names.push(urdf);
  }
  return names;
}
