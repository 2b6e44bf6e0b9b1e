/**
 * Public entry of the simulation core (also the headless library). Each section is owned by the
 * module it names; keep exports grouped there.
 */

// --- math -------------------------------------------------------------------------------------
export * from './math/vec3';
export * from './math/quat';
export { Rng } from './math/random';
export * as constants from './constants';

// --- terrain ----------------------------------------------------------------------------------
export { Heightfield, TerrainError, ElementKind } from './terrain/heightfield';
export type { HeightfieldDesc, MinMax } from './terrain/heightfield';
// (terrain loaders)

// --- contacts ---------------------------------------------------------------------------------
export { ContactBuffer, WheelContactKind, WHEEL_CONTACT_KIND_NAMES } from './collision/contact';
export type { Contact } from './collision/contact';

// --- cylinder–terrain -------------------------------------------------------------------------

// --- convex shapes and queries ----------------------------------------------------------------

// --- broad phase ------------------------------------------------------------------------------
export { BroadPhase } from './collision/broadphase/broad-phase';
export { DynamicTree, NodeList, NULL_NODE } from './collision/broadphase/dynamic-tree';
export { aabb, aabbOverlaps, aabbContains, aabbIsValid } from './collision/broadphase/aabb';
export type { Aabb } from './collision/broadphase/aabb';

// --- world ------------------------------------------------------------------------------------
export type * from './protocol';
