/**
 * The terrain material's shading, all in its fragment shader (nothing per frame on the main
 * thread; the material-map raster is baked once per world, material-colors.ts):
 *  - the metre grid: thin dark lines at every whole metre of x and y (simulation frame),
 *    anti-aliased with screen-space derivatives (fwidth), so they stay about a pixel wide;
 *  - hillshade: the cartographer's relief shading, from the scene's sun (SUN_DIRECTION, so the
 *    two never light opposite slopes) on the surface normal exaggerated HILLSHADE_EXAGGERATION
 *    times, multiplied in on top of the scene's lights, so gentle hills read as relief; flat
 *    ground keeps its colour (factor 1);
 *  - material colours: the scenario's terrain material map (sand, grass, asphalt…) replaces the
 *    height or plain colour where a material other than "default" lies;
 *  - slope colouring (a colour mode): green on the level, yellow at 15°, red from 30°;
 *  - contour lines (a toggle): one line every `contourInterval` metres of height.
 * Chunk meshes are in the simulation frame (under the scene's y-up root), so the shader reads
 * x, y, height and the normal straight from the vertex attributes.
 */
import * as THREE from 'three';
import { bakeMaterialRaster, contourInterval, type MapExtent } from './material-colors';
import type { TerrainMaterialMapSpec } from '../../sim/dynamics/spec';

/** How much darker a slope facing away from the hillshade light gets (0: no hillshade). */
export const HILLSHADE_STRENGTH = 0.6;
/**
 * Unit direction toward the sun in the simulation frame (z up): low (32°) from the east-south-east,
 * long shading on slopes. The scene's directional light and the hillshade both use it.
 */
export const SUN_DIRECTION: readonly [number, number, number] = (() => {
  const d = [40, -25, 30], l = Math.hypot(d[0], d[1], d[2]);
  return [d[0] / l, d[1] / l, d[2] / l] as const;
})();
/**
 * Vertical exaggeration of the normal for the hillshade only (a GIS hillshade's z-factor): the
 * bundled hills' slopes of a few degrees shade by ±10 % unexaggerated, too little to read.
 */
export const HILLSHADE_EXAGGERATION = 5;

export interface TerrainShadingOptions {
  /** Slope colours instead of the height/plain colour and the materials. */
  slope: boolean;
  /** Contour lines. */
  contours: boolean;
}

export class TerrainShading {
  readonly uniforms = {
    uMatTex: { value: null as THREE.DataTexture | null },
    uMatOn: { value: 0 },
    uMatOrigin: { value: new THREE.Vector2() },
    uMatSize: { value: new THREE.Vector2(1, 1) },
    uSlopeOn: { value: 0 },
    uContourOn: { value: 0 },
    uContourStep: { value: 1 },
    uHillshade: { value: HILLSHADE_STRENGTH },
  };
  /** Materials drawn with a tint (empty: none). */
  readonly tinted: string[];
  private readonly texture: THREE.DataTexture | null;

  constructor(map: TerrainMaterialMapSpec | undefined, extent: MapExtent, heightRange: number) {
    const raster = bakeMaterialRaster(map, extent);
    this.tinted = raster?.tinted ?? [];
    this.texture = raster ? new THREE.DataTexture(raster.data, raster.cols, raster.rows, THREE.RGBAFormat, THREE.UnsignedByteType) : null;
    if (this.texture) {
      this.texture.colorSpace = THREE.SRGBColorSpace;
      this.texture.magFilter = THREE.LinearFilter;
      this.texture.minFilter = THREE.LinearFilter;
      this.texture.wrapS = this.texture.wrapT = THREE.ClampToEdgeWrapping;
      this.texture.needsUpdate = true;
    }
    const u = this.uniforms;
    u.uMatTex.value = this.texture;
    u.uMatOrigin.value.set(extent.x0, extent.y0);
    u.uMatSize.value.set(extent.width, extent.height);
    u.uContourStep.value = contourInterval(heightRange) || 1;
    this.set({ slope: false, contours: false });
  }

