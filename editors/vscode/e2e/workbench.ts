// What a user does in the VS Code workbench, as the end-to-end test does it:
// through the keyboard, the command palette and what is on screen. Every
// wait is for a condition of the page (never a fixed sleep), and a wait that
// times out says what it waited for and what it saw last.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, FrameLocator, Locator, Page } from "playwright-core";

export interface Problem {
  /** The file's name as the Problems panel shows it. */
  file: string;
  severity: "error" | "warning" | "info";
  message: string;
  code: string;
  /** Where the code links to. */
  href: string | null;
  line: number;
  column: number;
}

export interface Cursor {
  line: number;
  column: number;
  /** Characters selected, 0 when none. */
  selected: number;
}

/** The id of the extension's status bar item (`<publisher>.<name>.<item id>`). */
export const STATUS_ITEM = "clavire.easyflow.easyflow.status";

export class Workbench {
  /** Requests the page sent to anything but this machine. */
  readonly outsideRequests: string[] = [];

  private constructor(
    readonly page: Page,
    private readonly screenshots: string,
  ) {
    // Webview resources have vscode-cdn.net addresses that the webview's
    // service worker answers from this machine: only what it does not
    // answer would have gone out.
    page.on("response", (response) => {
      if (isOutside(response.url()) && !response.fromServiceWorker()) {
        this.outsideRequests.push(response.url());
      }
    });
    page.on("requestfailed", (request) => {
      if (isOutside(request.url())) {
        this.outsideRequests.push(`${request.url()} (failed: ${request.failure()?.errorText})`);
      }
    });
  }

