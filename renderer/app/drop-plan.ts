/**
 * Drag and drop: what a set of files dropped on the window opens, decided from their content
 * (magic bytes, the JSON's fields, the XML's root) and, where content says nothing, their
 * extension. The result is an OpenedFile of the kind the File menu / Open buttons produce, so a
 * drop goes through the same load paths (app/file-actions.ts loadOpened: scenario-files.ts,
 * robot-swap.ts, the recording panel); the files dropped with it are what `readRelated` serves.
 * Anything that cannot load is said before loading (which file is missing, which file is not one
 * we open), and the running world is never touched. Pure (no DOM); unit-tested.
 *
 *   dropped set                         → action
 *   one .mcap                           → replay it
 *   a scenario JSON (+ its sidecar, image, URDF, meshes)        → load the scenario
 *   a URDF (+ its meshes)               → the robot into the running scenario
 *   a xacro robot (+ its includes and meshes, or its ROS package folder)
 *                                       → the robot into the running scenario: the robot file is the
 *                                         one no other dropped file includes (picked-files.ts), its
 *                                         includes and meshes are looked up among the dropped files
 *                                         when it is expanded (robot-swap.ts)
 *   a terrain sidecar + its image       → the terrain into the running scenario
 *   a GeoTIFF or PNG alone              → the terrain with a made-up sidecar (defaults, said in a note)
 *   a RAW alone, a sidecar without its image, a mesh alone, unknown files  → a message, nothing loads
 */
import type { OpenedRobotFile } from '../../electron/ipc-contract';
import { parseUrdf } from '../../sim/robot/urdf/parse-urdf';
import { urdfReferencedFiles } from '../../sim/robot/urdf/load-urdf';
import { mainRobotFile } from '../../sim/robot/urdf/picked-files';
import { isXacro } from '../../sim/robot/urdf/xacro';
import type { Host, OpenedFile } from '../host/host';

/** [m] Grid spacing of a PNG dropped without its sidecar. */
export const DROP_PNG_DEFAULT_SPACING = 0.1;
/** [m] Height of black and white of a PNG dropped without its sidecar. */
export const DROP_PNG_DEFAULT_HEIGHT_RANGE: readonly [number, number] = [0, 1];
/** [bytes] Largest JSON file parsed to find out what it is (scenarios and sidecars are a few KiB). */
export const DROP_MAX_JSON_BYTES = 16 * 1024 * 1024;
/** [bytes] Head of an XML file searched for its <robot> root. */
const XML_SNIFF_BYTES = 64 * 1024;

export interface DroppedFile {
  /** The file's name, or its path inside a dropped folder ("husky_description/urdf/husky.urdf.xacro"). */
  name: string;
  bytes: Uint8Array;
}

export type DroppedKind = 'recording' | 'scenario' | 'sidecar' | 'image' | 'urdf' | 'mesh' | 'unknown';
export type ImageFormat = 'png' | 'geotiff' | 'raw-f32';

export interface ClassifiedFile {
  file: DroppedFile;
  kind: DroppedKind;
  /** Parsed JSON of a scenario or sidecar. */
  json?: Record<string, unknown>;
  /** Terrain image format (kind 'image'). */
  format?: ImageFormat;
  /** Why an 'unknown' file is not one we open. */
  why?: string;
}

export type DropPlan =
  | { action: 'recording' | 'scenario' | 'terrain'; file: OpenedFile; notes: string[] }
  | { action: 'robot'; file: OpenedRobotFile; notes: string[] }
  | { action: 'error'; message: string };

const SUPPORTED = 'a scenario or terrain sidecar JSON, a PNG, GeoTIFF or RAW terrain, a URDF with its meshes, or an MCAP recording';

const decoder = new TextDecoder();

const startsWith = (b: Uint8Array, sig: readonly number[]): boolean => b.length >= sig.length && sig.every((x, k) => b[k] === x);
/** MCAP magic: 0x89 "MCAP" (then the major version and \r\n). */
const MCAP_MAGIC = [0x89, 0x4d, 0x43, 0x41, 0x50];
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** TIFF, little- and big-endian ("II*\0", "MM\0*"), classic and BigTIFF (43). */
const isTiff = (b: Uint8Array): boolean =>
  startsWith(b, [0x49, 0x49, 0x2a, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2a]) || startsWith(b, [0x49, 0x49, 0x2b, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2b]);

