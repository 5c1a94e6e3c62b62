-- EasyFlow for Neovim: starts the language server `easyflow-ls` for EasyFlow
-- workflows (filetype `easyflow`, *.flow), topologies (`easyflow-topology`,
-- *.topology) and package catalogs (`easyflow-catalog`,
-- easyflow-packages.toml, highlighted as TOML), which get their own
-- diagnostics (E0810).
--
--   require("easyflow").setup({
--     cmd = { "easyflow-ls", "--stdio" },            -- or a path: "/opt/easyflow/bin/easyflow-ls"
--     settings = { easyflow = { topology = "cluster/site.topology" } },
--   })
--
-- Neovim 0.11+: the server is registered with `vim.lsp.config` and started by
-- `vim.lsp.enable`. Neovim 0.7-0.10: a FileType autocommand starts one client
-- per project root (`vim.lsp.start_client`) and attaches each buffer to it
-- (`vim.lsp.buf_attach_client`). The project root is the nearest directory
-- above the file that holds `easyflow.toml`, else `.git`, else the file's own
-- directory.
--
-- Diagnostics: of every flow of the project, open or closed (closed flows'
-- in unlisted buffers; `vim.diagnostic.setqflist()` lists them all). Neovim
-- 0.7-0.9 get them pushed; 0.10+ pull them, with the help of
-- `easyflow/diagnostics.lua` where Neovim's own pull falls short (0.10, 0.11).
--
-- Formatting: `vim.lsp.buf.format()` formats the buffer as `easyflow fmt`
-- does (a visual range: the steps it touches); to format on save:
--   vim.api.nvim_create_autocmd("BufWritePre", { pattern = "*.flow",
--     callback = function() vim.lsp.buf.format({ name = "easyflow_ls" }) end })
--
-- `:EasyFlowExport FORMAT` (defined by setup; it completes the formats the
-- server announces) asks the server for `easyflow/export` of the current
-- flow and opens the result in a scratch buffer (filetype xml or json) in a
-- new window; a flow with errors is refused with a message listing them.
--
-- `:EasyFlowRun` asks the server for the current flow's CWL export (a flow
-- that cannot run is refused with the reasons), asks for a file for each
-- required name, then runs `easyflow run` in a terminal window in the
-- flow's folder (outputs in easyflow-out/STEM), with the engine of the
-- setting `easyflow.run.engine` ("cwltool" or "toil"; see docs/run.md).
--
-- Code lenses (`vim.lsp.codelens.refresh()`, then `vim.lsp.codelens.run()`
-- on a step's line): "M dependents" puts the dependents in the quickfix list.
--
-- Fix all: `vim.lsp.buf.code_action({ context = { only = { "source.fixAll" } },
-- apply = true })` (`apply` on 0.8+) applies every preferred quick fix.
--
-- Highlighting: the server's semantic tokens (Neovim 0.9+ shows them by
-- default); `syntax/easyflow.vim` is the fallback underneath them.

local M = {}

--- The name of the client (and of the `vim.lsp.config` entry on 0.11+).
M.name = "easyflow_ls"

M.defaults = {
  --- The command that starts the server: a list, or a string (a path to the
  --- binary, to which `--stdio` is added).
  cmd = { "easyflow-ls", "--stdio" },
  filetypes = { "easyflow", "easyflow-topology", "easyflow-catalog" },
  --- Searched for upwards from the file, in this order of preference.
  root_markers = { "easyflow.toml", ".git" },
  --- The `easyflow` settings section: `topology`, `catalog`,
  --- `inlayHints = { instances = true }`, `codeLens = { enable = true }`.
  --- Given as `{ easyflow = { ... } }` or as the section itself.
  settings = {},
  --- The `easyflow` command-line tool `:EasyFlowRun` runs.
  cli = "easyflow",
  --- Sent as `initializationOptions`; the settings when not given, so the
  --- first diagnostics already use the configured topology.
  init_options = nil,
  --- Show the server's semantic tokens (Neovim 0.9+). When false, only the
  --- Vim syntax file highlights.
  semantic_tokens = true,
  on_attach = nil,
  capabilities = nil,
  handlers = nil,
}

local uv = vim.uv or vim.loop
local diagnostics = require("easyflow.diagnostics")

local function has(feature)
  return vim.fn.has(feature) == 1
end

local function is_list(t)
  if vim.islist then
    return vim.islist(t)
  end
  return vim.tbl_islist(t)
