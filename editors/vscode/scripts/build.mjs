// Builds the extension into out/: the extension host bundle, the graph page
// (bundled script and its stylesheet), and copies in what the
// VSIX needs from the repository (the TextMate grammars of ../../syntaxes and
// the diagnostics documentation the server links to).
//
//   node scripts/build.mjs               development build (source maps)
//   node scripts/build.mjs --production  minified; missing grammars are an error
//   node scripts/build.mjs --tests       also the tests, into out/test/
//   node scripts/build.mjs --e2e         also the end-to-end test, into out/e2e/

import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const repo = join(root, "..", "..");
const production = process.argv.includes("--production");
const tests = process.argv.includes("--tests");
const e2e = process.argv.includes("--e2e");

const GRAMMARS = ["easyflow.tmLanguage.json", "easyflow-topology.tmLanguage.json"];

rmSync(join(root, "out"), { recursive: true, force: true });

const common = {
  bundle: true,
  minify: production,
  sourcemap: !production,
  logLevel: "warning",
  absWorkingDir: root,
};

const [extension, webview] = await Promise.all([
  esbuild.build({
    ...common,
    entryPoints: ["src/extension.ts"],
    outfile: "out/extension.js",
    platform: "node",
    format: "cjs",
    // VS Code 1.91 runs extensions on Node 20.
    target: "node20",
    external: ["vscode"],
    metafile: true,
  }),
  esbuild.build({
    ...common,
    entryPoints: ["src/webview/main.ts"],
    outfile: "out/webview/graph.js",
    platform: "browser",
    format: "iife",
    // The webview of VS Code 1.91 (Electron 29).
    target: "chrome122",
    metafile: true,
  }),
  tests && buildTests("test"),
  e2e && buildTests("e2e"),
]);
copy(join(root, "src/webview/graph.css"), join(root, "out/webview/graph.css"));
writeNotices([extension.metafile, webview.metafile], join(root, "out", "THIRD_PARTY_NOTICES.txt"));

const missing = GRAMMARS.filter((g) => !existsSync(join(repo, "syntaxes", g)));
if (missing.length > 0) {
  const message = `grammars missing from ${join(repo, "syntaxes")}: ${missing.join(", ")}`;
  if (production) {
    console.error(`build: ${message}`);
    process.exit(1);
  }
  console.warn(`build: warning: ${message} (the VSIX would lack syntax highlighting)`);
}
for (const grammar of GRAMMARS.filter((g) => !missing.includes(g))) {
  copy(join(repo, "syntaxes", grammar), join(root, "syntaxes", grammar));
}
// The server links each diagnostic's code to this file when it is installed
// beside it (`<extension>/docs/diagnostics.md` for `<extension>/server/easyflow-ls`).
copy(join(repo, "docs", "diagnostics.md"), join(root, "docs", "diagnostics.md"));
// The JSON Schemas of easyflow.toml and the package catalog, contributed to
// Even Better TOML (`tomlValidation` in package.json).
for (const schema of ["easyflow.schema.json", "easyflow-packages.schema.json"]) {
  copy(join(repo, "schemas", schema), join(root, "schemas", schema));
}

/** The `*.test.ts` files of `dir` (each with what it imports) into out/<dir>/, for `node --test`. */
function buildTests(dir) {
  return esbuild.build({
    ...common,
    entryPoints: readdirSync(join(root, dir))
      .filter((f) => f.endsWith(".test.ts"))
      .map((f) => `${dir}/${f}`),
    outdir: `out/${dir}`,
    platform: "node",
    format: "cjs",
    target: "node20",
    packages: "external",
  });
}

/** The licences of the npm packages bundled into out/ (minifying drops their headers). */
function writeNotices(metafiles, file) {
  const packages = new Set();
  for (const metafile of metafiles) {
    for (const input of Object.keys(metafile.inputs)) {
      const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
      if (match) packages.add(match[1]);
    }
  }
  const sections = [...packages].sort().map((name) => {
    const dir = join(root, "node_modules", name);
    const { version, license, repository } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    const source = typeof repository === "string" ? repository : repository?.url;
    const text = readdirSync(dir).find((f) => /^(licen[cs]e|copying)/i.test(f));
    return `${name} ${version} (${license})${source ? `, source: ${source}` : ""}\n\n${text ? readFileSync(join(dir, text), "utf8").trim() : ""}`;
  });
  writeFileSync(file, `Bundled third-party packages\n\n${sections.join(`\n\n${"-".repeat(72)}\n\n`)}\n`);
}

function copy(from, to) {
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(from, to);
}
