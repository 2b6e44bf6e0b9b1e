/**
 * xacro → URDF, inside TerraWheel, with `xacro-parser` (MIT; properties, math, macros with
 * blocks, conditionals, in-order includes, `$(arg)` with defaults).
 *
 * Steps, each with its own error naming the file:
 *   1. isXacro: the text holds xacro elements or `${...}`/`$(...)` substitutions outside comments
 *      (a commented-out `<!-- <xacro:include .../> -->` triggers nothing).
 *   2. passThroughParams: macro parameters written `name:=^` (ROS Jade's "take the caller's value")
 *      become `name:=${name}`, which xacro-parser evaluates in the caller's scope (the same thing);
 *      `name:=^|default` keeps only its default (xacro-parser has no "defined?" test), said in
 *      the warnings.
 *   3. pythonStringMethods: inside `${...}`, `x.upper()` / `x.lower()` / `x.strip()` (Python string
 *      methods, which xacro-parser's expression language cannot call: the Clearpath Husky's
 *      `${name.upper()}` in pacs.urdf.xacro failed as "Cannot read properties of undefined") become
 *      calls of functions registered under reserved names, `__tw_str_upper__(x)`.
 *   4. expansion with the injected file access: includes by `$(find pkg)/...` or `package://pkg/...`
 *      resolve to the folder the caller's findPackage gives (Electron main: a sibling package of
 *      the workspace), else the ancestor folder of the main file named `pkg` (as mesh paths do),
 *      or next to it; `$(optenv NAME default)` is its default and `$(env NAME)` is empty (the environment is
 *      not an input: a run must not depend on it). An include that cannot be read is skipped with
 *      a warning (ROS files include accessories of other packages behind arguments that are
 *      usually off); a macro it would have defined then fails by name.
 *   5. serialisation back to text, which parseUrdf reads.
 *
 * DOM: xacro-parser calls the global DOMParser. A browser page has one; a worker and Node do not,
 * so @xmldom/xmldom stands in, with the three things xacro-parser expects of a browser DOM that
 * xmldom 0.8 lacks added once to its prototypes: `children`, iterable NodeLists, and an empty
 * `childNodes` on text-like nodes.
 */
import { DOMParser as XmldomParser, XMLSerializer as XmldomSerializer } from '@xmldom/xmldom';
import { XacroParser } from 'xacro-parser';
import { UrdfError } from './urdf-error';

export { isXacro, stripXmlComments } from './xacro-detect';

/** Largest text an expansion may produce (as for a URDF file). */
const XACRO_MAX_OUTPUT_CHARS = 16 * 1024 * 1024;
/** Largest number of files an expansion may read (includes of includes). */
const XACRO_MAX_INCLUDES = 256;
/** Marks a relative path as absolute for xacro-parser (see expandXacro). */
const RELATIVE_SCHEME = 'twrel:/';

export interface XacroOptions {
  /** Path of the main file ('/'-separated): includes resolve against its folder. */
  path: string;
  /**
   * Reads an included file by its resolved path; undefined (or a rejected promise) when it
   * cannot be read. The caller decides what may be read (Node: the file system; the app: the
   * files the user opened).
   */
  readFile: (path: string) => Promise<string | undefined> | string | undefined;
  /** Values of `<xacro:arg>`s (a scenario's `robot.xacroArgs`); others take their defaults. */
  args?: Record<string, string | number | boolean>;
  /**
   * The folder ('/'-separated, like `path`) of package `pkg` when the caller knows it (a sibling
   * package of the same workspace); undefined: the rule of step 4 (an ancestor folder named pkg).
   */
  findPackage?: (pkg: string) => string | undefined;
}

export interface XacroResult {
  urdf: string;
  /** Skipped includes, approximated `^|default` parameters. */
  warnings: string[];
  /** Every file read (resolved paths), in reading order, the main file first. */
  files: string[];
}

