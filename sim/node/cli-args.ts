/**
 * The command line of `terrawheel` (sim/node/cli.ts): one table of commands and their options,
 * the parser that reads argv against it, the help text written from it, and the "did you mean"
 * suggestions for a mistyped command or option. The table is the single source: a new option
 * added here is parsed, listed in `--help` with its default, and suggested on a typo.
 *
 *   terrawheel <command> [options]          commands: run, verify, export-csv, sweep, worker, serve, rerun, report, help
 *   terrawheel <scenario.json> [options]    short for `terrawheel run <scenario.json>`
 *   terrawheel help [command] | --help | <command> --help
 *
 * Options take their value as the next argument or after '=' (`--duration 10`, `--duration=10`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { DEFAULT_MAX_LOAD_MEMORY_BYTES } from '../app/service';
import type { SweepOptions } from './sweep';
import type { RerunOptions } from './sweep-rerun';
import type { WorkerOptions } from './sweep-queue';

/** The repository root (this file is sim/node/cli-args.ts). */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Where the bundled scenarios live, listed by `--help`. */
export const BUNDLED_SCENARIOS_DIR = join(ROOT, 'assets', 'scenarios');

export type CommandName = 'run' | 'verify' | 'export-csv' | 'sweep' | 'worker' | 'serve' | 'rerun' | 'report';

/** One option of a command, as parsed and as listed in the help. */
interface OptionSpec {
  /** '--duration' */
  flag: string;
  /** Placeholder of the value ('<seconds>'); absent for a switch. */
  value?: string;
  /** What happens without the option, in words ("5", "the scenario's script"). */
  default: string;
  help: string;
  /** For numbers: the accepted closed range. */
  range?: readonly [number, number];
  /** A size in bytes with an optional unit (parseSize). */
  size?: true;
}

interface CommandSpec {
  name: CommandName;
  /** The positional argument ('<scenario.json>'). */
  operand: string;
  summary: string;
  options: readonly OptionSpec[];
  examples: readonly string[];
}

