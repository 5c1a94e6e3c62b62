-- Diagnostics by pull (Neovim 0.10+), the whole workspace's.
--
-- Neovim 0.10+ declares `textDocument.diagnostic`, so easyflow-ls pushes it
-- nothing and Neovim pulls an open buffer's diagnostics on open and on each
-- change. What 0.10 and 0.11 lack, this module adds for the easyflow-ls
-- client: it answers `workspace/diagnostic/refresh` (a topology, catalog or
-- `easyflow.toml` changed; a closed flow was checked) by pulling every
-- attached buffer again, and it pulls `workspace/diagnostic` (with the
-- result ids it holds, so unchanged flows cost nothing) once the client
-- starts, on each refresh and when a buffer closes, showing the closed
-- flows' diagnostics in unlisted buffers as Neovim 0.12's own workspace
-- pull does. Neovim 0.12+ answers the refresh itself; there the plugin only
-- asks for the workspace's diagnostics once
-- (`vim.lsp.buf.workspace_diagnostics`).
-- Neovim 0.7-0.9 do not pull: the server pushes to them.

local M = {}

--- Whether this Neovim pulls document diagnostics (0.10+).
function M.pulls()
  return vim.lsp.diagnostic ~= nil and vim.lsp.diagnostic.on_diagnostic ~= nil
end

--- Whether this Neovim answers `workspace/diagnostic/refresh` and pulls the
--- workspace's diagnostics itself (0.12+).
local function neovim_pulls_workspace()
  return vim.lsp.handlers["workspace/diagnostic/refresh"] ~= nil and vim.lsp.buf.workspace_diagnostics ~= nil
end

local function request(client, method, params, handler, bufnr)
  if vim.fn.has("nvim-0.11") == 1 then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

-- By client id: the closed flows shown (by file name: the URI the server
-- gave and its result id), and whether a workspace pull is under way or
-- wanted again after it.
local pulls = {}

local function show(client, state, items)
  local open = {}
  for bufnr in pairs(client.attached_buffers) do
    open[vim.api.nvim_buf_get_name(bufnr)] = true
  end
  for _, report in ipairs(items or {}) do
    local name = vim.uri_to_fname(report.uri)
    if open[name] then
      -- An open buffer's diagnostics are its document pull's.
      state.shown[name] = nil
    elseif report.kind == "full" then
      state.shown[name] = report.resultId and { uri = report.uri, result_id = report.resultId } or nil
      -- Converted and shown as a document pull's answer, in the same
      -- namespace: opening the flow replaces them, never doubles them.
      vim.lsp.diagnostic.on_diagnostic(nil, report, {
        method = "textDocument/diagnostic",
        client_id = client.id,
        params = { textDocument = { uri = report.uri } },
      })
    end
  end
end

--- Pulls `workspace/diagnostic` for `client` and shows the closed flows'.
local function pull_workspace(client)
  local state = pulls[client.id]
  if not state or state.native then
    return
  end
  if state.busy then
    state.again = true
    return
  end
  state.busy = true
  local previous = {}
  for _, shown in pairs(state.shown) do
    table.insert(previous, { uri = shown.uri, value = shown.result_id })
  end
  local sent = request(client, "workspace/diagnostic", { previousResultIds = previous }, function(err, result)
    if pulls[client.id] ~= state then
      return -- the client stopped
    end
    state.busy = false
    if err then
      vim.notify("easyflow: workspace/diagnostic: " .. tostring(err.message or err), vim.log.levels.WARN)
    elseif result then
      show(client, state, result.items)
    end
    if state.again then
      state.again = false
      pull_workspace(client)
    end
  end)
  if not sent then
    state.busy = false -- the client is stopping
  end
end

--- The `workspace/diagnostic/refresh` handler (Neovim 0.10 and 0.11).
function M.on_refresh(_, _, ctx)
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  if client then
    for bufnr in pairs(client.attached_buffers) do
      if vim.api.nvim_buf_is_loaded(bufnr) then
        request(client, "textDocument/diagnostic", { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }, nil, bufnr)
      end
    end
    pull_workspace(client)
  end
  return vim.NIL
end

--- The client configuration's `capabilities` and `handlers` with what this
--- module adds (the user's own handler for the refresh wins).
function M.extend(capabilities, handlers)
  if not M.pulls() or neovim_pulls_workspace() then
    return capabilities, handlers
  end
  capabilities = vim.tbl_deep_extend(
    "force",
    vim.lsp.protocol.make_client_capabilities(),
    capabilities or {},
    { workspace = { diagnostics = { refreshSupport = true } } }
  )
  handlers = vim.tbl_extend("keep", handlers or {}, { ["workspace/diagnostic/refresh"] = M.on_refresh })
  return capabilities, handlers
end

--- A buffer detached from a client (closed): Neovim dropped its pulled
--- diagnostics, and the flow's are the workspace's again, which are pulled
--- (in full: its result id is forgotten) after the `didClose` has gone.
local function detached(client_id, bufnr)
  local state = pulls[client_id]
  if not state or state.native then
    return
  end
  state.shown[vim.api.nvim_buf_get_name(bufnr)] = nil
  vim.schedule(function()
    local client = vim.lsp.get_client_by_id(client_id)
    if client and pulls[client_id] == state then
      pull_workspace(client)
    end
  end)
end

local augroup = nil

--- On attaching `client`: the first time, asks for the workspace's
--- diagnostics (the closed flows checked so far; a refresh brings the rest).
function M.attached(client)
  if not M.pulls() or pulls[client.id] or not client.server_capabilities.diagnosticProvider then
    return
  end
  if neovim_pulls_workspace() then
    pulls[client.id] = { native = true }
    pcall(vim.lsp.buf.workspace_diagnostics, { client_id = client.id })
    return
  end
  pulls[client.id] = {
    shown = {},
    busy = false,
    again = false,
    namespace = vim.lsp.diagnostic.get_namespace(client.id, true),
  }
  if not augroup then
    augroup = vim.api.nvim_create_augroup("easyflow_diagnostics", { clear = true })
    vim.api.nvim_create_autocmd("LspDetach", {
      group = augroup,
      callback = function(args)
        detached(args.data.client_id, args.buf)
      end,
    })
  end
  pull_workspace(client)
end

--- On the client's exit: the closed flows' diagnostics go with it.
function M.exited(client_id)
  local state = pulls[client_id]
  pulls[client_id] = nil
  if state and state.namespace then
    vim.schedule(function()
      vim.diagnostic.reset(state.namespace)
    end)
  end
end

return M
