-- Tree-sitter highlighting of EasyFlow flows and topologies in Neovim 0.11+
-- (the grammars are ABI 15), with or without nvim-treesitter:
--
--   vim.opt.runtimepath:append("/path/to/easyflow-ls/editors/tree-sitter/neovim")
--   require("easyflow_treesitter").setup()
--
-- The parsers come from `parser_dir` (default: editors/tree-sitter/parser,
-- where scripts/build-parsers.sh puts them), else from the runtimepath's
-- `parser/` (where nvim-treesitter installs them). The queries come from the
-- runtimepath's `queries/<language>/` when there are any (nvim-treesitter
-- installs them there), else from this repository's grammars.

local M = {}

-- editors/tree-sitter, two directories above this file's.
local root = vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h:h:h")

-- Each grammar: its language name, its directory here and its filetype.
local grammars = {
  { language = "easyflow", directory = "easyflow", filetype = "easyflow" },
  { language = "easyflow_topology", directory = "topology", filetype = "easyflow-topology" },
}

local query_names = { "highlights", "injections", "folds", "indents", "locals" }

local function read(path)
  local file = io.open(path, "r")
  if not file then
    return nil
  end
  local text = file:read("*a")
  file:close()
  return text
end

-- Registers one grammar's parser and queries; an error message, or nil.
local function register(grammar, parser_dir)
  local path = parser_dir .. "/" .. grammar.language .. ".so"
  local add_opts = vim.uv.fs_stat(path) and { path = path } or nil
  -- 0.11 returns nil and a message when it finds no parser.
  local ok, loaded, message = pcall(vim.treesitter.language.add, grammar.language, add_opts)
  if not ok or not loaded then
    return string.format(
      "no %s parser (build it with editors/tree-sitter/scripts/build-parsers.sh): %s",
      grammar.language,
      tostring(ok and message or loaded)
    )
  end
  vim.treesitter.language.register(grammar.language, grammar.filetype)
  for _, name in ipairs(query_names) do
    if #vim.treesitter.query.get_files(grammar.language, name) == 0 then
      local text = read(string.format("%s/%s/queries/%s.scm", root, grammar.directory, name))
      if text then
        vim.treesitter.query.set(grammar.language, name, text)
      end
    end
  end
  return nil
end

--- Registers the grammars and starts tree-sitter highlighting in EasyFlow
--- buffers.
--- @param opts? { parser_dir?: string, highlight?: boolean, fold?: boolean }
function M.setup(opts)
  opts = opts or {}
  if vim.fn.has("nvim-0.11") == 0 then
    vim.notify("easyflow_treesitter: Neovim 0.11 or later is needed (ABI 15 parsers)", vim.log.levels.WARN)
    return
  end
  local parser_dir = opts.parser_dir or (root .. "/parser")
  vim.filetype.add({ extension = { flow = "easyflow", topology = "easyflow-topology" } })
  local registered = {}
  for _, grammar in ipairs(grammars) do
    local problem = register(grammar, parser_dir)
    if problem then
      vim.notify("easyflow_treesitter: " .. problem, vim.log.levels.WARN)
    else
      table.insert(registered, grammar.filetype)
    end
  end
  if #registered == 0 or opts.highlight == false then
    return
  end
  vim.api.nvim_create_autocmd("FileType", {
    group = vim.api.nvim_create_augroup("easyflow_treesitter", { clear = true }),
    pattern = registered,
    callback = function(args)
      vim.treesitter.start(args.buf)
      if opts.fold then
        vim.wo.foldmethod = "expr"
        vim.wo.foldexpr = "v:lua.vim.treesitter.foldexpr()"
      end
    end,
  })
end

return M
