-- Headless test of the Neovim plugin in editors/nvim: filetype detection, the
-- fallback syntax files, root detection, and `require("easyflow").setup()`
-- starting easyflow-ls, attaching it and receiving its diagnostics.
-- Works on Neovim 0.7 (Debian 12) and 0.11+ (the `vim.lsp.config` path).
--
-- Run by editors/nvim/test/run.sh:
--   nvim --headless -u NONE -i NONE -n -c "luafile editors/nvim/test/setup_test.lua"
-- Environment: EASYFLOW_LS (the server binary), EASYFLOW_ROOT (the repository;
-- default: the current directory). Prints "N passed, 0 failed" and quits on
-- success; exits with `cquit` (non-zero) on the first failure.

local root = os.getenv("EASYFLOW_ROOT") or vim.fn.getcwd()
root = vim.fn.fnamemodify(root, ":p"):gsub("/$", "")
local server = os.getenv("EASYFLOW_LS")

local passed = 0

local function fail(message)
  io.stderr:write("FAIL: " .. message .. "\n")
  io.stdout:write(passed .. " passed, 1 failed\n")
  vim.cmd("cquit 1")
end

local function check(condition, message)
  if not condition then
    error(message, 0)
  end
end

local function test(name, body)
  local ok, err = pcall(body)
  if not ok then
    fail(name .. ": " .. tostring(err))
    return
  end
  passed = passed + 1
  io.stdout:write("ok - " .. name .. "\n")
end

-- Paths relative to the repository.
local function repo(path)
  return root .. "/" .. path
end

local function edit(path)
  vim.cmd("edit " .. vim.fn.fnameescape(path))
  return vim.api.nvim_get_current_buf()
end

-- The syntax group at 1-based line and column of the current buffer: the
-- innermost item and every item it is nested in.
local function syntax_at(line, col)
  local names = {}
  for _, id in ipairs(vim.fn.synstack(line, col)) do
    table.insert(names, vim.fn.synIDattr(id, "name"))
  end
  return names
end

local function expect_syntax(line, col, group)
  local stack = syntax_at(line, col)
  check(
    vim.tbl_contains(stack, group),
    string.format("line %d col %d (%q): expected %s, got [%s]", line, col,
      vim.fn.getline(line):sub(col, col + 10), group, table.concat(stack, ", "))
  )
end

local nvim_version = vim.version()
io.stdout:write(string.format("# Neovim %d.%d.%d\n", nvim_version.major, nvim_version.minor, nvim_version.patch))

-- The plugin, as a plugin manager (or `set rtp+=`) would add it, before
-- filetype detection is switched on (which sources ftdetect/).
vim.opt.runtimepath:prepend(repo("editors/nvim"))
vim.cmd("filetype plugin on")
vim.cmd("syntax on")

local flow_path = repo("tests/data/parser/corpus/sweep-missing-comma.flow")
local full_step_path = repo("tests/data/parser/corpus/full-step.flow")
local topology_path = repo("tests/data/topology/all-fields.topology")

