// "EasyFlow: Run Workflow" and the "Run" code lens above a flow's first
// step: asks the server for the flow's CWL export (refused with the reasons
// shown for a flow that cannot run), asks for a file for each required
// name, then runs `easyflow run` in a terminal of the editor, in the flow's
// folder (outputs in easyflow-out/STEM), with the engine of
// `easyflow.run.engine`.

import * as path from "node:path";

import * as vscode from "vscode";
import { ResponseError } from "vscode-languageclient/node";

import { type EasyFlowClient, SECTION } from "./client";
import { engineSetting, findCli, notRunMessage, requiredFiles, runArguments } from "./runWorkflow";

const REQUEST_FAILED = -32803;

export async function runWorkflow(client: EasyFlowClient, extensionPath: string, uri?: vscode.Uri): Promise<vscode.Terminal | undefined> {
  const flow = uri
    ? await vscode.workspace.openTextDocument(uri)
    : vscode.window.activeTextEditor?.document;
  if (!flow || flow.languageId !== "easyflow") {
    void vscode.window.showInformationMessage("Open an EasyFlow file (.flow) to run its workflow.");
    return undefined;
  }
  const errors = vscode.languages.getDiagnostics(flow.uri).filter((d) => d.severity === vscode.DiagnosticSeverity.Error).length;
  if (errors > 0) {
    void vscode.window.showErrorMessage(notRunMessage(flow.fileName, errors));
    return undefined;
  }
  let cwl: string;
  try {
    const result = await client.export(flow.uri, "cwl");
    if (!result) {
      void vscode.window.showErrorMessage("EasyFlow: the server cannot read this flow.");
      return undefined;
    }
    cwl = result.text;
  } catch (error) {
    const message = error instanceof ResponseError && error.code === REQUEST_FAILED ? error.message : String(error instanceof Error ? error.message : error);
    void vscode.window.showErrorMessage(`EasyFlow: cannot run this flow. ${message}`);
    return undefined;
  }
  const cli = findCli(extensionPath);
  if (!cli) {
    void vscode.window.showErrorMessage("EasyFlow: `easyflow` (the command-line tool) is not on PATH: install it to run flows (docs/run.md).");
    return undefined;
  }
  await flow.save();
  const folder = path.dirname(flow.uri.fsPath);
  const inputs = new Map<string, string>();
  for (const name of requiredFiles(cwl)) {
    const picked = await vscode.window.showOpenDialog({
      title: `EasyFlow: the file for \`${name}\``,
      openLabel: `Use for ${name}`,
      canSelectFiles: true,
      canSelectFolders: false,
      canSelectMany: false,
      defaultUri: vscode.Uri.file(folder),
    });
    if (!picked || picked.length === 0) {
      return undefined;
    }
    inputs.set(name, picked[0].fsPath);
  }
  const engine = engineSetting(vscode.workspace.getConfiguration(SECTION, flow.uri).get("run.engine"));
  const terminal = vscode.window.createTerminal({
    name: `EasyFlow: run ${path.basename(flow.fileName)}`,
    cwd: folder,
    shellPath: cli,
    shellArgs: runArguments(flow.uri.fsPath, engine, inputs),
  });
  terminal.show();
  return terminal;
}

/** "Run" above the first step of each flow (steps are the server's Function symbols, long-running ones Event). */
export class RunCodeLens implements vscode.CodeLensProvider {
  async provideCodeLenses(document: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    if (vscode.workspace.getConfiguration(SECTION, document.uri).get("codeLens.enable") === false) {
      return [];
    }
    const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[] | undefined>("vscode.executeDocumentSymbolProvider", document.uri);
    const first = (symbols ?? [])
      .filter((symbol) => symbol.kind === vscode.SymbolKind.Function || symbol.kind === vscode.SymbolKind.Event)
      .sort((a, b) => a.range.start.compareTo(b.range.start))[0];
    if (!first) {
      return [];
    }
    return [new vscode.CodeLens(first.range, { title: "▶ Run", command: "easyflow.runWorkflow", arguments: [document.uri] })];
  }
}
