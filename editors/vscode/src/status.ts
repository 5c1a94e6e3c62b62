// The status bar item: the server's state.

import * as vscode from "vscode";

export type ServerState = "starting" | "ready" | "stopped" | "error";

const LOOK: Record<ServerState, { icon: string; label: string; background?: string }> = {
  starting: { icon: "$(sync~spin)", label: "starting" },
  ready: { icon: "$(check)", label: "ready" },
  stopped: { icon: "$(circle-slash)", label: "stopped", background: "statusBarItem.warningBackground" },
  error: { icon: "$(error)", label: "error", background: "statusBarItem.errorBackground" },
};

export class ServerStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem("easyflow.status", vscode.StatusBarAlignment.Left, 0);
  private _state: ServerState = "stopped";

  constructor() {
    this.item.name = "EasyFlow Language Server";
    this.set("stopped");
    this.item.show();
  }

  get state(): ServerState {
    return this._state;
  }

  /** `detail`: what is running, or what went wrong (the tooltip). */
  set(state: ServerState, detail?: string): void {
    this._state = state;
    const look = LOOK[state];
    this.item.text = `${look.icon} EasyFlow`;
    this.item.backgroundColor = look.background ? new vscode.ThemeColor(look.background) : undefined;
    const tooltip = new vscode.MarkdownString(`**EasyFlow language server**: ${look.label}`);
    if (detail) {
      tooltip.appendText(`\n\n${detail}`);
    }
    tooltip.appendMarkdown(
      state === "ready" || state === "starting"
        ? "\n\nClick to show the server output."
        : "\n\nClick to restart the server.",
    );
    this.item.tooltip = tooltip;
    this.item.command = state === "ready" || state === "starting" ? "easyflow.showOutput" : "easyflow.restartServer";
    this.item.accessibilityInformation = { label: `EasyFlow language server: ${look.label}` };
  }

  dispose(): void {
    this.item.dispose();
  }
}
