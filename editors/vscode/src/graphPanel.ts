// "EasyFlow: Show Workflow Graph": a webview beside the editor drawing the
// `easyflow/graphPicture` of the active flow, re-requested as the flow changes.

import * as path from "node:path";
import * as vscode from "vscode";
import { LSPErrorCodes, ResponseError } from "vscode-languageclient/node";

import type { EasyFlowClient } from "./client";
import type { FromWebview, Range, ToWebview } from "./protocol";
import { graphPage, nonce } from "./graphPage";
import { packPicture } from "./graphPacking";

const DEBOUNCE_MS = 250;

export class GraphPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  /** The flow on display. */
  private uri: vscode.Uri | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pending: vscode.CancellationTokenSource | undefined;
  /** The last message, posted when the page is ready (again when it reloads). */
  private last: ToWebview | undefined;
  /** The ranges of the steps of the last message's picture, for `reveal`. */
  private ranges: (Range | null)[] = [];
  /** The page said it is ready: messages reach it (a large picture is sent once, not queued and sent again). */
  private ready = false;
  private readonly disposables: vscode.Disposable[];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly client: EasyFlowClient,
  ) {
    this.disposables = [
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (this.panel && e.contentChanges.length > 0 && e.document.uri.toString() === this.uri?.toString()) {
          this.schedule();
        }
      }),
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        if (this.panel && editor && isFlow(editor.document) && editor.document.uri.toString() !== this.uri?.toString()) {
          this.uri = editor.document.uri;
          void this.refresh();
        }
      }),
      client.onDidBecomeReady(() => {
        if (this.panel) {
          void this.refresh();
        }
      }),
    ];
  }

  show(): void {
    const editor = vscode.window.activeTextEditor;
    const uri = editor && isFlow(editor.document) ? editor.document.uri : this.uri;
    if (!uri) {
      void vscode.window.showInformationMessage("Open an EasyFlow file (.flow) to show its workflow graph.");
      return;
    }
    this.uri = uri;
    if (this.panel) {
      this.panel.reveal(vscode.ViewColumn.Beside, true);
    } else {
      this.panel = this.createPanel();
    }
    void this.refresh();
  }

  private createPanel(): vscode.WebviewPanel {
    const root = vscode.Uri.joinPath(this.extensionUri, "out", "webview");
    const panel = vscode.window.createWebviewPanel(
      "easyflow.graph",
      "Workflow Graph",
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { enableScripts: true, localResourceRoots: [root] },
    );
    const webview = panel.webview;
    webview.html = graphPage({
      script: webview.asWebviewUri(vscode.Uri.joinPath(root, "graph.js")).toString(),
      style: webview.asWebviewUri(vscode.Uri.joinPath(root, "graph.css")).toString(),
      cspSource: webview.cspSource,
      nonce: nonce(),
    });
    webview.onDidReceiveMessage((message: FromWebview) => {
      if (message.type === "ready") {
        this.ready = true;
        if (this.last) {
          void webview.postMessage(this.last);
        }
      } else if (message.type === "reveal") {
        const range = this.ranges[message.step];
        if (range) {
          void this.reveal(range);
        }
      }
    });
    panel.onDidDispose(() => {
      this.panel = undefined;
      this.last = undefined;
      this.ranges = [];
      this.ready = false;
      clearTimeout(this.timer);
      this.pending?.cancel();
    });
    return panel;
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), DEBOUNCE_MS);
  }

  private async refresh(): Promise<void> {
    const uri = this.uri;
    if (!uri || !this.panel) {
      return;
    }
    clearTimeout(this.timer);
    this.pending?.cancel();
    const pending = new vscode.CancellationTokenSource();
    this.pending = pending;
    const title = path.basename(uri.fsPath);
    this.panel.title = `Graph: ${title}`;
    let message: ToWebview;
    let ranges: (Range | null)[] | undefined;
    try {
      const picture = await this.client.graphPicture(uri, pending.token);
      ranges = picture?.ranges;
      message = { type: "graph", title, uri: uri.toString(), picture: picture && packPicture(picture) };
    } catch (error) {
      if (isStale(error)) {
        return;
      }
      message = { type: "graph", title, uri: uri.toString(), picture: null, error: errorText(error) };
    }
    if (pending.token.isCancellationRequested || this.pending !== pending) {
      return;
    }
    // Without a new picture the page keeps drawing the last one, with the error.
    if (message.picture || !this.last || this.last.uri !== message.uri) {
      this.last = message;
      this.ranges = ranges ?? [];
    } else {
      this.last = { ...this.last, error: message.error };
    }
    if (this.ready) {
      await this.panel?.webview.postMessage(this.last);
    }
  }

  /** Shows the flow with the step's name selected, in the editor it is open in. */
  private async reveal(range: Range): Promise<void> {
    if (!this.uri) {
      return;
    }
    const uri = this.uri;
    const target = new vscode.Range(range.start.line, range.start.character, range.end.line, range.end.character);
    const open = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
    const document = open?.document ?? (await vscode.workspace.openTextDocument(uri));
    const editor = await vscode.window.showTextDocument(document, {
      viewColumn: open?.viewColumn ?? vscode.ViewColumn.One,
      selection: target,
      preserveFocus: false,
    });
    editor.revealRange(target, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  dispose(): void {
    this.panel?.dispose();
    for (const d of this.disposables) {
      d.dispose();
    }
  }
}

function isFlow(document: vscode.TextDocument): boolean {
  return document.languageId === "easyflow";
}

/** Cancelled, or made stale by an edit: a newer request is on its way. */
function isStale(error: unknown): boolean {
  return (
    error instanceof ResponseError &&
    (error.code === LSPErrorCodes.RequestCancelled || error.code === LSPErrorCodes.ContentModified)
  );
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
