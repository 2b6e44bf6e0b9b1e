/**
 * Public entry of the simulation core (also the headless library). Each section is owned by the
 * module it names; keep exports grouped there.
 */

// --- math -------------------------------------------------------------------------------------
export * from './math/vec3';
export * from './math/quat';
export { Rng } from './math/random';
/** Every tolerance and limit of the core, with its unit and reason (`sim/constants.ts`). */
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
// (hardening, issue #18: cost estimate before a load, cancellation, plausibility limits)
export { estimateTerrainLoad, describeTerrainLoadEstimate, TERRAIN_LARGE_LOAD_BYTES } from './terrain/load-estimate';
export type { TerrainLoadEstimate } from './terrain/load-estimate';
export type { TerrainLoadOptions } from './terrain/load-terrain';
// (terrain LOD: what crosses to the renderer, a bounded overview and strided patches)
export { terrainPatch, terrainOverview, overviewStride, TERRAIN_OVERVIEW_MAX_SIDE, TERRAIN_PATCH_MAX_SAMPLES } from './terrain/patch';
export { TerrainLoadCancelled } from './terrain/progress';
export { TERRAIN_MIN_SPACING, TERRAIN_MAX_SPACING, TERRAIN_MAX_ABS_HEIGHT, TERRAIN_MAX_ABS_ORIGIN } from './terrain/plausibility';
export { describeValue } from './util/describe-value';

// --- contacts ---------------------------------------------------------------------------------
export { ContactBuffer, WheelContactKind, WHEEL_CONTACT_KIND_NAMES } from './collision/contact';
export type { Contact } from './collision/contact';

// --- cylinder–terrain -------------------------------------------------------------------------
export { collideCylinderTerrain, CylinderTerrainContext } from './collision/cylinder-terrain/plain-api';
export type {
  CylinderDesc,
  CylinderTerrainContact,
  CylinderTerrainContactKind,
  CylinderTerrainResult,
} from './collision/cylinder-terrain/plain-api';
export { collideCylinderTerrainInto } from './collision/cylinder-terrain/collide';
export { CylinderTerrainWorkspace, CylinderTerrainStatus } from './collision/cylinder-terrain/workspace';
// (the wheel query's cell range, also drawn by the GUI)
export { cylinderCellRange } from './collision/cylinder-terrain/cell-range';
export type { CellRange, CellGrid } from './collision/cylinder-terrain/cell-range';
export { reduceManifoldInto, reduceManifoldInPlace, reduceManifoldAppendedInto, ManifoldGroups, ReduceManifoldStatus } from './collision/reduce-manifold';

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
export { epaPenetration, EpaResult, EpaStatus, EpaMethod, EPA_STATUS_NAMES, EpaWorkspace } from './collision/epa';
export { gjkRayCast, gjkShapeCast, CastResult, CastStatus, CAST_STATUS_NAMES } from './collision/gjk-raycast';
export { conservativeAdvancement } from './collision/shape-cast';
export { EpaFailure, EPA_FAILURE_NAMES } from './collision/epa';
export * from './math/mat3';
export { queryConvex } from './collision/query-convex';
export type { ConvexBodyDesc, ConvexQueryResult } from './collision/query-convex';
export { collideShapes, collideConvexPair, collideShapeHeightfield, CollideStatus, COLLIDE_STATUS_NAMES } from './collision/dispatcher';
export { collideConvexHeightfield, HeightfieldCollideStatus } from './collision/convex-heightfield/collide';
export { satBoxBox, collideBoxBox, createBoxBoxSat, SatAxisKind } from './collision/sat-box-box';
export type { BoxBoxSat } from './collision/sat-box-box';
export { PersistentManifold } from './collision/manifold/persistent-manifold';
export { closestPointsSegmentSegment } from './collision/segment-closest';
// (the narrow phase's scratch: created once by its owner, a world or a query context, and passed in)
export { ManifoldWorkspace } from './collision/manifold/workspace';
export { BoxBoxWorkspace } from './collision/sat-box-box';
export { ConvexHeightfieldWorkspace } from './collision/convex-heightfield/workspace';
export { GjkWorkspace } from './collision/gjk';
export { CastWorkspace } from './collision/gjk-raycast';
export { AdvancementWorkspace } from './collision/shape-cast';
export { CollideWorkspace } from './collision/dispatcher';

