// Where the "EasyFlow: Export Workflow…" command saves an export, and what it
// says of a flow with errors. The formats themselves are the server's (its
// `initialize` result, `experimental.exportFormats`). Pure: no VS Code API,
// for unit tests.

import * as path from "node:path";

import type { ExportFormat } from "./protocol";

/** Where an export is saved: beside the flow, `NAME.diet.xml` for `NAME.flow`. */
export function exportPath(flowPath: string, choice: Pick<ExportFormat, "suffix">): string {
  const parsed = path.parse(flowPath);
  const stem = parsed.ext === ".flow" ? parsed.name : parsed.base;
  return path.join(parsed.dir, `${stem}${choice.suffix}`);
}

/** The message shown instead of exporting a flow that has errors. */
export function blockedMessage(fileName: string, errors: number): string {
  return `EasyFlow: ${path.basename(fileName)} has ${errors} error${errors === 1 ? "" : "s"}; fix ${errors === 1 ? "it" : "them"} to export the workflow (see the Problems view).`;
}
