/**
 * The layering of the code base as data, and a checker that reads every import of a list of
 * files and reports each one that breaks it. Pure (the file list is an argument), so a test can
 * run it on the repository and on a synthetic list with a planted bad import.
 *
 *   app ──────────► scenario ──────────► core              node ──► app, scenario, core
 *                                                          live ──► app, scenario, core, node (file I/O)
 *    (service, worker,  (files, schema,    math shapes terrain collision
 *     world wrapper,     v1/v2, createWorld, dynamics robot record
 *     recording,         build-world)      (+ the leaves constants.ts, util/)
 *     protocol)
 *
 * Inside the core the order is strict (a folder imports only folders listed for it):
 *   math → shapes, terrain → collision → dynamics → robot, record
 * so dynamics never imports robot (the drive controller is an interface in dynamics that robot
 * implements), and terrain never imports the app's protocol.
 */
import { dirname, posix } from 'node:path';

/** A layer of sim/ (the folder, or the leaf file's name), or a top-level area of the repository. */
export type Area = string;

/**
 * What each sim/ layer may import from sim/ (besides itself). A sim/ folder missing here is an
 * error: a new folder must be placed in the table.
 */
export const SIM_RULES: Readonly<Record<string, readonly Area[]>> = {
  constants: [],
  util: [],
  math: ['constants', 'util'],
  shapes: ['math', 'constants', 'util'],
  terrain: ['math', 'constants', 'util'],
  collision: ['math', 'shapes', 'terrain', 'constants', 'util'],
  dynamics: ['math', 'shapes', 'terrain', 'collision', 'constants', 'util'],
  robot: ['math', 'shapes', 'terrain', 'collision', 'dynamics', 'constants', 'util'],
  record: ['math', 'shapes', 'terrain', 'collision', 'dynamics', 'constants', 'util'],
  scenario: ['math', 'shapes', 'terrain', 'collision', 'dynamics', 'robot', 'record', 'constants', 'util'],
  app: ['math', 'shapes', 'terrain', 'collision', 'dynamics', 'robot', 'record', 'constants', 'util', 'scenario'],
  // one batch run as a function (scenario files, stop, metrics → a result row) over the app's service
  batch: ['math', 'shapes', 'terrain', 'collision', 'dynamics', 'robot', 'record', 'constants', 'util', 'scenario', 'app'],
  node: ['math', 'shapes', 'terrain', 'collision', 'dynamics', 'robot', 'record', 'constants', 'util', 'scenario', 'app', 'batch', 'index', 'live'],
  // the live link (Node only: sockets): a session over the app's service, and protocol adapters
  // over the session (Foxglove WebSocket, rosbridge); node's file sinks write its recordings
  live: ['math', 'shapes', 'terrain', 'collision', 'dynamics', 'robot', 'record', 'constants', 'util', 'scenario', 'app', 'node'],
  index: ['math', 'shapes', 'terrain', 'collision', 'dynamics', 'robot', 'record', 'constants', 'util', 'scenario', 'app'],
};

/** The core: pure TypeScript that runs anywhere (no node, DOM, electron, worker plumbing). */
export const CORE: readonly Area[] = ['constants', 'util', 'math', 'shapes', 'terrain', 'collision', 'dynamics', 'robot', 'record'];

const NODE_BUILTINS = /^(node:.*|fs|fs\/promises|path|os|child_process|url|worker_threads|crypto|stream|util|events|module|http|https|net|zlib)$/;
/** The sim/ layers that run only in Node and may use its built-in modules. */
const NODE_LAYERS: readonly string[] = ['node', 'live'];
/** Packages no part of sim/ outside the Node layers may import: Node, Electron, the renderer's libraries. */
const NOT_IN_SIM = (spec: string): boolean => NODE_BUILTINS.test(spec) || spec === 'electron' || spec.startsWith('electron/') || spec === 'three' || spec.startsWith('three/') || spec === 'pixi.js';
/** The core also leaves the worker plumbing (Comlink) to the app. */
const NOT_IN_CORE = (spec: string): boolean => NOT_IN_SIM(spec) || spec === 'comlink' || spec.startsWith('comlink/');

export interface SourceFile {
  /** Repository-relative, forward slashes (sim/dynamics/world.ts). */
  path: string;
  source: string;
}

export interface Violation {
  file: string;
  specifier: string;
  rule: string;
}

/** Where a repository path lives: 'sim/<layer>' for sim/, else its top-level folder. */
export function areaOf(path: string): Area {
  const parts = path.split('/');
  if (parts[0] !== 'sim') return parts[0];
  if (parts.length === 2) return 'sim/' + parts[1].replace(/\.(ts|mts|d\.ts)$/, '');
  return 'sim/' + parts[1];
}

/**
 * Every module specifier of a source: static imports and re-exports (type-only included), side-
 * effect imports, dynamic import(), and worker URLs (`new URL('./x.ts', import.meta.url)`).
 * Comments are stripped first so prose that quotes an import does not count.
 */
export function importSpecifiers(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const out: string[] = [];
  for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|new\s+URL\(\s*)(['"])([^'"\n]+)\1/g)) out.push(m[2]);
  return out;
}

/** The checker: one Violation per import that breaks the table (empty when the layout holds). */
export function checkImports(files: readonly SourceFile[]): Violation[] {
  const violations: Violation[] = [];
  for (const f of files) {
    const from = areaOf(f.path);
    const layer = from.startsWith('sim/') ? from.slice(4) : null;
    if (layer !== null && SIM_RULES[layer] === undefined) {
      violations.push({ file: f.path, specifier: '', rule: `sim/${layer} is not in the layer table (SIM_RULES): place it` });
      continue;
    }
    for (const spec of importSpecifiers(f.source)) {
      const bad = (rule: string): void => { violations.push({ file: f.path, specifier: spec, rule }); };
      if (!spec.startsWith('.')) {
        if (layer !== null && !NODE_LAYERS.includes(layer) && NOT_IN_SIM(spec)) bad(`sim/${layer} may not import the package ${spec} (only sim/node and sim/live may use Node, and sim/ never electron/three/pixi)`);
        else if (layer !== null && NODE_LAYERS.includes(layer) && (spec === 'electron' || spec.startsWith('electron/') || spec === 'three' || spec.startsWith('three/') || spec === 'pixi.js')) bad(`sim/${layer} may not import ${spec} (sim/ never uses electron/three/pixi)`);
        else if (layer !== null && CORE.includes(layer) && NOT_IN_CORE(spec)) bad(`the core (sim/${layer}) may not import ${spec}`);
        else if (from === 'renderer' && (NODE_BUILTINS.test(spec) || spec === 'electron')) bad(`renderer/ may not import ${spec} (Node or Electron)`);
        continue;
      }
      const target = posix.normalize(posix.join(dirname(f.path), spec));
      const to = areaOf(target);
      if (to === from) continue;
      if (layer !== null) {
        const toLayer = to.startsWith('sim/') ? to.slice(4) : null;
        if (toLayer === null) bad(`sim/${layer} may not import outside sim/ (${to}/)`);
        else if (!SIM_RULES[layer].includes(toLayer)) bad(`sim/${layer} may not import sim/${toLayer} (allowed: ${SIM_RULES[layer].join(', ') || 'nothing'})`);
      } else if (from === 'renderer') {
        if (to === 'sim/node' || to === 'sim/live') bad(`renderer/ may not import ${to} (Node-only)`);
        else if (to === 'electron' && target !== 'electron/ipc-contract' && target !== 'electron/ipc-contract.ts') bad('renderer/ may import only electron/ipc-contract of electron/');
      }
    }
  }
  return violations;
}