// --- swept queries: swept-sphere primitives, time of impact, heightfield casts (issue #15) -----
export {
  sweptSpherePlane, sweptSpherePoint, sweptSphereSegment, sweptSphereTriangle, sweptSphereSphere,
  SweptHit, SweptStatus, SweptFeature, SWEPT_STATUS_NAMES,
} from './collision/swept/swept-sphere';
export { timeOfImpact, linearCast, sweptAabb, poseAfter } from './collision/swept/time-of-impact';
export type { RigidMotion } from './collision/swept/time-of-impact';
export { walkFootprint, GridWalkStatus, GridWalkStats } from './collision/heightfield-cast/grid-walk';
export type { CellVisitor } from './collision/heightfield-cast/grid-walk';
export { TerrainCastResult } from './collision/heightfield-cast/terrain-cast-result';
export { castSphereHeightfield, castRayHeightfield, SphereCastWorkspace } from './collision/heightfield-cast/sphere-cast';
export { castConvexHeightfield, ConvexCastWorkspace } from './collision/heightfield-cast/convex-cast';
export { castWheelHeightfield, WheelCastWorkspace } from './collision/heightfield-cast/wheel-cast';
export { castShape, castShapeTerrain } from './collision/swept/plain-api';
export type { ShapeCastResult, ShapeTerrainCastResult, CastHit, CastMiss, TerrainCastHit, CastElementName } from './collision/swept/plain-api';
export { SweptWorkspace } from './collision/swept/swept-sphere';
export { TimeOfImpactWorkspace } from './collision/swept/time-of-impact';

// --- broad phase ------------------------------------------------------------------------------
export { BroadPhase } from './collision/broadphase/broad-phase';
export { SweepAndPrune } from './collision/broadphase/sweep-and-prune';
export { DynamicTree, NodeList, NULL_NODE as TREE_NULL_NODE } from './collision/broadphase/dynamic-tree';
export type { TreeRayVisitor } from './collision/broadphase/dynamic-tree';
// dynamic-tree-check: the tree's consistency check and SAH quality metric (tests, benchmarks)
export { validateTree, treeAreaRatio } from './collision/broadphase/dynamic-tree-check';
export { aabbOverlaps, aabbContains, aabbIsValid } from './collision/broadphase/aabb';

// --- robot: URDF import, meshes, drive controllers (sim/robot/urdf, mesh, controllers) --------
export { parseUrdf, URDF_BALL_ELEMENT } from './robot/urdf/parse-urdf';
export { urdfToRobot } from './robot/urdf/urdf-to-robot';
export type { UrdfRobot, UrdfToRobotOptions, VisualSpec } from './robot/urdf/urdf-to-robot';
export { controllerJoints, SERVO_DEFAULT_EFFORT } from './robot/urdf/urdf-to-robot';
export type { ControllerChoice } from './robot/urdf/urdf-to-robot';
export { loadUrdfRobot, urdfReferencedFiles } from './robot/urdf/load-urdf';
export type { UrdfFileRef } from './robot/urdf/load-urdf';
export { resolveMeshPath } from './robot/urdf/resolve-mesh-path';
export { UrdfError } from './robot/urdf/urdf-error';
export type { UrdfModel, UrdfLink, UrdfJoint, UrdfJointType, UrdfGeometry, UrdfMaterial, UrdfPose, UrdfInertial } from './robot/urdf/urdf-model';
export type { UrdfCommandInterface, UrdfJointInterface } from './robot/urdf/urdf-model';
export { parseStl } from './robot/mesh/stl';
export { parseObj, meshFormat } from './robot/mesh/obj';
export { meshVolume } from './robot/mesh/triangle-mesh';
export type { TriangleMesh } from './robot/mesh/triangle-mesh';
export { meshCollisionHull, MESH_HULL_POOR_FIT_RATIO } from './robot/mesh/mesh-hull';
// Collada collision meshes (sim/robot/mesh/collada.ts) and the one reader entry point by extension.
export { parseCollada, COLLADA_MIN_UNIT_METER, COLLADA_MAX_UNIT_METER, COLLADA_MAX_COORDINATE } from './robot/mesh/collada';
export type { ColladaMesh } from './robot/mesh/collada';
export { readCollisionMesh, scaleMesh } from './robot/mesh/read-mesh';
// Concave collision meshes split into convex parts by V-HACD (vhacd-js), cached, with a volume report.
export { decomposeMesh, DEFAULT_DECOMPOSITION, DECOMPOSE_FIT_RATIO } from './robot/mesh/convex-decomposition';
export type { ConvexParts, DecompositionOptions } from './robot/mesh/convex-decomposition';
export { convexPartsForUrdf, memoryConvexPartsCache, collisionMeshKey, formatVolumeReport, convexPartsCacheKey, convexPartsFromJson, CONVEX_PARTS_VERSION } from './robot/mesh/convex-parts';
export type { ConvexPartsCache, ConvexPartsResult, MeshVolumeReport } from './robot/mesh/convex-parts';
export { prepareScenarioMeshes } from './scenario/scenario-meshes';
export type { MeshHullResult } from './robot/mesh/mesh-hull';
export {
  skidSteerWheelSpeeds,
  ackermannSteeringAngles,
  ackermannRearWheelSpeeds,
  ackermannMaxCurvature,
  steeringMotorVelocity,
  allWheelSteerTarget,
} from './robot/controllers/drive-kinematics';
export { createDriveController, DRIVE_CONTROLLER_STATE_SIZE } from './robot/controllers/drive-controller';
export type { DriveController, DriveCommand } from './robot/controllers/drive-controller';
export { inferController, STEER_AXIS_TILT } from './robot/controllers/infer-controller';
export type { InferredController } from './robot/controllers/infer-controller';

