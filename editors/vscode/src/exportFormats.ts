// The export formats as the "EasyFlow: Export Workflow…" command offers them,
// and the names it saves exports under. Pure: no VS Code API, for unit tests.

import * as path from "node:path";

import type { ExportFormat } from "./protocol";

export interface ExportChoice {
  format: ExportFormat;
  label: string;
  description: string;
  /** The language the export opens in. */
  language: "xml" | "json";
  /** Appended to the flow's name without `.flow` (`pipeline.diet.xml`). */
  suffix: string;
}

export const EXPORT_CHOICES: readonly ExportChoice[] = [
  { format: "diet", label: "DIET MA DAG (XML)", description: "for DIET's workflow scheduler", language: "xml", suffix: ".diet.xml" },
  { format: "workload", label: "Workload description (JSON)", description: "one task per step, with cardinality and relations", language: "json", suffix: ".workload.json" },
  { format: "model", label: "Workflow DAG model (JSON)", description: "jobs per instance, files, hosts, edges", language: "json", suffix: ".model.json" },
  { format: "cwl", label: "CWL workflow (JSON)", description: "for cwltool and Toil (docs/run.md)", language: "json", suffix: ".cwl" },
];

/** Where an export is saved: beside the flow, `NAME.diet.xml` for `NAME.flow`. */
export function exportPath(flowPath: string, choice: ExportChoice): string {
  const parsed = path.parse(flowPath);
  const stem = parsed.ext === ".flow" ? parsed.name : parsed.base;
  return path.join(parsed.dir, `${stem}${choice.suffix}`);
}

/** The message shown instead of exporting a flow that has errors. */
export function blockedMessage(fileName: string, errors: number): string {
  return `EasyFlow: ${path.basename(fileName)} has ${errors} error${errors === 1 ? "" : "s"}; fix ${errors === 1 ? "it" : "them"} to export the workflow (see the Problems view).`;
}
