/**
 * Issue #28, "a 16385² flat PNG runs for minutes to 3.3 GB in the CLI and API": the service's
 * load (the headless API, the CLI) estimates the terrain's memory from its header (the estimate
 * the app shows before asking) and refuses a load over its limit, naming the estimate and the
 * limit, before decoding a pixel. Default: DEFAULT_MAX_LOAD_MEMORY_BYTES; `maxMemoryBytes` in the
 * API, `--max-memory` in the CLI.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDefaultService } from '../../../sim/app/default-service';
import { parseArgs, runCli } from '../../../sim/node/cli';
import { DEFAULT_MAX_LOAD_MEMORY_BYTES } from '../../../sim/app/service';
import { encodeGrayPng } from '../../../sim/terrain/png-encode';

const dir = mkdtempSync(join(tmpdir(), 'tw-memlimit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SIDECAR = { image: 't.png', format: 'png', metersPerPixel: 0.1, heightRange: [0, 1] };
const scenario = (name: string) => ({ format: 'terrawheel-scenario', version: 1, name, terrain: 't.json', start: { position: [1, 1], yaw: 0 } });

/** The 33 header bytes of a 16385² 16-bit PNG (what the estimate reads; the load never gets further). */
function hugePngHeader(): Uint8Array {
  const head = encodeGrayPng(2, 2, 16, [0, 0, 0, 0]).slice(0, 33);
  new DataView(head.buffer).setUint32(16, 16385);
  new DataView(head.buffer).setUint32(20, 16385);
  return head;
}

describe('terrain loads over a memory limit (issue #28)', () => {
  it('the API refuses a 16385² PNG by default, with the estimate and the limit; the running world is kept', async () => {
    expect(DEFAULT_MAX_LOAD_MEMORY_BYTES).toBeLessThanOrEqual(4 * 2 ** 30);
    const s = createDefaultService();
    const small = encodeGrayPng(64, 64, 16, new Array(64 * 64).fill(0));
    await s.load({ scenario: scenario('small'), terrainSidecar: SIDECAR, terrainData: small });
    const err = await s.load({ scenario: scenario('huge'), terrainSidecar: SIDECAR, terrainData: hugePngHeader() }).then(() => null, (e: Error) => e);
    expect(err).not.toBeNull();
    expect(err!.message).toMatch(/16385 × 16385 vertices: about \d+\.\d GB of memory and \d+ s, over the load's memory limit of \d+\.\d GB/);
    expect(err!.message).toMatch(/maxMemoryBytes|--max-memory/);
    expect(s.getWorld()!.name).toBe('small');
    s.dispose();
  });

  it('maxMemoryBytes: a 1025² PNG (≈ 28 MB) is refused under 16 MB and loads under 64 MB', async () => {
    const png = encodeGrayPng(1025, 1025, 16, new Uint16Array(1025 * 1025));
    const s = createDefaultService();
    await expect(s.load({ scenario: scenario('a'), terrainSidecar: SIDECAR, terrainData: png }, undefined, { maxMemoryBytes: 16e6 })).rejects.toThrow(/1025 × 1025 vertices: about \d+ MB of memory .*over the load's memory limit of 16 MB/);
    const info = await s.load({ scenario: scenario('b'), terrainSidecar: SIDECAR, terrainData: png }, undefined, { maxMemoryBytes: 64e6 });
    expect(info.terrain.cols).toBe(1025);
    s.dispose();
  });

  it('the CLI: --max-memory 16MB refuses the 1025² map (exit 1); bad values are usage errors', async () => {
    writeFileSync(join(dir, 't.png'), encodeGrayPng(1025, 1025, 16, new Uint16Array(1025 * 1025)));
    writeFileSync(join(dir, 't.json'), JSON.stringify(SIDECAR));
    writeFileSync(join(dir, 's.json'), JSON.stringify(scenario('cli')));
    const out: string[] = [];
    const code = await runCli([join(dir, 's.json'), '--duration', '0.1', '--max-memory', '16MB', '--json'], { out: (t) => void out.push(t), err: () => undefined });
    expect(code).toBe(1);
    expect(JSON.parse(out.join('')).error).toMatch(/over the load's memory limit of 16 MB/);
    expect(parseArgs(['s.json', '--max-memory', '2GiB']).maxMemoryBytes).toBe(2 * 2 ** 30);
    expect(parseArgs(['s.json', '--max-memory', '500MB']).maxMemoryBytes).toBe(500e6);
    expect(() => parseArgs(['s.json', '--max-memory', 'lots'])).toThrow(/--max-memory needs a size/);
  });
});
