-- Headless Neovim end-to-end test of easyflow-ls through Neovim's built-in
-- LSP client (`vim.lsp.start_client`, available since Neovim 0.5; Debian's
-- 0.7 is what CI installs). Run by `tests/nvim/run.sh`; exits with `cquit`
-- (non-zero) on any failure.
--
-- Environment: EASYFLOW_LS (the server binary), EASYFLOW_ROOT (the repository).

local server = assert(os.getenv("EASYFLOW_LS"), "EASYFLOW_LS is not set")
local root = assert(os.getenv("EASYFLOW_ROOT"), "EASYFLOW_ROOT is not set")
local corpus = root .. "/tests/data/parser/corpus"

local function fail(message)
  io.stderr:write("FAIL: " .. message .. "\n")
  vim.cmd("cquit 1")
end

local function check(condition, message)
  if not condition then
    fail(message)
  end
end

local function open(path)
  vim.cmd("edit " .. vim.fn.fnameescape(path))
  local buf = vim.api.nvim_get_current_buf()
  vim.bo[buf].filetype = "easyflow"
  return buf
end

local ok, err = pcall(function()
  local client_id = vim.lsp.start_client({
    name = "easyflow-ls",
    cmd = { server, "--stdio" },
    root_dir = root,
  })
  check(client_id ~= nil, "the client did not start")

  -- 1. Diagnostics: the corpus's one syntax error.
  local broken = open(corpus .. "/sweep-missing-comma.flow")
  vim.lsp.buf_attach_client(broken, client_id)
  local got = vim.wait(20000, function()
    return #vim.diagnostic.get(broken) > 0
  end, 50)
  check(got, "no diagnostics for sweep-missing-comma.flow")
  local diagnostics = vim.diagnostic.get(broken)
  check(#diagnostics == 1, "expected one diagnostic, got " .. #diagnostics)
  check(diagnostics[1].code == "E0100", "expected E0100, got " .. tostring(diagnostics[1].code))
  local line = diagnostics[1].lnum -- 0-based
  check(line == 4 or line == 5, "E0100 on line " .. line .. ", expected the `iterations` line or the one before")

  -- 2. Hover and go-to-definition on a reference in data-deps.flow:
  --    `inFile = A1.outs["out.txt"]` on line 5 (1-based), `A1` at column 12.
  local flow = open(corpus .. "/data-deps.flow")
  vim.lsp.buf_attach_client(flow, client_id)
  vim.wait(5000, function()
    return vim.lsp.buf_is_attached(flow, client_id)
  end, 20)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(flow) },
    position = { line = 4, character = 12 },
  }
  local hover = vim.lsp.buf_request_sync(flow, "textDocument/hover", params, 20000)
  check(hover and hover[client_id] and hover[client_id].result, "no hover result")
  local contents = hover[client_id].result.contents
  local text = type(contents) == "table" and (contents.value or vim.inspect(contents)) or tostring(contents)
  check(text:find("A1", 1, true) and text:find("Pkg0", 1, true), "hover does not describe step A1: " .. text)

  local definition = vim.lsp.buf_request_sync(flow, "textDocument/definition", params, 20000)
  check(definition and definition[client_id] and definition[client_id].result, "no definition result")
  local target = definition[client_id].result[1] or definition[client_id].result
  local range = target.targetSelectionRange or target.range
  check(range.start.line == 0 and range.start.character == 5, "definition of A1 is not `step A1` on line 1: " .. vim.inspect(range))

  -- 3. The corpus's package catalog: completion of packages after `runs`,
  --    and signature help on `method` in app-exec.flow.
  local app = open(corpus .. "/app-exec.flow")
  vim.lsp.buf_attach_client(app, client_id)
  vim.wait(5000, function()
    return vim.lsp.buf_is_attached(app, client_id)
  end, 20)
  local at_runs = { textDocument = { uri = vim.uri_from_bufnr(app) }, position = { line = 6, character = 19 } }
  local completion = vim.lsp.buf_request_sync(app, "textDocument/completion", at_runs, 20000)
  check(completion and completion[client_id] and completion[client_id].result, "no completion result")
  local items = completion[client_id].result.items or completion[client_id].result
  local labels = {}
  for _, item in ipairs(items) do
    table.insert(labels, item.label)
  end
  check(vim.tbl_contains(labels, "ORCA.DFT") and vim.tbl_contains(labels, "ScienceVis.ThreeDGraph.Mesh"),
    "the catalog's packages are not offered after `runs`: " .. table.concat(labels, ", "))
  local on_method = { textDocument = { uri = vim.uri_from_bufnr(app) }, position = { line = 8, character = 27 } }
  local help = vim.lsp.buf_request_sync(app, "textDocument/signatureHelp", on_method, 20000)
  check(help and help[client_id] and help[client_id].result, "no signature help")
  local signature = help[client_id].result.signatures[1]
  check(signature.label:find("ORCA.DFT(input: File", 1, true) == 1, "signature " .. signature.label)
  local active = signature.parameters[help[client_id].result.activeParameter + 1]
  check(active and active.label:find("method", 1, true) == 1, "active parameter " .. vim.inspect(active))

  vim.lsp.stop_client(client_id)
end)

if not ok then
  fail(tostring(err))
end
io.stdout:write("nvim LSP test: 4 passed, 0 failed\n")
vim.cmd("qall!")
