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
