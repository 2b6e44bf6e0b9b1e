/**
 * The application menu as a plain template builder (no Menu.buildFromTemplate here), so its
 * structure and the commands its items send are unit-tested in Node. main.ts passes the result to
 * Menu.buildFromTemplate and rebuilds it when the recent-file list changes.
 *
 *   [TerraWheel]  (macOS only: About, Hide, Quit live here by platform convention)
 *   File   Open Terrain… / Open Robot… / Open Scenario… / Open Recording… / Open Recent ▸ /
 *          Save Recording As… / Quit (Close Window on macOS)
 *   View   Reload + Toggle Developer Tools (dev builds only) / Toggle Full Screen / Live Link
 *   Help   About TerraWheel
 */

import type { MenuItemConstructorOptions } from 'electron';
import type { FileKind, MenuCommand, Settings } from './ipc-contract';

export interface MenuOptions {
  platform: NodeJS.Platform;
  /** Dev builds get Reload and Developer Tools; packaged builds do not. */
  isDev: boolean;
  appName: string;
  recentFiles: Settings['recentFiles'];
}

export interface MenuActions {
  /** Forwards a command to the renderer (webContents.send on IPC.menuCommand). */
  send(cmd: MenuCommand): void;
  clearRecent(): void;
  about(): void;
}

const OPEN_ITEMS: readonly { kind: FileKind; label: string; accelerator?: string }[] = [
  { kind: 'terrain', label: 'Open Terrain…', accelerator: 'CmdOrCtrl+O' },
  { kind: 'robot', label: 'Open Robot…' },
  { kind: 'scenario', label: 'Open Scenario…', accelerator: 'CmdOrCtrl+Shift+O' },
  { kind: 'recording', label: 'Open Recording…' },
];

/** Longest recent-file label shown; long names are cut in the middle so both ends stay readable. */
export const MAX_RECENT_LABEL = 60;

export function recentLabel(entry: Settings['recentFiles'][number]): string {
  let name = entry.name;
  if (name.length > MAX_RECENT_LABEL) {
    const half = Math.floor((MAX_RECENT_LABEL - 1) / 2);
    name = `${name.slice(0, half)}…${name.slice(name.length - half)}`;
  }
  // '&' is a mnemonic marker on Windows/Linux menus; double it so it shows literally.
  return `${name.replace(/&/g, '&&')} (${entry.kind})`;
}

export function buildMenuTemplate(opts: MenuOptions, actions: MenuActions): MenuItemConstructorOptions[] {
  const isMac = opts.platform === 'darwin';

  const recentSubmenu: MenuItemConstructorOptions[] =
    opts.recentFiles.length === 0
      ? [{ label: 'No Recent Files', enabled: false }]
      : [
          ...opts.recentFiles.map((entry, index): MenuItemConstructorOptions => ({
            label: recentLabel(entry),
            click: () => actions.send({ type: 'open-recent', index }),
          })),
          { type: 'separator' },
          { label: 'Clear Recent', click: () => actions.clearRecent() },
        ];

  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      ...OPEN_ITEMS.map(
        (item): MenuItemConstructorOptions => ({
          label: item.label,
          ...(item.accelerator !== undefined ? { accelerator: item.accelerator } : {}),
          click: () => actions.send({ type: 'open', kind: item.kind }),
        }),
      ),
      { label: 'Open Recent', submenu: recentSubmenu },
      { type: 'separator' },
      { label: 'Save Recording As…', accelerator: 'CmdOrCtrl+Shift+S', click: () => actions.send({ type: 'save-recording-as' }) },
      { type: 'separator' },
      isMac ? { role: 'close' } : { role: 'quit' },
    ],
  };

  const view: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      ...(opts.isDev ? ([{ role: 'reload' }, { role: 'toggleDevTools' }, { type: 'separator' }] as MenuItemConstructorOptions[]) : []),
      { role: 'togglefullscreen' },
      { type: 'separator' },
      // the renderer starts or stops it (it owns the worker whose world is served) and shows the address
      { label: 'Live Link (Foxglove, ws://127.0.0.1:8765)', click: () => actions.send({ type: 'live-link' }) },
    ],
  };

  const help: MenuItemConstructorOptions = {
    role: 'help',
    submenu: [{ label: `About ${opts.appName}`, click: () => actions.about() }],
  };

  const template: MenuItemConstructorOptions[] = [file, view, help];
  if (isMac) {
    template.unshift({
      label: opts.appName,
      submenu: [
        { label: `About ${opts.appName}`, click: () => actions.about() },
        { type: 'separator' },
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        { type: 'separator' },
        { role: 'quit' },
      ],
    });
  }
  return template;
}
