// The extension's pure parts: the settings sent to the server, where the
// server executable is found, and where exports are saved.

import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";

import { blockedMessage, exportPath } from "../src/exportFormats";
import { commandLine, engineSetting, exitMessage, findCli, requiredFiles, runArguments } from "../src/runWorkflow";
import { findServer, isExecutable } from "../src/serverPath";
import { serverSettings } from "../src/settings";

describe("serverSettings", () => {
  test("defaults: no topology, hints and lenses on", () => {
    assert.deepEqual(
      serverSettings(() => undefined),
      { topology: null, catalog: null, inlayHints: { instances: true }, codeLens: { enable: true }, diagnostics: { scope: "workspace" } },
    );
  });

  test("values from the configuration; an empty path is none", () => {
    const config: Record<string, unknown> = { topology: " cluster.topology ", catalog: "", "inlayHints.instances": false, "codeLens.enable": false, "diagnostics.scope": "openFiles" };
    assert.deepEqual(
      serverSettings((key) => config[key]),
      { topology: "cluster.topology", catalog: null, inlayHints: { instances: false }, codeLens: { enable: false }, diagnostics: { scope: "openFiles" } },
    );
  });
});

describe("settings per workspace folder", () => {
  // The server asks each folder's `easyflow` section (workspace/configuration
  // with the folder as scopeUri); VS Code answers a folder's own value only for
  // a setting of the scope "resource".
  test("the settings the server applies per folder are of the resource scope", () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, "..", "..", "package.json"), "utf8"));
    const properties = manifest.contributes.configuration.properties;
    for (const key of ["topology", "catalog", "inlayHints.instances", "codeLens.enable", "run.engine"]) {
      assert.equal(properties[`easyflow.${key}`]?.scope, "resource", `easyflow.${key}`);
    }
  });
});

describe("findServer", () => {
  const extension = mkdtempSync(join(tmpdir(), "easyflow-ext-"));

  test("PATH when nothing is bundled", () => {
    assert.deepEqual(findServer("", extension, undefined), { command: "easyflow-ls", origin: "PATH" });
  });

  test("the bundled server, made executable if its mode was lost", () => {
    mkdirSync(join(extension, "server"));
    const bundled = join(extension, "server", "easyflow-ls");
    writeFileSync(bundled, "#!/bin/sh\n", { mode: 0o644 });
    assert.deepEqual(findServer(undefined, extension, undefined), { command: bundled, origin: "bundled" });
    assert.equal(statSync(bundled).mode & 0o111, 0o111);
    assert.ok(isExecutable(bundled));
  });

  test("isExecutable: paths, and bare names on PATH", () => {
    assert.ok(isExecutable("sh"));
    assert.ok(!isExecutable("easyflow-ls-that-does-not-exist"));
    assert.ok(!isExecutable(join(extension, "missing")));
    assert.ok(!isExecutable(extension), "a directory is not an executable");
  });

  test("the setting wins: absolute, home, workspace-relative, bare name", () => {
    assert.equal(findServer("/opt/easyflow-ls", extension, "/ws").command, "/opt/easyflow-ls");
    assert.equal(findServer("~/bin/easyflow-ls", extension, "/ws").command, join(homedir(), "bin/easyflow-ls"));
    assert.equal(findServer("target/release/easyflow-ls", extension, "/ws").command, "/ws/target/release/easyflow-ls");
    assert.deepEqual(findServer("easyflow-ls-dev", extension, "/ws"), { command: "easyflow-ls-dev", origin: "setting" });
    rmSync(extension, { recursive: true, force: true });
  });
});

describe("exports", () => {
  // The formats are the server's (server.test.ts checks them); what matters
  // here is the suffix.
  test("an export is saved beside its flow", () => {
    const [diet, model] = [{ suffix: ".diet.xml" }, { suffix: ".model.json" }];
    assert.equal(exportPath("/ws/flows/pipeline.flow", diet), "/ws/flows/pipeline.diet.xml");
    assert.equal(exportPath("/ws/a.b.flow", model), "/ws/a.b.model.json");
    assert.equal(exportPath("/ws/untitled", model), "/ws/untitled.model.json");
  });

  test("the message for a flow with errors says how many and where to look", () => {
    assert.equal(
      blockedMessage("/ws/pipeline.flow", 2),
      "EasyFlow: pipeline.flow has 2 errors; fix them to export the workflow (see the Problems view).",
    );
    assert.match(blockedMessage("a.flow", 1), /has 1 error; fix it/);
  });
});

describe("running a workflow", () => {
  test("the required files are the inputs of the CWL export's #main", () => {
    const cwl = JSON.stringify({ cwlVersion: "v1.2", $graph: [{ id: "#main", class: "Workflow", inputs: [{ id: "#main/names", type: "File" }, { id: "#main/grid", type: "File" }] }] });
    assert.deepEqual(requiredFiles(cwl), ["names", "grid"]);
  });

  test("easyflow run with the engine and an --input per file", () => {
    const inputs = new Map([["names", "/data/names with spaces.txt"], ["grid", "g.txt"]]);
    assert.deepEqual(runArguments("/w/greetings.flow", "toil", inputs), [
      "run", "/w/greetings.flow", "--engine", "toil", "--input", "names=/data/names with spaces.txt", "--input", "grid=g.txt",
    ]);
  });

  test("the run's terminal shows its command line as a shell would take it back, and how it ended", () => {
    assert.equal(
      commandLine(["easyflow", "run", "/w/a b.flow", "--input", "names=/d/it's.txt"]),
      "easyflow run '/w/a b.flow' --input 'names=/d/it'\\''s.txt'",
    );
    assert.equal(exitMessage(0, null), "EasyFlow: the run succeeded (exit status 0).");
    assert.equal(exitMessage(2, null), "EasyFlow: the run failed (exit status 2); the messages above say why.");
    assert.equal(exitMessage(null, "SIGINT"), "EasyFlow: the run was stopped (SIGINT); the messages above say why.");
  });

  test("the engine setting is cwltool unless it says toil", () => {
    assert.equal(engineSetting(undefined), "cwltool");
    assert.equal(engineSetting("toil"), "toil");
    assert.equal(engineSetting("other"), "cwltool");
  });

  test("the bundled CLI beside the server", () => {
    const extension = mkdtempSync(join(tmpdir(), "easyflow-ext-"));
    mkdirSync(join(extension, "server"));
    writeFileSync(join(extension, "server", "easyflow"), "");
    assert.equal(findCli(extension), join(extension, "server", "easyflow"));
    rmSync(extension, { recursive: true, force: true });
  });
});
