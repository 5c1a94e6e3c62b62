// The protocol the extension relies on, against the real `easyflow-ls`: the
// settings it sends (initializationOptions and didChangeConfiguration), and the
// `easyflow/graph` request the graph view makes, before and after an edit.
// The graph of each fixture must equal test/fixtures/NAME.graph.json, the
// input of the webview tests (regenerate with UPDATE_FIXTURES=1).
//
// EASYFLOW_LS names the server (default: ../../target/debug/easyflow-ls);
// when it is missing the tests are skipped, unless EASYFLOW_REQUIRE_SERVER=1.

import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { pathToFileURL } from "node:url";
import { createMessageConnection, type MessageConnection, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node";

import type { Graph } from "../src/protocol";
import { serverSettings } from "../src/settings";

const root = join(__dirname, "..", "..");
const fixtures = join(root, "test", "fixtures");
const server = process.env.EASYFLOW_LS ?? join(root, "..", "..", "target", "debug", "easyflow-ls");
const required = process.env.EASYFLOW_REQUIRE_SERVER === "1";
const skip = !existsSync(server) && !required ? `no server at ${server} (set EASYFLOW_LS)` : false;

describe("easyflow-ls protocol", { skip }, () => {
  let workspace: string;
  let child: ChildProcess;
  let connection: MessageConnection;
  const uriOf = (name: string) => pathToFileURL(join(workspace, name)).href;

  before(async () => {
    assert.ok(existsSync(server), `no server at ${server}: cargo build -p easyflow-ls, or set EASYFLOW_LS`);
    workspace = mkdtempSync(join(tmpdir(), "easyflow-vscode-"));
    cpSync(fixtures, workspace, { recursive: true });
    child = spawn(server, ["--stdio"], { cwd: workspace, stdio: ["pipe", "pipe", "inherit"] });
    connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    connection.listen();
    // The extension's settings, as the extension builds them from its configuration.
    const settings = serverSettings((key) => ({ topology: "", "inlayHints.instances": true, "codeLens.enable": false })[key]);
    const result = await connection.sendRequest<{ capabilities: object }>("initialize", {
      processId: process.pid,
      rootUri: pathToFileURL(workspace).href,
      workspaceFolders: [{ uri: pathToFileURL(workspace).href, name: "fixtures" }],
      capabilities: {
        general: { positionEncodings: ["utf-16"] },
        workspace: { configuration: true, inlayHint: { refreshSupport: true }, codeLens: { refreshSupport: true } },
      },
      initializationOptions: settings,
    });
    assert.ok(result.capabilities);
    await connection.sendNotification("initialized", {});
  });

  after(async () => {
    if (!connection) {
      return;
    }
    const exited = new Promise<string>((resolve) => child.once("exit", (code, signal) => resolve(signal ?? String(code))));
    await connection.sendRequest("shutdown");
    await connection.sendNotification("exit");
    const timeout = setTimeout(() => child.kill("SIGKILL"), 10_000);
    // `shutdown` then `exit`: status 0 (lsp.md), promptly.
    assert.equal(await exited, "0");
    clearTimeout(timeout);
    connection.dispose();
    rmSync(workspace, { recursive: true, force: true });
  });

  const open = (name: string, text = readFileSync(join(fixtures, name), "utf8")) =>
    connection.sendNotification("textDocument/didOpen", {
      textDocument: { uri: uriOf(name), languageId: "easyflow", version: 1, text },
    });
  const graphOf = (name: string) => connection.sendRequest<Graph | null>("easyflow/graph", { textDocument: { uri: uriOf(name) } });

  for (const name of ["broken", "data-deps", "full-step"]) {
    test(`easyflow/graph of ${name}.flow is the webview fixture`, async () => {
      await open(`${name}.flow`);
      const graph = await graphOf(`${name}.flow`);
      const expected = join(fixtures, `${name}.graph.json`);
      if (process.env.UPDATE_FIXTURES === "1") {
        writeFileSync(expected, `${JSON.stringify(graph, null, 2)}\n`);
      }
      assert.deepEqual(graph, JSON.parse(readFileSync(expected, "utf8")));
      assert.ok(graph!.nodes.every((n) => n.range), "every node has a range");
    });
  }

  // The command "EasyFlow: Export Workflow…" asks exactly this: the bytes of
  // `easyflow export` (the expected files of tests/data/export), or
  // RequestFailed for a flow with errors.
  test("easyflow/export gives the bytes of easyflow export, and refuses a flow with errors", async () => {
    const cases = join(root, "..", "..", "tests", "data", "export");
    await open("worked-example.flow", readFileSync(join(cases, "worked-example.flow"), "utf8"));
    for (const [to, extension] of [["diet", "diet.xml"], ["workload", "workload.json"], ["model", "model.json"]]) {
      const result = await connection.sendRequest<{ text: string } | null>("easyflow/export", { textDocument: { uri: uriOf("worked-example.flow") }, to });
      assert.equal(result?.text, readFileSync(join(cases, `worked-example.${extension}`), "utf8"), to);
    }
    await open("refused.flow", "step A runs P (x = Missing.outs[\"r\"]);\n");
    await assert.rejects(
      connection.sendRequest("easyflow/export", { textDocument: { uri: uriOf("refused.flow") }, to: "diet" }),
      (error: { code: number; message: string }) => error.code === -32803 && /line 1: E0201/.test(error.message),
    );
  });

  // "EasyFlow: Run Workflow" asks for the CWL export first: the bytes
  // `easyflow export --to cwl` writes (the CLI beside the server).
  test("easyflow/export to cwl gives the bytes of easyflow export --to cwl", async () => {
    cpSync(join(root, "..", "..", "examples", "greetings"), join(workspace, "greetings"), { recursive: true });
    await open("greetings/greetings.flow", readFileSync(join(workspace, "greetings", "greetings.flow"), "utf8"));
    const result = await connection.sendRequest<{ text: string } | null>("easyflow/export", { textDocument: { uri: uriOf("greetings/greetings.flow") }, to: "cwl" });
    const cli = spawnSync(join(dirname(server), "easyflow"), ["export", "greetings/greetings.flow", "--to", "cwl"], { cwd: workspace, encoding: "utf8" });
    assert.equal(cli.status, 0, cli.stderr);
    assert.equal(result?.text, cli.stdout);
    // A flow whose packages cannot run is refused with the reasons.
    await open("no-catalog.flow", "step A runs P ();\n");
    await assert.rejects(
      connection.sendRequest("easyflow/export", { textDocument: { uri: uriOf("no-catalog.flow") }, to: "cwl" }),
      (error: { code: number; message: string }) => error.code === -32803 && /no package catalog/.test(error.message),
    );
  });

  test("the graph follows edits (what the graph view re-requests as the user types)", async () => {
    await open("typing.flow", "step A runs P ();\n");
    assert.deepEqual((await graphOf("typing.flow"))!.nodes.map((n) => n.id), ["A"]);
    await connection.sendNotification("textDocument/didChange", {
      textDocument: { uri: uriOf("typing.flow"), version: 2 },
      contentChanges: [
        { range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, text: "step B runs Q after A (x = sweep [1, 2]);\n" },
      ],
    });
    const graph = (await graphOf("typing.flow"))!;
    assert.deepEqual(
      graph.nodes.map((n) => [n.id, n.level, n.instances]),
      [
        ["A", 0, 1],
        ["B", 1, 2],
      ],
    );
    assert.deepEqual(graph.edges, [{ from: "A", to: "B", kind: "control", in_cycle: false }]);
    assert.deepEqual(graph.nodes[1].range, { start: { line: 1, character: 5 }, end: { line: 1, character: 6 } });
  });

  test("didChangeConfiguration with the whole `easyflow` section, as the client sends it", async () => {
    // The server asks the client to refresh hints and lenses; like VS Code, answer.
    const refreshed = ["workspace/inlayHint/refresh", "workspace/codeLens/refresh"].map(
      (method) => new Promise<void>((resolve) => connection.onRequest(method, () => (resolve(), null))),
    );
    await connection.sendNotification("workspace/didChangeConfiguration", {
      settings: {
        easyflow: {
          server: { path: "" },
          topology: "cluster.topology",
          catalog: "",
          inlayHints: { instances: false },
          codeLens: { enable: true },
          trace: { server: "off" },
        },
      },
    });
    // Still answering, with the new settings applied.
    const graph = await graphOf("data-deps.flow");
    assert.equal(graph!.nodes.length, 5);
    // `exit` while a refresh is unanswered can leave the server hanging: settle them first.
    await Promise.race([Promise.all(refreshed), new Promise((resolve) => setTimeout(resolve, 2000))]);
  });
});
