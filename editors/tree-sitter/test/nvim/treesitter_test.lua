-- Headless test of the tree-sitter grammars in Neovim 0.11+: the parsers
-- load from shared libraries built from the committed parser.c, the
-- queries parse, and highlighting runs on flows and topologies with the
-- expected captures, injections and folds.
--
-- Run by editors/tree-sitter/test/nvim/run.sh:
--   nvim --headless -u NONE -i NONE -n -c "luafile editors/tree-sitter/test/nvim/treesitter_test.lua"
-- Environment: EASYFLOW_ROOT (the repository), EASYFLOW_PARSER_DIR (where
-- easyflow.so and easyflow_topology.so are). Prints "N passed, 0 failed" and
-- quits on success; exits with `cquit` (non-zero) on the first failure.

local root = vim.fn.fnamemodify(os.getenv("EASYFLOW_ROOT") or vim.fn.getcwd(), ":p"):gsub("/$", "")
local parser_dir = os.getenv("EASYFLOW_PARSER_DIR")

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

local function repo(path)
  return root .. "/" .. path
end

local function edit(path)
  vim.cmd("edit " .. vim.fn.fnameescape(path))
  return vim.api.nvim_get_current_buf()
end

-- The 0-based position of the `occurrence`-th `text` in the buffer.
local function find(buf, text, occurrence)
  local seen = 0
  for row, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    local start = 1
    while true do
      local column = line:find(text, start, true)
      if not column then
        break
      end
      seen = seen + 1
      if seen == (occurrence or 1) then
        return row - 1, column - 1
      end
      start = column + 1
    end
  end
  error("no " .. text .. " in the buffer", 0)
end

-- The highlight groups tree-sitter applies at the `occurrence`-th `text`.
local function groups_at(buf, text, occurrence)
  local row, column = find(buf, text, occurrence)
  local groups = {}
  for _, capture in ipairs(vim.inspect_pos(buf, row, column).treesitter) do
    table.insert(groups, capture.hl_group)
  end
  return groups
end

local function expect_group(buf, text, group, occurrence)
  local groups = groups_at(buf, text, occurrence)
  check(
    vim.tbl_contains(groups, group),
    string.format("%q: expected %s, got [%s]", text, group, table.concat(groups, ", "))
  )
end

local version = vim.version()
io.stdout:write(string.format("# Neovim %d.%d.%d\n", version.major, version.minor, version.patch))

