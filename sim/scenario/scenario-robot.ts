/**
 * The URDF robot a scenario names, built from files the caller gathered (the worker from its
 * Host, the CLI and openScenario from disk): loaded, given the scenario's controller, and placed
 * at the scenario's start just above the terrain.
 */
import type { RobotSpec } from '../dynamics/spec';
import { placeOnTerrain } from '../robot/place-robot';
import { loadUrdfRobot } from '../robot/urdf/load-urdf';
import { parseSrdfDisabledPairs } from '../robot/urdf/srdf';
import { describeControllerHolds, readControllerConfig } from '../robot/urdf/ros-controllers';
import type { VisualSpec } from '../robot/urdf/urdf-to-robot';
import type { ConvexParts } from '../robot/mesh/convex-decomposition';
import type { Heightfield } from '../terrain/heightfield';
import { ScenarioError } from './scenario-guard';
import type { ParsedScenario } from './scenario-v2';

/** The robot's files: URDF text, and meshes by the path the URDF gives (or their base name). */
export interface ScenarioRobotFiles {
  robotUrdf?: string;
  robotMeshes?: Record<string, Uint8Array>;
  /** SRDF text next to the URDF: its disable_collisions pairs are honoured. */
  robotSrdf?: string;
  /** Convex parts of concave collision meshes (prepareScenarioMeshes, scenario-meshes.ts). */
  robotConvexParts?: Record<string, ConvexParts>;
  /** Notes of the robot's xacro expansion in the service (scenario-xacro.ts): said with the robot's warnings. */
  robotXacroNotes?: string[];
  /** Controller YAML text by path (scenario-controllers.ts): its position controllers hold their joints. */
  robotControllers?: Record<string, string>;
  /** Controller files skipped when they were gathered: said with the robot's warnings. */
  robotControllerNotes?: string[];
}

/** The scenario's URDF robot placed on the terrain (throws ScenarioError without one). */
export function loadScenarioUrdfRobot(parsed: ParsedScenario, files: ScenarioRobotFiles, terrain: Heightfield): RobotSpec {
  return loadScenarioUrdfRobotWithVisuals(parsed, files, terrain).robot;
}

/**
 * loadScenarioUrdfRobot, with the URDF's visuals (body frames: placement moves bodies, not
 * visuals) and the warnings a user driving it must see (UrdfRobot.driveWarnings: wheel motors
 * capped by the URDF's effort limits).
 */
export function loadScenarioUrdfRobotWithVisuals(parsed: ParsedScenario, files: ScenarioRobotFiles, terrain: Heightfield): { robot: RobotSpec; visuals: VisualSpec[]; warnings: string[] } {
  const entry = parsed.robot;
  if (entry === undefined || !('urdf' in entry)) throw new ScenarioError('scenario: no URDF robot');
  if (typeof files.robotUrdf !== 'string') throw new ScenarioError(`scenario: the robot ${entry.urdf} was not supplied (ScenarioFiles.robotUrdf)`);
  const meshes = files.robotMeshes ?? {};
  // the robot's controller files, unless the scenario turns them off (a path was read as the one file)
  const controllerFiles = entry.controllerConfig !== false && isTextRecord(files.robotControllers) ? files.robotControllers : {};
  const config = readControllerConfig(controllerFiles);
  const loaded = loadUrdfRobot(files.robotUrdf, {
    position: [entry.position[0], entry.position[1], 0],
    yaw: entry.yaw,
    urdfPath: entry.urdf,
    meshes: (path) => meshes[path] ?? meshes[path.split('/').pop() ?? path],
    ...(files.robotConvexParts !== undefined ? { convexParts: files.robotConvexParts } : {}),
    controller: entry.controller ?? 'infer',
    ...(entry.hold !== undefined ? { hold: entry.hold } : {}),
    ...(config.holds.length > 0 ? { controllerHolds: config.holds } : {}),
    ...(entry.lumpFixedLinks !== undefined ? { lumpFixedLinks: entry.lumpFixedLinks } : {}),
    ...(entry.motorTorque !== undefined ? { motorTorque: entry.motorTorque } : {}),
    ...(entry.selfCollide !== undefined ? { selfCollide: entry.selfCollide } : {}),
    ...(entry.disableCollisions !== undefined || files.robotSrdf !== undefined
      ? { disableCollisions: [...(entry.disableCollisions ?? []), ...(files.robotSrdf !== undefined ? parseSrdfDisabledPairs(files.robotSrdf, 'the robot\'s SRDF') : [])] }
      : {}),
  });
  // visualMeshes: false (a robot bundled without its visual meshes): the mesh visuals are dropped,
  // so the renderer draws the collision shapes of links that have no other visual
  const visuals = entry.visualMeshes === false ? loaded.visuals.filter((v) => v.geometry.type !== 'mesh') : loaded.visuals;
  const notes = Array.isArray(files.robotXacroNotes) ? files.robotXacroNotes.filter((n) => typeof n === 'string') : [];
  const controllerNotes = entry.controllerConfig !== false && Array.isArray(files.robotControllerNotes) ? files.robotControllerNotes.filter((n) => typeof n === 'string') : [];
  const held = describeControllerHolds(loaded.controllerHolds.held);
  return {
    robot: placeOnTerrain(loaded.robot, terrain),
    visuals,
    warnings: [...notes, ...controllerNotes, ...config.warnings, ...loaded.controllerHolds.notes, ...(held !== null ? [held] : []), ...loaded.driveWarnings],
  };
}

function isTextRecord(x: unknown): x is Record<string, string> {
  return typeof x === 'object' && x !== null && !Array.isArray(x) && Object.values(x).every((t) => typeof t === 'string');
}
