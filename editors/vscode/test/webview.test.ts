// The graph page in headless Chromium (Debian's `chromium`): the page the
// extension shows, loaded from out/webview with a stub `acquireVsCodeApi`, fed
// through `postMessage` the `easyflow/graphPicture` results of the fixtures
// (made from their `easyflow/graph` with the picture, `pictureOf`) and of
// flows the real server is given here.
//
// CHROMIUM overrides the browser (default /usr/bin/chromium). Screenshots go to
// test-results/. The server as for server.test.ts (EASYFLOW_LS).

import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { pathToFileURL } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";

import { graphPage } from "../src/graphPage";
import { packPicture } from "../src/graphPacking";
import type { FromWebview, Graph, ToWebview } from "../src/protocol";
import { type LanguageServer, pictureOf, skipWithoutServer, startLanguageServer } from "./languageServer";

const root = join(__dirname, "..", "..");
const results = join(root, "test-results");
const fixture = (name: string): Graph => JSON.parse(readFileSync(join(root, "test", "fixtures", `${name}.graph.json`), "utf8"));

/** The page as the extension serves it, with the webview API stubbed out. */
function writePage(): string {
  const dir = join(root, "out", "test", "page");
  mkdirSync(dir, { recursive: true });
  const html = graphPage({
    script: "../../webview/graph.js",
    style: "../../webview/graph.css",
    cspSource: "file:",
    nonce: "test",
    prelude: `window.posted = [];
window.acquireVsCodeApi = () => ({ postMessage: (m) => window.posted.push(m), getState: () => undefined, setState: () => {} });`,
  });
  const file = join(dir, "index.html");
  writeFileSync(file, html);
  return pathToFileURL(file).href;
}

declare global {
  interface Window {
    posted: FromWebview[];
  }
}

let browser: Browser;
let url: string;
let server: LanguageServer | undefined;

/** The graph and picture the server gives for `text`. */
async function graphOf(name: string, text: string): Promise<Graph> {
  server ??= await startLanguageServer();
  await server.open(name, text);
  const graph = await server.graph(name, true);
  assert.ok(graph?.picture, `no picture for ${name}`);
  return graph;
}

before(async () => {
  const executablePath = process.env.CHROMIUM ?? "/usr/bin/chromium";
  assert.ok(existsSync(executablePath), `${executablePath} is missing: apt-get install chromium (or set CHROMIUM)`);
  assert.ok(existsSync(join(root, "out", "webview", "graph.js")), "build the page first: node scripts/build.mjs --tests");
  url = writePage();
  mkdirSync(results, { recursive: true });
  browser = await chromium.launch({
    executablePath,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
  });
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** A page that has loaded and said `ready`, and the errors it logs. */
async function open(width = 1100, height = 620): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width, height } });
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForFunction(() => window.posted.some((m) => m.type === "ready"));
  return { page, errors };
}

/** Posts `message` as the extension does, its packed SVG as bytes. */
async function send(page: Page, message: ToWebview, state = "drawn"): Promise<void> {
  const packed = message.picture && Buffer.from(message.picture.svgGzip).toString("base64");
  await page.evaluate(
    ({ m, packed }) => {
      delete document.body.dataset.state;
      const picture = m.picture && { ...m.picture, svgGzip: Uint8Array.from(atob(packed!), (c) => c.charCodeAt(0)) };
      window.postMessage({ ...m, picture }, "*");
    },
    { m: { ...message, picture: message.picture && { ...message.picture, svgGzip: null } }, packed },
  );
  await page.waitForSelector(`body[data-state="${state}"]`, { timeout: 30_000 });
}

const graphMessage = (name: string, graph: Graph = fixture(name)): ToWebview => ({
  type: "graph",
  title: `${name}.flow`,
  uri: `file:///work/${name}.flow`,
  picture: packPicture(pictureOf(graph)),
});

const count = (page: Page, selector: string) => page.locator(selector).count();

