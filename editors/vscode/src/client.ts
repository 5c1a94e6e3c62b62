// The language client: starts `easyflow-ls --stdio`, keeps the status bar in
// step with it, carries the `easyflow/graphPicture` and `easyflow/export` requests,
// and shows the dependents lens's locations in the references view.

import * as path from "node:path";
import * as vscode from "vscode";
import {
  CloseAction,
  type CloseHandlerResult,
  type ErrorHandler,
  LanguageClient,
  type LanguageClientOptions,
  RequestType,
  type ServerOptions,
  State,
} from "vscode-languageclient/node";

import type {
  ExperimentalCapabilities,
  ExportFormat,
  ExportParams,
  ExportResult,
  GraphPicture,
  GraphPictureParams,
  ShowDependentsArguments,
} from "./protocol";
import { findServer, isExecutable } from "./serverPath";
import { serverSettings } from "./settings";
import type { ServerStatus } from "./status";
import { createTraceChannel } from "./traceChannel";

export const SECTION = "easyflow";

const GraphPictureRequest = new RequestType<GraphPictureParams, GraphPicture | null, void>("easyflow/graphPicture");
const ExportRequest = new RequestType<ExportParams, ExportResult | null, void>("easyflow/export");

/** The command of the "M dependents" code lens (docs/lsp-extensions.md). */
export const SHOW_DEPENDENTS_COMMAND = "easyflow.showDependents";

/** The dependents a lens carries, in VS Code's references view. */
async function showDependents(client: LanguageClient, [uri, position, locations]: ShowDependentsArguments): Promise<void> {
  const convert = client.protocol2CodeConverter;
  await vscode.commands.executeCommand(
    "editor.action.showReferences",
    convert.asUri(uri),
    convert.asPosition(position),
    locations.map((location) => convert.asLocation(location)),
  );
}