  /** [m] Height between contour lines. */
  get contourStep(): number {
    return this.uniforms.uContourStep.value;
  }

  /** Switches slope colours and contours (uniforms only: no recompile). */
  set(o: TerrainShadingOptions): void {
    const u = this.uniforms;
    u.uSlopeOn.value = o.slope ? 1 : 0;
    u.uContourOn.value = o.contours ? 1 : 0;
    u.uMatOn.value = this.texture && !o.slope ? 1 : 0;
  }

  /** Installs the shader code into `mat` (call once, before its first use). */
  install(mat: THREE.MeshLambertMaterial): void {
    const u = this.uniforms;
    mat.onBeforeCompile = (shader) => {
      Object.assign(shader.uniforms, u);
      shader.vertexShader = shader.vertexShader
        .replace('#include <common>', '#include <common>\nvarying vec3 vSimPos;\nvarying vec3 vSimNormal;')
        .replace('#include <begin_vertex>', '#include <begin_vertex>\nvSimPos = position;\nvSimNormal = normal;');
      shader.fragmentShader = shader.fragmentShader
        .replace(
          '#include <common>',
          [
            '#include <common>',
            'varying vec3 vSimPos;',
            'varying vec3 vSimNormal;',
            'uniform sampler2D uMatTex;',
            'uniform float uMatOn, uSlopeOn, uContourOn, uContourStep, uHillshade;',
            'uniform vec2 uMatOrigin, uMatSize;',
            // level green, 15° yellow, 30° and steeper red (linear rgb)
            'vec3 slopeColor(float deg) {',
            '  vec3 g = vec3(0.10, 0.40, 0.08), y = vec3(0.85, 0.70, 0.05), r = vec3(0.70, 0.05, 0.03);',
            '  return deg < 15.0 ? mix(g, y, deg / 15.0) : mix(y, r, clamp((deg - 15.0) / 15.0, 0.0, 1.0));',
            '}',
          ].join('\n'),
        )
        .replace(
          '#include <color_fragment>',
          [
            '#include <color_fragment>',
            'vec3 simN = normalize(vSimNormal);',
            'if (uSlopeOn > 0.5) diffuseColor.rgb = slopeColor(degrees(acos(clamp(simN.z, -1.0, 1.0))));',
            'if (uMatOn > 0.5) {',
            '  vec4 m = texture2D(uMatTex, (vSimPos.xy - uMatOrigin) / uMatSize);',
            '  diffuseColor.rgb = mix(diffuseColor.rgb, m.rgb, m.a);',
            '}',
            // hillshade: the sun on the exaggerated normal, 1 on flat ground
            `vec3 hsN = normalize(vec3(simN.xy * ${HILLSHADE_EXAGGERATION.toFixed(1)}, simN.z));`,
            `float hs = max(dot(hsN, vec3(${SUN_DIRECTION.map((x) => x.toFixed(6)).join(', ')})), 0.0);`,
            `diffuseColor.rgb *= 1.0 - uHillshade + uHillshade * hs / ${SUN_DIRECTION[2].toFixed(6)};`,
            'vec2 gridD = abs(fract(vSimPos.xy - 0.5) - 0.5) / max(fwidth(vSimPos.xy), vec2(1e-4));',
            'float gridLine = 1.0 - min(min(gridD.x, gridD.y), 1.0);',
            'diffuseColor.rgb *= 1.0 - 0.35 * gridLine;',
            'float ch = vSimPos.z / uContourStep;',
            'float contour = 1.0 - min(abs(fract(ch - 0.5) - 0.5) / max(fwidth(ch), 1e-4), 1.0);',
            'diffuseColor.rgb *= 1.0 - 0.55 * contour * uContourOn;',
          ].join('\n'),
        );
    };
    mat.customProgramCacheKey = () => 'terrawheel-terrain-shading';
  }

  dispose(): void {
    this.texture?.dispose();
  }
}