local ok, err = pcall(function()
  local easyflow = require("easyflow")

  test("resolve: defaults, string cmd, settings section", function()
    local config = easyflow.resolve({ cmd = "/opt/easyflow-ls", settings = { topology = "site.topology" } })
    check(vim.deep_equal(config.cmd, { "/opt/easyflow-ls", "--stdio" }), "cmd " .. vim.inspect(config.cmd))
    check(config.settings.easyflow.topology == "site.topology", "settings " .. vim.inspect(config.settings))
    check(config.init_options.easyflow.topology == "site.topology", "init_options " .. vim.inspect(config.init_options))
    check(vim.deep_equal(config.filetypes, { "easyflow", "easyflow-topology", "easyflow-catalog" }), "filetypes")
    local defaults = easyflow.resolve()
    check(vim.deep_equal(defaults.cmd, { "easyflow-ls", "--stdio" }), "default cmd")
    check(vim.deep_equal(defaults.root_markers, { "easyflow.toml", ".git" }), "default root markers")
  end)

  test("find_root: easyflow.toml before .git, else nil", function()
    local tmp = vim.fn.tempname()
    vim.fn.mkdir(tmp .. "/project/.git", "p")
    vim.fn.mkdir(tmp .. "/project/flows/deep", "p")
    vim.fn.writefile({ "topology = \"x.topology\"" }, tmp .. "/project/flows/easyflow.toml")
    local file = tmp .. "/project/flows/deep/a.flow"
    check(easyflow.find_root(file) == tmp .. "/project/flows", "root " .. tostring(easyflow.find_root(file)))
    check(easyflow.find_root(tmp .. "/project/b.flow") == tmp .. "/project", ".git root")
    check(easyflow.find_root(file, { "no-such-marker" }) == nil, "no marker: nil")
    vim.fn.delete(tmp, "rf")
  end)

  test("ftdetect: *.flow is easyflow", function()
    local buf = edit(flow_path)
    check(vim.bo[buf].filetype == "easyflow", "filetype " .. vim.bo[buf].filetype)
    check(vim.bo[buf].commentstring == "// %s", "commentstring " .. vim.bo[buf].commentstring)
  end)

  test("syntax/easyflow.vim: keywords, names, literals", function()
    edit(flow_path)
    check(vim.b.current_syntax == "easyflow", "current_syntax " .. tostring(vim.b.current_syntax))
    -- step SweepExample runs SomePackage
    expect_syntax(1, 1, "easyflowKeyword")
    expect_syntax(1, 6, "easyflowStepName")
    expect_syntax(1, 19, "easyflowKeyword")
    expect_syntax(1, 24, "easyflowPackage")
    --   width = 100,
    expect_syntax(3, 3, "easyflowParameter")
    expect_syntax(3, 9, "easyflowOperator")
    expect_syntax(3, 11, "easyflowInteger")
    --   precision = [0.1, 0.01]
    expect_syntax(5, 16, "easyflowFloat")
    --   iterations = sweep [100, 200, 300]
    expect_syntax(6, 16, "easyflowKeyword")
  end)

  test("syntax/easyflow.vim: comments, strings, code blocks", function()
    edit(full_step_path)
    -- stringInput = "some string here",
    expect_syntax(8, 18, "easyflowString")
    -- doubleInput = 3.14,
    expect_syntax(10, 17, "easyflowFloat")
    -- [priority = @high]
    expect_syntax(3, 2, "easyflowAttribute")
    expect_syntax(3, 13, "easyflowConstant")
    -- step StepName runs Package.Method after AnotherStep
    expect_syntax(4, 41, "easyflowAfterList")
    -- post code ruby / body / code end
    expect_syntax(14, 1, "easyflowKeyword")
    expect_syntax(14, 6, "easyflowCodeDelimiter")
    expect_syntax(15, 3, "easyflowCodeRuby")
    expect_syntax(17, 3, "easyflowCodeRuby")
    expect_syntax(18, 1, "easyflowCodeDelimiter")
    -- ~step LongRunningStep runs LRPackage: after the block, EasyFlow again
    expect_syntax(19, 2, "easyflowKeyword")
    check(not vim.tbl_contains(syntax_at(19, 2), "easyflowCodeRuby"), "code block ran past `code end`")
    -- inStream <- StepName.Result.outs["output.txt"]
    expect_syntax(21, 12, "easyflowOperator")
  end)

  test("ftdetect and syntax: *.topology is easyflow-topology", function()
    local buf = edit(topology_path)
    check(vim.bo[buf].filetype == "easyflow-topology", "filetype " .. vim.bo[buf].filetype)
    check(vim.b.current_syntax == "easyflow-topology", "current_syntax " .. tostring(vim.b.current_syntax))
    -- compute+CPU#0:12x4,1073741824/9000
    expect_syntax(1, 1, "easyflowTopologyCapability")
    expect_syntax(1, 8, "easyflowTopologyPlus")
    expect_syntax(1, 9, "easyflowTopologyCapability")
    expect_syntax(1, 13, "easyflowTopologySocket")
    expect_syntax(1, 15, "easyflowTopologyPerNode")
    expect_syntax(1, 18, "easyflowTopologyMaxNodes")
    expect_syntax(1, 21, "easyflowTopologyShm")
    expect_syntax(1, 32, "easyflowTopologyPort")
  end)

  -- The language server.
  check(server and server ~= "", "EASYFLOW_LS is not set")
  check(vim.fn.executable(server) == 1, "EASYFLOW_LS is not executable: " .. server)
  vim.cmd("silent! %bwipeout!")

  -- The setup docs/editors.md gives users (the block `lua example=nvim`),
  -- run as written: only its placeholder for the clone is replaced, and the
  -- server is found as `easyflow-ls` on the PATH, as an installed one is.
  local snippet, in_block = {}, false
  for _, line in ipairs(vim.fn.readfile(repo("docs/editors.md"))) do
    if line == "```lua example=nvim" then
      in_block = true
    elseif in_block and line == "```" then
      break
    elseif in_block then
      table.insert(snippet, line)
    end
  end
  check(#snippet > 0, "docs/editors.md has no block `lua example=nvim`")
  check(vim.fn.fnamemodify(server, ":t") == "easyflow-ls", "the server is not named easyflow-ls: " .. server)
  vim.env.PATH = vim.fn.fnamemodify(server, ":p:h") .. ":" .. vim.env.PATH
  local documented = table.concat(snippet, "\n"):gsub("/path/to/easyflow%-ls", function() return root end)
  local run_documented = assert((loadstring or load)(documented, "docs/editors.md"))

  -- How diagnostics come: each `publishDiagnostics` by client, each
  -- `textDocument/diagnostic` answer by document. Neovim 0.10+ pulls, and
  -- the server must then push nothing to it.
  local pulls = require("easyflow.diagnostics").pulls()
  local pushed, pulled = {}, {}
  local function tally(method, key, counts)
    local handler = vim.lsp.handlers[method]
    vim.lsp.handlers[method] = function(err, result, ctx, config)
      local k = key(ctx)
      counts[k] = (counts[k] or 0) + 1
      return handler(err, result, ctx, config)
    end
  end
  tally("textDocument/publishDiagnostics", function(ctx)
    return ctx.client_id
  end, pushed)
  if pulls then
    tally("textDocument/diagnostic", function(ctx)
      return ctx.params.textDocument.uri
    end, pulled)
  end
  run_documented()

  local flow_buf
  test("setup: the server attaches to a .flow buffer", function()
    flow_buf = edit(flow_path)
    check(vim.bo[flow_buf].filetype == "easyflow", "filetype " .. vim.bo[flow_buf].filetype)
    local attached = vim.wait(10000, function()
      return #easyflow.clients(flow_buf) == 1
    end, 20)
    check(attached, "no easyflow_ls client attached")
    local client = easyflow.clients(flow_buf)[1]
    check(client.config.root_dir == root, "root_dir " .. tostring(client.config.root_dir) .. ", expected " .. root)
    local initialized = vim.wait(10000, function()
      return client.initialized or (client.server_capabilities ~= nil and next(client.server_capabilities) ~= nil)
    end, 20)
    check(initialized, "the server did not initialize")
    check(client.server_capabilities.semanticTokensProvider ~= nil, "no semantic tokens provider")
  end)

  test("setup: diagnostics arrive (E0100)", function()
    local got = vim.wait(20000, function()
      return #vim.diagnostic.get(flow_buf) > 0
    end, 50)
    check(got, "no diagnostics for sweep-missing-comma.flow")
    local codes = {}
    for _, d in ipairs(vim.diagnostic.get(flow_buf)) do
      table.insert(codes, tostring(d.code))
    end
    check(vim.tbl_contains(codes, "E0100"), "expected E0100, got " .. table.concat(codes, ", "))
    local client = easyflow.clients(flow_buf)[1]
    if pulls then
      check((pulled[vim.uri_from_bufnr(flow_buf)] or 0) > 0, "Neovim " .. tostring(vim.version()) .. " did not pull")
      check(pushed[client.id] == nil, "the server pushed to a client that pulls")
    else
      check((pushed[client.id] or 0) > 0, "nothing was pushed to a client that does not pull")
    end
  end)

  test("setup: the same client serves a .topology buffer", function()
    local flow_client = easyflow.clients(flow_buf)[1]
    local buf = edit(topology_path)
    local attached = vim.wait(10000, function()
      return #easyflow.clients(buf) == 1
    end, 20)
    check(attached, "no easyflow_ls client attached to the topology")
    check(easyflow.clients(buf)[1].id == flow_client.id, "a second client was started for the same root")
  end)

  test("setup: a package catalog is easyflow-catalog and gets its own E0810", function()
    local buf = edit(repo("tests/data/catalog-broken/easyflow-packages.toml"))
    check(vim.bo[buf].filetype == "easyflow-catalog", "filetype " .. vim.bo[buf].filetype)
    local attached = vim.wait(10000, function()
      return #easyflow.clients(buf) == 1
    end, 20)
    check(attached, "no easyflow_ls client attached to the catalog")
    local got = vim.wait(20000, function()
      return #vim.diagnostic.get(buf) > 0
    end, 50)
    check(got, "no diagnostics for the catalog")
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      check(tostring(d.code) == "E0810", "expected E0810, got " .. tostring(d.code))
    end
  end)

  test(":EasyFlowExport opens the bytes of easyflow export in a scratch buffer", function()
    local buf = edit(repo("tests/data/export/worked-example.flow"))
    local attached = vim.wait(10000, function()
      return #easyflow.clients(buf) == 1
    end, 20)
    check(attached, "no easyflow_ls client attached to worked-example.flow")
    -- The formats are the server's: every one it announces.
    local formats = easyflow.export_formats(buf)
    check(#formats >= 3, "the server announced " .. #formats .. " export formats")
    local completed = vim.fn.getcompletion("EasyFlowExport ", "cmdline")
    check(#completed == #formats, ":EasyFlowExport completes " .. vim.inspect(completed))
    -- CWL needs a catalog of runnable packages, which this folder has not
    -- (:EasyFlowRun's test exports one).
    formats = vim.tbl_filter(function(format)
      return format.name ~= "cwl"
    end, formats)
    for _, format in ipairs(formats) do
      vim.cmd("buffer " .. buf)
      local before = vim.api.nvim_get_current_buf()
      vim.cmd("EasyFlowExport " .. format.name)
      local opened = vim.wait(20000, function()
        return vim.api.nvim_get_current_buf() ~= before
      end, 20)
      check(opened, "no scratch buffer for " .. format.name)
      local scratch = vim.api.nvim_get_current_buf()
      local expected = table.concat(vim.fn.readfile(repo("tests/data/export/worked-example" .. format.suffix)), "\n")
      local got = table.concat(vim.api.nvim_buf_get_lines(scratch, 0, -1, false), "\n")
      check(got == expected, format.name .. ": the buffer differs from worked-example" .. format.suffix)
      check(vim.bo[scratch].filetype == format.language, format.name .. ": filetype " .. vim.bo[scratch].filetype)
      check(vim.bo[scratch].buftype == "nofile", format.name .. ": not a scratch buffer")
      vim.cmd("close")
    end
  end)

  test(":EasyFlowExport refuses a flow with errors, naming them", function()
    local messages = {}
    local original = vim.notify
    vim.notify = function(message)
      table.insert(messages, message)
    end
    vim.cmd("buffer " .. flow_buf)
    local before = vim.api.nvim_get_current_buf()
    vim.cmd("EasyFlowExport model")
    local refused = vim.wait(20000, function()
      return #messages > 0
    end, 20)
    vim.notify = original
    check(refused, "no message for a flow with errors")
    check(messages[1]:find("E0100", 1, true) ~= nil, "the message does not name E0100: " .. messages[1])
    check(vim.api.nvim_get_current_buf() == before, "a buffer was opened for a refused export")
  end)

  test(":EasyFlowRun asks for each required file and runs easyflow run in a terminal", function()
    -- A stand-in for the CLI that records its arguments.
    local dir = vim.fn.tempname()
    vim.fn.mkdir(dir, "p")
    local stub = dir .. "/easyflow"
    vim.fn.writefile({ "#!/bin/sh", "for a in \"$@\"; do printf '%s\\n' \"$a\"; done > " .. dir .. "/args" }, stub)
    vim.fn.setfperm(stub, "rwxr-xr-x")
    easyflow.config.cli = stub
    local flow = repo("examples/greetings/greetings.flow")
    local buf = edit(flow)
    local attached = vim.wait(10000, function()
      return #easyflow.clients(buf) == 1
    end, 20)
    check(attached, "no easyflow_ls client attached to greetings.flow")
    local asked, job, failure, status = {}, nil, nil, nil
    -- The exit status from TermClose: `jobwait` may find the job already
    -- gone when Neovim was busy with other events meanwhile.
    vim.api.nvim_create_autocmd("TermClose", {
      once = true,
      callback = function()
        status = vim.v.event.status
      end,
    })
    easyflow.run(buf, function(name)
      table.insert(asked, name)
      return repo("examples/greetings/names.txt")
    end, function(id, err)
      job, failure = id, err or false
    end)
    check(vim.wait(20000, function()
      return failure ~= nil
    end, 20), "the run did not start")
    check(failure == false, "not run: " .. tostring(failure))
    check(job ~= nil and job > 0, "no terminal job: " .. tostring(job))
    check(vim.wait(10000, function()
      return status ~= nil
    end, 20), "the terminal's command did not finish")
    check(status == 0, "the terminal's command failed: exit " .. tostring(status))
    check(table.concat(asked, ",") == "names", "asked for " .. table.concat(asked, ","))
    local args = table.concat(vim.fn.readfile(dir .. "/args"), " ")
    local expected = "run " .. flow .. " --engine cwltool --input names=" .. repo("examples/greetings/names.txt")
    check(args == expected, "easyflow got: " .. args)
    easyflow.config.cli = "easyflow"
    vim.cmd("bwipeout!")
  end)

  test(":EasyFlowRun refuses a flow that cannot run, with the reasons", function()
    local messages = {}
    local original = vim.notify
    vim.notify = function(message)
      table.insert(messages, message)
    end
    local buf = edit(repo("tests/data/export/diamond.flow"))
    vim.wait(10000, function()
      return #easyflow.clients(buf) == 1
    end, 20)
    vim.cmd("EasyFlowRun")
    local refused = vim.wait(20000, function()
      return #messages > 0
    end, 20)
    vim.notify = original
    check(refused, "no message for a flow without a catalog")
    check(messages[1]:find("no package catalog", 1, true) ~= nil, "the message: " .. messages[1])
  end)

  test("the dependents lens fills the quickfix list", function()
    local dir = vim.fn.tempname()
    vim.fn.mkdir(dir, "p")
    local flow = dir .. "/lenses.flow"
    vim.fn.writefile({ "step A runs P ();", "step B runs Q (x = A);", "step C runs Q after A;" }, flow)
    local buf = edit(flow)
    check(vim.wait(10000, function()
      return #easyflow.clients(buf) == 1
    end, 20), "no easyflow_ls client attached to lenses.flow")
    local function lenses()
      local all = vim.lsp.codelens.get(buf) or {}
      return vim.tbl_filter(function(lens)
        return lens.command ~= nil
      end, all)
    end
    check(vim.wait(20000, function()
      vim.lsp.codelens.refresh()
      return #lenses() == 3
    end, 200), "no code lenses: " .. vim.inspect(vim.lsp.codelens.get(buf)))
    check(lenses()[1].command.command == "easyflow.showDependents", vim.inspect(lenses()[1]))
    vim.fn.setqflist({}, "r")
    vim.api.nvim_win_set_cursor(0, { 1, 0 })
    vim.lsp.codelens.run()
    check(vim.wait(10000, function()
      return #vim.fn.getqflist() == 2
    end, 20), "the quickfix list: " .. vim.inspect(vim.fn.getqflist()))
    local lines = vim.tbl_map(function(item)
      return item.lnum .. ":" .. item.col
    end, vim.fn.getqflist())
    check(table.concat(lines, " ") == "2:6 3:6", "the dependents are at " .. table.concat(lines, " "))
    check(vim.fn.getqflist({ title = 1 }).title:find("2 dependents", 1, true) ~= nil, "title " .. vim.fn.getqflist({ title = 1 }).title)
    -- The buffer stays: a lens refresh may still be answered for it.
    vim.cmd("cclose")
  end)

  if pulls then
    -- A project of its own: a topology without GPUs, a catalog of one
    -- package, an open flow that needs a GPU (E0702) and closed ones: one
    -- that needs a GPU, one that runs an unknown package (E0801), a clean one.
    local project = vim.fn.resolve(vim.fn.tempname())
    vim.fn.mkdir(project, "p")
    local function write(name, lines)
      vim.fn.writefile(lines, project .. "/" .. name)
    end
    write("easyflow.toml", { 'topology = "easyflow.topology"' })
    write("easyflow.topology", { "compute+CPU:2,1073741824" })
    write("easyflow-packages.toml", { "[[package]]", 'name = "Known.Run"' })
    write("open.flow", { '[requires = "compute+GPU"]', "step A runs Known.Run ();" })
    write("gpu.flow", { '[requires = "compute+GPU"]', "step A runs Known.Run ();" })
    write("unknown.flow", { "step B runs Other.Run ();" })
    write("clean.flow", { "step C runs Known.Run ();" })
    -- Changes on the disk reach the server through Neovim's file watching,
    -- which Neovim offers servers on Linux only when asked to. (The
    -- settings name the project's topology: on 0.11 a later setup's
    -- settings merge with the first's.)
    easyflow.setup({
      cmd = { server, "--stdio" },
      settings = { easyflow = { topology = "easyflow.topology" } },
      capabilities = { workspace = { didChangeWatchedFiles = { dynamicRegistration = true } } },
    })

    -- The codes shown for the file at `path` (open or not), sorted.
    local function codes_of(path)
      local codes = {}
      for _, d in ipairs(vim.diagnostic.get()) do
        if vim.api.nvim_buf_get_name(d.bufnr) == path then
          table.insert(codes, tostring(d.code))
        end
      end
      table.sort(codes)
      return table.concat(codes, ",")
    end
    local function wait_codes(name, expected)
      local path = project .. "/" .. name
      local ok = vim.wait(30000, function()
        return codes_of(path) == expected
      end, 50)
      check(ok, name .. ": expected [" .. expected .. "], got [" .. codes_of(path) .. "]")
    end

    local open_buf, client
    test("pull (0.10+): an open flow's diagnostics are pulled and follow an edit", function()
      open_buf = edit(project .. "/open.flow")
      check(vim.wait(10000, function()
        return #easyflow.clients(open_buf) == 1
      end, 20), "no easyflow_ls client attached to open.flow")
      client = easyflow.clients(open_buf)[1]
      check(client.config.root_dir == project, "root_dir " .. tostring(client.config.root_dir))
      wait_codes("open.flow", "E0702")
      vim.api.nvim_buf_set_lines(open_buf, -1, -1, false, { "step D runs Missing.Run ();" })
      wait_codes("open.flow", "E0702,E0801")
      check((pulled[vim.uri_from_bufnr(open_buf)] or 0) >= 2, "the edit's diagnostics were not pulled")
    end)

    test("pull (0.10+): the closed flows' diagnostics come by workspace/diagnostic", function()
      wait_codes("gpu.flow", "E0702")
      wait_codes("unknown.flow", "E0801")
      wait_codes("clean.flow", "")
      check(vim.fn.buflisted(vim.fn.bufnr(project .. "/gpu.flow")) == 0, "a closed flow's buffer is listed")
    end)

    test("pull (0.10+): a closed flow opened has its diagnostics once; closed again, they stay", function()
      local buf = edit(project .. "/unknown.flow")
      check(vim.wait(10000, function()
        return (pulled[vim.uri_from_bufnr(buf)] or 0) > 0
      end, 20), "unknown.flow was not pulled when opened")
      wait_codes("unknown.flow", "E0801")
      vim.cmd("bwipeout! " .. buf)
      check(codes_of(project .. "/unknown.flow") == "", "a wiped buffer kept its diagnostics")
      wait_codes("unknown.flow", "E0801")
      vim.cmd("buffer " .. open_buf)
    end)

    test("pull (0.10+): a topology changed on the disk re-checks open and closed flows (refresh)", function()
      write("easyflow.topology", { "compute+CPU:2,1073741824", "compute+GPU:1,1073741824" })
      wait_codes("open.flow", "E0801")
      wait_codes("gpu.flow", "")
    end)

    test("pull (0.10+): a catalog edited in the editor re-checks the closed flows; closed, its disk text again", function()
      local catalog = edit(project .. "/easyflow-packages.toml")
      check(vim.wait(10000, function()
        return #easyflow.clients(catalog) == 1
      end, 20), "no easyflow_ls client attached to the catalog")
      vim.api.nvim_buf_set_lines(catalog, -1, -1, false, { "[[package]]", 'name = "Other.Run"' })
      wait_codes("unknown.flow", "")
      vim.cmd("bwipeout! " .. catalog)
      wait_codes("unknown.flow", "E0801")
    end)

    test("pull (0.10+): a flow deleted from the disk has its diagnostics cleared", function()
      vim.fn.delete(project .. "/unknown.flow")
      wait_codes("unknown.flow", "")
    end)

    test("pull (0.10+): nothing was pushed to a client that pulls", function()
      for _, c in ipairs(vim.lsp.get_clients({ name = easyflow.name })) do
        check(pushed[c.id] == nil, "client " .. c.id .. " got " .. tostring(pushed[c.id]) .. " publishDiagnostics")
      end
    end)
  end

  if vim.lsp.semantic_tokens and vim.lsp.semantic_tokens.get_at_pos then
    test("setup: semantic tokens highlight the step name (Neovim 0.9+)", function()
      vim.cmd("buffer " .. flow_buf)
      local found = vim.wait(10000, function()
        local tokens = vim.lsp.semantic_tokens.get_at_pos(flow_buf, 0, 6) or {}
        for _, token in ipairs(tokens) do
          if token.type == "function" then
            return true
          end
        end
        return false
      end, 50)
      check(found, "no `function` semantic token on the step name")
    end)
  end
end)

if not ok then
  fail(tostring(err))
end

-- Stop the server before leaving, so it exits cleanly.
for _, client in ipairs(vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()) do
  vim.lsp.stop_client(client.id)
end
vim.wait(2000, function()
  return #(vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()) == 0
end, 20)

io.stdout:write(passed .. " passed, 0 failed\n")
vim.cmd("qall!")
