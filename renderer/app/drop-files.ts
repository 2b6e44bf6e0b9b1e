/**
 * Drag and drop onto the window: a highlighted drop zone while files are dragged over it, then the
 * dropped files read (each within the Host's file-size limit) and handed to one handler
 * (FileActions.openDropped, which decides what they open: app/drop-plan.ts). The only drop handler
 * in the app: recordings, scenarios, terrains and robots all arrive here.
 */
import { LIMITS } from '../../electron/ipc-contract';
import type { Banner } from './banner';
import { messageOf } from './dom';
import type { DroppedFile } from './drop-plan';

export interface DropDeps {
  banner: Banner;
  /** The drop-zone overlay (shown while files are dragged over the window). */
  zone: HTMLElement;
  open(files: DroppedFile[]): Promise<unknown>;
}

const carriesFiles = (e: DragEvent): boolean => e.dataTransfer?.types.includes('Files') ?? false;

async function readDropped(list: FileList): Promise<DroppedFile[]> {
  const out: DroppedFile[] = [];
  for (const f of Array.from(list)) {
    if (f.size > LIMITS.maxFileBytes) throw new Error(`${f.name}: ${f.size} bytes is over the ${LIMITS.maxFileBytes}-byte limit`);
    out.push({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) });
  }
  return out;
}

/** Installs the window's drag-and-drop handlers; returns the function that removes them. */
export function installDrop(target: Window, d: DropDeps): () => void {
  // dragenter/dragleave fire for every child crossed: count them so the zone stays while inside.
  let depth = 0;
  const show = (v: boolean): void => {
    d.zone.hidden = !v;
  };
  const enter = (e: DragEvent): void => {
    if (!carriesFiles(e)) return;
    e.preventDefault();
    depth++;
    show(true);
  };
  const over = (e: DragEvent): void => {
    if (!carriesFiles(e)) return;
    e.preventDefault(); // allows the drop (and stops the browser or Electron from navigating to the file)
    if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    show(true);
  };
  const leave = (e: DragEvent): void => {
    if (!carriesFiles(e)) return;
    depth = Math.max(0, depth - 1);
    if (depth === 0) show(false);
  };
  const drop = (e: DragEvent): void => {
    depth = 0;
    show(false);
    const files = e.dataTransfer?.files;
    if (!files || files.length === 0) return;
    e.preventDefault();
    readDropped(files).then((fs) => d.open(fs), (err: unknown) => d.banner.show(`Could not read the dropped files: ${messageOf(err)}`));
  };
  target.addEventListener('dragenter', enter);
  target.addEventListener('dragover', over);
  target.addEventListener('dragleave', leave);
  target.addEventListener('drop', drop);
  return () => {
    target.removeEventListener('dragenter', enter);
    target.removeEventListener('dragover', over);
    target.removeEventListener('dragleave', leave);
    target.removeEventListener('drop', drop);
  };
}