local ok, err = pcall(function()
  test("Neovim 0.11 or later (ABI 15 parsers)", function()
    check(vim.fn.has("nvim-0.11") == 1, "this Neovim cannot load ABI 15 parsers")
  end)

  test("setup: both grammars register without warnings", function()
    vim.opt.runtimepath:prepend(repo("editors/tree-sitter/neovim"))
    -- As a user's configuration has it (-u NONE leaves it off).
    vim.cmd("filetype plugin on")
    local warnings = {}
    local notify = vim.notify
    vim.notify = function(message, level)
      table.insert(warnings, message)
      return notify(message, level)
    end
    require("easyflow_treesitter").setup({ parser_dir = parser_dir, fold = true })
    vim.notify = notify
    check(#warnings == 0, "warnings: " .. table.concat(warnings, "; "))
    check(vim.treesitter.language.get_lang("easyflow") == "easyflow", "easyflow filetype")
    check(
      vim.treesitter.language.get_lang("easyflow-topology") == "easyflow_topology",
      "easyflow-topology filetype"
    )
    check(vim.treesitter.language.inspect("easyflow").abi_version == 15, "ABI 15")
  end)

  test("every query parses against its grammar", function()
    for _, name in ipairs({ "highlights", "injections", "folds", "indents", "locals" }) do
      check(vim.treesitter.query.get("easyflow", name) ~= nil, "no easyflow " .. name)
    end
    check(vim.treesitter.query.get("easyflow_topology", "highlights") ~= nil, "no topology highlights")
  end)

  local flow = edit(repo("tests/data/parser/corpus/full-step.flow"))

  test("a flow: filetype, parser, no error, highlighter attached", function()
    check(vim.bo[flow].filetype == "easyflow", "filetype " .. vim.bo[flow].filetype)
    local parser = vim.treesitter.get_parser(flow)
    check(parser:lang() == "easyflow", "language " .. parser:lang())
    local tree = parser:parse()[1]
    check(not tree:root():has_error(), "the tree has an error")
    check(vim.treesitter.highlighter.active[flow] ~= nil, "no active highlighter")
  end)

  test("a flow: highlight groups", function()
    expect_group(flow, "require", "@keyword.import.easyflow")
    expect_group(flow, "file1", "@variable.easyflow")
    expect_group(flow, "step", "@keyword.easyflow")
    expect_group(flow, "AnotherStep", "@function.easyflow")
    expect_group(flow, "Package", "@module.easyflow")
    expect_group(flow, "priority", "@attribute.easyflow")
    expect_group(flow, "@high", "@constant.builtin.easyflow")
    expect_group(flow, "inFile1", "@variable.parameter.easyflow")
    expect_group(flow, '"some string here"', "@string.easyflow")
    expect_group(flow, "100", "@number.easyflow")
    expect_group(flow, "3.14", "@number.float.easyflow")
    expect_group(flow, "sweep [", "@keyword.easyflow")
    expect_group(flow, "outs", "@variable.member.easyflow")
    expect_group(flow, "ruby", "@label.easyflow")
    expect_group(flow, "code end", "@keyword.easyflow")
    expect_group(flow, "~", "@keyword.modifier.easyflow")
    expect_group(flow, "<-", "@operator.easyflow")
  end)

  test("a flow: the groups have colours", function()
    local hl = vim.api.nvim_get_hl(0, { name = "@keyword.easyflow", link = false })
    check(hl.fg ~= nil or hl.ctermfg ~= nil, "@keyword.easyflow has no colour: " .. vim.inspect(hl))
  end)

  test("a flow: the code block is injected as ruby", function()
    local query = vim.treesitter.query.get("easyflow", "injections")
    local tree = vim.treesitter.get_parser(flow):parse()[1]
    local languages = {}
    for id, node in query:iter_captures(tree:root(), flow) do
      if query.captures[id] == "injection.language" then
        table.insert(languages, vim.treesitter.get_node_text(node, flow))
      end
    end
    check(vim.deep_equal(languages, { "ruby" }), "languages " .. vim.inspect(languages))
  end)

  test("a flow: steps and parameter lists fold", function()
    -- The step begins with its attribute; its parameter list folds inside.
    local step = find(flow, "[priority")
    local parameters = find(flow, "(", 2)
    local function levels_now()
      return { vim.treesitter.foldexpr(step + 1), vim.treesitter.foldexpr(parameters + 1) }
    end
    -- Neovim 0.11 computes tree-sitter folds after an asynchronous parse: on
    -- a loaded machine the first answers can still be "0".
    vim.wait(10000, function()
      return vim.deep_equal(levels_now(), { ">1", ">2" })
    end, 20)
    local levels = levels_now()
    check(vim.deep_equal(levels, { ">1", ">2" }), "fold levels " .. vim.inspect(levels))
    check(vim.wo.foldmethod == "expr", "foldmethod " .. vim.wo.foldmethod)
  end)

  test("a broken flow has an error node", function()
    local buf = vim.api.nvim_create_buf(false, true)
    vim.api.nvim_buf_set_lines(buf, 0, -1, false, { "step step runs P ();" })
    local tree = vim.treesitter.get_parser(buf, "easyflow"):parse()[1]
    check(tree:root():has_error(), "a keyword as a name is no error")
  end)

  test("a topology: filetype, parser, highlight groups", function()
    local buf = edit(repo("tests/data/topology/all-fields.topology"))
    check(vim.bo[buf].filetype == "easyflow-topology", "filetype " .. vim.bo[buf].filetype)
    check(vim.treesitter.get_parser(buf):lang() == "easyflow_topology", "language")
    check(vim.treesitter.highlighter.active[buf] ~= nil, "no active highlighter")
    expect_group(buf, "bigmem", "@type.easyflow_topology")
    expect_group(buf, "68719476736", "@number.easyflow_topology")
    expect_group(buf, "+", "@operator.easyflow_topology")
  end)
end)

if not ok then
  fail(tostring(err))
end
io.stdout:write(passed .. " passed, 0 failed\n")
vim.cmd("qall!")
