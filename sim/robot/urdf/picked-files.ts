/**
 * A robot opened from files the user picked or dropped (the web app's file picker, a drop of
 * files or of a ROS package folder): which file is the robot, and its xacro expanded with
 * includes and `$(find pkg)`/`package://` paths resolved against those files only.
 *
 * Steps, each pure (no DOM, no file system), shared by the renderer (robot-swap.ts,
 * app/drop-plan.ts) and the tests:
 *   1. PickedFiles: the files by their path as given (a folder drop or pick gives
 *      "husky_description/urdf/wheel.urdf.xacro", a plain pick the base name). A path the expander
 *      asks for is matched by its longest tail of whole segments that names exactly one file
 *      ("…/husky_description/urdf/wheel.urdf.xacro" finds the folder's file; "wheel.urdf.xacro"
 *      alone finds a flat pick), so neither the picked folder's place nor the package layout has to
 *      be known. Two files sharing the matched tail are ambiguous: neither is taken.
 *   2. mainRobotFile: among the XML robot files, the one no other picked file includes (by base
 *      name) and that holds a link or a xacro element; a set with no single such file is an error
 *      listing the candidates.
 *   3. expandPickedRobot: expandXacro with that reader; skipped includes are listed by the path
 *      the file asked for, and an expansion that fails after skipping some says which to add.
 */
import { UrdfError } from './urdf-error';
import { expandXacro, isXacro, stripXmlComments } from './xacro';

export interface PickedFile {
  /** '/'-separated path as picked (a folder pick or drop: relative to the folder's parent), or the base name. */
  path: string;
  bytes: Uint8Array;
}

const decoder = new TextDecoder();

const segments = (p: string): string[] => p.replace(/\\/g, '/').split('/').filter((s) => s !== '' && s !== '.');
const baseName = (p: string): string => {
  const s = segments(p);
  return s.length > 0 ? s[s.length - 1] : '';
};

/** Files looked up by the longest unique tail of path segments (see the header). */
export class PickedFiles {
  private readonly byBase = new Map<string, PickedFile[]>();

  constructor(readonly files: readonly PickedFile[]) {
    for (const f of files) {
      const b = baseName(f.path);
      const list = this.byBase.get(b);
      if (list) list.push(f);
      else this.byBase.set(b, [f]);
    }
  }

  /** The file `path` names, or undefined when none (or more than one equally well) does. */
  find(path: string): PickedFile | undefined {
    const want = segments(path);
    if (want.length === 0) return undefined;
    const candidates = this.byBase.get(want[want.length - 1]);
    if (!candidates) return undefined;
    if (candidates.length === 1) return candidates[0];
    // the most trailing segments in common; a tie between two files is no answer
    let best: PickedFile | undefined;
    let bestLen = -1;
    let tie = false;
    for (const c of candidates) {
      const have = segments(c.path);
      let n = 0;
      while (n < have.length && n < want.length && have[have.length - 1 - n] === want[want.length - 1 - n]) n++;
      if (n > bestLen) {
        best = c;
        bestLen = n;
        tie = false;
      } else if (n === bestLen) tie = true;
    }
    return tie ? undefined : best;
  }

  text(path: string): string | undefined {
    const f = this.find(path);
    return f ? decoder.decode(f.bytes) : undefined;
  }
}

/** True for a file that may be a robot description by its name (.urdf, .xacro, .xml). */
export function isRobotFileName(name: string): boolean {
  return /\.(urdf|xacro|xml)$/i.test(name);
}

/** Base names a xacro text includes (`<xacro:include filename="…"/>` outside comments). */
export function includedBaseNames(text: string): string[] {
  const out: string[] = [];
  for (const m of stripXmlComments(text).matchAll(/<xacro:include\b[^>]*?\bfilename\s*=\s*(["'])([^"']*)\1/g)) out.push(baseName(m[2]));
  return out;
}

/**
 * The robot among `robots` (XML files with a <robot> root): the only one no other includes.
 * Throws an Error naming the candidates when there is no single one.
 */
export function mainRobotFile(robots: readonly PickedFile[]): PickedFile {
  if (robots.length === 1) return robots[0];
  const included = new Set<string>();
  for (const r of robots) for (const b of includedBaseNames(decoder.decode(r.bytes))) included.add(b);
  // a root without any element (the Husky's empty.urdf, a placeholder included through an
  // argument's default) describes nothing
  const roots = robots.filter((r) => !included.has(baseName(r.path)) && /<(link|xacro:)/.test(stripXmlComments(decoder.decode(r.bytes))));
  if (roots.length === 1) return roots[0];
  const list = (roots.length > 0 ? roots : robots).map((r) => r.path).join(', ');
  throw new Error(`open one robot at a time: ${list} ${roots.length > 0 ? 'are robots that no other file includes' : 'include each other'}; pick or drop the one robot file with the files it includes`);
}

export interface PickedRobot {
  /** The main file's path (the scenario's robot.urdf; mesh paths resolve against it). */
  name: string;
  /** URDF text (expanded when the file was xacro). */
  urdf: string;
  /** Notes for the user: includes skipped, approximations. */
  warnings: string[];
}

/** What a host that reads from disk adds to expandPickedRobot (Electron main, robot-xacro.ts). */
export interface ExpandPickedOptions {
  /** Where package `pkg` is (XacroOptions.findPackage); absent: the ancestor folder named pkg. */
  findPackage?: (pkg: string) => string | undefined;
  /** How the error about missing includes ends (default: open or drop them with the robot file). */
  missingHint?: string;
}

/**
 * The robot file `main` of `files`, its xacro expanded (arguments `args`) with includes read from
 * `files` (or, for a path none of them is, `fallback`: the files beside a file opened alone).
 * Throws UrdfError naming the file; when the expansion fails after includes were skipped, the
 * message lists them ("add them to the files you open").
 */
export async function expandPickedRobot(
  main: PickedFile, files: PickedFiles, args?: Record<string, string | number | boolean>,
  fallback?: (path: string) => Promise<Uint8Array | undefined>,
  more: ExpandPickedOptions = {},
): Promise<PickedRobot> {
  const text = decoder.decode(main.bytes);
  if (!isXacro(text)) return { name: main.path, urdf: text, warnings: [] };
  const missing: string[] = [];
  try {
    const r = await expandXacro(text, {
      path: main.path,
      args,
      findPackage: more.findPackage,
      readFile: async (p) => {
        let t = files.text(p);
        if (t === undefined && fallback) {
          const b = await fallback(p);
          if (b) t = decoder.decode(b);
        }
        if (t === undefined) missing.push(baseName(p));
        return t;
      },
      // a package looked for beside the robot: not an include the user must add
      readPackageXml: async (p) => {
        const t = files.text(p);
        if (t !== undefined || !fallback) return t;
        const b = await fallback(p);
        return b ? decoder.decode(b) : undefined;
      },
    });
    return { name: main.path, urdf: r.urdf, warnings: r.warnings };
  } catch (e) {
    if (missing.length === 0 || !(e instanceof Error)) throw e;
    const hint = more.missingHint ?? `open or drop them with ${baseName(main.path)} (a ROS package folder holds them)`;
    throw new UrdfError(`${e.message}. Included files not among the files opened: ${[...new Set(missing)].join(', ')}: ${hint}`, main.path);
  }
}
