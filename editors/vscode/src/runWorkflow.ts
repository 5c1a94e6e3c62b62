// "EasyFlow: Run Workflow" without the VS Code API, for unit tests: the
// required files a flow's CWL export asks for, the `easyflow` command line
// that runs it (run.md §4), and where the CLI is.

import * as fs from "node:fs";
import * as path from "node:path";

import { isExecutable } from "./serverPath";

export type Engine = "cwltool" | "toil";

/** The `easyflow.run.engine` setting: cwltool unless it says toil. */
export function engineSetting(value: unknown): Engine {
  return value === "toil" ? "toil" : "cwltool";
}

/** The required files of a flow: the inputs of its CWL export's `#main`. */
export function requiredFiles(cwl: string): string[] {
  const document = JSON.parse(cwl) as { $graph?: { id?: string; inputs?: { id?: string }[] }[] };
  const main = document.$graph?.find((entry) => entry.id === "#main");
  return (main?.inputs ?? []).map((input) => (input.id ?? "").replace(/^#main\//, "")).filter((name) => name !== "");
}

/** The arguments of `easyflow run` for a flow, an engine and a file for each required name. */
export function runArguments(flowPath: string, engine: Engine, inputs: ReadonlyMap<string, string>): string[] {
  const args = ["run", flowPath, "--engine", engine];
  for (const [name, file] of inputs) {
    args.push("--input", `${name}=${file}`);
  }
  return args;
}

/** The `easyflow` CLI: bundled beside the server (`server/easyflow`), else on PATH. */
export function findCli(extensionPath: string): string | undefined {
  const exe = process.platform === "win32" ? "easyflow.exe" : "easyflow";
  const bundled = path.join(extensionPath, "server", exe);
  if (fs.existsSync(bundled)) {
    return bundled;
  }
  return isExecutable(exe) ? exe : undefined;
}

/** The message shown instead of running a flow that has errors. */
export function notRunMessage(fileName: string, errors: number): string {
  return `EasyFlow: ${path.basename(fileName)} has ${errors} error${errors === 1 ? "" : "s"}; fix ${errors === 1 ? "it" : "them"} to run the workflow (see the Problems view).`;
}

/** A command line as a POSIX shell would take it back: words with anything but `[\w@%+=:,./-]` single-quoted. */
export function commandLine(words: readonly string[]): string {
  return words.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`)).join(" ");
}

/** The last line of a run's terminal: how `easyflow run` ended (its status is the engine's, run.md §4). */
export function exitMessage(code: number | null, signal: string | null): string {
  if (code === 0) {
    return "EasyFlow: the run succeeded (exit status 0).";
  }
  const how = code === null ? `was stopped (${signal ?? "by a signal"})` : `failed (exit status ${code})`;
  return `EasyFlow: the run ${how}; the messages above say why.`;
}