export class EasyFlowClient implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private readonly output = vscode.window.createOutputChannel("EasyFlow Language Server", { log: true });
  private readonly trace = createTraceChannel("EasyFlow Language Server Trace", SECTION);
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the server becomes ready (after a start or a restart). */
  readonly onDidBecomeReady = this.changed.event;

  constructor(
    private readonly extensionPath: string,
    private readonly status: ServerStatus,
  ) {}

  async start(): Promise<void> {
    const config = vscode.workspace.getConfiguration(SECTION);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const server = findServer(config.get<string>("server.path"), this.extensionPath, folder);
    const detail = `${server.command} (${server.origin === "setting" ? "easyflow.server.path" : server.origin})`;
    if (!isExecutable(server.command)) {
      this.fail(
        server.origin === "PATH"
          ? "Cannot start the EasyFlow language server: easyflow-ls is not bundled with this extension and not on PATH. Set easyflow.server.path."
          : `Cannot start the EasyFlow language server: ${server.command} is not an executable file (easyflow.server.path).`,
      );
      return;
    }
    const run = { command: server.command, args: ["--stdio"], options: { cwd: folder } };
    const serverOptions: ServerOptions = { run, debug: run };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [
        { scheme: "file", language: "easyflow" },
        { scheme: "file", language: "easyflow-topology" },
        { scheme: "file", pattern: "**/easyflow.toml" },
        // Package catalogs: their own diagnostics (E0810).
        { scheme: "file", pattern: "**/easyflow-packages.toml" },
        // A catalog of another name, named by the setting: each folder's own.
        ...(vscode.workspace.workspaceFolders ?? []).flatMap((f) =>
          catalogSelector(vscode.workspace.getConfiguration(SECTION, f.uri).get<string>("catalog"), f.uri.fsPath),
        ),
        ...(folder === undefined ? catalogSelector(config.get<string>("catalog"), undefined) : []),
      ],
      initializationOptions: serverSettings((key) => config.get(key)),
      synchronize: { configurationSection: SECTION },
      outputChannel: this.output,
      traceOutputChannel: this.trace,
      errorHandler: this.errorHandler(detail, () => client),
      middleware: {
        // The dependents lens's command is shown here, in the references
        // view, rather than sent to the server (which answers it for
        // clients without a handler of their own).
        executeCommand: (command, args, next) =>
          command === SHOW_DEPENDENTS_COMMAND ? showDependents(client, args as ShowDependentsArguments) : next(command, args),
      },
    };
    const client: LanguageClient = new LanguageClient("easyflow", "EasyFlow Language Server", serverOptions, clientOptions);
    this.client = client;
    client.onDidChangeState(({ newState }) => {
      if (this.client !== client) {
        return;
      }
      if (newState === State.Starting) {
        this.status.set("starting", detail);
      } else if (newState === State.Running) {
        this.status.set("ready", detail);
        this.changed.fire();
      } else if (this.status.state !== "error") {
        this.status.set("stopped", detail);
      }
    });
    this.status.set("starting", detail);
    try {
      await client.start();
    } catch (error) {
      this.fail(`Cannot start the EasyFlow language server ${server.command}: ${errorText(error)}`);
    }
  }

  private fail(message: string): void {
    this.output.error(message);
    this.status.set("error", message);
    void vscode.window.showErrorMessage(message, "Open Settings", "Show Output").then((choice) => {
      if (choice === "Open Settings") {
        void vscode.commands.executeCommand("workbench.action.openSettings", "easyflow.server.path");
      } else if (choice === "Show Output") {
        this.output.show();
      }
    });
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client && client.state !== State.Stopped) {
      try {
        await client.stop(2000);
      } catch {
        // A server that does not answer `shutdown` is killed by the client.
      }
    }
    this.status.set("stopped");
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  showOutput(): void {
    this.output.show();
  }

  /** The `easyflow/graphPicture` of a flow, what the graph view draws; rejects while the server is not running. */
  async graphPicture(uri: vscode.Uri, token?: vscode.CancellationToken): Promise<GraphPicture | null> {
    const client = this.client;
    if (!client || client.state !== State.Running) {
      throw new Error("The EasyFlow language server is not running.");
    }
    return client.sendRequest(GraphPictureRequest, { textDocument: { uri: client.code2ProtocolConverter.asUri(uri) } }, token);
  }

  /** The export formats the server announced (none while it is not running). */
  exportFormats(): ExportFormat[] {
    const experimental = this.client?.initializeResult?.capabilities.experimental as ExperimentalCapabilities | undefined;
    return experimental?.exportFormats ?? [];
  }

  /** The `easyflow/export` of a flow (`to`: a format's name); rejects while the server is not running, or with RequestFailed for a flow with errors. */
  async export(uri: vscode.Uri, to: string): Promise<ExportResult | null> {
    const client = this.client;
    if (!client || client.state !== State.Running) {
      throw new Error("The EasyFlow language server is not running.");
    }
    return client.sendRequest(ExportRequest, { textDocument: { uri: client.code2ProtocolConverter.asUri(uri) }, to });
  }

  /** The default handler's restarts, with the status bar told when it gives up. */
  private errorHandler(detail: string, client: () => LanguageClient): ErrorHandler {
    let fallback: ErrorHandler | undefined;
    const inner = (): ErrorHandler => (fallback ??= client().createDefaultErrorHandler(4));
    return {
      error: (error, message, count) => inner().error(error, message, count),
      closed: async (): Promise<CloseHandlerResult> => {
        const result = await inner().closed();
        if (result.action === CloseAction.DoNotRestart) {
          this.status.set("error", result.message ?? `The server stopped: ${detail}`);
        } else {
          this.status.set("starting", `Restarting after a crash: ${detail}`);
        }
        return result;
      },
    };
  }

  dispose(): void {
    void this.stop();
    this.output.dispose();
    this.trace.dispose();
    this.changed.dispose();
  }
}

/**
 * The document selector of the catalog the setting `easyflow.catalog` names
 * (relative to the first workspace folder), so that it gets its own
 * diagnostics under any name.
 */
function catalogSelector(setting: string | undefined, folder: string | undefined): { scheme: string; pattern: string }[] {
  const value = setting?.trim();
  if (!value) {
    return [];
  }
  const absolute = path.isAbsolute(value) || folder === undefined ? value : path.join(folder, value);
  return [{ scheme: "file", pattern: absolute.split(path.sep).join("/") }];
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
