-- Turns docs/cli.md into the man page mlsize(1) (pandoc -t man): a NAME section first,
-- the manual's sections as .SH in capitals and their subsections as .SS, links as their
-- text (the other pages of the manual are not installed as man pages).

local name = "mlsize - hardware sizing advisor for machine learning"

-- GitHub's tables want a | in code escaped; pandoc keeps the backslash.
function Code(code)
  code.text = code.text:gsub("\\|", "|")
  return code
end

function Link(link)
  if link.target:match("^https?:") then return nil end
  return link.content
end

-- A table is a list in the man page: tbl lays a table out as wide as its longest cells, so
-- the options' tables ran to 200 columns and wrapped in an 80-column terminal. Each row
-- becomes a term (its first cell) and, indented under it, "header: cell" for the rest.
function Table(tbl)
  local simple = pandoc.utils.to_simple_table(tbl)
  local headers = {}
  for i, cell in ipairs(simple.headers) do headers[i] = pandoc.utils.stringify(cell) end
  local items = pandoc.List()
  for _, row in ipairs(simple.rows) do
    local term = pandoc.List()
    for _, block in ipairs(row[1]) do
      if block.content then term:extend(block.content) end
    end
    local definition = pandoc.List()
    for i = 2, #row do
      local inlines = pandoc.List()
      for _, block in ipairs(row[i]) do
        if block.content then
          if #inlines > 0 then inlines:insert(pandoc.Space()) end
          inlines:extend(block.content)
        end
      end
      -- An empty cell (no default) says nothing.
      if #inlines > 0 then
        if headers[i] and headers[i] ~= "" then
          inlines:insert(1, pandoc.Space())
          inlines:insert(1, pandoc.Emph(pandoc.Str(headers[i] .. ":")))
        end
        definition:insert(pandoc.Para(inlines))
      end
    end
    items:insert({term, {definition}})
  end
  return pandoc.DefinitionList(items)
end

function Pandoc(doc)
  local blocks = pandoc.List({
    pandoc.Header(1, pandoc.Str("NAME")),
    pandoc.Para(pandoc.Str(name)),
  })
  local title_seen = false
  for _, block in ipairs(doc.blocks) do
    if block.t == "Header" and block.level == 1 and not title_seen then
      title_seen = true  -- "mlsize manual": the title, given with -M title
    elseif block.t == "Header" and block.level == 2 then
      blocks:insert(pandoc.Header(1, pandoc.Str(pandoc.text.upper(pandoc.utils.stringify(block.content)))))
    elseif block.t == "Header" then
      blocks:insert(pandoc.Header(2, block.content))
    else
      blocks:insert(block)
    end
  end
  return pandoc.Pandoc(blocks, doc.meta)
end