const JSON_OPTION: OptionSpec = {
  flag: '--json',
  default: 'off (text)',
  help: 'print the result as one JSON document on stdout (errors too: { "error", "exitCode" }); progress lines are left out',
};

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'run',
    operand: '<scenario.json>',
    summary: 'step a scenario in this process and print a summary (pose, contacts, state hash)',
    options: [
      { flag: '--duration', value: '<seconds>', default: '5', help: 'simulated time to run, 0 to 86400 s (a fault ends the run earlier)', range: [0, 86400] },
      { flag: '--throttle', value: '<-1..1>', default: "the scenario's drive script", help: 'constant throttle, -1 (full reverse) to 1 (full ahead); replaces the script, the steer is then 0 unless given', range: [-1, 1] },
      { flag: '--steer', value: '<-1..1>', default: "the scenario's drive script", help: 'constant steer, -1 (full right) to 1 (full left); replaces the script, the throttle is then 0 unless given', range: [-1, 1] },
      { flag: '--record', value: '<out.mcap>', default: 'no recording', help: 'write the run to an MCAP recording as it goes (progress on stderr); replays in the app and in Foxglove' },
      {
        flag: '--max-memory',
        value: '<size>',
        default: formatSize(DEFAULT_MAX_LOAD_MEMORY_BYTES),
        help: 'refuse a terrain whose estimated memory for loading is over this, before decoding it: 4GB, 512MiB (k, M, G, T: powers of 1000; KiB, MiB, GiB, TiB: of 1024) or bytes',
        size: true,
      },
      JSON_OPTION,
    ],
    examples: [
      'terrawheel run assets/scenarios/default.json',
      'terrawheel run assets/scenarios/ramp.json --duration 20 --throttle 0.8',
      'terrawheel run assets/scenarios/default.json --duration 60 --record out.mcap',
      'terrawheel run assets/scenarios/curbs.json --duration 2 --json > summary.json',
      'terrawheel run big-map.json --max-memory 8GiB',
    ],
  },
  {
    name: 'verify',
    operand: '<recording.mcap>',
    summary: 're-simulate a recording and compare it step by step (exit 0 deterministic, 1 diverged)',
    options: [
      { flag: '--scenario', value: '<scenario.json>', default: 'the scenario path stored in the recording', help: 'scenario whose terrain, URDF and meshes the re-simulation loads (their hashes are checked against the recording)' },
      JSON_OPTION,
    ],
    examples: ['terrawheel verify out.mcap', 'terrawheel verify out.mcap --scenario assets/scenarios/default.json --json'],
  },
  {
    name: 'export-csv',
    operand: '<recording.mcap>',
    summary: "write the per-wheel contact data of every step of a recording as CSV",
    options: [
      { flag: '--out', value: '<file.csv>', default: 'the recording\'s name with .csv, next to it', help: 'where to write the CSV' },
      JSON_OPTION,
    ],
    examples: ['terrawheel export-csv out.mcap', 'terrawheel export-csv out.mcap --out wheels.csv'],
  },
  {
    name: 'sweep',
    operand: '<sweep.json>',
    summary: 'run a sweep (a base scenario with fields varied, docs/sweeps.md) on a worker-thread pool; one results.csv row per run',
    options: [
      { flag: '--out', value: '<dir>', default: 'none (required)', help: 'directory for results.csv, summary.json, rows/<id>.json and runs/<id>.mcap' },
      { flag: '--workers', value: '<n>', default: 'the cores (os.availableParallelism())', help: 'worker threads; 1 runs the runs in this process', range: [1, 4096] },
      { flag: '--resume', default: 'off (every run is computed)', help: 'skip the runs whose row file is already in <dir>/rows' },
      { flag: '--max-runs', value: '<n>', default: '100000', help: 'refuse a sweep that expands to more runs than this', range: [1, 1e12] },
      { flag: '--queue', value: '<redis://host:port>', default: 'none (the local pool)', help: 'put the runs on a Redis queue for `terrawheel worker`s on any machine and collect their rows (docs/sweeps.md)' },
      JSON_OPTION,
    ],
    examples: [
      'terrawheel sweep assets/sweeps/slopes-friction.json --out out/slopes',
      'terrawheel sweep assets/sweeps/slopes-friction.json --out out/slopes --resume --workers 2',
      'terrawheel sweep my-sweep.json --out /shared/x --queue redis://10.0.0.5:6379',
    ],
  },
  {
    name: 'worker',
    operand: '',
    summary: 'take sweep runs from a Redis queue (`terrawheel sweep --queue`) until stopped; run as many as you like, on any machine',
    options: [
      { flag: '--queue', value: '<redis://host:port>', default: 'none (required)', help: 'the Redis the sweeps were queued on' },
      { flag: '--concurrency', value: '<n>', default: 'the cores (os.availableParallelism())', help: 'runs at a time (worker threads)', range: [1, 4096] },
      { flag: '--lock-duration', value: '<seconds>', default: '30', help: "a run's lock; a dead worker's run is handed out again after at most 1.5 times this", range: [1, 3600] },
      { flag: '--idle-exit', value: '<seconds>', default: 'never (serve until SIGTERM)', help: 'exit after this long with no sweep in progress (for a Kubernetes Job)', range: [0, 1e7] },
    ],
    examples: ['terrawheel worker --queue redis://10.0.0.5:6379', 'terrawheel worker --queue redis://redis:6379 --concurrency 4 --idle-exit 60'],
  },
  {
    name: 'rerun',
    operand: '<sweep.json>',
    summary: "re-run one run of a sweep by its id, alone (optionally recorded), and compare its state hash with the sweep's row (exit 1 if they differ)",
    options: [
      { flag: '--out', value: '<dir>', default: 'none (required)', help: "the sweep's output directory: its rows/<id>.json is compared (not rewritten)" },
      { flag: '--id', value: '<id>', default: 'none (required)', help: 'the run to re-run, as in the id column of results.csv (r0007)' },
      { flag: '--record', value: '<out.mcap>', default: 'no recording', help: 'record the run (it replays in the app; terrawheel verify re-checks it)' },
      { flag: '--max-runs', value: '<n>', default: '100000', help: 'the same cap as sweep', range: [1, 1e12] },
      JSON_OPTION,
    ],
    examples: ['terrawheel rerun assets/sweeps/slopes-friction.json --out out/slopes --id r0007', 'terrawheel rerun assets/sweeps/slopes-friction.json --out out/slopes --id r0007 --record r7.mcap'],
  },
  {
    name: 'report',
    operand: '<dir>',
    summary: "write a sweep's results as one self-contained HTML page: sortable table, each metric over each axis, maps over pairs of axes",
    options: [
      { flag: '--out', value: '<file.html>', default: '<dir>/report.html', help: 'where to write the report' },
      JSON_OPTION,
    ],
    examples: ['terrawheel report out/slopes', 'terrawheel report out/slopes --out slopes.html'],
  },
  {
    name: 'serve',
    operand: '<scenario.json>',
    summary: 'run a scenario live: watch and drive it from Foxglove (WebSocket) or any rosbridge client until Ctrl+C (docs/live.md)',
    options: [
      { flag: '--port', value: '<port>', default: '8765', help: 'Foxglove WebSocket port (0: any free port, printed)', range: [0, 65535] },
      { flag: '--host', value: '<address>', default: '127.0.0.1 (this machine only)', help: 'address to listen on; any non-loopback address needs --token' },
      { flag: '--rosbridge-port', value: '<port>', default: '9090', help: 'rosbridge v2 port (0 turns it off)', range: [0, 65535] },
      { flag: '--lockstep', default: 'off (runs on its own clock)', help: 'advance the world only when a client asks (the step service), so a controller sees every step' },
      { flag: '--time-scale', value: '<0.1..10>', default: '1', help: 'simulated seconds per wall-clock second while running (the time_scale parameter changes it)', range: [0.1, 10] },
      { flag: '--token', value: '<token>', default: 'none (or $TERRAWHEEL_TOKEN)', help: 'clients must present it (?token=... in the URL); required with a non-loopback --host' },
      { flag: '--record-dir', value: '<dir>', default: 'the working directory', help: 'where the start_recording service writes its .mcap files' },
    ],
    examples: ['terrawheel serve assets/scenarios/default.json', 'terrawheel serve assets/scenarios/robot-diff-drive-caster.json --lockstep --rosbridge-port 0', 'TERRAWHEEL_TOKEN=... terrawheel serve assets/scenarios/default.json --host 0.0.0.0'],
  },
];