const ext = (name: string): string => {
  const k = name.lastIndexOf('.');
  return k > 0 ? name.slice(k + 1).toLowerCase() : '';
};

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/** What one file is, by its bytes first and its extension second. */
export function classifyDropped(file: DroppedFile): ClassifiedFile {
  const b = file.bytes;
  const e = ext(file.name);
  if (b.length === 0) return { file, kind: 'unknown', why: 'the file is empty (0 bytes)' };
  if (startsWith(b, MCAP_MAGIC)) return { file, kind: 'recording' };
  if (e === 'mcap') return { file, kind: 'unknown', why: 'named .mcap but not an MCAP file (no MCAP magic bytes)' };
  if (startsWith(b, PNG_MAGIC)) return { file, kind: 'image', format: 'png' };
  if (isTiff(b)) return { file, kind: 'image', format: 'geotiff' };
  if (e === 'png') return { file, kind: 'unknown', why: 'named .png but not a PNG image (it does not start with the PNG signature)' };
  if (e === 'tif' || e === 'tiff') return { file, kind: 'unknown', why: `named .${e} but not a TIFF image (it does not start with "II*" or "MM*")` };
  if (e === 'raw' || e === 'f32' || e === 'bin') return { file, kind: 'image', format: 'raw-f32' };
  if (e === 'stl' || e === 'obj' || e === 'dae' || e === 'jpg' || e === 'jpeg') return { file, kind: 'mesh' };
  const first = b.findIndex((x) => x !== 0x20 && x !== 0x09 && x !== 0x0a && x !== 0x0d && x !== 0xef && x !== 0xbb && x !== 0xbf);
  // XML content wins over a .json name (a URDF saved as robot.json is a URDF).
  if (b[first] === 0x3c /* < */ || e === 'urdf' || e === 'xml' || e === 'xacro') {
    if (/<robot[\s>]/.test(decoder.decode(b.subarray(0, XML_SNIFF_BYTES)))) return { file, kind: 'urdf' };
    if (e === 'json') return { file, kind: 'unknown', why: 'named .json but XML without a <robot> element (not JSON, not a URDF)' };
    return { file, kind: 'unknown', why: 'XML without a <robot> element (not a URDF)' };
  }
  if (e === 'json' || b[first] === 0x7b /* { */) {
    if (b.length > DROP_MAX_JSON_BYTES) return { file, kind: 'unknown', why: `a ${b.length}-byte JSON file is larger than any scenario or sidecar` };
    let json: unknown;
    try {
      json = JSON.parse(decoder.decode(b));
    } catch (err) {
      return { file, kind: 'unknown', why: `not valid JSON (${(err as Error).message})` };
    }
    if (!isObject(json)) return { file, kind: 'unknown', why: 'JSON, but not an object' };
    if (json.format === 'terrawheel-scenario' || (typeof json.terrain === 'string' && (json.version === 1 || json.version === 2))) return { file, kind: 'scenario', json };
    if (typeof json.image === 'string' && typeof json.format === 'string') return { file, kind: 'sidecar', json };
    return { file, kind: 'unknown', why: 'JSON, but neither a scenario ("format": "terrawheel-scenario") nor a terrain sidecar ("image" and "format")' };
  }
  return { file, kind: 'unknown', why: e ? `.${e} is not a file TerraWheel opens` : 'not a file TerraWheel opens' };
}

/** Width and height from a PNG's IHDR chunk (bytes 16–23, big-endian); [1, 1] when too short (the loader reports it). */
function pngSize(b: Uint8Array): [number, number] {
  if (b.length < 24) return [1, 1];
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  return [Math.max(1, v.getUint32(16)), Math.max(1, v.getUint32(20))];
}

const names = (cs: readonly ClassifiedFile[]): string => cs.map((c) => c.file.name).join(', ');

/** A plain file reference (no directory): read beside the dropped file, i.e. from the drop. */
const isPlain = (ref: string): boolean => !ref.includes('/') && !ref.includes('\\');

/**
 * What a dropped set opens. `token` names the drop for readRelated (droppedFilesHost); `hasWorld`
 * says whether a scenario is running (a terrain or robot is opened into it).
 */
