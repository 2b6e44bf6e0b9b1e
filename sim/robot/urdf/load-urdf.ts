/**
 * One-call URDF loading, and the list of files a robot needs (what "Open Robot…" must read next
 * to the URDF: collision meshes are required, visual meshes and textures are for the renderer).
 */
import { parseUrdf } from './parse-urdf';
import type { UrdfModel } from './urdf-model';
import { resolveMeshPath } from './resolve-mesh-path';
import { UrdfError } from './urdf-error';
import { urdfToRobot } from './urdf-to-robot';
import type { UrdfRobot, UrdfToRobotOptions } from './urdf-to-robot';

/** parseUrdf + urdfToRobot. Throws UrdfError only. */
export function loadUrdfRobot(text: string | Uint8Array, options: UrdfToRobotOptions = {}): UrdfRobot & { model: UrdfModel } {
  const model = parseUrdf(text);
  return { ...urdfToRobot(model, options), model };
}

/**
 * A file a URDF references (a mesh or texture): its resolved path, the link, and whether it is
 * needed to build the robot or only to draw it.
 */
export interface UrdfFileRef {
  /** Resolved path (resolveMeshPath against the URDF's path). */
  path: string;
  /** As written in the URDF. */
  uri: string;
  link: string;
  /** 'collision' files are needed to build the robot; 'visual' and 'texture' only to draw it. */
  role: 'collision' | 'visual' | 'texture';
}

/**
 * Every file the URDF refers to, once per (path, role), in file order. A collision mesh whose
 * URI cannot be resolved throws UrdfError (the robot cannot be built); such a visual or texture
 * is left out (urdfToRobot warns and does not draw it).
 */
export function urdfReferencedFiles(model: UrdfModel, urdfPath: string): UrdfFileRef[] {
  const out: UrdfFileRef[] = [];
  const seen = new Set<string>();
  const add = (uri: string, link: string, role: UrdfFileRef['role']): void => {
    let path: string;
    try {
      path = resolveMeshPath(urdfPath, uri);
    } catch (e) {
      if (role === 'collision' || !(e instanceof UrdfError)) throw e;
      return;
    }
    const key = `${role}|${path}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ path, uri, link, role });
  };
  for (const l of model.links) {
    for (const c of l.collisions) if (c.geometry.type === 'mesh') add(c.geometry.filename, l.name, 'collision');
    for (const v of l.visuals) {
      if (v.geometry.type === 'mesh') add(v.geometry.filename, l.name, 'visual');
      if (v.material?.texture) add(v.material.texture, l.name, 'texture');
    }
  }
  return out;
}