/** `serve`'s options (sim/live/serve.ts). */
export interface ServeOptions {
  scenarioPath: string;
  port: number;
  host: string;
  /** 0: no rosbridge server. */
  rosbridgePort: number;
  lockstep: boolean;
  timeScale: number;
  token: string | null;
  recordDir: string | null;
}

const HELP_FLAGS = ['--help', '-h'];
const VERSION_FLAGS = ['--version', '-V'];

/** A command-line mistake (exit code 2). `hint` is the line pointing to the help. */
export class UsageError extends Error {
  constructor(message: string, readonly command: CommandName | null = null) {
    super(`${message}\n${command === null ? 'Run `terrawheel --help` for the commands and options.' : `Run \`terrawheel help ${command}\` for its options.`}`);
    this.name = 'UsageError';
  }
}

export interface RunOptions {
  scenarioPath: string;
  duration: number;
  throttle: number | null;
  steer: number | null;
  json: boolean;
  /** Path of the MCAP recording to write, or null. */
  record?: string | null;
  /** [bytes] Refuse a terrain estimated over this (absent: the service's default). */
  maxMemoryBytes?: number;
}

export type CliCommand =
  | { kind: 'run'; opts: RunOptions }
  | { kind: 'verify'; file: string; scenario: string | null; json: boolean }
  | { kind: 'export-csv'; file: string; out: string | null; json: boolean }
  | { kind: 'sweep'; opts: SweepOptions; json: boolean }
  | { kind: 'rerun'; opts: RerunOptions; json: boolean }
  | { kind: 'report'; dir: string; out: string | null; json: boolean }
  | { kind: 'worker'; opts: WorkerOptions }
  | { kind: 'serve'; opts: ServeOptions }
  | { kind: 'help'; command: CommandName | null }
  | { kind: 'version' };

// --- did you mean ---------------------------------------------------------------------------

/** Levenshtein distance (insertions, deletions, substitutions; a swap of neighbours counts 1). */
export function editDistance(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  // three rows: the one before the previous is needed for transpositions (Damerau)
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  let cur = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= m; i++) {
    cur[0] = i;
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2] + 1);
      cur[j] = d;
    }
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[n];
}

/**
 * The candidate closest to `word`, if it is close enough to be a typo: at most a third of the
 * word's letters wrong (at least 1, at most 3), or `word` a prefix of exactly one candidate
 * (`--dur` → `--duration`).
 */
export function closest(word: string, candidates: readonly string[]): string | null {
  const w = word.toLowerCase();
  const prefixed = candidates.filter((c) => w.length >= 3 && c.startsWith(w));
  if (prefixed.length === 1) return prefixed[0];
  const limit = Math.max(1, Math.min(3, Math.floor(w.replace(/^-+/, '').length / 3)));
  let best: string | null = null;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = editDistance(w, c);
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return bestD <= limit ? best : null;
}

function unknownOption(flag: string, cmd: CommandSpec): UsageError {
  const mine = [...cmd.options.map((o) => o.flag), ...HELP_FLAGS];
  const guess = closest(flag, mine);
  if (guess !== null) return new UsageError(`unknown option ${flag} for ${cmd.name}; did you mean ${guess}?`, cmd.name);
  const elsewhere = COMMANDS.find((c) => c !== cmd && c.options.some((o) => o.flag === flag));
  if (elsewhere) return new UsageError(`${flag} is an option of ${elsewhere.name}, not of ${cmd.name}`, cmd.name);
  return new UsageError(`unknown option ${flag} for ${cmd.name}`, cmd.name);
}

function unknownCommand(word: string): UsageError {
  const guess = closest(word, [...COMMANDS.map((c) => c.name), 'help']);
  return new UsageError(`unknown command "${word}"${guess !== null ? `; did you mean ${guess}?` : ''} (commands: ${COMMANDS.map((c) => c.name).join(', ')}, help; or give a scenario file to run)`);
}

// --- parsing --------------------------------------------------------------------------------

function commandSpec(name: CommandName): CommandSpec {
  return COMMANDS.find((c) => c.name === name)!;
}

function isCommand(word: string): word is CommandName {
  return COMMANDS.some((c) => c.name === word);
}

/** Parses the command line (throws UsageError). */
export function parseCommand(argv: string[]): CliCommand {
  const first = argv[0];
  if (first === undefined) throw new UsageError('no command given');
  if (first === 'help') {
    const topic = argv[1];
    if (topic === undefined) return { kind: 'help', command: null };
    if (!isCommand(topic)) throw unknownCommand(topic);
    if (argv.length > 2) throw new UsageError(`unexpected argument ${argv[2]}`);
    return { kind: 'help', command: topic };
  }
  if (HELP_FLAGS.includes(first)) return { kind: 'help', command: null };
  if (VERSION_FLAGS.includes(first)) return { kind: 'version' };
  if (isCommand(first)) return parseFor(commandSpec(first), argv.slice(1));
  // `terrawheel <scenario.json> …` runs it; a bare word that is no file is a mistyped command
  if (!first.startsWith('-') && !/[./\\]/.test(first) && !existsSync(first)) throw unknownCommand(first);
  return parseFor(commandSpec('run'), argv);
}

/** Reads `argv` (after the command word) against `cmd`'s options. */
function parseFor(cmd: CommandSpec, argv: string[]): CliCommand {
  const values = new Map<string, string | true>();
  let operand: string | null = null;
  if (argv.some((a) => HELP_FLAGS.includes(a))) return { kind: 'help', command: cmd.name };
  for (let k = 0; k < argv.length; k++) {
    const a = argv[k];
    if (a.startsWith('-') && a.length > 1 && !/^-\d/.test(a)) {
      const eq = a.indexOf('=');
      const flag = eq > 0 ? a.slice(0, eq) : a;
      const spec = cmd.options.find((o) => o.flag === flag);
      if (spec === undefined) throw unknownOption(flag, cmd);
      if (spec.value === undefined) {
        if (eq > 0) throw new UsageError(`${flag} takes no value`, cmd.name);
        values.set(flag, true);
        continue;
      }
      const v = eq > 0 ? a.slice(eq + 1) : argv[++k];
      // a value may be negative (--steer -0.5) but not another option
      if (v === undefined || v === '' || (v.startsWith('--') && eq < 0)) throw new UsageError(`${flag} needs a value: ${flag} ${spec.value}`, cmd.name);
      values.set(flag, v);
    } else if (operand === null && cmd.operand !== '') operand = a;
    else throw new UsageError(`unexpected argument ${a} (${cmd.name} takes ${cmd.operand === '' ? 'no operand' : `one ${cmd.operand}`})`, cmd.name);
  }
  if (operand === null && cmd.operand !== '') throw new UsageError(`${cmd.name}: no ${cmd.operand} given`, cmd.name);
  const arg = operand ?? '';
  const str = (flag: string): string | null => {
    const v = values.get(flag);
    return typeof v === 'string' ? v : null;
  };
  const num = (flag: string): number | null => {
    const v = str(flag);
    if (v === null) return null;
    const [lo, hi] = cmd.options.find((o) => o.flag === flag)!.range!;
    const x = Number(v);
    if (!Number.isFinite(x) || x < lo || x > hi) throw new UsageError(`${flag} needs a number from ${lo} to ${hi}, got ${v}`, cmd.name);
    return x;
  };
  const json = values.get('--json') === true;
  switch (cmd.name) {
    case 'run': {
      const opts: RunOptions = { scenarioPath: arg, duration: num('--duration') ?? 5, throttle: num('--throttle'), steer: num('--steer'), json, record: str('--record') };
      const maxMemory = str('--max-memory');
      if (maxMemory !== null) opts.maxMemoryBytes = parseSize('--max-memory', maxMemory);
      return { kind: 'run', opts };
    }
    case 'verify':
      return { kind: 'verify', file: arg, scenario: str('--scenario'), json };
    case 'export-csv':
      return { kind: 'export-csv', file: arg, out: str('--out'), json };
    case 'sweep': {
      const out = str('--out');
      if (out === null) throw new UsageError('sweep: --out <dir> is required', cmd.name);
      const opts: SweepOptions = { sweepPath: arg, out, resume: values.get('--resume') === true };
      const whole = (flag: string): number | null => {
        const x = num(flag);
        if (x !== null && !Number.isInteger(x)) throw new UsageError(`${flag} needs a whole number, got ${str(flag)}`, cmd.name);
        return x;
      };
      const workers = whole('--workers');
      const maxRuns = whole('--max-runs');
      if (workers !== null) opts.workers = workers;
      if (maxRuns !== null) opts.maxRuns = maxRuns;
      const queue = str('--queue');
      if (queue !== null && workers !== null) throw new UsageError('sweep: --workers is for the local pool; with --queue, start `terrawheel worker --concurrency <n>` processes', cmd.name);
      if (queue !== null) opts.queue = queue;
      return { kind: 'sweep', opts, json };
    }
    case 'rerun': {
      const out = str('--out');
      const id = str('--id');
      if (out === null) throw new UsageError('rerun: --out <dir> is required (the sweep\'s output directory)', cmd.name);
      if (id === null) throw new UsageError('rerun: --id <id> is required (a run id from results.csv)', cmd.name);
      const opts: RerunOptions = { sweepPath: arg, out, id, record: str('--record') };
      const maxRuns = num('--max-runs');
      if (maxRuns !== null) opts.maxRuns = maxRuns;
      return { kind: 'rerun', opts, json };
    }
    case 'report':
      return { kind: 'report', dir: arg, out: str('--out'), json };
    case 'worker': {
      const queue = str('--queue');
      if (queue === null) throw new UsageError('worker: --queue <redis://host:port> is required', cmd.name);
      const whole = (flag: string): number | null => {
        const x = num(flag);
        if (x !== null && !Number.isInteger(x)) throw new UsageError(`${flag} needs a whole number, got ${str(flag)}`, cmd.name);
        return x;
      };
      return { kind: 'worker', opts: { queue, concurrency: whole('--concurrency') ?? availableParallelism(), lockSeconds: num('--lock-duration') ?? undefined, idleExitSeconds: num('--idle-exit') } };
    }
    case 'serve': {
      const whole = (flag: string, dflt: number): number => {
        const x = num(flag);
        if (x !== null && !Number.isInteger(x)) throw new UsageError(`${flag} needs a whole number, got ${str(flag)}`, cmd.name);
        return x ?? dflt;
      };
      const env = typeof process !== 'undefined' ? process.env.TERRAWHEEL_TOKEN : undefined;
      return {
        kind: 'serve',
        opts: {
          scenarioPath: arg,
          port: whole('--port', 8765),
          host: str('--host') ?? '127.0.0.1',
          rosbridgePort: whole('--rosbridge-port', 9090),
          lockstep: values.get('--lockstep') === true,
          timeScale: num('--time-scale') ?? 1,
          token: str('--token') ?? (env !== undefined && env !== '' ? env : null),
          recordDir: str('--record-dir'),
        },
      };
    }
  }
}

/** "2GiB", "500MB", "64M", "1e9" → bytes (k/M/G/T: powers of 1000; KiB/MiB/GiB/TiB: of 1024). */
export function parseSize(flag: string, v: string | undefined): number {
  const m = /^(\d+(?:\.\d+)?(?:e\d+)?)\s*(?:([kKmMgGtT])(i?)[bB]?)?$/.exec(v ?? '');
  if (m === null) throw new UsageError(`${flag} needs a size such as 4GB, 512MiB or a number of bytes, got ${v ?? 'nothing'}`, 'run');
  const power = m[2] === undefined ? 0 : 'kmgt'.indexOf(m[2].toLowerCase()) + 1;
  return Math.round(Number(m[1]) * (m[3] === 'i' ? 1024 : 1000) ** power);
}

/** Bytes as the largest binary unit that divides them ("2 GiB"), else a plain number. */
function formatSize(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let u = 0;
  while (u < units.length - 1 && bytes % 1024 === 0 && bytes >= 1024) {
    bytes /= 1024;
    u++;
  }
  return `${bytes} ${units[u]}`;
}

/** `run`'s options alone (a scenario path and its options; throws UsageError). */
export function parseArgs(argv: string[]): RunOptions {
  const c = parseFor(commandSpec('run'), argv);
  if (c.kind !== 'run') throw new UsageError('expected a scenario to run', 'run');
  return c.opts;
}

// --- help -----------------------------------------------------------------------------------

/** The package version (package.json next to sim/). */
export function version(): string {
  try {
    return (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** A path as a user in `cwd` would type it: relative when inside cwd, else absolute. */
export function displayPath(path: string, cwd = process.cwd()): string {
  const rel = relative(cwd, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

/** The bundled scenarios: file and the name inside it, sorted by file. */
export function bundledScenarios(dir = BUNDLED_SCENARIOS_DIR): { path: string; name: string }[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  } catch {
    return [];
  }
  return files.map((f) => {
    let name = '';
    try {
      const j = JSON.parse(readFileSync(join(dir, f), 'utf8')) as { name?: unknown };
      if (typeof j.name === 'string') name = j.name;
    } catch {
      name = '(unreadable)';
    }
    return { path: join(dir, f), name };
  });
}

const pad = (s: string, n: number): string => (s.length >= n ? `${s}  ` : s.padEnd(n));

/** [columns] Width the help is wrapped to. */
const HELP_WIDTH = 100;

/** `text` wrapped at word boundaries into lines of at most `width` characters. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

/**
 * A left column and a right text wrapped beside it (continuation lines under the text); `tail`
 * ("[default: 5]") is never split: it ends the last line or takes a line of its own.
 */
function columns(indent: string, left: string, w: number, right: string, tail = ''): string[] {
  const width = Math.max(30, HELP_WIDTH - indent.length - w);
  const body = wrap(right, width);
  if (tail !== '') {
    const lastLine = body[body.length - 1] ?? '';
    if (lastLine.length + 1 + tail.length <= width) body[body.length - 1] = `${lastLine} ${tail}`.trimStart();
    else body.push(tail);
  }
  return body.map((l, i) => `${indent}${i === 0 ? pad(left, w) : ' '.repeat(w)}${l}`);
}

function optionLines(cmd: CommandSpec, indent: string): string[] {
  const left = (o: OptionSpec) => (o.value ? `${o.flag} ${o.value}` : o.flag);
  const w = Math.max(...cmd.options.map((o) => left(o).length)) + 2;
  return cmd.options.flatMap((o) => columns(indent, left(o), w, o.help, `[default: ${o.default}]`));
}

function scenarioLines(cwd: string): string[] {
  const list = bundledScenarios();
  if (list.length === 0) return ['  (none found in assets/scenarios/)'];
  const shown = list.map((s) => ({ p: displayPath(s.path, cwd), name: s.name }));
  const w = Math.max(...shown.map((s) => s.p.length)) + 2;
  return shown.map((s) => `  ${pad(s.p, w)}${s.name}`);
}

const FOOTER = [
  'Exit codes: 0 ok (a run that ended at a fault is ok; verify: deterministic), 1 failure (a missing',
  'or unreadable file, a diverged or other-build recording), 2 usage, 3 incomplete recording (verify,',
  'export-csv: the file is cut or damaged; its prefix was checked or exported).',
  '',
  'In a clone of the repository `npx terrawheel …` runs this command. Through npm use',
  '`npm run --silent sim -- …`: without --silent npm prints a banner on stdout before --json output.',
];

/** The whole help: every command with every option and its default, examples, bundled scenarios. */
export function helpText(cwd = process.cwd()): string {
  const opW = Math.max(...COMMANDS.map((c) => `${c.name} ${c.operand}`.trimEnd().length)) + 2;
  return [
    `terrawheel ${version()}: wheeled robots on heightmap terrain, simulated headless`,
    '(the desktop app with the 3D view is `npm start`)',
    '',
    'Usage:',
    '  terrawheel <command> [options]',
    '  terrawheel <scenario.json> [options]     same as `terrawheel run <scenario.json> [options]`',
    '  terrawheel help [command]                this help, or one command\'s',
    '  terrawheel --version',
    '',
    'Commands:',
    ...COMMANDS.flatMap((c) => columns('  ', `${c.name} ${c.operand}`.trimEnd(), opW, c.summary)),
    '',
    ...COMMANDS.flatMap((c) => [`Options of ${c.name}:`, ...optionLines(c, '  '), '']),
    'Options take their value as the next argument or after "=" (--duration=10);',
    '-h or --help after a command shows its help.',
    '',
    'Examples:',
    ...COMMANDS.flatMap((c) => c.examples.map((e) => `  ${e}`)),
    '',
    `Bundled scenarios (${displayPath(BUNDLED_SCENARIOS_DIR, cwd)}/):`,
    ...scenarioLines(cwd),
    '',
    ...FOOTER,
  ].join('\n');
}

/** One command's help. */
export function commandHelp(name: CommandName, cwd = process.cwd()): string {
  const c = commandSpec(name);
  return [
    ...wrap(`terrawheel ${c.name}: ${c.summary}`, HELP_WIDTH),
    '',
    'Usage:',
    `  terrawheel ${c.name}${c.operand === '' ? '' : ` ${c.operand}`} [options]`,
    '',
    'Options:',
    ...optionLines(c, '  '),
    '',
    'Examples:',
    ...c.examples.map((e) => `  ${e}`),
    ...(c.name === 'run' || c.name === 'verify' ? ['', `Bundled scenarios (${displayPath(BUNDLED_SCENARIOS_DIR, cwd)}/):`, ...scenarioLines(cwd)] : []),
    '',
    ...FOOTER,
  ].join('\n');
}
