/**
 * Gathers the files a world needs (scenario JSON, terrain sidecar, terrain bytes) through the
 * Host, from bundled assets or from files the user opened. The renderer only follows the file
 * references (scenario.terrain → sidecar, sidecar.image → data); it does not validate or decode
 * them: the worker does, and rejects with a message that says what is wrong.
 */
import type { ScenarioFiles } from '../sim/app/protocol';
import { resolveRelative } from '../sim/scenario/scenario';
import type { Host, OpenedFile } from './host/host';
import { parseUrdf } from '../sim/robot/urdf/parse-urdf';
import { urdfReferencedFiles } from '../sim/robot/urdf/load-urdf';
import { expandXacro, isXacro } from '../sim/robot/urdf/xacro';

/** Where the default world lives, relative to assets/. */
export const DEFAULT_SCENARIO_ASSET = 'scenarios/default.json';

const decoder = new TextDecoder();

/** [characters] Head of a non-JSON file searched for a URDF's <robot> root, to say what it is. */
const SNIFF_CHARS = 64 * 1024;

export function parseJsonFile(name: string, bytes: Uint8Array): unknown {
  if (bytes.length === 0) throw new Error(`${name}: the file is empty (0 bytes)`);
  const text = decoder.decode(bytes);
  try {
    return JSON.parse(text);
  } catch (e) {
    // Say what the file is when it is plainly something else (issue #28: a URDF named .json).
    const head = text.slice(0, SNIFF_CHARS).trimStart();
    if (head.startsWith('<')) {
      if (/<robot[\s>]/.test(head)) throw new Error(`${name}: a URDF robot (XML), not JSON; open it with Open Robot… (or name it .urdf)`);
      throw new Error(`${name}: XML, not JSON`);
    }
    throw new Error(`${name}: not valid JSON (${(e as Error).message})`);
  }
}

function stringField(obj: unknown, field: string, what: string): string {
  const v = obj !== null && typeof obj === 'object' ? (obj as Record<string, unknown>)[field] : undefined;
  if (typeof v !== 'string' || v.length === 0) throw new Error(`${what}: "${field}" must name a file`);
  return v;
}

function baseName(path: string): string {
  const k = path.lastIndexOf('/');
  return k >= 0 ? path.slice(k + 1) : path;
}

/** A scenario bundled under assets/. */
export async function gatherBundled(host: Host, scenarioPath: string): Promise<ScenarioFiles> {
  const scenario = parseJsonFile(scenarioPath, await host.readAsset(scenarioPath));
  const sidecarPath = resolveRelative(scenarioPath, stringField(scenario, 'terrain', scenarioPath));
  const terrainSidecar = parseJsonFile(sidecarPath, await host.readAsset(sidecarPath));
  const imagePath = resolveRelative(sidecarPath, stringField(terrainSidecar, 'image', sidecarPath));
  const terrainData = await host.readAsset(imagePath);
  const files: ScenarioFiles = { scenario, terrainSidecar, terrainData };
  await gatherBundledRobot(host, scenarioPath, scenario, files);
  return files;
}

/** The URDF a scenario's `robot.urdf` names, if any (v2 scenarios), or null. */
export function urdfReference(scenario: unknown): string | null {
  const robot = scenario !== null && typeof scenario === 'object' ? (scenario as Record<string, unknown>).robot : undefined;
  const urdf = robot !== null && typeof robot === 'object' ? (robot as Record<string, unknown>).urdf : undefined;
  return typeof urdf === 'string' && urdf.length > 0 ? urdf : null;
}

/** The scenario's `robot` block fields the gathering reads: xacro arguments, whether visual meshes are read. */
function robotGatherOptions(scenario: unknown): { xacroArgs?: Record<string, string | number | boolean>; visualMeshes: boolean } {
  const robot = scenario !== null && typeof scenario === 'object' ? (scenario as Record<string, unknown>).robot : undefined;
  const r = robot !== null && typeof robot === 'object' ? (robot as Record<string, unknown>) : {};
  const args = r.xacroArgs;
  // the worker validates the scenario; here a malformed value is passed on (or left out) for it to name
  return {
    ...(args !== null && typeof args === 'object' && !Array.isArray(args) ? { xacroArgs: args as Record<string, string | number | boolean> } : {}),
    visualMeshes: r.visualMeshes !== false,
  };
}

/**
 * A bundled scenario's URDF robot: the URDF text (a xacro file expanded here, its includes read
 * from the bundled assets, `robot.xacroArgs` applied) and its collision and visual meshes, keyed
 * by the path urdfReferencedFiles gives (relative to the scenario, as the worker's loader and the
 * renderer's visuals look them up). A visual mesh that cannot be read is left out (the view warns);
 * with `"visualMeshes": false` none is read; textures are not read (not drawn).
 */