// --- world ------------------------------------------------------------------------------------
export type * from './app/protocol';
export { SimWorld } from './app/sim-world';
export { JOINT_FRAME_STRIDE } from './dynamics/frame-layout';
export { parseScenario, resolveRelative, ScenarioError } from './scenario/scenario';
export type { Scenario, ScriptCommand } from './scenario/scenario';
// scenario files v2 (sim/scenario/scenario-v2.ts: v1 and v2 files → world data), their limits and guard,
// and the default rover as bodies and joints (sim/robot/rover-builder.ts)
export {
  parseScenarioFile,
  scenarioWorldSpec,
  scenarioFromV1,
  DEFAULT_GRAVITY,
  DEFAULT_DT,
  DEFAULT_SUBSTEPS,
  DEFAULT_MATERIAL,
  DEFAULT_MATERIAL_NAME,
} from './scenario/scenario-v2';
export type {
  ParsedScenario,
  ScenarioTerrain,
  ScenarioRobotEntry,
  SkidSteerRobotEntry,
  UrdfRobotEntry,
  ScenarioWorldOptions,
} from './scenario/scenario-v2';
export { checkScenarioSize, MAX_SCENARIO_DEPTH, MAX_SCENARIO_NODES } from './scenario/scenario-guard';
// a scenario's files (gathered through an injected file system) → a world; Node scripts call
// openScenario (sim/node/open-scenario.ts, not exported here: it reads the disk)
export { gatherScenarioFiles, ScenarioFileError } from './scenario/scenario-files';
export type { ScenarioFiles, ScenarioFileSystem } from './scenario/scenario-files';
export { worldFromScenarioFiles, openScenarioWith } from './scenario/open-scenario';
export type { OpenScenarioOptions } from './scenario/open-scenario';
export { buildScenarioWorld } from './scenario/build-world';
export type { ScenarioRobotFiles } from './scenario/scenario-robot';
export {
  buildSkidSteerRover,
  roverNames,
  ROVER_WHEELS,
  ROVER_CHASSIS_MASS,
  ROVER_WHEEL_MASS,
  ROVER_MAX_TORQUE,
  ROVER_START_CLEARANCE,
  ROVER_FOOTPRINT_SAMPLE_SPACING,
} from './robot/rover-builder';
export type { SkidSteerBuildSpec, SkidSteerRoverOptions, RoverNames } from './robot/rover-builder';
export { parseRobotSpec, DEFAULT_ROBOT } from './robot/skid-steer';
export type { RobotSpec } from './robot/skid-steer';
export { SimServiceImpl } from './app/service';
export { createDefaultService, terrainDataFileName, loadScenarioUrdfRobot, loadScenarioUrdfRobotWithVisuals } from './app/default-service';

