// "EasyFlow: Export Workflow…": asks for a format, asks the server for
// `easyflow/export` of the active flow, opens the result in a new editor
// (XML or JSON) and offers to save it beside the flow. A flow with errors is
// not exported: the command says so and points at the Problems view.

import * as vscode from "vscode";
import { ResponseError } from "vscode-languageclient/node";

import type { EasyFlowClient } from "./client";
import { blockedMessage, exportPath } from "./exportFormats";
import type { ExportFormat } from "./protocol";

/** LSP's RequestFailed: the server refused (the flow has errors). */
const REQUEST_FAILED = -32803;
export const SAVE_BESIDE = "Save Beside the Flow";
/** Where an export opens: at its first line, whatever the editor would
 * restore (the end, where the user left the file after an earlier export). */
const TOP = new vscode.Range(0, 0, 0, 0);

export async function exportWorkflow(client: EasyFlowClient, format?: string): Promise<vscode.TextDocument | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== "easyflow") {
    void vscode.window.showInformationMessage("Open an EasyFlow file (.flow) to export its workflow.");
    return undefined;
  }
  const flow = editor.document;
  const errors = vscode.languages
    .getDiagnostics(flow.uri)
    .filter((d) => d.severity === vscode.DiagnosticSeverity.Error).length;
  if (errors > 0) {
    void vscode.window.showErrorMessage(blockedMessage(flow.fileName, errors));
    return undefined;
  }
  const formats = client.exportFormats();
  if (formats.length === 0) {
    void vscode.window.showErrorMessage("EasyFlow: not exported. The language server, which knows the formats, is not running.");
    return undefined;
  }
  const choice: ExportFormat | undefined =
    formats.find((c) => c.name === format) ??
    (await vscode.window.showQuickPick(
      formats.map((c) => ({ ...c, choice: c })),
      { title: "Export Workflow", placeHolder: "The format to export the workflow to" },
    ))?.choice;
  if (!choice) {
    return undefined;
  }
  let text: string;
  try {
    const result = await client.export(flow.uri, choice.name);
    if (!result) {
      void vscode.window.showErrorMessage("EasyFlow: the server cannot read this flow.");
      return undefined;
    }
    text = result.text;
  } catch (error) {
    const message = error instanceof ResponseError && error.code === REQUEST_FAILED ? error.message : String(error instanceof Error ? error.message : error);
    void vscode.window.showErrorMessage(`EasyFlow: not exported. ${message}`);
    return undefined;
  }
  const exported = await vscode.workspace.openTextDocument({ content: text, language: choice.language });
  await vscode.window.showTextDocument(exported, { viewColumn: vscode.ViewColumn.Beside, preview: false, selection: TOP });
  void offerToSave(flow, choice, text);
  return exported;
}

async function offerToSave(flow: vscode.TextDocument, choice: ExportFormat, text: string): Promise<void> {
  if (flow.uri.scheme !== "file") {
    return;
  }
  const target = vscode.Uri.file(exportPath(flow.uri.fsPath, choice));
  const name = vscode.workspace.asRelativePath(target);
  const answer = await vscode.window.showInformationMessage(`Exported as ${choice.label}. Save it as ${name}?`, SAVE_BESIDE);
  if (answer !== SAVE_BESIDE) {
    return;
  }
  try {
    await vscode.workspace.fs.stat(target);
    const overwrite = await vscode.window.showWarningMessage(`${name} exists. Replace it?`, { modal: true }, "Replace");
    if (overwrite !== "Replace") {
      return;
    }
  } catch {
    // Not there yet.
  }
  await vscode.workspace.fs.writeFile(target, Buffer.from(text, "utf8"));
  await vscode.window.showTextDocument(target, { viewColumn: vscode.ViewColumn.Beside, preview: false, selection: TOP });
}
