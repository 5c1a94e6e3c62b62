// The real `easyflow-ls`, for the protocol and webview tests: started in a
// scratch copy of test/fixtures, initialized with the extension's settings.
//
// EASYFLOW_LS names the server (default: ../../target/debug/easyflow-ls);
// when it is missing the tests are skipped, unless EASYFLOW_REQUIRE_SERVER=1.

import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createMessageConnection, type MessageConnection, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node";

import { gzipSync } from "node:zlib";

import type { ExperimentalCapabilities, Graph, GraphPicture } from "../src/protocol";
import { serverSettings } from "../src/settings";

const root = join(__dirname, "..", "..");
export const fixtures = join(root, "test", "fixtures");
/** The server under test; the `easyflow` CLI is beside it. */
export const serverPath = process.env.EASYFLOW_LS ?? join(root, "..", "..", "target", "debug", "easyflow-ls");
const server = serverPath;
const required = process.env.EASYFLOW_REQUIRE_SERVER === "1";
/** The `skip` option of tests that need the server. */
export const skipWithoutServer = !existsSync(server) && !required ? `no server at ${server} (set EASYFLOW_LS)` : false;

export interface LanguageServer {
  connection: MessageConnection;
  /** The scratch workspace (a copy of test/fixtures). */
  workspace: string;
  /** What the server announced under `experimental` in its `initialize` result. */
  experimental: ExperimentalCapabilities;
  uriOf(name: string): string;
  /** Opens `name` of the workspace, with `text` (default: the fixture's). */
  open(name: string, text?: string): Promise<void>;
  /** `easyflow/graph` of an open flow, with its picture when asked. */
  graph(name: string, picture?: boolean): Promise<Graph | null>;
  /** `easyflow/graphPicture` of an open flow. */
  graphPicture(name: string): Promise<GraphPicture | null>;
  /** `shutdown` then `exit`; resolves to the exit status. */
  stop(): Promise<string>;
}

export async function startLanguageServer(): Promise<LanguageServer> {
  assert.ok(existsSync(server), `no server at ${server}: cargo build -p easyflow-ls, or set EASYFLOW_LS`);
  const workspace = mkdtempSync(join(tmpdir(), "easyflow-vscode-"));
  cpSync(fixtures, workspace, { recursive: true });
  const child: ChildProcess = spawn(server, ["--stdio"], { cwd: workspace, stdio: ["pipe", "pipe", "inherit"] });
  const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  connection.listen();
  // The extension's settings, as the extension builds them from its configuration.
  const settings = serverSettings((key) => ({ topology: "", "inlayHints.instances": true, "codeLens.enable": false })[key]);
  const result = await connection.sendRequest<{ capabilities: { experimental: ExperimentalCapabilities } }>("initialize", {
    processId: process.pid,
    rootUri: pathToFileURL(workspace).href,
    workspaceFolders: [{ uri: pathToFileURL(workspace).href, name: "fixtures" }],
    capabilities: {
      general: { positionEncodings: ["utf-16"] },
      workspace: { configuration: true, inlayHint: { refreshSupport: true }, codeLens: { refreshSupport: true } },
    },
    initializationOptions: settings,
  });
  await connection.sendNotification("initialized", {});
  const uriOf = (name: string) => pathToFileURL(join(workspace, name)).href;
  return {
    connection,
    workspace,
    experimental: result.capabilities.experimental,
    uriOf,
    open: (name, text = readFileSync(join(fixtures, name), "utf8")) =>
      connection.sendNotification("textDocument/didOpen", {
        textDocument: { uri: uriOf(name), languageId: "easyflow", version: 1, text },
      }),
    graph: (name, picture = false) =>
      connection.sendRequest<Graph | null>("easyflow/graph", { textDocument: { uri: uriOf(name) }, ...(picture ? { picture } : {}) }),
    graphPicture: (name) => connection.sendRequest<GraphPicture | null>("easyflow/graphPicture", { textDocument: { uri: uriOf(name) } }),
    async stop() {
      const exited = new Promise<string>((resolve) => child.once("exit", (code, signal) => resolve(signal ?? String(code))));
      await connection.sendRequest("shutdown");
      await connection.sendNotification("exit");
      const timeout = setTimeout(() => child.kill("SIGKILL"), 10_000);
      const status = await exited;
      clearTimeout(timeout);
      connection.dispose();
      rmSync(workspace, { recursive: true, force: true });
      return status;
    },
  };
}

/** The `easyflow/graphPicture` of a flow as its `easyflow/graph` with the
 * picture gives it (server.test.ts checks that the server agrees, but for
 * the bytes of the compression). */
export function pictureOf(graph: Graph): GraphPicture {
  return {
    svgGzip: gzipSync(graph.picture ?? "").toString("base64"),
    ranges: graph.nodes.map((n) => n.range),
    edges: graph.edges.length,
    unresolved: graph.unresolved.length,
    stepsInCycle: graph.nodes.filter((n) => n.in_cycle).length,
  };
}
