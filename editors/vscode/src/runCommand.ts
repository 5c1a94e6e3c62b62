// "EasyFlow: Run Workflow" and the "Run" code lens above a flow's first
// step: asks the server for the flow's CWL export (refused with the reasons
// shown for a flow that cannot run), asks for a file for each required
// name, then runs `easyflow run` in a terminal of the editor, in the flow's
// folder (outputs in easyflow-out/STEM), with the engine of
// `easyflow.run.engine`.

import { type ChildProcess, spawn } from "node:child_process";
import * as path from "node:path";

import * as vscode from "vscode";
import { ResponseError } from "vscode-languageclient/node";

import { type EasyFlowClient, SECTION } from "./client";
import { commandLine, engineSetting, exitMessage, findCli, notRunMessage, requiredFiles, runArguments } from "./runWorkflow";

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
    // The errors themselves: the Problems view, beside the message.
    void vscode.commands.executeCommand("workbench.actions.view.problems");
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
    pty: new RunTerminal(cli, runArguments(flow.uri.fsPath, engine, inputs), folder),
  });
  terminal.show();
  return terminal;
}

/**
 * `easyflow run` in a terminal of the editor: what it and the engine print,
 * as it comes, then its exit status, the terminal left open to read them (a
 * terminal running the CLI itself would close on a quick failure, its
 * message lost). Ctrl+C stops the run.
 */
class RunTerminal implements vscode.Pseudoterminal {
  private readonly written = new vscode.EventEmitter<string>();
  readonly onDidWrite = this.written.event;
  private child: ChildProcess | undefined;

  constructor(
    private readonly cli: string,
    private readonly args: string[],
    private readonly cwd: string,
  ) {}

  open(): void {
    this.write(`${commandLine(["easyflow", ...this.args])}\n`);
    const child = spawn(this.cli, this.args, { cwd: this.cwd, stdio: ["ignore", "pipe", "pipe"] });
    this.child = child;
    for (const stream of [child.stdout, child.stderr]) {
      const decoder = new TextDecoder();
      stream.on("data", (chunk: Buffer) => this.write(decoder.decode(chunk, { stream: true })));
    }
    child.on("error", (error) => this.write(`EasyFlow: cannot run ${this.cli}: ${error.message}\n`));
    child.on("close", (code, signal) => {
      this.child = undefined;
      this.write(`\n${exitMessage(code, signal)}\n`);
    });
  }

  close(): void {
    this.child?.kill();
  }

  handleInput(data: string): void {
    if (data === "\x03") {
      this.child?.kill("SIGINT");
    }
  }

  private write(text: string): void {
    this.written.fire(text.replace(/\r?\n/g, "\r\n"));
  }
}

/** "Run" above the first step of each flow (steps are the server's Function symbols, long-running ones Event). */
export class RunCodeLens implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Asked again when `easyflow.codeLens.enable` changes, not only when a flow does. */
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly watcher = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(`${SECTION}.codeLens.enable`)) {
      this.changed.fire();
    }
  });

  dispose(): void {
    this.watcher.dispose();
    this.changed.dispose();
  }

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
