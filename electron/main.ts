/**
 * Electron main process: one window, the application menu, the app:// protocol and the IPC
 * handlers. Thin wiring only; the logic lives in plain, unit-tested modules:
 *   handlers.ts (IPC), validate.ts (payload checks), settings-store.ts, token-registry.ts,
 *   menu.ts (menu template), app-protocol.ts (URL → file), dialog-filters.ts.
 *
 * Security posture (Electron security checklist): contextIsolation on, nodeIntegration off,
 * sandboxed preload, a strict CSP header on every app:// response, navigation only within
 * app://terrawheel, window.open denied, <webview> refused, every permission request denied,
 * IPC accepted only from our own frames and validated in handlers.ts.
 */

import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import {
  BrowserWindow,
  Menu,
  app,
  dialog,
  ipcMain,
  protocol,
  session,
  type IpcMainInvokeEvent,
  type WebContents,
} from 'electron';
import { APP_ENTRY_URL, APP_HOST, APP_SCHEME, appResponseHeaders, isAppUrl, resolveAppRequest, type AppRoots } from './app-protocol';
import { DIALOG_FILTERS, DIALOG_TITLES, saveFilters } from './dialog-filters';
import { HANDLED_CHANNELS, createHandlers, type HostDialogs } from './handlers';
import { IPC, IPC_LIVE_LINK, LIVE_LINK_RECORD_FOLDER, LIVE_LINK_ROSBRIDGE_PORT, type MenuCommand, type Settings } from './ipc-contract';
import { LiveLinkHost, portEndpoint, rosbridgePortFromEnv } from './live-link';
import { buildMenuTemplate } from './menu';
import { devToolsAllowed } from './dev-mode';
import { nodeFiles, nodeSettingsIo, readFileNoSymlinks } from './node-files';
import { SettingsStore } from './settings-store';
import { diskConvexPartsCache } from '../sim/node/convex-parts-cache';
import { TokenRegistry } from './token-registry';

// Must run before 'ready': a standard + secure scheme gets a real origin, so module workers,
// fetch() and CSP 'self' work as they do on https. corsEnabled stays off on purpose: it would let
// other origins read app:// responses, and the renderer only ever fetches its own origin.
protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } },
]);

// DevTools and the developer menu only in development (unpackaged) runs. A packaged app ignores
// --dev: it would hand anyone who can start the app with arguments a console inside the renderer.
const isDev = devToolsAllowed(app.isPackaged);
let mainWindow: BrowserWindow | null = null;

function appRoots(): AppRoots {
  const root = app.getAppPath(); // the folder (or app.asar) holding package.json
  return { web: path.join(root, 'dist', 'web'), assets: path.join(root, 'assets') };
}

function sendMenuCommand(cmd: MenuCommand): void {
  mainWindow?.webContents.send(IPC.menuCommand, cmd);
}

