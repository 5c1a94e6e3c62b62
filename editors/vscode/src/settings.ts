// The `easyflow` settings as the server reads them (lsp.md, "Settings"): sent
// as `initializationOptions`, and again in `workspace/didChangeConfiguration`
// through `synchronize.configurationSection`.

/** Reads one key of the `easyflow` section (e.g. `inlayHints.instances`). */
export type SettingReader = (key: string) => unknown;

export interface ServerSettings {
  topology: string | null;
  catalog: string | null;
  inlayHints: { instances: boolean };
  codeLens: { enable: boolean };
  /** Which flows get diagnostics: every flow of the workspace, or the open ones. */
  diagnostics: { scope: "workspace" | "openFiles" };
}

export function serverSettings(get: SettingReader): ServerSettings {
  return {
    topology: nonEmpty(get("topology")),
    catalog: nonEmpty(get("catalog")),
    inlayHints: { instances: get("inlayHints.instances") !== false },
    codeLens: { enable: get("codeLens.enable") !== false },
    diagnostics: { scope: get("diagnostics.scope") === "openFiles" ? "openFiles" : "workspace" },
  };
}

function nonEmpty(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}
