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
 * top-level fields above are read. The URDF scan is a single forward pass (meshFileNames), never
 * a backtracking regex: the regex it replaced was quadratic, 14 s on 512 KiB of "<mesh " (issue #28).
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
    for (const raw of meshFileNames(text, Number.POSITIVE_INFINITY)) {
      const ref = raw.startsWith('./') ? raw.slice(2) : raw;
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

/** Counts the characters a scan examines (tests prove the scan linear with it, not with a clock). */
export interface ScanCounter {
  steps: number;
}

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

const WHITESPACE = /\s/;
function isSpace(text: string, i: number): boolean {
  return i < text.length && WHITESPACE.test(text[i]);
}

/**
 * The values of `filename="..."` (or '...') attributes of `<mesh` start tags, in order, at most
 * `max` of them: what the regex /<mesh\b[^>]*?\bfilename\s*=\s*(["'])([^"']*)\1/g matched, found
 * in one forward pass.
 *
 * Why it is linear: a tag runs from "<mesh" to the next '>' (XML forbids '<' and '>' inside a tag
 * other than in attribute values, and the regex never looked past '>'), and the scan resumes after
 * that '>', so tags are disjoint and each character is examined by one tag. Inside a tag, a
 * candidate `filename` reads its value up to the first quote character; that stretch holds no
 * other quote, so candidates that read a value read disjoint stretches. Without a '>' ahead the
 * tag runs to the end of the text and is the last one scanned.
 */
export function meshFileNames(text: string, max: number, counter?: ScanCounter): string[] {
  const out: string[] = [];
  const n = text.length;
  let steps = 0;
  let i = 0;
  while (i < n && out.length < max) {
    // Next "<mesh" followed by a non-word character (or the end: \b).
    const at = text.indexOf('<mesh', i);
    if (at < 0) {
      steps += n - i;
      break;
    }
    steps += at - i + 5;
    const afterName = at + 5;
    if (afterName < n && isWordChar(text.charCodeAt(afterName))) {
      i = afterName;
      continue;
    }
    // The tag's extent: up to the next '>' (or the end of the text).
    let end = text.indexOf('>', afterName);
    if (end < 0) end = n;
    steps += end - afterName;
    // The first `filename` (with a non-word character before it) followed by \s*=\s*quote value quote.
    let j = afterName;
    let found: string | undefined;
    while (j < end) {
      const f = text.indexOf('filename', j);
      if (f < 0 || f + 8 > end) break;
      steps += 1;
      j = f + 1;
      if (isWordChar(text.charCodeAt(f - 1))) continue;
      let k = f + 8;
      while (k < end && isSpace(text, k)) k++, steps++;
      if (text[k] !== '=') continue;
      k++;
      while (k < end && isSpace(text, k)) k++, steps++;
      const q = text[k];
      if (q !== '"' && q !== "'") continue;
      let v = k + 1;
      while (v < end && text[v] !== '"' && text[v] !== "'") v++, steps++;
      if (v < end && text[v] === q) {
        found = text.slice(k + 1, v);
        break;
      }
      // A value closed by the other quote: the regex goes on from the next position (j = f + 1).
    }
    if (found !== undefined) out.push(found);
    i = end;
  }
  if (counter) counter.steps += steps;
  return out;
}
