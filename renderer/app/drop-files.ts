/**
 * Drag and drop onto the window: a highlighted drop zone while files are dragged over it, then the
 * dropped files read (each within the Host's file-size limit) and handed to one handler
 * (FileActions.openDropped, which decides what they open: app/drop-plan.ts). The only drop handler
 * in the app: recordings, scenarios, terrains and robots all arrive here. A dropped folder (a ROS
 * package with a xacro robot) is read whole: its files are named by their path inside it
 * ("husky_description/urdf/husky.urdf.xacro"), at most DROP_MAX_FOLDER_FILES of them.
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

/** Most files read from dropped folders (a robot's package holds tens; a home folder is refused). */
export const DROP_MAX_FOLDER_FILES = 4096;

/** The dropped entries, taken while the drop event lasts (the item list is emptied after it); null when no folder was dropped. */
function droppedEntries(dt: DataTransfer): FileSystemEntry[] | null {
  const entries = Array.from(dt.items ?? []).map((i) => i.webkitGetAsEntry());
  if (!entries.some((e) => e?.isDirectory)) return null;
  return entries.filter((e): e is FileSystemEntry => e !== null);
}

/** Every file under the entries, named by its path without the leading '/'. */
async function readEntries(entries: FileSystemEntry[]): Promise<DroppedFile[]> {
  const files: { name: string; file: File }[] = [];
  const walk = async (e: FileSystemEntry): Promise<void> => {
    if (files.length > DROP_MAX_FOLDER_FILES) throw new Error(`the dropped folder holds more than ${DROP_MAX_FOLDER_FILES} files: drop the robot's package folder, not a whole tree`);
    if (e.isFile) {
      const f = await new Promise<File>((ok, fail) => (e as FileSystemFileEntry).file(ok, fail));
      files.push({ name: e.fullPath.replace(/^\/+/, ''), file: f });
    } else if (e.isDirectory) {
      const reader = (e as FileSystemDirectoryEntry).createReader();
      // readEntries gives batches until an empty one
      for (;;) {
        const batch = await new Promise<FileSystemEntry[]>((ok, fail) => reader.readEntries(ok, fail));
        if (batch.length === 0) break;
        for (const c of batch) if (!c.name.startsWith('.')) await walk(c);
      }
    }
  };
  for (const e of entries) await walk(e);
  const out: DroppedFile[] = [];
  for (const { name, file } of files) {
    if (file.size > LIMITS.maxFileBytes) throw new Error(`${name}: ${file.size} bytes is over the ${LIMITS.maxFileBytes}-byte limit`);
    out.push({ name, bytes: new Uint8Array(await file.arrayBuffer()) });
  }
  return out;
}

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
    const folders = e.dataTransfer ? droppedEntries(e.dataTransfer) : null;
    (folders ? readEntries(folders) : readDropped(files)).then((fs) => d.open(fs), (err: unknown) => d.banner.show(`Could not read the dropped files: ${messageOf(err)}`));
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
