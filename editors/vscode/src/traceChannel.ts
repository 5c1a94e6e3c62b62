// The language client writes its message trace to a log channel and traces
// only while that channel's level is Trace. This channel's level follows the
// `easyflow.trace.server` setting instead, so the setting alone turns the trace
// on (`messages`, `verbose`) and off.

import * as vscode from "vscode";

export function createTraceChannel(name: string, section: string): vscode.LogOutputChannel & vscode.Disposable {
  const output = vscode.window.createOutputChannel(name);
  const changed = new vscode.EventEmitter<vscode.LogLevel>();
  const level = (): vscode.LogLevel =>
    vscode.workspace.getConfiguration(section).get<string>("trace.server", "off") === "off"
      ? vscode.LogLevel.Info
      : vscode.LogLevel.Trace;
  let current = level();
  const watcher = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(`${section}.trace.server`) && level() !== current) {
      current = level();
      changed.fire(current);
    }
  });
  const write = (tag: string) => (message: string | Error) =>
    output.appendLine(`[${tag} - ${new Date().toLocaleTimeString()}] ${message instanceof Error ? message.stack ?? message.message : message}`);
  return {
    name,
    get logLevel() {
      return current;
    },
    onDidChangeLogLevel: changed.event,
    trace: write("Trace"),
    debug: write("Debug"),
    info: write("Info"),
    warn: write("Warn"),
    error: write("Error"),
    append: (value) => output.append(value),
    appendLine: (value) => output.appendLine(value),
    replace: (value) => output.replace(value),
    clear: () => output.clear(),
    show: (column?: vscode.ViewColumn | boolean, preserveFocus?: boolean) =>
      typeof column === "boolean" ? output.show(column) : output.show(column, preserveFocus),
    hide: () => output.hide(),
    dispose: () => {
      watcher.dispose();
      changed.dispose();
      output.dispose();
    },
  };
}