function installMenu(settings: Settings, store: SettingsStore): void {
  const template = buildMenuTemplate(
    { platform: process.platform, isDev, appName: app.getName(), recentFiles: settings.recentFiles },
    {
      send: sendMenuCommand,
      clearRecent: () => {
        void store.update({ recentFiles: [] }).then((s) => installMenu(s, store));
      },
      about: () => {
        const detail = `Version ${app.getVersion()}\nElectron ${process.versions.electron}\nChromium ${process.versions.chrome}\nNode ${process.versions.node}`;
        const opts = { type: 'info' as const, title: `About ${app.getName()}`, message: app.getName(), detail, buttons: ['OK'] };
        void (mainWindow ? dialog.showMessageBox(mainWindow, opts) : dialog.showMessageBox(opts));
      },
    },
  );
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

function createDialogs(): HostDialogs {
  return {
    async showOpen(kind) {
      const opts = { title: DIALOG_TITLES[kind], properties: ['openFile' as const], filters: DIALOG_FILTERS[kind] };
      const res = mainWindow ? await dialog.showOpenDialog(mainWindow, opts) : await dialog.showOpenDialog(opts);
      return res.canceled || res.filePaths.length === 0 ? null : res.filePaths[0];
    },
    async showSave(kind, suggestedName) {
      const opts = { defaultPath: path.join(app.getPath('documents'), suggestedName), filters: saveFilters(kind) };
      const res = mainWindow ? await dialog.showSaveDialog(mainWindow, opts) : await dialog.showSaveDialog(opts);
      return res.canceled || res.filePath === undefined || res.filePath === '' ? null : res.filePath;
    },
    async showOpenDirectory() {
      const opts = { title: 'Open sweep results (the --out directory of terrawheel sweep)', properties: ['openDirectory' as const] };
      const res = mainWindow ? await dialog.showOpenDialog(mainWindow, opts) : await dialog.showOpenDialog(opts);
      return res.canceled || res.filePaths.length === 0 ? null : res.filePaths[0];
    },
  };
}

/** IPC is answered only for our own top-level page; anything else (a stray frame) is refused. */
function assertTrustedSender(event: Pick<IpcMainInvokeEvent, 'senderFrame'>): void {
  const url = event.senderFrame?.url ?? '';
  if (!isAppUrl(url)) throw new Error(`IPC refused: sender ${JSON.stringify(url.slice(0, 80))} is not ${APP_SCHEME}://${APP_HOST}`);
}

function hardenWebContents(contents: WebContents): void {
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

function registerAppProtocol(): void {
  const roots = appRoots();
  protocol.handle(APP_SCHEME, async (request) => {
    const res = resolveAppRequest(request.url, roots);
    if (!res.ok) return new Response(res.reason, { status: res.status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
    for (const source of res.sources) {
      try {
        const body = await readFileNoSymlinks(source.root, source.segments);
        return new Response(body, { status: 200, headers: appResponseHeaders(res.mimeType) });
      } catch {
        // try the next root
      }
    }
    const hint = request.url.endsWith('index.html') ? ' (run `npm run build:web` first)' : '';
    return new Response(`not found${hint}`, { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  });
}

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1400,
    height: 900,
    minWidth: 800,
    minHeight: 500,
    show: false,
    title: app.getName(),
    backgroundColor: '#1b1e23',
    webPreferences: {
      preload: path.join(__dirname, 'preload.cjs'),
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      sandbox: true,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      // Middle-click would otherwise open links in a new window (denied anyway by setWindowOpenHandler).
      disableBlinkFeatures: 'Auxclick',
      devTools: isDev,
    },
  });
  win.once('ready-to-show', () => win.show());
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = null;
  });
  void win.loadURL(APP_ENTRY_URL);
  return win;
}

async function start(): Promise<void> {
  await app.whenReady();

  // No feature of the app needs a permission (camera, notifications, geolocation...).
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);

  registerAppProtocol();

  const store = new SettingsStore(nodeSettingsIo, path.join(app.getPath('userData'), 'settings.json'), (msg) => console.warn(msg));
  const handlers = createHandlers({
    files: nodeFiles,
    dialogs: createDialogs(),
    settings: store,
    tokens: new TokenRegistry(randomUUID),
    assetsRoot: appRoots().assets,
    onRecentChanged: (s) => installMenu(s, store),
    // V-HACD for the sim worker (its CSP forbids the wasm glue): the CLI's disk cache, kept with the app's data
    convexPartsCache: diskConvexPartsCache(process.env.TERRAWHEEL_CACHE_DIR ?? path.join(app.getPath('userData'), 'convex-parts')),
  });
  for (const channel of HANDLED_CHANNELS) {
    ipcMain.handle(channel, (event, ...args: unknown[]) => {
      assertTrustedSender(event);
      return handlers.dispatch(channel, args);
    });
  }

  // View ▸ Live Link: the Foxglove server over the renderer's world (live-link.ts), loopback only
  let rosbridgePort = LIVE_LINK_ROSBRIDGE_PORT;
  try {
    rosbridgePort = rosbridgePortFromEnv(process.env);
  } catch (e) {
    console.warn(`live link: ${(e as Error).message}; using ${rosbridgePort}`);
  }
  const liveLink = new LiveLinkHost({ log: (line) => console.warn(line), rosbridgePort, recordDir: path.join(app.getPath('documents'), LIVE_LINK_RECORD_FOLDER) });
  for (const [channel, handler] of Object.entries(liveLink.handlers())) {
    ipcMain.handle(channel, (event, ...args: unknown[]) => {
      assertTrustedSender(event);
      return handler(args);
    });
  }
  ipcMain.on(IPC_LIVE_LINK.port, (event) => {
    try {
      assertTrustedSender(event);
    } catch (e) {
      console.warn((e as Error).message);
      return;
    }
    if (event.ports.length !== 1) return console.warn(`live link: expected one MessagePort, got ${event.ports.length}`);
    liveLink.attachPort(portEndpoint(event.ports[0]));
  });
  app.on('will-quit', () => void liveLink.stop());

  installMenu(await store.load(), store);
  mainWindow = createWindow();

  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow();
  });
}

if (!app.requestSingleInstanceLock()) {
  // A second launch hands over to the first window (below) and exits.
  app.quit();
} else {
  app.on('second-instance', () => {
    if (mainWindow) {
      if (mainWindow.isMinimized()) mainWindow.restore();
      mainWindow.focus();
    }
  });
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents));
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  start().catch((err: unknown) => {
    console.error('TerraWheel failed to start:', err);
    dialog.showErrorBox('TerraWheel failed to start', String((err as Error)?.stack ?? err));
    app.exit(1);
  });
}
