/**
 * Where a URDF's mesh file is, as a path the caller can read (pure string work: no file system,
 * so the same rules hold in Electron main, the web build and tests). Paths use '/'; a Windows
 * URDF path's '\' are turned into '/' first.
 *
 *   relative "meshes/a.stl"           → <folder of the URDF>/meshes/a.stl
 *   "package://pkg/meshes/a.stl"      → <the URDF's ancestor folder named pkg>/meshes/a.stl,
 *                                       or, when no ancestor is named pkg, <folder of the URDF>/meshes/a.stl
 *                                       (a robot copied out of its ROS package keeps working when
 *                                       its meshes sit next to it)
 *   "file:///abs/a.stl"               → /abs/a.stl (the caller decides whether it may read it)
 *   "http://", "https://", other schemes → UrdfError
 *
 * `.` and `..` segments are folded; a relative path may not climb above the file system root.
 */
import { UrdfError } from './urdf-error';

/**
 * Resolves a mesh URI of a URDF (relative, `package://pkg/…` or `file://`) against the URDF's own
 * path; throws a `UrdfError` for a URI it cannot resolve.
 */
export function resolveMeshPath(urdfPath: string, uri: string): string {
  const u = uri.trim();
  const base = urdfPath.replace(/\\/g, '/');
  const slash = base.lastIndexOf('/');
  const dir = slash >= 0 ? base.slice(0, slash) : '';
  const pkg = /^package:\/\/([^/]+)\/(.+)$/.exec(u);
  if (pkg) {
    const [, name, rest] = pkg;
    const segs = dir.split('/');
    for (let i = segs.length - 1; i >= 0; i--) {
      if (segs[i] === name) return normalize(`${segs.slice(0, i + 1).join('/')}/${rest}`, uri);
    }
    return normalize(dir === '' ? rest : `${dir}/${rest}`, uri);
  }
  if (/^package:/i.test(u)) throw new UrdfError(`mesh "${uri}": a package URI is package://<package>/<path>`, uri);
  if (/^file:\/\//i.test(u)) return normalize(decodeURIComponent(u.slice(7)), uri);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(u)) throw new UrdfError(`mesh "${uri}": only package://, file:// and relative paths are supported (download the mesh next to the URDF)`, uri);
  if (u.startsWith('/')) return normalize(u, uri);
  return normalize(dir === '' ? u : `${dir}/${u}`, uri);
}

function normalize(path: string, uri: string): string {
  const p = path.replace(/\\/g, '/');
  const absolute = p.startsWith('/');
  const out: string[] = [];
  for (const s of p.split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (absolute) throw new UrdfError(`mesh "${uri}": the path climbs above the file system root`, uri);
      else out.push('..');
      continue;
    }
    out.push(s);
  }
  const joined = out.join('/');
  return absolute ? `/${joined}` : joined;
}
