/**
 * The command line's table (sim/node/cli-args.ts), in process: every option of every command is
 * in the help with its default, the bundled scenarios are listed, mistyped commands and options
 * get a suggestion, and the parser reads both `--flag value` and `--flag=value`.
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closest, COMMANDS, commandHelp, editDistance, helpText, parseCommand, UsageError } from '../../../sim/node/cli-args';

const ROOT = resolve(__dirname, '../../..');

function usageError(argv: string[]): string {
  try {
    parseCommand(argv);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error(`${argv.join(' ')} parsed without an error`);
}

describe('terrawheel help', () => {
  it('lists every command, every option with its value and default, and examples', () => {
    const text = helpText(ROOT);
    for (const c of COMMANDS) {
      expect(text).toContain(`${c.name} ${c.operand}`);
      const own = commandHelp(c.name, ROOT);
      for (const o of c.options) {
        const left = o.value ? `${o.flag} ${o.value}` : o.flag;
        expect(text).toContain(left);
        expect(own).toContain(left);
        expect(own).toContain(`[default: ${o.default}]`);
      }
      for (const e of c.examples) expect(own).toContain(e);
    }
    // the run defaults a user relies on, spelled out
    expect(text).toMatch(/--duration <seconds>[^[]*\[default: 5\]/);
    expect(text).toContain('[default: no recording]');
    expect(text).toContain('npm run --silent sim');
    expect(text).toContain('npx terrawheel');
  });

  it('lists every bundled scenario with its name, as a path usable from the repo root', () => {
    const text = helpText(ROOT);
    const files = readdirSync(join(ROOT, 'assets/scenarios')).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(3);
    for (const f of files) expect(text).toMatch(new RegExp(`^  assets/scenarios/${f.replace('.', '\\.')}\\s+\\S`, 'm'));
    expect(text).toContain('Rolling hills'); // default.json's name
  });

  it('wraps at 100 columns', () => {
    for (const t of [helpText(ROOT), ...COMMANDS.map((c) => commandHelp(c.name, ROOT))]) {
      for (const line of t.split('\n')) expect(line.length, line).toBeLessThanOrEqual(100);
    }
  });

  it('help, --help, -h and <command> --help parse to help', () => {
    expect(parseCommand(['--help'])).toEqual({ kind: 'help', command: null });
    expect(parseCommand(['-h'])).toEqual({ kind: 'help', command: null });
    expect(parseCommand(['help'])).toEqual({ kind: 'help', command: null });
    expect(parseCommand(['help', 'verify'])).toEqual({ kind: 'help', command: 'verify' });
    expect(parseCommand(['export-csv', '--help'])).toEqual({ kind: 'help', command: 'export-csv' });
    expect(parseCommand(['run', 'x.json', '--bogus', '-h'])).toEqual({ kind: 'help', command: 'run' });
    expect(parseCommand(['--version'])).toEqual({ kind: 'version' });
  });
});

describe('terrawheel parsing', () => {
  it('reads values after a space or "=", negative numbers included; a bare scenario means run', () => {
    expect(parseCommand(['run', 'a.json', '--duration=2.5', '--steer', '-0.5', '--record', 'o.mcap'])).toEqual({
      kind: 'run',
      opts: { scenarioPath: 'a.json', duration: 2.5, throttle: null, steer: -0.5, json: false, record: 'o.mcap' },
    });
    expect(parseCommand(['a.json', '--json'])).toMatchObject({ kind: 'run', opts: { scenarioPath: 'a.json', duration: 5, json: true, record: null } });
    expect(parseCommand(['verify', 'r.mcap', '--scenario=s.json'])).toEqual({ kind: 'verify', file: 'r.mcap', scenario: 's.json', json: false });
  });

  it('rejects out-of-range numbers, missing values and values on switches, naming the option', () => {
    expect(usageError(['run', 'a.json', '--throttle', '1.5'])).toMatch(/^--throttle needs a number from -1 to 1, got 1\.5/);
    expect(usageError(['run', 'a.json', '--duration'])).toMatch(/^--duration needs a value: --duration <seconds>/);
    expect(usageError(['run', 'a.json', '--record', '--json'])).toMatch(/^--record needs a value/);
    expect(usageError(['run', 'a.json', '--json=yes'])).toMatch(/^--json takes no value/);
    expect(usageError(['run'])).toMatch(/^run: no <scenario\.json> given\nRun `terrawheel help run`/);
  });
});

describe('did you mean', () => {
  it('suggests the closest option of the command, or says which command has it', () => {
    expect(usageError(['run', 'a.json', '--durration', '1'])).toMatch(/^unknown option --durration for run; did you mean --duration\?/);
    expect(usageError(['run', 'a.json', '--dur', '1'])).toMatch(/did you mean --duration\?/);
    expect(usageError(['run', 'a.json', '--recrod', 'x.mcap'])).toMatch(/did you mean --record\?/);
    expect(usageError(['run', 'a.json', '--jsno'])).toMatch(/did you mean --json\?/);
    expect(usageError(['verify', 'r.mcap', '--secnario', 's.json'])).toMatch(/did you mean --scenario\?/);
    expect(usageError(['verify', 'r.mcap', '--out', 'x.csv'])).toMatch(/^--out is an option of export-csv, not of verify/);
    // nothing close: no guess
    expect(usageError(['run', 'a.json', '--zzzzzz'])).toMatch(/^unknown option --zzzzzz for run\n/);
  });

  it('suggests the closest command for a mistyped one', () => {
    expect(usageError(['verfy', 'r.mcap'])).toMatch(/^unknown command "verfy"; did you mean verify\?/);
    expect(usageError(['exportcsv', 'r.mcap'])).toMatch(/did you mean export-csv\?/);
    expect(usageError(['rnu', 'a.json'])).toMatch(/did you mean run\?/);
    expect(usageError(['help', 'verfiy'])).toMatch(/did you mean verify\?/);
    expect(usageError(['frobnicate'])).toMatch(/^unknown command "frobnicate" \(commands: run, verify, export-csv, sweep(, [a-z-]+)*, help/);
  });

  it('edit distance counts a swap of neighbours once', () => {
    expect(editDistance('--json', '--jsno')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(closest('--steeer', ['--steer', '--throttle'])).toBe('--steer');
    expect(closest('--x', ['--steer', '--throttle'])).toBeNull();
  });
});

describe('missing files', () => {
  it('"file not found" names the file and its role, and a close sibling name if there is one', async () => {
    const { runCli } = await import('../../../sim/node/cli');
    const run = async (argv: string[]) => {
      let err = '';
      const code = await runCli(argv, { out: () => undefined, err: (t) => void (err += t) });
      return { code, err };
    };
    const scenarios = join(ROOT, 'assets/scenarios');
    expect(await run(['run', join(scenarios, 'defualt.json')])).toEqual({ code: 1, err: expect.stringMatching(/^terrawheel: file not found: \S*defualt\.json \(the scenario\); did you mean \S*assets\/scenarios\/default\.json\?$/) });
    expect(await run(['run', join(scenarios, 'qqqqqqqq.json')])).toEqual({ code: 1, err: expect.stringMatching(/^terrawheel: file not found: \S*qqqqqqqq\.json \(the scenario\)$/) });
    expect(await run(['export-csv', join(ROOT, 'no-such-dir/r.mcap')])).toEqual({ code: 1, err: expect.stringMatching(/^terrawheel: file not found: \S*no-such-dir\/r\.mcap \(the recording\)$/) });
  }, 120_000); // importing the CLI loads the whole simulator: slow on a loaded machine
});