export function planDrop(files: readonly DroppedFile[], token: string, hasWorld: boolean): DropPlan {
  if (files.length === 0) return { action: 'error', message: 'Nothing to open: the drop held no files.' };
  const all = files.map(classifyDropped);
  const of = (k: DroppedKind): ClassifiedFile[] => all.filter((c) => c.kind === k);
  const dropped = new Set(files.map((f) => f.name));
  const unknown = of('unknown');
  const opened = (c: ClassifiedFile, kind: OpenedFile['kind']): OpenedFile => ({ kind, name: c.file.name, bytes: c.file.bytes, token });
  const ignoredNotes = (used: Set<ClassifiedFile>): string[] => {
    const rest = all.filter((c) => !used.has(c));
    return rest.length === 0 ? [] : [`Ignored ${names(rest)} (not used by ${[...used][0].file.name}).`];
  };
  const need = (c: ClassifiedFile, missing: string[], what: string): DropPlan => ({
    action: 'error',
    message: `${c.file.name} needs ${missing.join(', ')} (${what}): drop ${missing.length > 1 ? 'them' : 'it'} together with ${c.file.name}.`,
  });

  // Only unknown files: say what each is not.
  if (unknown.length === all.length) {
    return { action: 'error', message: `Cannot open ${unknown.map((c) => `${c.file.name}: ${c.why}`).join('; ')}. TerraWheel opens ${SUPPORTED}.` };
  }

  const recordings = of('recording');
  if (recordings.length > 0) {
    if (all.length > 1) return { action: 'error', message: `Drop a recording on its own (${names(recordings)} came with ${names(all.filter((c) => c.kind !== 'recording'))}).` };
    return { action: 'recording', file: opened(recordings[0], 'recording'), notes: [] };
  }

  const scenarios = of('scenario');
  if (scenarios.length > 1) return { action: 'error', message: `Drop one scenario at a time (${names(scenarios)}).` };
  if (scenarios.length === 1) {
    const s = scenarios[0];
    const used = new Set([s]);
    const missing: string[] = [];
    const terrain = s.json!.terrain;
    if (typeof terrain === 'string' && isPlain(terrain)) {
      const sidecar = all.find((c) => c.file.name === terrain);
      if (!sidecar) missing.push(terrain);
      else {
        used.add(sidecar);
        const image = sidecar.json?.image;
        if (typeof image === 'string') {
          const img = all.find((c) => c.file.name === baseName(image));
          if (img) used.add(img);
          else missing.push(baseName(image));
        }
      }
    }
    const robot = isObject(s.json!.robot) ? s.json!.robot.urdf : undefined;
    if (typeof robot === 'string' && isPlain(robot)) {
      const urdf = all.find((c) => c.file.name === robot);
      if (!urdf) missing.push(robot);
      else {
        used.add(urdf);
        // meshes, and the files a xacro robot includes (robot files too), are read as it loads
        for (const c of all) if (c.kind === 'mesh' || c.kind === 'urdf') used.add(c);
      }
    }
    if (missing.length > 0) return need(s, missing, 'named in the scenario');
    return { action: 'scenario', file: opened(s, 'scenario'), notes: ignoredNotes(used) };
  }

  const urdfs = of('urdf');
  if (urdfs.length > 0) {
    // a xacro robot comes with the files it includes (robot files too): the robot is the one
    // file no other includes; two robots dropped together stay an error
    let u = urdfs[0];
    if (urdfs.length > 1) {
      try {
        const path = mainRobotFile(urdfs.map((c) => ({ path: c.file.name, bytes: c.file.bytes }))).path;
        u = urdfs.find((c) => c.file.name === path)!;
      } catch {
        return { action: 'error', message: `Drop one robot at a time (${names(urdfs)}).` };
      }
    }
    if (!hasWorld) return { action: 'error', message: `Load a scenario first: ${u.file.name} is opened into the running scenario.` };
    const text = decoder.decode(u.file.bytes);
    if (isXacro(text)) {
      // expanded when loaded (robot-swap.ts) against every dropped file: which includes and meshes
      // it needs depends on its arguments and conditionals
      const related: Record<string, Uint8Array> = {};
      for (const c of all) if (c !== u) related[c.file.name] = c.file.bytes;
      return { action: 'robot', file: { ...opened(u, 'robot'), related }, notes: [] };
    }
    if (urdfs.length > 1) return { action: 'error', message: `Drop one robot at a time (${names(urdfs)}).` };
    let refs;
    try {
      refs = urdfReferencedFiles(parseUrdf(decoder.decode(u.file.bytes)), u.file.name);
    } catch (e) {
      return { action: 'error', message: `Could not load ${u.file.name}: ${(e as Error).message}` };
    }
    // Meshes are matched by base name: a drop has no folders (readRelated's rule too).
    const related: Record<string, Uint8Array> = {};
    const used = new Set([u]);
    const missingCollision: string[] = [];
    const missingVisual: string[] = [];
    for (const ref of refs) {
      if (ref.role === 'texture') continue;
      const f = all.find((c) => baseName(c.file.name) === baseName(ref.path));
      if (f) {
        related[ref.path] = f.file.bytes;
        used.add(f);
      } else (ref.role === 'collision' ? missingCollision : missingVisual).push(baseName(ref.path));
    }
    // a dropped ROS package's package.xml and controller files (robot-swap.ts reads its
    // position controllers, sim/scenario/scenario-controllers.ts), by their path in the drop
    for (const c of all) {
      if (c === u || !/(^|\/)package\.xml$|\.ya?ml$/i.test(c.file.name)) continue;
      related[c.file.name] = c.file.bytes;
      used.add(c);
    }
    const uniq = (xs: string[]): string[] => [...new Set(xs)];
    if (missingCollision.length > 0) return need(u, uniq(missingCollision), 'its collision meshes');
    const notes = ignoredNotes(used);
    if (missingVisual.length > 0) notes.unshift(`${u.file.name}: visual meshes ${uniq(missingVisual).join(', ')} were not dropped; those links show their collision shapes.`);
    return { action: 'robot', file: { ...opened(u, 'robot'), related }, notes };
  }

  const sidecars = of('sidecar');
  const images = of('image');
  const meshes = of('mesh');
  if (sidecars.length === 0 && images.length === 0) {
    if (meshes.length > 0) return { action: 'error', message: `${names(meshes)} ${meshes.length > 1 ? 'are robot meshes' : 'is a robot mesh'}: drop ${meshes.length > 1 ? 'them' : 'it'} together with the URDF that names ${meshes.length > 1 ? 'them' : 'it'}.` };
    return { action: 'error', message: `Cannot open ${unknown.map((c) => `${c.file.name}: ${c.why}`).join('; ')}.` };
  }
  if (!hasWorld) return { action: 'error', message: `Load a scenario first: a terrain (${names([...sidecars, ...images])}) is opened into the running scenario.` };
  if (sidecars.length > 1) return { action: 'error', message: `Drop one terrain at a time (${names(sidecars)}).` };
  if (sidecars.length === 1) {
    const s = sidecars[0];
    const image = baseName(String(s.json!.image));
    if (!dropped.has(image)) return need(s, [image], 'the terrain image its "image" names');
    const img = all.find((c) => c.file.name === image)!;
    return { action: 'terrain', file: opened(s, 'terrain'), notes: ignoredNotes(new Set([s, img])) };
  }
  // Images without a sidecar: one GeoTIFF or PNG loads with a made-up sidecar; RAW cannot.
  if (images.length > 1) return { action: 'error', message: `Drop one terrain image at a time, with its sidecar JSON (${names(images)}).` };
  const img = images[0];
  const name = img.file.name;
  let sidecar: Record<string, unknown>;
  let note: string;
  if (img.format === 'raw-f32') {
    return { action: 'error', message: `${name} is a RAW terrain: it needs its sidecar JSON ("size", "metersPerPixel"); drop both together.` };
  } else if (img.format === 'geotiff') {
    sidecar = { image: name, format: 'geotiff' };
    note = `${name}: no sidecar dropped; spacing from the GeoTIFF, origin at 0, 0.`;
  } else {
    // Centred on the world origin, where scenarios usually start their robot.
    const [w, h] = pngSize(img.file.bytes);
    const s = DROP_PNG_DEFAULT_SPACING;
    const origin = [-((w - 1) * s) / 2, -((h - 1) * s) / 2];
    sidecar = { image: name, format: 'png', metersPerPixel: s, heightRange: [...DROP_PNG_DEFAULT_HEIGHT_RANGE], origin };
    note = `${name}: no sidecar dropped; loaded at ${s} m per pixel, black ${DROP_PNG_DEFAULT_HEIGHT_RANGE[0]} m to white ${DROP_PNG_DEFAULT_HEIGHT_RANGE[1]} m, centred on the origin. Drop it with a sidecar JSON to set them.`;
  }
  const bytes = new TextEncoder().encode(JSON.stringify(sidecar));
  return { action: 'terrain', file: { kind: 'terrain', name, bytes, token }, notes: [note, ...ignoredNotes(new Set([img]))] };
}

