// The EasyFlow extension: the language client for `easyflow-ls`, its status
// bar item, the workflow graph view, the export command and the run command.

import * as vscode from "vscode";

import { EasyFlowClient, SECTION } from "./client";
import { exportWorkflow } from "./exportCommand";
import { GraphPanel } from "./graphPanel";
import { RunCodeLens, runWorkflow } from "./runCommand";
import { ServerStatus } from "./status";

let client: EasyFlowClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const status = new ServerStatus();
  client = new EasyFlowClient(context.extensionPath, status);
  const graph = new GraphPanel(context.extensionUri, client);
  const current = client;
  const runLens = new RunCodeLens();
  context.subscriptions.push(
    status,
    current,
    graph,
    vscode.commands.registerCommand("easyflow.restartServer", () => current.restart()),
    vscode.commands.registerCommand("easyflow.showGraph", () => graph.show()),
    vscode.commands.registerCommand("easyflow.showOutput", () => current.showOutput()),
    // The optional format ("diet", "workload", "model") skips the question (for tests and keybindings).
    vscode.commands.registerCommand("easyflow.exportWorkflow", (format?: string) => exportWorkflow(current, format)),
    // The optional flow (the code lens passes it); else the active editor's.
    vscode.commands.registerCommand("easyflow.runWorkflow", (uri?: vscode.Uri) => runWorkflow(current, context.extensionPath, uri)),
    runLens,
    vscode.languages.registerCodeLensProvider({ language: "easyflow" }, runLens),
    vscode.workspace.onDidChangeConfiguration((e) => {
      // The other settings reach the running server through didChangeConfiguration.
      if (e.affectsConfiguration(`${SECTION}.server.path`)) {
        void current.restart();
      }
    }),
  );
  await current.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