end

--- The effective configuration: defaults, overridden by `opts`.
function M.resolve(opts)
  opts = opts or {}
  local config = vim.tbl_deep_extend("force", {}, M.defaults, opts)
  -- Lists are replaced, not merged index by index.
  for _, key in ipairs({ "cmd", "filetypes", "root_markers" }) do
    if opts[key] ~= nil then
      config[key] = opts[key]
    end
  end
  if type(config.cmd) == "string" then
    config.cmd = { config.cmd, "--stdio" }
  end
  assert(type(config.cmd) == "table" and is_list(config.cmd) and #config.cmd > 0, "easyflow: `cmd` must be a non-empty list or a string")
  local settings = config.settings or {}
  if settings.easyflow == nil then
    settings = { easyflow = settings }
  end
  config.settings = settings
  if config.init_options == nil then
    config.init_options = settings
  end
  return config
end

--- The project root of `path`: the nearest directory above it that holds the
--- first of `markers` found (searching the whole way up for each marker in
--- turn), or nil.
function M.find_root(path, markers)
  markers = markers or M.defaults.root_markers
  local start = vim.fn.fnamemodify(path, ":p")
  if vim.fn.isdirectory(start) == 0 then
    start = vim.fn.fnamemodify(start, ":h")
  end
  start = start:gsub("/+$", "")
  if start == "" then
    start = "/"
  end
  for _, marker in ipairs(markers) do
    local dir = start
    while true do
      if uv.fs_stat(dir .. "/" .. marker) then
        return dir
      end
      local parent = vim.fn.fnamemodify(dir, ":h")
      if parent == dir then
        break
      end
      dir = parent
    end
  end
  return nil
end

local function wrap_on_attach(config)
  return function(client, bufnr)
    if not config.semantic_tokens and client.server_capabilities then
      client.server_capabilities.semanticTokensProvider = nil
    end
    diagnostics.attached(client)
    if config.on_attach then
      config.on_attach(client, bufnr)
    end
  end
end

local function on_exit(_, _, client_id)
  diagnostics.exited(client_id)
end

-- Neovim 0.7-0.10: one client per root directory, keyed by it.
local clients = {}

local function client_alive(id)
  return id ~= nil and vim.lsp.get_client_by_id(id) ~= nil and not vim.lsp.client_is_stopped(id)
end

local function attach_legacy(bufnr, config)
  if not vim.api.nvim_buf_is_valid(bufnr) or vim.bo[bufnr].buftype ~= "" then
    return
  end
  local path = vim.api.nvim_buf_get_name(bufnr)
  if path == "" then
    return
  end
  local root = M.find_root(path, config.root_markers) or vim.fn.fnamemodify(path, ":p:h")
  local id = clients[root]
  if not client_alive(id) then
    local capabilities, handlers = diagnostics.extend(config.capabilities, config.handlers)
    local ok, result = pcall(vim.lsp.start_client, {
      name = M.name,
      cmd = config.cmd,
      root_dir = root,
      settings = config.settings,
      init_options = config.init_options,
      capabilities = capabilities,
      handlers = handlers,
      on_attach = wrap_on_attach(config),
      on_exit = on_exit,
    })
    if not ok or not result then
      vim.notify(
        "easyflow: could not start " .. table.concat(config.cmd, " ") .. (ok and "" or (": " .. tostring(result))),
        vim.log.levels.ERROR
      )
      return
    end
    id = result
    clients[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
end

local function register_filetypes()
  -- ftdetect/easyflow.vim does this for every version; on 0.8+ the Lua
  -- registry knows it too (for plugin managers that skip ftdetect/).
  if has("nvim-0.8") and vim.filetype and vim.filetype.add then
    vim.filetype.add({
      extension = { flow = "easyflow", topology = "easyflow-topology" },
      filename = { ["easyflow-packages.toml"] = "easyflow-catalog" },
    })
  end
end

--- The export formats the server of buffer `bufnr` announced (its
--- `initialize` result's `experimental.exportFormats`: `name`, `label`,
--- `description`, `language`, `suffix`); empty without a server.
function M.export_formats(bufnr)
  local client = M.clients(bufnr)[1]
  local experimental = client and client.server_capabilities and client.server_capabilities.experimental
  return type(experimental) == "table" and experimental.exportFormats or {}
end

local function notify(message, level)
  vim.notify("easyflow: " .. message, level or vim.log.levels.INFO)
end

--- Opens `text`, the export of `flow` (a path) in `format` (one of
--- `export_formats`), in a scratch buffer in a new window; returns the
--- buffer.
function M.show_export(flow, format, text)
  local lines = vim.split(text, "\n", { plain = true })
  if lines[#lines] == "" then
    table.remove(lines)
  end
  vim.cmd("vsplit")
  local buf = vim.api.nvim_create_buf(true, true)
  vim.api.nvim_win_set_buf(0, buf)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  local name = vim.fn.fnamemodify(flow, ":t:r") .. format.suffix
  -- Unique: a second export of the same flow gets its own buffer.
  pcall(vim.api.nvim_buf_set_name, buf, "easyflow-export://" .. buf .. "/" .. name)
  vim.bo[buf].buftype = "nofile"
  vim.bo[buf].bufhidden = "wipe"
  vim.bo[buf].swapfile = false
  vim.bo[buf].filetype = format.language
  vim.bo[buf].modified = false
  return buf
end

--- `:EasyFlowExport NAME`: the export of buffer `bufnr` (0: the current
--- one) in the format called `name`. Calls `on_done(buf_or_nil,
--- error_message_or_nil)` when given.
function M.export(name, bufnr, on_done)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  on_done = on_done or function() end
  local client = M.clients(bufnr)[1]
  if not client or vim.bo[bufnr].filetype ~= "easyflow" then
    local message = "no EasyFlow language server for this buffer (open a .flow file)"
    notify(message, vim.log.levels.ERROR)
    return on_done(nil, message)
  end
  local formats = M.export_formats(bufnr)
  local format
  for _, f in ipairs(formats) do
    if f.name == name then
      format = f
    end
  end
  if not format then
    local names = vim.tbl_map(function(f)
      return f.name
    end, formats)
    local message = "export to what? " .. table.concat(names, ", ")
    notify(message, vim.log.levels.ERROR)
    return on_done(nil, message)
  end
  local flow = vim.api.nvim_buf_get_name(bufnr)
  local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, to = name }
  client.request("easyflow/export", params, function(err, result)
    if err then
      local message = "not exported: " .. tostring(err.message or err)
      notify(message, vim.log.levels.ERROR)
      return on_done(nil, message)
    end
    if not result or not result.text then
      local message = "the server cannot read this flow"
      notify(message, vim.log.levels.ERROR)
      return on_done(nil, message)
    end
    on_done(M.show_export(flow, format, result.text), nil)
  end, bufnr)
end

local function define_commands()
  vim.api.nvim_create_user_command("EasyFlowExport", function(command)
    M.export(command.args, 0)
  end, {
    nargs = 1,
    complete = function(lead)
      local names = vim.tbl_map(function(f)
        return f.name
      end, M.export_formats(0))
      return vim.tbl_filter(function(name)
        return name:sub(1, #lead) == lead
      end, names)
    end,
    desc = "Export the current EasyFlow workflow to a scratch buffer (a format the server offers)",
  })
  vim.api.nvim_create_user_command("EasyFlowRun", function()
    M.run(0)
  end, { nargs = 0, desc = "Run the current EasyFlow workflow with easyflow run (docs/run.md)" })
end

local function json_decode(text)
  if vim.json and vim.json.decode then
    return vim.json.decode(text)
  end
  return vim.fn.json_decode(text)
end

--- The required files of a flow: the inputs of its CWL export's `#main`.
function M.required_files(cwl)
  local names = {}
  for _, entry in ipairs(json_decode(cwl)["$graph"] or {}) do
    if entry.id == "#main" then
      for _, input in ipairs(entry.inputs or {}) do
        table.insert(names, (input.id:gsub("^#main/", "")))
      end
    end
  end
  return names
end

--- The command line of `easyflow run` for a flow, an engine and the files
--- (a list of { name, path }).
function M.run_command(cli, flow, engine, inputs)
  local command = { cli, "run", flow, "--engine", engine }
  for _, input in ipairs(inputs) do
    table.insert(command, "--input")
    table.insert(command, input[1] .. "=" .. input[2])
  end
  return command
end

local function ask_file(name)
  local path = vim.fn.input("easyflow: the file for `" .. name .. "`: ", "", "file")
  if path == "" then
    return nil
  end
  return vim.fn.fnamemodify(path, ":p")
end

--- `:EasyFlowRun`: runs buffer `bufnr` (0: the current one). `ask(name)`
--- returns the path for a required file (default: a prompt with file
--- completion), nil to cancel. Calls `on_done(job_id_or_nil, error_or_nil)`
--- once the terminal runs.
function M.run(bufnr, ask, on_done)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  ask = ask or ask_file
  on_done = on_done or function() end
  local client = M.clients(bufnr)[1]
  if not client or vim.bo[bufnr].filetype ~= "easyflow" then
    local message = "no EasyFlow language server for this buffer (open a .flow file)"
    notify(message, vim.log.levels.ERROR)
    return on_done(nil, message)
  end
  local flow = vim.api.nvim_buf_get_name(bufnr)
  local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, to = "cwl" }
  client.request("easyflow/export", params, function(err, result)
    if err or not result or not result.text then
      local message = "not run: " .. tostring(err and (err.message or err) or "the server cannot read this flow")
      notify(message, vim.log.levels.ERROR)
      return on_done(nil, message)
    end
    local inputs = {}
    for _, name in ipairs(M.required_files(result.text)) do
      local path = ask(name)
      if not path then
        return on_done(nil, "cancelled")
      end
      table.insert(inputs, { name, path })
    end
    local settings = ((M.config or M.defaults).settings or {}).easyflow or {}
    local engine = (settings.run or {}).engine == "toil" and "toil" or "cwltool"
    local cli = (M.config or M.defaults).cli or "easyflow"
    vim.cmd("botright new")
    local job = vim.fn.termopen(M.run_command(cli, flow, engine, inputs), { cwd = vim.fn.fnamemodify(flow, ":h") })
    on_done(job, nil)
  end, bufnr)
end

--- The command of the "M dependents" code lens, `easyflow.showDependents`
--- (arguments `[uri, position, locations]`): the dependents in the quickfix
--- list, opened. Registered in `vim.lsp.commands` by setup, so that
--- `vim.lsp.codelens.run()` on a lens runs it here.
function M.show_dependents(command, ctx)
  local locations = (command.arguments or {})[3] or {}
  local client = ctx and ctx.client_id and vim.lsp.get_client_by_id(ctx.client_id)
  local encoding = client and client.offset_encoding or "utf-16"
  local items = vim.lsp.util.locations_to_items(locations, encoding)
  vim.fn.setqflist({}, " ", { title = "EasyFlow: " .. (command.title or "dependents"), items = items })
  if #items == 0 then
    notify("no dependents")
    return
  end
  vim.cmd("copen")
end

--- Starts easyflow-ls for EasyFlow buffers. Safe to call again: the last
--- call's options win (for buffers opened after it).
function M.setup(opts)
  local config = M.resolve(opts)
  M.config = config
  register_filetypes()
  define_commands()
  vim.lsp.commands["easyflow.showDependents"] = M.show_dependents

  if has("nvim-0.11") and vim.lsp.config and vim.lsp.enable then
    local capabilities, handlers = diagnostics.extend(config.capabilities, config.handlers)
    vim.lsp.config(M.name, {
      cmd = config.cmd,
      filetypes = config.filetypes,
      root_markers = config.root_markers,
      settings = config.settings,
      init_options = config.init_options,
      capabilities = capabilities,
      handlers = handlers,
      on_attach = wrap_on_attach(config),
      on_exit = on_exit,
    })
    vim.lsp.enable(M.name)
    return config
  end

  local group = vim.api.nvim_create_augroup("easyflow_lsp", { clear = true })
  vim.api.nvim_create_autocmd("FileType", {
    group = group,
    pattern = config.filetypes,
    callback = function(args)
      attach_legacy(args.buf, M.config)
    end,
  })
  -- Buffers that were already open when setup ran.
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.tbl_contains(config.filetypes, vim.bo[bufnr].filetype) then
      attach_legacy(bufnr, config)
    end
  end
  return config
end

--- The easyflow-ls clients attached to `bufnr` (0: the current buffer).
function M.clients(bufnr)
  bufnr = bufnr or 0
  if bufnr == 0 then
    bufnr = vim.api.nvim_get_current_buf()
  end
  local all
  if vim.lsp.get_clients then
    all = vim.lsp.get_clients({ bufnr = bufnr })
  else
    all = vim.tbl_values(vim.lsp.buf_get_clients(bufnr))
  end
  return vim.tbl_filter(function(client)
    return client.name == M.name
  end, all)
end

return M