// --- dynamics (sim/dynamics/) -------------------------------------------------------------------
export { createWorld } from './scenario/create-world';
export type { CreateWorldOptions } from './scenario/create-world';
export { PlainWorld } from './dynamics/plain-world';
export type { BodyState, WorldState, WorldContact, WorldContactKind } from './dynamics/plain-world';
export { createDynamicsWorld } from './dynamics/build';
export type { DriveController as WorldDriveController, DriveControllerFactory } from './dynamics/drive';
export { robotDriveController, STEERING_GAIN, STEERING_MAX_RATE } from './robot/controllers/world-drive';
export { DynamicsWorld, hashFloat64 } from './dynamics/world';
export type { WorldFault, StepTimings } from './dynamics/world';
export * from './dynamics/spec';
// the frame layout: strides, field offsets, contact-kind codes (sim/dynamics/frame-layout.ts)
export { POSE_STRIDE, VELOCITY_STRIDE, CONTACT_STRIDE, CONTACT_INFO_STRIDE, CONTACT_KIND_CONVEX_TERRAIN, CONTACT_KIND_BODY_PAIR, ContactField, ContactInfoField } from './dynamics/frame-layout';

// --- recordings (MCAP) ------------------------------------------------------------------------
// sim/record: RecordingWriter/RecordingReader over @mcap/core, Foxglove channels, CSV, timeline events.
export { RecordingWriter, metadataToMap, DEFAULT_KEYFRAME_INTERVAL, DEFAULT_FOXGLOVE_HZ, DEFAULT_CHUNK_BYTES, DEFAULT_FRAME_ENCODING } from './record/writer';
export type { RecordingHeader, RecordingWriterOptions, RecordingMetadata, InputRecord, EventRecord } from './record/writer';
export { RecordingReader, DEFAULT_CACHE_CHUNKS } from './record/reader';
export type { RecordingInfo, RecordingReaderOptions } from './record/reader';
export { RecordingError, TOPIC as RECORDING_TOPICS, RECORDING_FORMAT_VERSION, RECORDING_PROFILE, makeFrame, encodeFrame, decodeFrame, FrameScratch } from './record/format';
export type { FrameData, FrameEncoding, KeyframeData } from './record/format';
// sim/record/frame-delta: delta frames (format 2: only the bodies and contact blocks that changed).
export { FrameChanges, encodeDeltaFrame, applyDeltaFrame, contactBlocks, FRAME_LAYOUT_DELTA } from './record/frame-delta';
export { loadCodecs, NO_COMPRESSION, ZSTD_LEVEL } from './record/codecs';
export type { RecordingCodecs } from './record/codecs';
export { MemorySink, bytesSource, blobSource } from './record/io';
export type { RecordingSink, RecordingSource } from './record/io';
export { wheelStatsInto, makeWheelStats, wheelRadius, SLIP_SPEED_FLOOR } from './record/foxglove';
export type { RecordedBody, WheelStats } from './record/foxglove';
/** A per-joint velocity command as a recording input (format 4, `/terrawheel/joint_input`; RecordingWriter.writeJointInput, RecordingReader.jointInputs). */
export type { JointInputRecord } from './record/writer';
export { exportWheelCsv, wheelCsvChunks, WHEEL_CSV_HEADER } from './record/export-csv';
export type { WheelCsvOptions } from './record/export-csv';
export { TimelineEventDetector, scanTimelineEvents } from './record/events';
export { seekWorld, verifyRecording } from './record/replay';
export type { ReplayableWorld, SeekResult, VerifyOptions, VerifyResult } from './record/replay';
export type { TimelineEvent, TimelineEventKind } from './record/events';

// --- recording the world (sim/app/record-session.ts): the service's record/replay glue -------------
export { RecordSession, replayable, recordingHeaderFor, assetHashes, BUILD_ID, SCENARIO_ASSET_PREFIX, stateBytes, stateFromBytes } from './app/record-session';
export type { RecordingOptions, RecordingStatus, RecordableWorld, RecordEncoderChoice } from './app/record-session';
// sim/record/capture + encoder: the threaded recorder (raw step capture on the stepping thread; the
// encoder in this thread or another). Thread factories: sim/node/record-thread.ts (Node),
// sim/record/encoder-thread-web.ts (nested Web Worker); not exported here (environment-specific).
export { StepCapture, applyBatch, FrameDecoder, frameFromRaw, ReportScratch, frameSlots, changesSlots, newBatch, CAPTURE_BUFFER_BYTES } from './record/capture';
export type { CaptureBatch } from './record/capture';
export { SyncEncoder, ThreadedEncoder, serveEncoder, EncoderThreadStartError, ENCODER_BACKLOG_BYTES, CAPTURE_POOL_SIZE } from './record/encoder';
export type { RecordEncoder, EncoderPort, EncoderHostPort, EncoderThreadFactory, EncoderStalls, EncoderPoolOptions, EncoderRequest, EncoderReply } from './record/encoder';
export type { RecordingSummary, ReplayStatus } from './app/protocol';
