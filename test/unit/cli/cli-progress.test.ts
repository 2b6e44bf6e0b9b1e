/**
 * The recording progress line reports what the file sink has on disk while the run goes on (it
 * read the header's 73 B for the whole run before: the file's writes only completed at the end).
 * Every step prints a line here (progressMs 0), so the test does not depend on wall time.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runScenarioFile } from '../../../sim/node/cli';

const SCENARIO = resolve(__dirname, '../../../assets/scenarios/default.json');
/** [B] More than the MCAP header, schemas and metadata written at the start (about 2 KiB). */
const HEADER_BYTES = 4096;

/** "1.4 KiB" → 1434 */
function parseBytes(s: string): number {
  const m = /^([\d.]+) (B|KiB|MiB)$/.exec(s);
  if (m === null) throw new Error(`not a size: ${s}`);
  return Number(m[1]) * { B: 1, KiB: 1024, MiB: 1 << 20 }[m[2] as 'B' | 'KiB' | 'MiB'];
}

describe('recording progress line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tw-progress-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reports the bytes on disk growing during the run, never more than the final file', async () => {
    const file = join(dir, 'run.mcap');
    const lines: string[] = [];
    const summary = await runScenarioFile({ scenarioPath: SCENARIO, duration: 2.5, throttle: null, steer: null, json: false, record: file }, { update: (l) => void lines.push(l), done: () => undefined }, 0);
    expect(summary.steps).toBe(500);
    const bytes = lines.map((l) => {
      const m = /s, (\S+ \S+) on disk/.exec(l);
      expect(m, l).not.toBeNull();
      return parseBytes(m![1]);
    });
    expect(bytes.length).toBeGreaterThan(400);
    for (let i = 1; i < bytes.length; i++) expect(bytes[i]).toBeGreaterThanOrEqual(bytes[i - 1]);
    // chunks reached the file before the run ended (the header alone is all it showed before)
    expect(Math.max(...bytes)).toBeGreaterThan(HEADER_BYTES);
    expect(Math.max(...bytes)).toBeLessThanOrEqual(statSync(file).size);
  });
});
