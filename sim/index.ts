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
export { decodeTerrain, loadTerrain, detectTerrainFormat } from './terrain/load-terrain';
export type { TerrainLoadResult } from './terrain/load-terrain';
export { parseTerrainSidecar } from './terrain/sidecar';
export type { TerrainSidecar, TerrainFormat } from './terrain/sidecar';
export { decodeGrayPng } from './terrain/png-decode';
export type { GrayImage } from './terrain/png-decode';
export { encodeGrayPng, encodeHeightfieldPng } from './terrain/png-encode';
export type { HeightfieldPng, EncodePngOptions } from './terrain/png-encode';
export { decodeGeoTiff } from './terrain/geotiff-decode';
export type { GeoReference, GeoTiffDem, GeoTiffOptions } from './terrain/geotiff-decode';
export type { TerrainProgress } from './terrain/progress';

// --- contacts ---------------------------------------------------------------------------------
export { ContactBuffer, WheelContactKind, WHEEL_CONTACT_KIND_NAMES } from './collision/contact';
export type { Contact } from './collision/contact';

// --- cylinder–terrain -------------------------------------------------------------------------
export { collideCylinderTerrain } from './collision/cylinder-terrain/plain-api';
export type {
  CylinderDesc,
  CylinderTerrainContact,
  CylinderTerrainContactKind,
  CylinderTerrainResult,
} from './collision/cylinder-terrain/plain-api';
export { collideCylinderTerrainInto } from './collision/cylinder-terrain/collide';
export { CylinderTerrainWorkspace, CylinderTerrainStatus } from './collision/cylinder-terrain/workspace';
export { reduceManifoldInto, ManifoldGroups, ReduceManifoldStatus } from './collision/reduce-manifold';

// --- convex shapes and queries ----------------------------------------------------------------
export { ShapeKind, SHAPE_KIND_NAMES, SupportFace, aabb, massProperties } from './shapes/shape';
export type { ConvexShape, Shape, Pose, Aabb, MassProperties, CompoundChild } from './shapes/shape';
export { SphereShape } from './shapes/sphere';
export { BoxShape } from './shapes/box';
export { CapsuleShape } from './shapes/capsule';
export { CylinderShape } from './shapes/cylinder';
export { ConvexHullShape } from './shapes/convex-hull';
export type { ConvexHullData } from './shapes/convex-hull';
export { CompoundShape } from './shapes/compound';
export { buildConvexHull, HullStatus, HULL_STATUS_NAMES } from './shapes/convex-hull-builder';
export type { HullBuildOptions, HullBuildResult } from './shapes/convex-hull-builder';
export { obb, obbFromPoints, obbFromHull } from './shapes/obb-pca';
export { convexWorldAabb, shapeWorldAabb } from './shapes/world-aabb';
export type { Obb } from './shapes/obb-pca';
export { shapeFromDesc, ShapeDescError } from './shapes/shape-desc';
export type { ShapeDesc } from './shapes/shape-desc';
export { gjkDistance, gjkIntersect, GjkResult, GjkCache, GjkStatus, GJK_STATUS_NAMES } from './collision/gjk';
export { epaPenetration, EpaResult, EpaStatus, EpaMethod, EPA_STATUS_NAMES } from './collision/epa';
export { gjkRayCast, gjkShapeCast, CastResult, CastStatus, CAST_STATUS_NAMES } from './collision/gjk-raycast';
export { conservativeAdvancement } from './collision/shape-cast';
export { EpaFailure, EPA_FAILURE_NAMES } from './collision/epa';
export * from './math/mat3';
export { queryConvex } from './collision/query-convex';
export type { ConvexBodyDesc, ConvexQueryResult } from './collision/query-convex';
export { collideShapes, collideConvexPair, collideShapeHeightfield, CollideStatus, COLLIDE_STATUS_NAMES } from './collision/dispatcher';
export { collideConvexHeightfield, HeightfieldCollideStatus } from './collision/convex-heightfield';
export { satBoxBox, collideBoxBox, createBoxBoxSat, SatAxisKind } from './collision/sat-box-box';
export type { BoxBoxSat } from './collision/sat-box-box';
export { PersistentManifold } from './collision/manifold/persistent-manifold';
export { closestPointsSegmentSegment } from './collision/segment-closest';

// --- broad phase ------------------------------------------------------------------------------
export { BroadPhase } from './collision/broadphase/broad-phase';
export { SweepAndPrune } from './collision/broadphase/sweep-and-prune';
export { DynamicTree, NodeList, NULL_NODE as TREE_NULL_NODE } from './collision/broadphase/dynamic-tree';
export type { TreeRayVisitor } from './collision/broadphase/dynamic-tree';
export { aabbOverlaps, aabbContains, aabbIsValid } from './collision/broadphase/aabb';

// --- world ------------------------------------------------------------------------------------
export type * from './protocol';
export { World, WORLD_MAX_CONTACTS } from './world';
export type { WheelContactFn } from './world';
export { parseScenario, resolveRelative, ScenarioError } from './scenario';
export type { Scenario, ScriptCommand } from './scenario';
export { parseRobotSpec, DEFAULT_ROBOT } from './robot/skid-steer';
export type { RobotSpec } from './robot/skid-steer';
export { SimServiceImpl } from './service';
export { createDefaultService, analyticWheelContacts, terrainDataFileName } from './default-service';

// --- recordings (MCAP) ------------------------------------------------------------------------
// sim/record: RecordingWriter/RecordingReader over @mcap/core, Foxglove channels, CSV, timeline events.
export { RecordingWriter, metadataToMap, DEFAULT_KEYFRAME_INTERVAL, DEFAULT_FOXGLOVE_HZ, DEFAULT_CHUNK_BYTES, DEFAULT_FRAME_ENCODING } from './record/writer';
export type { RecordingHeader, RecordingWriterOptions, RecordingMetadata, InputRecord, EventRecord } from './record/writer';
export { RecordingReader, DEFAULT_CACHE_CHUNKS } from './record/reader';
export type { RecordingInfo, RecordingReaderOptions } from './record/reader';
export { RecordingError, TOPIC as RECORDING_TOPICS, RECORDING_FORMAT_VERSION, RECORDING_PROFILE, makeFrame, encodeFrame, decodeFrame, FrameScratch } from './record/format';
export type { FrameData, FrameEncoding, KeyframeData } from './record/format';
export { loadCodecs, NO_COMPRESSION, ZSTD_LEVEL } from './record/codecs';
export type { RecordingCodecs } from './record/codecs';
export { MemorySink, bytesSource, blobSource } from './record/io';
export type { RecordingSink, RecordingSource } from './record/io';
export { wheelStatsInto, makeWheelStats, wheelRadius, SLIP_SPEED_FLOOR } from './record/foxglove';
export type { RecordedBody, WheelStats } from './record/foxglove';
export { exportWheelCsv, wheelCsvChunks, WHEEL_CSV_HEADER } from './record/export-csv';
export type { WheelCsvOptions } from './record/export-csv';
export { TimelineEventDetector, scanTimelineEvents } from './record/events';
export { seekWorld, verifyRecording } from './record/replay';
export type { ReplayableWorld, SeekResult, VerifyOptions, VerifyResult } from './record/replay';
export type { TimelineEvent, TimelineEventKind } from './record/events';