/** `name:=^` → `name:=${name}`; `name:=^|d` → `name:=d` (with a warning). */
function passThroughParams(text: string, file: string, warnings: string[]): string {
  return text.replace(/(<xacro:macro\b[^>]*?\bparams\s*=\s*)(["'])([\s\S]*?)\2/g, (_m, pre: string, quote: string, params: string) => {
    const fixed = params.replace(/(\S+?):?=\^(\|(\S*))?(?=\s|$)/g, (_p, name: string, _bar: string | undefined, dflt: string | undefined) => {
      if (dflt === undefined) return `${name}:=\${${name}}`;
      warnings.push(`${file}: macro parameter "${name}:=^|${dflt}" takes its default ${dflt} (the caller's value is not passed through)`);
      return `${name}:=${dflt}`;
    });
    return `${pre}${quote}${fixed}${quote}`;
  });
}

/** Python string methods rewritten by pythonStringMethods, with what each does. */
const STRING_METHODS: Record<string, (s: unknown) => string> = {
  upper: (s) => String(s).toUpperCase(),
  lower: (s) => String(s).toLowerCase(),
  strip: (s) => String(s).trim(),
};
const stringMethodFunction = (method: string): string => `__tw_str_${method}__`;

/** `${a.upper()}` → `${__tw_str_upper__(a)}`, of a property or a quoted string (inside `${...}` only; see the header). */
export function pythonStringMethods(text: string): string {
  return text.replace(/\$\{[^}]*\}/g, (expr) =>
    expr.replace(/([A-Za-z_]\w*|'[^']*'|"[^"]*")\.(upper|lower|strip)\(\s*\)/g, (_m, name: string, method: string) => `${stringMethodFunction(method)}(${name})`));
}

/** Every pre-pass a file's text goes through before xacro-parser reads it. */
function prePass(text: string, file: string, warnings: string[]): string {
  return pythonStringMethods(passThroughParams(text, file, warnings));
}

let domPatched = false;
/** Expansions running on xmldom (the global DOMParser is set while > 0). */
let activeExpansions = 0;

/** Adds to xmldom what xacro-parser expects of a browser DOM (see the header). Idempotent. */
function patchXmldom(): void {
  if (domPatched) return;
  domPatched = true;
  const doc = new XmldomParser().parseFromString('<a><b/></a>', 'text/xml');
  const el = doc.documentElement as unknown as object;
  const nodeProto = Object.getPrototypeOf(Object.getPrototypeOf(el)) as object;
  if (!('children' in nodeProto)) {
    Object.defineProperty(nodeProto, 'children', {
      configurable: true,
      get(this: { firstChild: { nodeType: number; nextSibling: unknown } | null }) {
        const out: unknown[] = [];
        for (let n = this.firstChild; n; n = n.nextSibling as typeof n) if (n.nodeType === 1) out.push(n);
        return out;
      },
    });
  }
  const listProto = Object.getPrototypeOf((doc.documentElement as unknown as { childNodes: object }).childNodes) as Record<symbol, unknown>;
  if (!(Symbol.iterator in listProto)) {
    listProto[Symbol.iterator] = function* (this: { length: number; [i: number]: unknown }) {
      for (let i = 0; i < this.length; i++) yield this[i];
    };
  }
  const own = Symbol('childNodes');
  const leaves = [doc.createTextNode('x'), doc.createComment('x'), doc.createProcessingInstruction('x', 'y'), doc.createCDATASection('x')];
  for (const leaf of leaves) {
    const proto = Object.getPrototypeOf(leaf) as object;
    if (Object.prototype.hasOwnProperty.call(proto, 'childNodes')) continue;
    Object.defineProperty(proto, 'childNodes', {
      configurable: true,
      get(this: Record<symbol, unknown>) {
        return this[own] ?? [];
      },
      set(this: Record<symbol, unknown>, v: unknown) {
        this[own] = v;
      },
    });
  }
}

/**
 * xmldom's parser with its error handler set: a malformed file is an error (which expandXacro
 * turns into a UrdfError naming the file), not a line on the console and a repaired document.
 */
class StrictXmldomParser extends XmldomParser {
  constructor() {
    super({
      errorHandler: {
        warning: () => undefined,
        error: (msg: string) => {
          throw new Error(`malformed XML: ${msg}`);
        },
        fatalError: (msg: string) => {
          throw new Error(`malformed XML: ${msg}`);
        },
      },
    });
  }
}

/**
 * Python's math functions that xacro's `${...}` offers (it evaluates with `math`'s names in scope)
 * and xacro-parser lacks (it has sin, cos, tan, asin, acos, atan, atan2, log, pow, radians,
 * degrees): the MiR's `${sqrt(...)}` inertia expressions failed as "undefined variable: sqrt".
 */
const PYTHON_MATH: Record<string, (...a: number[]) => number> = {
  sqrt: Math.sqrt, exp: Math.exp, fabs: Math.abs, abs: Math.abs, floor: Math.floor, ceil: Math.ceil,
  trunc: Math.trunc, log10: Math.log10, hypot: Math.hypot, min: Math.min, max: Math.max,
  copysign: (x, y) => (y < 0 || Object.is(y, -0) ? -Math.abs(x) : Math.abs(x)),
};

/** Registers PYTHON_MATH's functions with a parser's expression language (those it lacks). */
function addPythonMath(parser: XacroParser): void {
  const functions = (parser as unknown as { expressionParser: { functions: Record<string, unknown> } }).expressionParser.functions;
  for (const [name, fn] of Object.entries(PYTHON_MATH)) if (!(name in functions)) functions[name] = fn;
}

/**
 * xacro-parser may leave a number as a text node's data (a `${...}` that is a node's whole text):
 * xmldom's serializer needs strings ("n.data.replace is not a function" on the MiR). Turns every
 * text node's data into a string, in place; returns the node.
 */
function textAsStrings<T>(node: T): T {
  const n = node as unknown as { data?: unknown; childNodes?: ArrayLike<unknown> };
  if (n.data !== undefined && typeof n.data !== 'string') n.data = String(n.data);
  const kids = n.childNodes;
  if (kids) for (let i = 0; i < kids.length; i++) textAsStrings(kids[i]);
  return node;
}

function folderOf(path: string): string {
  const p = path.replace(/\\/g, '/');
  const k = p.lastIndexOf('/');
  return k >= 0 ? p.slice(0, k) : '';
}

/** The folder of package `pkg` for a file at `path`: its nearest ancestor folder named pkg, else the file's folder's parent when that is a ROS package layout (…/urdf/x.xacro), else the file's folder. */
function packageFolder(path: string, pkg: string): string {
  const dir = folderOf(path);
  const segs = dir.split('/');
  for (let i = segs.length - 1; i >= 0; i--) if (segs[i] === pkg) return segs.slice(0, i + 1).join('/');
  return dir;
}

function normalize(path: string): string {
  const absolute = path.startsWith('/');
  const out: string[] = [];
  for (const s of path.split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else out.push(s);
  }
  return (absolute ? '/' : '') + out.join('/');
}

/**
 * Expands xacro text into URDF text. Throws UrdfError naming the file (and the xacro-parser
 * message) when the expansion fails.
 */
export async function expandXacro(text: string, options: XacroOptions): Promise<XacroResult> {
  const warnings: string[] = [];
  const files: string[] = [options.path];
  const mainPath = options.path.replace(/\\/g, '/');
  const NativeParser = (globalThis as { DOMParser?: unknown }).DOMParser;
  const native = typeof NativeParser === 'function' && (globalThis as { XMLSerializer?: unknown }).XMLSerializer !== undefined;
  if (!native) patchXmldom();

  const parser = new XacroParser();
  parser.inOrder = true;
  parser.requirePrefix = true;
  parser.localProperties = true;
  const functions = (parser as unknown as { expressionParser: { functions: Record<string, unknown> } }).expressionParser.functions;
  for (const [method, fn] of Object.entries(STRING_METHODS)) functions[stringMethodFunction(method)] = fn;
  // xacro-parser prefixes a path that does not look absolute with the including file's folder;
  // a relative main path is carried under a scheme it takes as absolute, removed on reading
  const prefix = mainPath.startsWith('/') ? '' : RELATIVE_SCHEME;
  parser.workingPath = `${prefix}${folderOf(mainPath)}/`;
  if (options.args) {
    for (const [k, v] of Object.entries(options.args)) {
      if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') throw new UrdfError(`xacro argument "${k}" must be a string, number or boolean`, k);
    }
    parser.arguments = { ...options.args };
  }
  addPythonMath(parser);
  const folderOfPackage = (pkg: string): string => options.findPackage?.(pkg) ?? packageFolder(mainPath, pkg);
  parser.rospackCommands = {
    find: (pkg: string) => `${prefix}${folderOfPackage(pkg)}`,
    optenv: (_name: string, ...dflt: string[]) => dflt.join(' '),
    env: () => '',
    eval: () => {
      throw new Error('$(eval ...) is not supported');
    },
  };
  const missing = '<robot xmlns:xacro="http://ros.org/wiki/xacro"/>';
  parser.getFileContents = async (path: string): Promise<string> => {
    let p = path.replace(/\\/g, '/');
    const pkg = /^package:\/\/([^/]+)\/(.*)$/.exec(p);
    if (pkg) p = `${folderOfPackage(pkg[1])}/${pkg[2]}`;
    if (p.startsWith(RELATIVE_SCHEME)) p = p.slice(RELATIVE_SCHEME.length).replace(/^\/+/, '');
    p = normalize(p);
    if (files.length >= XACRO_MAX_INCLUDES) throw new UrdfError(`${mainPath}: more than ${XACRO_MAX_INCLUDES} included files`, mainPath);
    let body: string | undefined;
    try {
      body = await options.readFile(p);
    } catch {
      body = undefined;
    }
    if (body === undefined) {
      warnings.push(`xacro: included file "${p}" cannot be read; skipped (its macros and properties are missing)`);
      return missing;
    }
    files.push(p);
    return prePass(body, p, warnings);
  };

  const withGlobals = async <T>(run: () => Promise<T>): Promise<T> => {
    if (native) return run();
    // xmldom is the global DOMParser while any expansion runs (they may interleave at awaits)
    const g = globalThis as { DOMParser?: unknown };
    if (activeExpansions++ === 0) g.DOMParser = StrictXmldomParser;
    try {
      return await run();
    } finally {
      if (--activeExpansions === 0) delete g.DOMParser;
    }
  };

  let out: string;
  try {
    const doc = await withGlobals(() => parser.parse(prePass(text, mainPath, warnings)));
    const Serializer = native ? ((globalThis as unknown as { XMLSerializer: new () => { serializeToString(n: unknown): string } }).XMLSerializer) : XmldomSerializer;
    out = new Serializer().serializeToString(native ? doc : textAsStrings(doc));
  } catch (e) {
    if (e instanceof UrdfError) throw e;
    const msg = e instanceof Error ? e.message.replace(/\s+/g, ' ').trim() : String(e);
    throw new UrdfError(`${mainPath}: xacro expansion failed: ${msg}`, mainPath);
  }
  if (out.length > XACRO_MAX_OUTPUT_CHARS) throw new UrdfError(`${mainPath}: the expanded URDF has ${out.length} characters; at most ${XACRO_MAX_OUTPUT_CHARS}`, mainPath);
  return { urdf: out, warnings, files };
}