describe("graph webview", { skip: skipWithoutServer }, () => {
  test("draws a broken flow: cycle, unresolved names, edge kinds, instances", async () => {
    const { page, errors } = await open();
    await send(page, graphMessage("broken"));
    // 6 steps and the 2 unresolved names (`Missing`, `Nowhere`).
    assert.equal(await count(page, "#graph .node"), 8);
    assert.equal(await count(page, "#graph .node.step"), 6);
    assert.equal(await count(page, "#graph .node.unresolved"), 2);
    // 7 edges and one from each unresolved name to the step naming it.
    assert.equal(await count(page, "#graph .edge"), 9);
    assert.equal(await count(page, "#graph .edge.control"), 3);
    assert.equal(await count(page, "#graph .edge.data"), 5);
    assert.equal(await count(page, "#graph .edge.stream"), 1);
    // Red: the 3 edges of the cycle A → B → C → A, and the 2 unresolved ones.
    assert.equal(await count(page, "#graph .edge.bad"), 5);
    assert.equal(await count(page, "#graph .node.in-cycle"), 3);
    assert.equal(await count(page, "#graph .node.long-running"), 1);
    assert.equal(await page.locator('#graph .node[data-id="B"] .instances').textContent(), "× 3");
    assert.deepEqual(await page.locator("#graph .column text").allTextContents(), ["level 0", "level 1", "no level (cycle)"]);
    assert.match((await page.locator("#summary").textContent()) ?? "", /6 steps · 7 edges · 2 unresolved · 3 steps on a cycle/);

    // Every step's box lies inside its level's column, levels left to right.
    const x = async (id: string) => (await page.locator(`#graph .node[data-id="${id}"]`).boundingBox())!.x;
    assert.ok((await x("Load")) < (await x("Watch")));
    assert.ok((await x("Watch")) < (await x("Report")));

    await page.screenshot({ path: join(results, "graph.png") });
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("a click on a step posts reveal with its place; on an unresolved name, the step naming it", async () => {
    const { page } = await open();
    const graph = fixture("broken");
    await send(page, graphMessage("broken", graph));
    const stepOf = (id: string) => graph.nodes.findIndex((n) => n.id === id);

    await page.click('#graph .node[data-id="C"]');
    await page.click('#graph .node[data-id="?Missing"]');
    await page.focus('#graph .node[data-id="Watch"]');
    await page.keyboard.press("Enter");
    const reveals = await page.evaluate(() => window.posted.filter((m) => m.type === "reveal"));
    assert.deepEqual(reveals, [
      { type: "reveal", step: stepOf("C") },
      { type: "reveal", step: stepOf("A") },
      { type: "reveal", step: stepOf("Watch") },
    ]);
    assert.equal(await count(page, "#graph .node.selected"), 1);

    // A drag pans and reveals nothing.
    const box = (await page.locator('#graph .node[data-id="B"]').boundingBox())!;
    await page.mouse.move(box.x + 5, box.y + 5);
    await page.mouse.down();
    await page.mouse.move(box.x + 80, box.y + 40, { steps: 5 });
    await page.mouse.up();
    assert.equal(await page.evaluate(() => window.posted.filter((m) => m.type === "reveal").length), 3);
    await page.close();
  });

  test("draws a clean flow, and updates as the flow changes", async () => {
    const { page, errors } = await open(900, 480);
    await send(page, graphMessage("data-deps"));
    assert.equal(await count(page, "#graph .node"), 5);
    assert.equal(await count(page, "#graph .edge"), 4);
    assert.equal(await count(page, "#graph .edge.bad"), 0);
    assert.equal(await count(page, "#graph .edge.control"), 3);
    assert.deepEqual(await page.locator("#graph .column text").allTextContents(), ["level 0", "level 1", "level 2"]);
    await page.screenshot({ path: join(results, "graph-data-deps.png") });

    // The user types a new step depending on D: the new graph is drawn.
    const typed = `${readFileSync(join(root, "test", "fixtures", "data-deps.flow"), "utf8")}\nstep E runs Pkg5 (x = D.outs["o"], n = sweep [1, 2, 3, 4]);\n`;
    await send(page, graphMessage("data-deps", await graphOf("data-deps.flow", typed)));
    assert.equal(await count(page, "#graph .node"), 6);
    assert.equal(await count(page, "#graph .edge"), 5);
    assert.equal(await page.locator('#graph .node[data-id="E"] .instances').textContent(), "× 4");

    // The server fails for a moment: the last graph stays, with the error.
    await page.evaluate(() => {
      window.postMessage({ type: "graph", title: "data-deps.flow", uri: "file:///work/data-deps.flow", picture: null, error: "server busy" }, "*");
    });
    await page.waitForFunction(() => document.getElementById("error")!.textContent === "server busy");
    assert.equal(await count(page, "#graph .node"), 6);

    // A flow with no steps.
    await send(page, graphMessage("empty", { nodes: [], edges: [], unresolved: [], levels: [] }), "empty");
    assert.equal(await page.locator("#empty").textContent(), "No steps in this flow.");
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("draws a flow with a step body, sweeps and a long-running step", async () => {
    const { page, errors } = await open(900, 400);
    await send(page, graphMessage("full-step"));
    assert.equal(await count(page, "#graph .node"), 3);
    assert.equal(await count(page, "#graph .edge.stream"), 1);
    assert.equal(await page.locator('#graph .node[data-id="StepName"] .instances').textContent(), "× 3");
    await page.screenshot({ path: join(results, "graph-full-step.png") });
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("draws a step depending on itself, a repeated step name, a step without a package and one that never runs", async () => {
    const { page, errors } = await open(600, 300);
    const graph = await graphOf(
      "self.flow",
      'step A runs P (x = A.outs["o"]);\nstep A runs P ();\nstep B runs P after A (y = A2);\nstep C runs (n = sweep []);\n',
    );
    await send(page, graphMessage("self", graph));
    // A, A#2, B, C and the unresolved name A2.
    assert.deepEqual(await page.locator("#graph .node .name").allTextContents(), ["A", "A#2", "B", "C", "A2"]);
    // A → A, A → B and A2 → B.
    assert.equal(await count(page, "#graph .edge"), 3);
    assert.equal(await page.locator('#graph .node[data-id="C"] .detail.missing').textContent(), "no package");
    // W0404: a step that never runs says so, as in the SVG of the command line.
    assert.equal(await page.locator('#graph .node[data-id="C"] .instances').textContent(), "× 0");
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("draws large flows, laid out by the server", async () => {
    const { page, errors } = await open();
    for (const steps of [400, 3000]) {
      const graph = await graphOf(`large-${steps}.flow`, layered(steps));
      const started = Date.now();
      await send(page, graphMessage(`large-${steps}`, graph));
      assert.equal(await page.locator("body").getAttribute("data-nodes"), String(steps));
      assert.equal(await page.locator("body").getAttribute("data-edges"), String(graph.edges.length));
      console.log(`# ${steps} steps, ${graph.edges.length} edges drawn in ${Date.now() - started} ms`);
    }
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("a large flow zoomed out is painted; zoomed in, only the boxes in view are in the page", async () => {
    const { page, errors } = await open();
    const steps = 3000;
    const graph = await graphOf(`large-${steps}.flow`, layered(steps));
    await send(page, graphMessage(`large-${steps}`, graph));
    const stepOf = (id: string) => graph.nodes.findIndex((n) => n.id === id);
    // Fitted, every box is a speck: painted on the canvas, none in the page.
    assert.equal(await count(page, "#graph .node"), 0);
    assert.equal(await page.locator("#far").isVisible(), true);

    // A click on a painted box reveals its step: S1510, where the picture
    // and the view's transform put it.
    const [, x, y, width] = /translate\(([\d.]+),([\d.]+)\)" data-id="S1510"><title>[^<]*<\/title><rect width="([\d.]+)"/.exec(graph.picture!)!.map(Number);
    const [dx, dy, scale] = (await page.locator("#graph > g").getAttribute("transform"))!.match(/-?[\d.]+(?:e-?\d+)?/g)!.map(Number);
    const svg = (await page.locator("#graph").boundingBox())!;
    await page.mouse.click(svg.x + dx + (x + width / 2) * scale, svg.y + dy + (y + 22) * scale);
    await page.waitForFunction(() => window.posted.some((m) => m.type === "reveal"));
    assert.deepEqual(await page.evaluate(() => window.posted.filter((m) => m.type === "reveal")), [{ type: "reveal", step: stepOf("S1510") }]);

    // Zoomed in around the pointer, the boxes in view are the server's elements.
    await page.mouse.move(svg.x + svg.width / 2, svg.y + svg.height / 2);
    for (let i = 0; i < 5; i++) {
      await page.mouse.wheel(0, -400);
    }
    await page.waitForFunction(() => document.querySelectorAll("#graph .node").length > 0);
    const inPage = await count(page, "#graph .node");
    assert.ok(inPage < steps / 4, `${inPage} boxes in the page`);
    assert.equal(await page.locator("#far").isVisible(), false);
    const id = await page.evaluate(() => {
      const view = document.getElementById("graph")!.getBoundingClientRect();
      const inView = Array.from(document.querySelectorAll<SVGGElement>("#graph .node")).find((n) => {
        const r = n.getBoundingClientRect();
        return r.left > view.left && r.right < view.right && r.top > view.top && r.bottom < view.bottom;
      });
      return inView?.dataset.id;
    });
    assert.ok(id, "a box wholly in view");
    assert.equal(await page.locator(`#graph .node[data-id="${id}"] .name`).textContent(), id);
    await page.click(`#graph .node[data-id="${id}"]`);
    await page.waitForFunction(() => window.posted.filter((m) => m.type === "reveal").length === 2);
    assert.deepEqual((await page.evaluate(() => window.posted.filter((m) => m.type === "reveal")))[1], { type: "reveal", step: stepOf(id) });
    assert.deepEqual(errors, []);
    await page.close();
  });
});

/** A flow of levels of 20 steps, each depending on two of the level before. */
function layered(steps: number): string {
  const width = 20;
  const lines: string[] = [];
  for (let i = 0; i < steps; i++) {
    const level = Math.floor(i / width);
    const sweep = i % 3 === 0 ? "" : `, n = sweep [${Array.from({ length: 1 + (i % 3) }, (_, k) => k).join(", ")}]`;
    const inputs = level > 0 ? `x = S${i - width}.outs["o"]${sweep}` : sweep.slice(2);
    const after = level > 0 ? ` after S${(level - 1) * width + ((i * 7) % width)}` : "";
    lines.push(`step S${i} runs Pkg${i % 7}${after} (${inputs});`);
  }
  return `${lines.join("\n")}\n`;
}
