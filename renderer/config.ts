/**
 * Renderer tuning, with units. (The simulation's constants live in sim/constants.ts; these only
 * change what is drawn and how the UI behaves, never what is simulated.)
 */

/**
 * [-] Most terrain vertices drawn on a GPU (all LOD chunks with their skirts, view3d/terrain-lod.ts);
 * the chunks' split factor is lowered until the selection fits. 1025² (≈1M vertices, 2M
 * triangles) is easy for any desktop GPU.
 */
export const TERRAIN_MESH_MAX_VERTICES = 1025 * 1025;

/**
 * [-] The same budget on software GL (SwiftShader, llvmpipe): these are vertex-bound, measured on
 * SwiftShader at 960×640 with a loaded 2-core machine: 181k vertices ≈ 8.5 fps, 40k ≈ 13 fps.
 */
export const TERRAIN_MESH_MAX_VERTICES_SOFTWARE = 257 * 257;

/** [cells] Cells along a terrain chunk's side: a chunk has at most 33² samples at any level (4.3 KB of heights). */
export const LOD_CHUNK_CELLS = 32;

/**
 * [cells] The same on software GL: 17² samples a chunk. Every level of the quadtree down to the
 * followed body costs a few whole chunks, which with 33² samples alone exceeds the 257² budget
 * on big maps (4097² at 5 cm: 100k vertices); smaller chunks keep it in budget (48k) at the
 * price of more draw calls (≈ 150).
 */
export const LOD_CHUNK_CELLS_SOFTWARE = 16;

/**
 * [m/m] A terrain chunk splits into four finer ones while the camera is nearer than this × its
 * side: with 10 cm cells, stride 1 within about 5 m of the camera, stride 2 within 10 m, …
 */
export const LOD_SPLIT_FACTOR = 1.5;

/**
 * [m] Around the followed body the terrain is always drawn at stride 1 (the collision surface)
 * within this horizontal distance, whatever the camera distance and the vertex budget.
 */
export const LOD_FOCUS_RADIUS = 1;

/** [-] The LOD is chosen again when the camera has moved this fraction of a level-0 chunk's side (or a chunk arrived). */
export const LOD_RESELECT_FRACTION = 0.05;

/** [chunks] Terrain chunk meshes kept (≈ 58 KB each: 33² + skirt vertices × 36 B + indices): ≤ 30 MB. */
export const TERRAIN_CHUNK_CACHE = 512;

/** [ms] Main-thread time per animation frame spent turning arrived patches into chunk meshes (≈ 1 ms each; at least one per frame). */
export const LOD_BUILD_MS_PER_FRAME = 4;

/**
 * [chunks] Chunk meshes cut from the overview (exact coarse chunks and the stand-ins of finer ones,
 * view3d/terrain-view.ts) built in one animation frame at most, within LOD_BUILD_MS_PER_FRAME
 * (at least one a frame). A large camera jump (a preset, the map's far side) wants a hundred or
 * more new chunks: they are built over a few frames while the previous chunks stay drawn, and the
 * new selection is swapped in whole once every chunk of it has a mesh.
 */
export const LOD_STANDIN_BUILDS_PER_FRAME = 16;

/** [-] Terrain patch requests waiting for the worker at most (the render loop never waits for one). */
export const TERRAIN_PATCH_REQUESTS_IN_FLIGHT = 8;

/** [-] Contact markers drawn at most (the worker sends at most WORLD_MAX_CONTACTS; this is the GPU buffer size). */
export const CONTACT_MARKER_CAPACITY = 256;

/** [m] Radius of a contact point marker. */
export const CONTACT_MARKER_RADIUS = 0.02;

/** [m/m] Normal segment length per metre of depth (depths are millimetres; ×20 makes 5 mm show as 10 cm). */
export const CONTACT_NORMAL_SCALE = 20;

/**
 * [N/m] Force arrows' scale when normals scale by force and the scale is not automatic: newtons
 * per metre of arrow (a 50 N wheel contact → 0.25 m). The user sets it in the View panel.
 */
export const CONTACT_FORCE_SCALE_DEFAULT = 200;

/** [N/m] Least and greatest force scale the View panel accepts (a stored value outside is dropped). */
export const CONTACT_FORCE_SCALE_MIN = 1e-3;
export const CONTACT_FORCE_SCALE_MAX = 1e7;

/** [m] Automatic force scale: the largest normal force on screen is drawn at most this long. */
export const CONTACT_FORCE_AUTO_LENGTH = 0.4;

/**
 * [frames] Automatic force scale: a larger force raises the scale at once; the scale falls back
 * (one step of the 1-2-5 series at a time) only after this many drawn frames in a row that all
 * needed a smaller one, so the legend's number stays still while a robot drives.
 */
export const CONTACT_FORCE_AUTO_HOLD_FRAMES = 90;

/**
 * [m] Longest force arrow drawn: a user's fixed scale is honoured up to here (a spike at a small
 * scale should not draw a line across the map).
 */
export const CONTACT_FORCE_MAX_LENGTH = 3;

/** [m] Shortest normal segment drawn, so touching contacts (depth ≈ 0) still show their normal. */
export const CONTACT_NORMAL_MIN_LENGTH = 0.08;

/** [m] Longest normal segment drawn (a deep penetration should not hide the scene). */
export const CONTACT_NORMAL_MAX_LENGTH = 0.6;

/** [s] Window of the scrolling plots. */
export const PLOT_WINDOW_S = 10;

/** [-] Samples kept per plot series (≥ window × display rate, 60 Hz × 10 s, with margin). */
export const PLOT_CAPACITY = 1024;

/** [m] Chase camera distance from the robot, default and limits (mouse wheel). */
export const CAMERA_DISTANCE = 4;
export const CAMERA_MIN_DISTANCE = 0.8;
export const CAMERA_MAX_DISTANCE = 200;

/** [rad] Default chase camera elevation above the horizon. */
export const CAMERA_ELEVATION = 0.45;

/** [1/s] Rate at which the chase camera catches up with the robot (exponential smoothing). */
export const CAMERA_FOLLOW_RATE = 6;

/** [-] Time scale range the ] and [ keys move through (the worker clamps to 0.1..10 as well). */
export const TIME_SCALE_MIN = 0.125;
export const TIME_SCALE_MAX = 8;
