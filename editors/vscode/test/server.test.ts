// The protocol the extension relies on, against the real `easyflow-ls`: the
// settings it sends (initializationOptions and didChangeConfiguration), the
// `easyflow/graph` request, before and after an edit, the `easyflow/graphPicture`
// request the graph view makes, and the export formats the server announces.
// The graph (with its picture) of each fixture must equal
// test/fixtures/NAME.graph.json (regenerate with UPDATE_FIXTURES=1), and its
// graphPicture must agree with it.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { gunzipSync } from "node:zlib";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";

import { exportPath } from "../src/exportFormats";
import { fixtures, type LanguageServer, pictureOf, serverPath, skipWithoutServer, startLanguageServer } from "./languageServer";

const root = join(__dirname, "..", "..");

describe("easyflow-ls protocol", { skip: skipWithoutServer }, () => {
  let server: LanguageServer;

  before(async () => {
    server = await startLanguageServer();
  });

  after(async () => {
    // `shutdown` then `exit`: status 0 (lsp.md), promptly.
    if (server) {
      assert.equal(await server.stop(), "0");
    }
  });

  const open = (name: string, text?: string) => server.open(name, text);
  const graphOf = (name: string, picture = false) => server.graph(name, picture);

  for (const name of ["broken", "data-deps", "full-step"]) {
    test(`easyflow/graph of ${name}.flow with its picture is the webview fixture`, async () => {
      await open(`${name}.flow`);
      const graph = await graphOf(`${name}.flow`, true);
      const expected = join(fixtures, `${name}.graph.json`);
      if (process.env.UPDATE_FIXTURES === "1") {
        writeFileSync(expected, `${JSON.stringify(graph, null, 2)}\n`);
      }
      assert.deepEqual(graph, JSON.parse(readFileSync(expected, "utf8")));
      assert.ok(graph!.nodes.every((n) => n.range), "every node has a range");
      // Without `picture`, the graph of cli.md alone.
      const { picture, ...plain } = graph!;
      assert.ok(picture?.startsWith("<svg "));
      assert.deepEqual(await graphOf(`${name}.flow`), plain);
      // What the graph view asks for: the same picture, compressed, and
      // what the webview tests send it (`pictureOf`).
      const forView = await server.graphPicture(`${name}.flow`);
      const { svgGzip, ...rest } = pictureOf(graph!);
      assert.equal(gunzipSync(Buffer.from(forView!.svgGzip, "base64")).toString("utf8"), picture);
      assert.deepEqual({ ...forView, svgGzip }, { ...rest, svgGzip });
    });
  }

  // The command "EasyFlow: Export Workflow…" asks exactly this: the bytes of
  // `easyflow export` (the expected files of tests/data/export), or
  // RequestFailed for a flow with errors.
  test("easyflow/export gives the bytes of easyflow export in each announced format, and refuses a flow with errors", async () => {
    const cases = join(root, "..", "..", "tests", "data", "export");
    const { connection, uriOf } = server;
    await open("worked-example.flow", readFileSync(join(cases, "worked-example.flow"), "utf8"));
    const formats = server.experimental.exportFormats;
    assert.ok(formats.length >= 4, JSON.stringify(formats));
    // CWL needs a catalog of runnable packages: the next test.
    for (const format of formats.filter((f) => f.name !== "cwl")) {
      const result = await connection.sendRequest<{ text: string } | null>("easyflow/export", { textDocument: { uri: uriOf("worked-example.flow") }, to: format.name });
      assert.equal(result?.text, readFileSync(exportPath(join(cases, "worked-example.flow"), format), "utf8"), format.name);
    }
    await assert.rejects(
      connection.sendRequest("easyflow/export", { textDocument: { uri: uriOf("worked-example.flow") }, to: "svg" }),
      (error: { code: number }) => error.code === -32602,
    );
    await open("refused.flow", "step A runs P (x = Missing.outs[\"r\"]);\n");
    await assert.rejects(
      connection.sendRequest("easyflow/export", { textDocument: { uri: uriOf("refused.flow") }, to: "diet" }),
      (error: { code: number; message: string }) => error.code === -32803 && /line 1: E0201/.test(error.message),
    );
  });

  // "EasyFlow: Run Workflow" asks for the CWL export first: the bytes
  // `easyflow export --to cwl` writes (the CLI beside the server).
  test("easyflow/export to cwl gives the bytes of easyflow export --to cwl", async () => {
    const { connection, uriOf, workspace } = server;
    cpSync(join(root, "..", "..", "examples", "greetings"), join(workspace, "greetings"), { recursive: true });
    await open("greetings/greetings.flow", readFileSync(join(workspace, "greetings", "greetings.flow"), "utf8"));
    const result = await connection.sendRequest<{ text: string } | null>("easyflow/export", { textDocument: { uri: uriOf("greetings/greetings.flow") }, to: "cwl" });
    const cli = spawnSync(join(dirname(serverPath), "easyflow"), ["export", "greetings/greetings.flow", "--to", "cwl"], { cwd: workspace, encoding: "utf8" });
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
    await server.connection.sendNotification("textDocument/didChange", {
      textDocument: { uri: server.uriOf("typing.flow"), version: 2 },
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
      (method) => new Promise<void>((resolve) => server.connection.onRequest(method, () => (resolve(), null))),
    );
    await server.connection.sendNotification("workspace/didChangeConfiguration", {
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