  /** Loads the workbench and waits until the extension's status item shows. */
  static async open(browser: Browser, url: string, screenshots: string): Promise<Workbench> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(30_000);
    const workbench = new Workbench(page, screenshots);
    await page.goto(url);
    await page.locator(".monaco-workbench").waitFor({ timeout: 120_000 });
    await workbench.statusItem(STATUS_ITEM).waitFor({ timeout: 60_000 });
    return workbench;
  }

  // --- Commands and editors ---------------------------------------------------

  /** Runs a command by its title from the command palette (F1), e.g. "EasyFlow: Show Workflow Graph". */
  async runCommand(title: string): Promise<void> {
    await this.page.keyboard.press("F1");
    await this.quickInput(`>${title}`, (label) => label === title || label.startsWith(`${title},`), `the command "${title}"`);
  }

  /** Runs a command that asks a question in a quick pick, leaving the question open (answer it with `pick`). */
  async runCommandAsking(title: string): Promise<void> {
    await this.page.keyboard.press("F1");
    await this.quickInput(`>${title}`, (label) => label === title || label.startsWith(`${title},`), `the command "${title}"`, false);
    await this.page.locator(".quick-input-widget input:not([placeholder='Type the name of a command to run.'])").waitFor();
  }

  /** Accepts the entry labelled `label` of the open quick pick (e.g. a command's question). */
  async pick(label: string): Promise<void> {
    await this.quickInput(label, (entry) => entry === label || entry.startsWith(`${label},`) || entry.startsWith(`${label} `), `the entry "${label}"`);
  }

  /** Opens a workspace file by its path with Quick Open (Ctrl+P), and waits until its editor is active. */
  async openFile(path: string): Promise<void> {
    const name = path.split("/").pop()!;
    await this.page.keyboard.press("Control+P");
    // The entry's label is "NAME, …" or "NAME FOLDER, …".
    await this.quickInput(path, (label) => label.startsWith(`${name},`) || label.startsWith(`${name} `), `the file ${path}`);
    await this.page.locator(`.tabs-container .tab.active[data-resource-name="${name}"]`).waitFor();
    await this.activeEditor().locator(".view-lines").waitFor();
  }

  /** Moves the cursor with Go to Line/Column (Ctrl+G). */
  async goTo(line: number, column: number): Promise<void> {
    await this.page.keyboard.press("Control+G");
    const input = this.page.locator(".quick-input-widget input");
    await input.waitFor();
    await input.fill(`:${line}:${column}`);
    await this.page.keyboard.press("Enter");
    await this.waitForCursor({ line, column }, `the cursor at ${line}:${column}`);
  }

  /** The cursor position as the status bar shows it ("Ln 5, Col 6 (8 selected)"). */
  async cursor(): Promise<Cursor | undefined> {
    const text = await this.page.locator('[id="status.editor.selection"]').innerText({ timeout: 1_000 }).catch(() => "");
    const match = /Ln (\d+), Col (\d+)(?: \((\d+) selected\))?/.exec(text);
    return match ? { line: Number(match[1]), column: Number(match[2]), selected: Number(match[3] ?? 0) } : undefined;
  }

  async waitForCursor(want: Partial<Cursor>, what: string): Promise<Cursor | undefined> {
    return waitUntil(
      () => this.cursor(),
      (cursor) => !!cursor && Object.entries(want).every(([key, value]) => cursor[key as keyof Cursor] === value),
      what,
      (cursor) => `the cursor is at ${JSON.stringify(cursor)}`,
    );
  }

  /** The text of the active editor's rendered lines, top to bottom, inlay hints included. */
  async visibleText(): Promise<string> {
    // The editor reuses line elements: their order in the page is not the lines' order.
    return this.activeEditor()
      .locator(".view-lines .view-line")
      .evaluateAll((lines) =>
        lines
          .map((line) => ({ top: parseFloat((line as HTMLElement).style.top), text: (line as HTMLElement).innerText }))
          .sort((a, b) => a.top - b.top)
          .map((line) => line.text)
          .join("\n"),
      )
      // Spaces are rendered as no-break spaces.
      .then((text) => text.replace(/\u00a0/g, " "));
  }

  async waitForText(test: (text: string) => boolean, what: string): Promise<string> {
    return waitUntil(() => this.visibleText(), test, what, (text) => `the editor shows:\n${text}`);
  }

  /** Waits until the code lenses of the active editor, top to bottom, pass `test`. */
  async waitForCodeLenses(test: (lenses: string[]) => boolean, what: string): Promise<string[]> {
    return waitUntil(
      () => this.activeEditor().locator(".codelens-decoration").allInnerTexts(),
      test,
      what,
      (lenses) => `the code lenses are ${JSON.stringify(lenses)}`,
    );
  }

  /** Clicks the code lens titled `title` in the active editor. */
  async clickCodeLens(title: string): Promise<void> {
    await this.activeEditor().locator(".codelens-decoration a", { hasText: title }).first().click();
  }

  /**
   * Answers an open-file dialog whose title contains `title` with `path`.
   * In a browser, VS Code's dialog is a quick input holding a path.
   */
  async chooseFile(title: string, path: string): Promise<void> {
    const dialog = this.page.locator(".quick-input-widget");
    await waitUntil(
      () => dialog.locator(".quick-input-title").innerText({ timeout: 1_000 }).catch(() => ""),
      (shown) => shown.includes(title),
      `the open dialog "${title}"`,
      (shown) => `the quick input's title is ${JSON.stringify(shown)}`,
    );
    const input = dialog.locator("input");
    // A busy dialog may still be listing a folder when Enter comes, and
    // complete the path or open the folder instead of accepting it: the
    // path is typed and accepted again while the dialog stays.
    // A folder listed late may also rewrite what was typed (its path put
    // before it): the path is then typed again.
    for (let attempt = 1; ; attempt++) {
      await waitUntil(
        async () => {
          const value = await input.inputValue();
          if (value !== path) await input.fill(path);
          return value;
        },
        (value) => value === path,
        `${path} typed into the dialog`,
        (value) => `it holds ${value}`,
      );
      await this.page.keyboard.press("Enter");
      try {
        await input.waitFor({ state: "hidden", timeout: 10_000 });
        return;
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
  }

  /** The text the terminals in the panel show (xterm.js's rows, rendered as text without a GPU). */
  async terminalText(): Promise<string> {
    const rows = await this.page.locator(".terminal-wrapper .xterm-rows").allInnerTexts();
    return rows.join("\n").replace(/\u00a0/g, " ");
  }

  /** Reverts the active editor to the file on disk ("File: Revert File"). */
  async revert(): Promise<void> {
    await this.runCommand("File: Revert File");
    await this.page.locator(".tabs-container .tab.active:not(.dirty)").waitFor();
  }

  // --- Language features --------------------------------------------------------

  /**
   * Shows the hover at a position (Ctrl+K Ctrl+I) and returns its text once
   * it passes `test` (the hover fills in as its providers answer).
   */
  async hover(line: number, column: number, test: (text: string) => boolean, what: string): Promise<string> {
    await this.goTo(line, column);
    await this.page.keyboard.press("Control+K");
    await this.page.keyboard.press("Control+I");
    const hover = this.page.locator(".monaco-hover:not(.hidden) .monaco-hover-content");
    await hover.first().waitFor();
    return waitUntil(() => hover.allInnerTexts().then((parts) => parts.join("\n")), test, what, (text) => `the hover shows:\n${text}`);
  }

  /** Triggers completion (Ctrl+Space) at the cursor and returns the suggestions' labels once they pass `test`. */
  async complete(test: (labels: string[]) => boolean, what: string): Promise<string[]> {
    await this.page.keyboard.press("Control+Space");
    const rows = this.page.locator(".suggest-widget.visible .monaco-list-row");
    await rows.first().waitFor();
    return waitUntil(() => rows.locator(".label-name").allInnerTexts(), test, what, (labels) => `the suggestions are ${JSON.stringify(labels)}`);
  }

  /** Opens the quick fixes at the cursor (Ctrl+.) and returns their titles. */
  async quickFixes(): Promise<string[]> {
    const rows = this.page.locator(".action-widget .monaco-list-row.action");
    // A busy workbench may drop the key or show "no code actions" while the
    // server's answer is on its way: ask again, as a user would.
    for (let attempt = 1; ; attempt++) {
      await this.page.keyboard.press("Control+.");
      try {
        await rows.first().waitFor({ timeout: 10_000 });
        return rows.allInnerTexts();
      } catch (error) {
        if (attempt === 3) throw error;
        await this.page.keyboard.press("Escape");
      }
    }
  }

  /** Renames the symbol at the cursor (F2). */
  async rename(newName: string): Promise<void> {
    await this.page.keyboard.press("F2");
    const input = this.page.locator(".rename-box input");
    await input.waitFor();
    await input.fill(newName);
    await this.page.keyboard.press("Enter");
    await input.waitFor({ state: "hidden" });
  }

  /** Searches the workspace's symbols (Ctrl+T) and returns the results' labels. */
  async workspaceSymbols(query: string): Promise<string[]> {
    await this.page.keyboard.press("Control+T");
    const input = this.page.locator(".quick-input-widget input");
    await input.waitFor();
    await input.fill(`#${query}`);
    const rows = this.page.locator(".quick-input-list .monaco-list-row");
    await rows.first().waitFor();
    const labels = await waitUntil(
      () => rows.evaluateAll((els) => els.map((e) => e.getAttribute("aria-label") ?? "")),
      (all) => !all.some((label) => label.startsWith("No matching")),
      `workspace symbols for "${query}"`,
      (all) => `the results are ${JSON.stringify(all)}`,
    );
    await this.page.keyboard.press("Escape");
    return labels;
  }

  // --- Problems panel -------------------------------------------------------------

  /** The Problems panel's entries (the panel is opened if needed). */
  async problems(): Promise<Problem[]> {
    const panel = this.page.locator(".markers-panel");
    if (!(await panel.isVisible())) {
      await this.runCommand("Problems: Focus on Problems View");
      await panel.waitFor();
    }
    return panel.locator(".monaco-list-row").evaluateAll((rows) => {
      const found: Problem[] = [];
      let file = "";
      for (const row of rows) {
        const level = row.getAttribute("aria-level");
        if (level === "1") {
          file = row.querySelector(".label-name")?.textContent ?? "";
        } else if (level === "2") {
          const icon = row.querySelector(".marker-icon")?.classList;
          const position = /Ln (\d+), Col (\d+)/.exec(row.querySelector(".marker-line")?.textContent ?? "");
          found.push({
            file,
            severity: icon?.contains("error") ? "error" : icon?.contains("warning") ? "warning" : "info",
            message: row.querySelector(".marker-message")?.textContent ?? "",
            code: row.querySelector(".marker-code")?.textContent ?? "",
            href: row.querySelector("a.monaco-link")?.getAttribute("href") ?? null,
            line: Number(position?.[1] ?? 0),
            column: Number(position?.[2] ?? 0),
          });
        }
      }
      return found;
    });
  }

  /** Waits until the Problems panel's entries for `file` pass `test`. */
  async waitForProblems(file: string, test: (problems: Problem[]) => boolean, what: string): Promise<Problem[]> {
    const ofFile = (problems: Problem[]) => problems.filter((p) => p.file === file);
    // Two readings alike, a moment apart: the panel reuses its rows as the
    // problems of closed flows come and go, and a reused row may show its
    // icon (the severity) a moment late.
    const settled = async (): Promise<Problem[]> => {
      const first = await this.problems();
      await new Promise((resolve) => setTimeout(resolve, 250));
      const second = await this.problems();
      return JSON.stringify(first) === JSON.stringify(second) ? second : [];
    };
    const all = await waitUntil(
      settled,
      (problems) => test(ofFile(problems)),
      what,
      (problems) => `the Problems panel shows:\n${problems.map(describeProblem).join("\n") || "(nothing)"}`,
    );
    return ofFile(all);
  }

  // --- Status bar, settings, webviews ---------------------------------------------

  statusItem(id: string): Locator {
    return this.page.locator(`[id="${id}"]`);
  }

  /** Waits until a status bar item's text and accessible label pass `test`. */
  async waitForStatusItem(
    id: string,
    test: (item: { text: string; label: string }) => boolean,
    what: string,
  ): Promise<{ text: string; label: string }> {
    const item = this.statusItem(id);
    return waitUntil(
      async () => ({ text: (await item.innerText()).trim(), label: (await item.getAttribute("aria-label")) ?? "" }),
      test,
      what,
      (shown) => `the status bar item ${id} shows ${JSON.stringify(shown)}`,
    );
  }

  /**
   * Sets a user setting in the Settings editor, as a user does (typing a
   * text, choosing an option, ticking a box), waits until it is saved to
   * `settingsFile` (a setting at its default, `byDefault`, may be removed
   * from the file), and closes the editor.
   */
  async setSetting(key: string, value: string | boolean, settingsFile: string, byDefault: string | boolean = ""): Promise<void> {
    await this.runCommand("Preferences: Open User Settings");
    await this.page.locator(".settings-editor").waitFor();
    // The search box has the focus.
    await this.page.keyboard.type(key);
    const item = this.page.locator(`.setting-item-contents[data-key="${key}"]`);
    await item.waitFor();
    if (typeof value === "boolean") {
      const box = item.locator(".setting-value-checkbox");
      if ((await box.getAttribute("aria-checked")) !== String(value)) {
        await box.click();
      }
    } else if ((await item.locator("select").count()) > 0) {
      await item.locator("select").selectOption(value);
    } else {
      const input = item.locator("input");
      await input.click();
      await input.fill(value);
    }
    await until(
      async () => {
        try {
          return (JSON.parse(readFileSync(settingsFile, "utf8"))[key] ?? byDefault) === value;
        } catch {
          return false; // Being written.
        }
      },
      `${key} = ${JSON.stringify(value)} in ${settingsFile}`,
      async () => `it has ${readFileSync(settingsFile, "utf8")}`,
    );
    // VS Code 1.139 opens the Settings editor in a modal ("workbench.editor.useModal": "some").
    const closeModal = this.page.locator('.modal-editor-part [aria-label^="Close Modal Editor"]');
    if (await closeModal.isVisible()) {
      await closeModal.click();
    } else {
      await this.runCommand("View: Close Editor");
    }
    await this.page.locator(".settings-editor").waitFor({ state: "detached" });
  }

  /** The page inside a webview panel (the extension's graph view). */
  webview(): FrameLocator {
    return this.page.frameLocator("iframe.webview.ready").frameLocator("iframe#active-frame");
  }

  // --- Screenshots ------------------------------------------------------------------

  async screenshot(name: string): Promise<string> {
    const path = join(this.screenshots, `${name}.png`);
    await this.page.screenshot({ path });
    return path;
  }

  /** Waits until the active editor is the one of the file named `name`. */
  async waitForActiveEditor(name: string): Promise<void> {
    await this.page.locator(`.editor-group-container.active .tab.active[data-resource-name="${name}"]`).waitFor();
  }

  /** Clicks the button labelled `label` of a notification. */
  async clickNotification(label: string): Promise<void> {
    await this.page.locator(".notifications-toasts .monaco-button", { hasText: label }).first().click();
  }

  /** Clicks the button labelled `label` of the modal dialog once it shows. */
  async clickDialog(label: string): Promise<void> {
    await this.page.locator(".monaco-dialog-box .monaco-button", { hasText: label }).first().click();
  }

  /** Closes every widget and editor, discarding changes, leaving an empty workbench for the next check. */
  async reset(): Promise<void> {
    await this.page.keyboard.press("Escape");
    await this.page.keyboard.press("Escape");
    if ((await this.page.locator(".tabs-container .tab").count()) === 0) {
      return;
    }
    await this.runCommand("View: Close All Editors");
    const dontSave = this.page.locator(".monaco-dialog-box .monaco-button", { hasText: "Don't Save" });
    await until(
      async () => {
        if (await dontSave.isVisible()) {
          await dontSave.click();
        }
        return (await this.page.locator(".tabs-container .tab").count()) === 0;
      },
      "every editor closed",
    );
  }

  private activeEditor(): Locator {
    return this.page.locator(".editor-group-container.active .monaco-editor").first();
  }

  /** Types into the open quick input and accepts the focused entry once it is the one wanted. */
  private async quickInput(value: string, wanted: (label: string) => boolean, what: string, closes = true): Promise<void> {
    const input = this.page.locator(".quick-input-widget input");
    await input.waitFor();
    await input.fill(value);
    const focused = this.page.locator(".quick-input-list .monaco-list-row.focused");
    await until(
      async () => wanted((await focused.getAttribute("aria-label", { timeout: 1_000 }).catch(() => null)) ?? ""),
      `${what} in the quick input`,
      async () => `its entries are: ${JSON.stringify(await this.page.locator(".quick-input-list .monaco-list-row").evaluateAll((rows) => rows.map((r) => r.getAttribute("aria-label"))))}`,
    );
    await this.page.keyboard.press("Enter");
    if (closes) {
      await input.waitFor({ state: "hidden" });
    }
  }
}

function isOutside(url: string): boolean {
  return !/^(https?|wss?):\/\/(127\.0\.0\.1|localhost)[:/]/.test(url) && !/^(data|blob|vscode-\w+):/.test(url);
}

export function describeProblem(p: Problem): string {
  return `${p.file}:${p.line}:${p.column} ${p.severity} ${p.code} ${p.message}`;
}

/** Reads with `read` until what it reads passes `test`; on time-out, `describe` tells what it read last. */
export async function waitUntil<T>(
  read: () => Promise<T>,
  test: (value: T) => boolean,
  what: string,
  describe: (value: T) => string,
): Promise<T> {
  let last: T | undefined;
  return until(
    async () => {
      last = await read();
      return test(last) ? last : undefined;
    },
    what,
    async () => (last === undefined ? "nothing was read" : describe(last)),
  );
}

/**
 * Polls `probe` until it returns something other than undefined or false.
 * On time-out the error says what was awaited and, from `seen`, what was there instead.
 */
export async function until<T>(
  probe: () => Promise<T | undefined | false>,
  what: string,
  seen?: () => Promise<string>,
  timeout = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) {
      return value;
    }
    if (Date.now() > deadline) {
      const last = seen ? `; ${await seen().catch((e: Error) => `(could not tell: ${e.message})`)}` : "";
      throw new Error(`timed out after ${timeout / 1000} s waiting for ${what}${last}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