async function gatherBundledRobot(host: Host, scenarioPath: string, scenario: unknown, files: ScenarioFiles): Promise<void> {
  const urdf = urdfReference(scenario);
  if (urdf === null) return;
  const urdfAsset = resolveRelative(scenarioPath, urdf);
  const options = robotGatherOptions(scenario);
  let text = new TextDecoder().decode(await host.readAsset(urdfAsset));
  if (isXacro(text)) {
    // An include that is not bundled (another package's accessory) is not fetched at all: a fetch
    // that 404s is a console error in the browser. The manifest lists every bundled file; one that
    // does not list the robot itself (unreadable, or a host without a manifest) is not trusted.
    const bundled = await host.listAssets().then(
      (list) => new Set(list.map((a) => a.path)),
      () => null,
    ).then((set) => (set !== null && set.has(urdfAsset) ? set : null));
    const readAsset = async (p: string): Promise<string | undefined> => {
      if (bundled !== null && !bundled.has(p)) return undefined;
      try {
        return new TextDecoder().decode(await host.readAsset(p));
      } catch {
        return undefined; // skipped with a warning by the expander (another package's accessory)
      }
    };
    text = (await expandXacro(text, { path: urdfAsset, args: options.xacroArgs, readFile: readAsset })).urdf;
  }
  files.robotUrdf = text;
  files.robotMeshes = {};
  for (const ref of urdfReferencedFiles(parseUrdf(text), urdf)) {
    if (ref.role === 'texture' || (ref.role === 'visual' && !options.visualMeshes)) continue;
    try {
      files.robotMeshes[ref.path] = await host.readAsset(resolveRelative(scenarioPath, ref.path));
    } catch (e) {
      if (ref.role === 'collision') throw e;
    }
  }
}

/** A terrain the user opened (its sidecar; the image is read beside it), under the current scenario. */
export async function gatherOpenedTerrain(host: Host, opened: OpenedFile, scenario: unknown): Promise<ScenarioFiles> {
  const terrainSidecar = parseJsonFile(opened.name, opened.bytes);
  const image = baseName(stringField(terrainSidecar, 'image', opened.name));
  const terrainData = await host.readRelated(opened.token, image);
  return { scenario, terrainSidecar, terrainData };
}

/**
 * A scenario the user opened. Its terrain and its URDF robot are read beside it when the reference
 * is a plain file name; a relative path (e.g. ../terrains/hills.json, ../robots/ackermann-car.urdf)
 * is looked up among the bundled assets as if the scenario lived in assets/scenarios/.
 */
export async function gatherOpenedScenario(host: Host, opened: OpenedFile): Promise<ScenarioFiles> {
  const files = await gatherOpenedScenarioTerrain(host, opened);
  const urdf = urdfReference(files.scenario);
  if (urdf === null) return files;
  if (urdf.includes('/')) {
    try {
      await gatherBundledRobot(host, `scenarios/${opened.name}`, files.scenario, files);
    } catch (e) {
      throw new Error(`${opened.name}: robot "${urdf}" is neither beside the scenario nor a bundled asset (${(e as Error).message})`);
    }
    return files;
  }
  // Beside the scenario: the URDF, then the meshes it names beside it (plain names only: what
  // readRelated serves; use Open Robot… for a robot whose meshes sit in sub-folders). A xacro
  // robot's includes are read beside it by base name, its arguments from robot.xacroArgs.
  let text = new TextDecoder().decode(await host.readRelated(opened.token, urdf));
  if (isXacro(text)) {
    const beside = async (p: string): Promise<string | undefined> => {
      try {
        return new TextDecoder().decode(await host.readRelated(opened.token, baseName(p)));
      } catch {
        return undefined;
      }
    };
    text = (await expandXacro(text, { path: urdf, args: robotGatherOptions(files.scenario).xacroArgs, readFile: beside })).urdf;
  }
  files.robotUrdf = text;
  files.robotMeshes = {};
  for (const ref of urdfReferencedFiles(parseUrdf(text), urdf)) {
    if (ref.role === 'texture' || ref.path.includes('/')) continue;
    try {
      files.robotMeshes[ref.path] = await host.readRelated(opened.token, ref.path);
    } catch (e) {
      if (ref.role === 'collision') throw e;
    }
  }
  return files;
}


async function gatherOpenedScenarioTerrain(host: Host, opened: OpenedFile): Promise<ScenarioFiles> {
  const scenario = parseJsonFile(opened.name, opened.bytes);
  const ref = stringField(scenario, 'terrain', opened.name);
  if (!ref.includes('/')) {
    const terrainSidecar = parseJsonFile(ref, await host.readRelated(opened.token, ref));
    const image = baseName(stringField(terrainSidecar, 'image', ref));
    return { scenario, terrainSidecar, terrainData: await host.readRelated(opened.token, image) };
  }
  const sidecarPath = resolveRelative(`scenarios/${opened.name}`, ref);
  let sidecarBytes: Uint8Array;
  try {
    sidecarBytes = await host.readAsset(sidecarPath);
  } catch {
    throw new Error(`${opened.name}: terrain "${ref}" is neither beside the scenario nor a bundled asset (assets/${sidecarPath})`);
  }
  const terrainSidecar = parseJsonFile(sidecarPath, sidecarBytes);
  const imagePath = resolveRelative(sidecarPath, stringField(terrainSidecar, 'image', sidecarPath));
  return { scenario, terrainSidecar, terrainData: await host.readAsset(imagePath) };
}
