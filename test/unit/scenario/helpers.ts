import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ScenarioError } from '../../../sim/scenario/scenario-guard';

export const SCENARIO_DIR = join(__dirname, '..', '..', '..', 'assets', 'scenarios');
export const TERRAIN_DIR = join(__dirname, '..', '..', '..', 'assets', 'terrains');

export function bundledScenarioNames(): string[] {
  return readdirSync(SCENARIO_DIR).filter((f) => f.endsWith('.json')).sort();
}

export function readBundled(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(SCENARIO_DIR, name), 'utf8')) as Record<string, unknown>;
}

/** A minimal valid v2 file. */
export function minimalV2(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { format: 'terrawheel-scenario', version: 2, terrain: 't.json', ...extra };
}

export const cylinder = { type: 'cylinder', radius: 0.3, height: 0.9 };

/** Runs `f`, expects a ScenarioError, returns its message. */
export function scenarioError(f: () => unknown): string {
  let caught: unknown;
  try {
    f();
  } catch (e) {
    caught = e;
  }
  expect(caught, 'expected a ScenarioError').toBeInstanceOf(ScenarioError);
  return (caught as Error).message;
}
