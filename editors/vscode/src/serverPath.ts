// Where `easyflow-ls` is: the `easyflow.server.path` setting, else the server
// bundled in the extension (`server/easyflow-ls`), else `easyflow-ls` on PATH.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const EXE = process.platform === "win32" ? "easyflow-ls.exe" : "easyflow-ls";

export interface ServerCommand {
  command: string;
  /** Where it came from, for the status bar tooltip and errors. */
  origin: "setting" | "bundled" | "PATH";
}

/** Whether `command` names an executable file (a bare name: one on PATH). */
export function isExecutable(command: string): boolean {
  const candidates = command.includes(path.sep) || command.includes("/")
    ? [command]
    : (process.env.PATH ?? "").split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, command));
  return candidates.some((file) => {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return fs.statSync(file).isFile();
    } catch {
      return false;
    }
  });
}

export function findServer(
  setting: string | undefined,
  extensionPath: string,
  workspaceFolder: string | undefined,
): ServerCommand {
  const configured = setting?.trim();
  if (configured) {
    return { command: resolveSetting(configured, workspaceFolder), origin: "setting" };
  }
  const bundled = path.join(extensionPath, "server", EXE);
  if (fs.existsSync(bundled)) {
    ensureExecutable(bundled);
    return { command: bundled, origin: "bundled" };
  }
  return { command: EXE, origin: "PATH" };
}

/** `~/…` is in the home directory; a relative path with a separator is relative to the workspace. */
function resolveSetting(setting: string, workspaceFolder: string | undefined): string {
  if (setting === "~" || setting.startsWith("~/")) {
    return path.join(os.homedir(), setting.slice(1));
  }
  if (!path.isAbsolute(setting) && setting.includes("/") && workspaceFolder) {
    return path.join(workspaceFolder, setting);
  }
  return setting;
}

/** A VSIX unpacked by a tool that drops file modes would leave the server unrunnable. */
function ensureExecutable(file: string): void {
  if (process.platform === "win32") {
    return;
  }
  try {
    fs.accessSync(file, fs.constants.X_OK);
  } catch {
    try {
      fs.chmodSync(file, 0o755);
    } catch {
      // Starting it reports the problem.
    }
  }
}