/**
 * The Host with `readRelated(token, name)` served from the dropped files (a drop has no folder to
 * read beside); every other call goes to `host` (bundled assets, settings…).
 */
export function droppedFilesHost(host: Host, token: string, files: readonly DroppedFile[], primary: string): Host {
  // by name, and (for files of a dropped folder) by base name when that is unambiguous
  const byName = new Map(files.map((f) => [f.name, f.bytes]));
  const bases = new Map<string, number>();
  for (const f of files) bases.set(baseName(f.name), (bases.get(baseName(f.name)) ?? 0) + 1);
  for (const f of files) if (bases.get(baseName(f.name)) === 1 && !byName.has(baseName(f.name))) byName.set(baseName(f.name), f.bytes);
  const wrapped: Host = {
    kind: host.kind,
    openFile: (kind) => host.openFile(kind),
    async readRelated(t, name) {
      if (t !== token) return host.readRelated(t, name);
      const b = byName.get(name);
      if (!b) throw new Error(`"${name}" was not dropped: drop it together with ${primary}`);
      return b;
    },
    saveFile: (req) => host.saveFile(req),
    listAssets: () => host.listAssets(),
    readAsset: (path) => host.readAsset(path),
    getSettings: () => host.getSettings(),
    setSettings: (patch) => host.setSettings(patch),
    onMenuCommand: (listener) => host.onMenuCommand(listener),
  };
  return wrapped;
}
