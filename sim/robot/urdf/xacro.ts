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
 *   3. pythonStringMethods: inside `${...}`, `x.upper()`, `x.rstrip('_link')`, `x.replace('a', 'b')`
 *      and the other STRING_METHODS (Python string methods, which xacro-parser's expression language
 *      cannot call: the Clearpath Husky's `${name.upper()}` in pacs.urdf.xacro failed as "Cannot read
 *      properties of undefined"; Husarion's sensor macros call `${parent_link.rstrip('_link')}`)
 *      become calls of functions registered under reserved names, `__tw_str_rstrip__(x , '_link')`.
 *   3b. namespaced includes (`<xacro:include filename="..." ns="body"/>`, which xacro-parser refuses;
 *      the Husarion ROSbot includes all its parts so): the includer's tag carries the namespace in
 *      the file name (NS_MARK), and the included file's text is rewritten by namespaceFile: its
 *      macros become `body.m` (called `<xacro:body.m>` from outside, `<xacro:m>` inside is
 *      rewritten), its top-level properties `body.p` (read `${body.p}` from outside; its own
 *      `${p}` is rewritten where no macro parameter or macro-local property of that name hides it).
 *      Properties and macros of files it includes without a namespace stay unqualified (xacro
 *      would put them under `body.` too; reaching them as `body.x` from outside is not supported).
 *   4. expansion with the injected file access: includes by `$(find pkg)/...` or `package://pkg/...`
 *      resolve to the folder the caller's findPackage gives (Electron main: a sibling package of
 *      the workspace), else the ancestor folder of the main file named `pkg` (as mesh paths do),
 *      else a folder `pkg` whose package.xml names pkg beside the main file's folder or one of its
 *      ancestors (or such an ancestor itself) (a sibling package of a ROS workspace: the ROSbot's sensors come from
 *      ros_components_description), else the main file's folder (a package found nowhere is named
 *      in the warnings); `$(optenv NAME default)` is its default and `$(env NAME)` is empty (the environment is
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
import { stripXmlComments } from './xacro-detect';

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
  /**
   * Reads a `package.xml` while a package is looked for beside the main file (step 4): not an
   * include, so a caller that lists the files it could not give leaves these out. Default: readFile.
   */
  readPackageXml?: (path: string) => Promise<string | undefined> | string | undefined;
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

/** Python's str.strip family: removes the characters of `chars` (default: white space) from one or both ends. */
function stripChars(s: unknown, chars: unknown, left: boolean, right: boolean): string {
  const t = String(s);
  if (chars === undefined) return left && right ? t.trim() : left ? t.trimStart() : t.trimEnd();
  const set = new Set(String(chars));
  let a = 0;
  let b = t.length;
  if (left) while (a < b && set.has(t[a])) a++;
  if (right) while (b > a && set.has(t[b - 1])) b--;
  return t.slice(a, b);
}

/** Python string methods rewritten by pythonStringMethods (arguments: quoted strings), with what each does. */
const STRING_METHODS: Record<string, (s: unknown, ...a: unknown[]) => string | boolean> = {
  upper: (s) => String(s).toUpperCase(),
  lower: (s) => String(s).toLowerCase(),
  strip: (s, c) => stripChars(s, c, true, true),
  lstrip: (s, c) => stripChars(s, c, true, false),
  rstrip: (s, c) => stripChars(s, c, false, true),
  replace: (s, a, b) => String(s).split(String(a)).join(String(b)),
  startswith: (s, a) => String(s).startsWith(String(a)),
  endswith: (s, a) => String(s).endsWith(String(a)),
};
const stringMethodFunction = (method: string): string => `__tw_str_${method}__`;
const METHOD_CALL = new RegExp(
  `((?:[A-Za-z_]\\w*\\.)*?[A-Za-z_]\\w*|'[^']*'|"[^"]*")\\.(${Object.keys(STRING_METHODS).join('|')})\\(\\s*((?:'[^']*'|"[^"]*")(?:\\s*,\\s*(?:'[^']*'|"[^"]*"))*)?\\s*\\)`,
  'g',
);

/**
 * `${a.upper()}` → `${__tw_str_upper__(a)}`, `${a.rstrip('_link')}` → `${__tw_str_rstrip__(a , '_link')}`,
 * of a property (namespaced too: `ns.a`) or a quoted string, with quoted-string arguments (inside
 * `${...}` only; see the header). The spaces around commas let xacro-parser see the property name
 * as a token of its own.
 */
export function pythonStringMethods(text: string): string {
  return text.replace(/\$\{[^}]*\}/g, (expr) =>
    expr.replace(METHOD_CALL, (_m, name: string, method: string, args: string | undefined) => {
      const more = args === undefined ? [] : [...args.matchAll(/'[^']*'|"[^"]*"/g)].map((a) => a[0]);
      return `${stringMethodFunction(method)}(${[name, ...more].join(' , ')})`;
    }));
}

/** Carries an include's namespace in its file name (see the header, step 3b); no path holds it. */
const NS_MARK = '#terrawheel-xacro-ns=';

/** `<xacro:include filename="f" ns="n"/>` → `<xacro:include filename="f#terrawheel-xacro-ns=n"/>` (an empty ns is none). */
function carryIncludeNamespaces(text: string): string {
  return text.replace(/<xacro:include\b([^>]*?)(\/?)>/g, (whole, attrs: string, close: string) => {
    const ns = /\sns\s*=\s*(["'])(.*?)\1/.exec(attrs);
    if (!ns) return whole;
    const rest = attrs.replace(ns[0], '');
    const name = ns[2].trim();
    if (name === '') return `<xacro:include${rest}${close}>`;
    const marked = rest.replace(/(\sfilename\s*=\s*)(["'])(.*?)\2/, (_f, pre: string, q: string, v: string) => `${pre}${q}${v}${NS_MARK}${name}${q}`);
    return `<xacro:include${marked}${close}>`;
  });
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The value of attribute `name` in a tag's attribute text (not `filename=` for `name`). */
const attrOf = (attrs: string, name: string): string | undefined => new RegExp(`(?:^|\\s)${name}\\s*=\\s*(["'])(.*?)\\1`).exec(attrs)?.[2];
/** xacro elements whose names a macro cannot take. */
const XACRO_KEYWORDS = new Set(['macro', 'property', 'include', 'if', 'unless', 'arg', 'insert_block', 'element', 'attribute', 'call']);

/**
 * Rewrites a file included under namespace `ns` (header, step 3b): macros `m` → `ns.m` (their
 * definitions and the file's own calls), top-level properties `p` → `ns.p` (definitions outside
 * macros, `insert_block`s and `${...}` references, except inside a macro that has a parameter or a
 * local property named p). Comments are dropped (so nothing inside one is rewritten).
 */
export function namespaceFile(raw: string, ns: string): string {
  const text = stripXmlComments(raw);
  // outermost macro definitions: their spans, and the names their parameters and local properties hide
  const spans: { start: number; end: number; hidden: Set<string> }[] = [];
  let depth = 0;
  let start = 0;
  for (const m of text.matchAll(/<(\/?)xacro:macro\b([^>]*?)(\/?)>/g)) {
    const at = m.index ?? 0;
    if (m[1] === '/') {
      if (depth > 0 && --depth === 0) spans.push({ start, end: at + m[0].length, hidden: new Set() });
    } else if (m[3] === '/') {
      if (depth === 0) spans.push({ start: at, end: at + m[0].length, hidden: new Set() });
    } else if (depth++ === 0) start = at;
  }
  const inSpan = (at: number) => spans.find((sp) => at >= sp.start && at < sp.end);
  const macros = new Set<string>();
  const props = new Set<string>();
  for (const m of text.matchAll(/<xacro:macro\b([^>]*?)\/?>/g)) {
    const name = attrOf(m[1], 'name')?.replace(/^xacro:/, '');
    if (name && !XACRO_KEYWORDS.has(name)) macros.add(name);
    const span = inSpan(m.index ?? 0);
    for (const p of (attrOf(m[1], 'params') ?? '').trim().split(/\s+/)) if (p && span) span.hidden.add(p.replace(/^\*{1,2}/, '').split(/:?=/)[0]);
  }
  for (const m of text.matchAll(/<xacro:property\b([^>]*?)\/?>/g)) {
    const name = attrOf(m[1], 'name');
    if (!name) continue;
    const span = inSpan(m.index ?? 0);
    if (span) span.hidden.add(name);
    else props.add(name);
  }
  if (macros.size === 0 && props.size === 0) return text;
  const macroAlt = [...macros].map(escapeRe).join('|');
  const rewrite = (seg: string, hidden: Set<string>): string => {
    const visible = [...props].filter((p) => !hidden.has(p));
    let out = seg;
    if (macros.size > 0) {
      out = out.replace(new RegExp(`<(/?)xacro:(${macroAlt})(?=[\\s/>])`, 'g'), (_m, slash: string, name: string) => `<${slash}xacro:${ns}.${name}`);
      out = out.replace(/<xacro:macro\b[^>]*?>/g, (tag) => tag.replace(/(\sname\s*=\s*)(["'])(?:xacro:)?(.*?)\2/, (_m, pre: string, q: string, name: string) => `${pre}${q}${macros.has(name) ? `${ns}.${name}` : name}${q}`));
    }
    if (visible.length === 0) return out;
    const set = new Set(visible);
    out = out.replace(/<xacro:(property|insert_block)\b[^>]*?>/g, (tag) =>
      tag.replace(/(\sname\s*=\s*)(["'])(.*?)\2/, (_m, pre: string, q: string, name: string) => `${pre}${q}${set.has(name) ? `${ns}.${name}` : name}${q}`));
    const ref = new RegExp(`(?<![\\w.])(${visible.map(escapeRe).join('|')})(?![\\w])`, 'g');
    return out.replace(/\$\{[^}]*\}/g, (expr) => expr.split(/('[^']*'|"[^"]*")/).map((part, k) => (k % 2 === 1 ? part : part.replace(ref, `${ns}.$1`))).join(''));
  };
  let result = '';
  let at = 0;
  for (const sp of spans) {
    result += rewrite(text.slice(at, sp.start), new Set()) + rewrite(text.slice(sp.start, sp.end), sp.hidden);
    at = sp.end;
  }
  return result + rewrite(text.slice(at), new Set());
}

/** Every pre-pass a file's text goes through before xacro-parser reads it (`ns`: the namespace it is included under). */
function prePass(text: string, file: string, warnings: string[], ns?: string): string {
  const own = pythonStringMethods(passThroughParams(text, file, warnings));
  return carryIncludeNamespaces(ns === undefined ? own : namespaceFile(own, ns));
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

/** The nearest ancestor folder of the file at `path` named `pkg`, or undefined. */
function ancestorPackage(path: string, pkg: string): string | undefined {
  const segs = folderOf(path).split('/');
  for (let i = segs.length - 1; i >= 0; i--) if (segs[i] === pkg) return segs.slice(0, i + 1).join('/');
  return undefined;
}

/** How many folders up from the main file a sibling package is looked for (…/ws/src/repo/pkg/urdf/x.xacro: 4 reach ws/). */
const XACRO_PACKAGE_SEARCH_DEPTH = 5;

/** Package names a text refers to (`$(find pkg)`, `package://pkg/`), outside comments. */
function packagesNamed(text: string): Set<string> {
  const t = stripXmlComments(text);
  const out = new Set<string>();
  for (const m of t.matchAll(/\$\(find\s+([^\s)$]+)\s*\)/g)) out.add(m[1]);
  for (const m of t.matchAll(/package:\/\/([^/\s"'$]+)\//g)) out.add(m[1]);
  return out;
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
  // packages neither the caller nor an ancestor folder gives: a sibling folder with a package.xml
  // (looked for once per package, before the text naming it is expanded: `find` must answer at once)
  const siblings = new Map<string, string | null>();
  const notFound = new Set<string>();
  const readText = async (p: string): Promise<string | undefined> => {
    try {
      return await (options.readPackageXml ?? options.readFile)(p);
    } catch {
      return undefined;
    }
  };
  const lookForPackages = async (text: string): Promise<void> => {
    for (const pkg of packagesNamed(text)) {
      if (siblings.has(pkg) || options.findPackage?.(pkg) !== undefined || ancestorPackage(mainPath, pkg) !== undefined) continue;
      let found: string | null = null;
      let dir = folderOf(mainPath);
      for (let i = 0; i < XACRO_PACKAGE_SEARCH_DEPTH && found === null; i++) {
        // the folder itself, when its package.xml gives that name (a package in a folder named otherwise)
        // (a package.xml counts only when it names pkg: a host may answer any path it cannot give
        // with a file of the same name beside the robot)
        const names = (xml: string | undefined): boolean => xml !== undefined && new RegExp(`<name>\\s*${escapeRe(pkg)}\\s*</name>`).test(xml);
        if (names(await readText(normalize(`${dir}/package.xml`)))) found = dir;
        else if (names(await readText(normalize(`${dir}/${pkg}/package.xml`)))) found = normalize(`${dir}/${pkg}`);
        if (dir === '' || dir === '/' || dir === '.') break;
        dir = folderOf(dir);
      }
      siblings.set(pkg, found);
    }
  };
  const folderOfPackage = (pkg: string): string => {
    const given = options.findPackage?.(pkg) ?? ancestorPackage(mainPath, pkg) ?? siblings.get(pkg);
    if (given !== undefined && given !== null) return given;
    notFound.add(pkg);
    return folderOf(mainPath);
  };
  parser.rospackCommands = {
    find: (pkg: string) => `${prefix}${folderOfPackage(pkg)}`,
    optenv: (_name: string, ...dflt: string[]) => dflt.join(' '),
    env: () => '',
    eval: () => {
      throw new Error('$(eval ...) is not supported');
    },
  };
  const missing = '<robot xmlns:xacro="http://ros.org/wiki/xacro"/>';
  const reported = new Set<string>();
  const skipped: string[] = [];
  parser.getFileContents = async (path: string): Promise<string> => {
    let p = path.replace(/\\/g, '/');
    const mark = p.lastIndexOf(NS_MARK);
    const ns = mark >= 0 ? p.slice(mark + NS_MARK.length) : undefined;
    if (mark >= 0) p = p.slice(0, mark);
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
      const lost = [...notFound].filter((k) => !reported.has(k));
      for (const k of lost) reported.add(k);
      const why = lost.length > 0 ? ` (package${lost.length > 1 ? 's' : ''} ${lost.map((k) => `"${k}"`).join(', ')} not found: no ancestor folder of ${mainPath} has that name and no package.xml beside it or its ancestors names it)` : '';
      warnings.push(`xacro: included file "${p}" cannot be read; skipped (its macros and properties are missing)${why}`);
      skipped.push(`"${p}"${why}`);
      return missing;
    }
    files.push(p);
    await lookForPackages(body);
    return prePass(body, p, warnings, ns);
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
    await lookForPackages(text);
    const doc = await withGlobals(() => parser.parse(prePass(text, mainPath, warnings)));
    const Serializer = native ? ((globalThis as unknown as { XMLSerializer: new () => { serializeToString(n: unknown): string } }).XMLSerializer) : XmldomSerializer;
    out = new Serializer().serializeToString(native ? doc : textAsStrings(doc));
  } catch (e) {
    if (e instanceof UrdfError) throw e;
    let msg = e instanceof Error ? e.message.replace(/\s+/g, ' ').trim() : String(e);
    // a macro that a skipped include would have defined: say which files were skipped
    if (/Cannot find macro/.test(msg) && skipped.length > 0) msg += ` (skipped includes that may define it: ${skipped.join(', ')}; see the warnings)`;
    throw new UrdfError(`${mainPath}: xacro expansion failed: ${msg}`, mainPath);
  }
  if (out.length > XACRO_MAX_OUTPUT_CHARS) throw new UrdfError(`${mainPath}: the expanded URDF has ${out.length} characters; at most ${XACRO_MAX_OUTPUT_CHARS}`, mainPath);
  return { urdf: out, warnings, files };
}
