---------------------------------------------------------------------------
-- Rules: a game script and its variants, composed in order
---------------------------------------------------------------------------

local REQUIRED = { "setup", "decision", "apply" }

-- The names of the script protocol (docs/scripting.md, "The GameScript
-- table"): a variant may set any of them even when the game leaves it out
-- (a game without `evaluate` may get one from a house rule).
local PROTOCOL = {
  "id", "title", "players", "options", "setup", "decision", "apply", "describe", "result",
  "status", "bots", "may_hold", "playout_bot", "evaluate", "rounds", "max_steps", "invariants",
  "why_not", "summary", "metrics", "choices", "windows", "restrictions", "strengths",
}

-- Strict rules during `modify`: a variant replaces names the game (or an
-- earlier variant) defines, and declares in its `provides` list the names it
-- adds. Assigning any other top-level name is an error at the assigning line
-- (a misspelled `rules.TRUMP_ZERO_POINT = 10` would otherwise add a field no
-- rule reads). Only the top level is checked: nested tables (rules.POINTS,
-- rules.options, rules.bots) stay plain tables, where existing and new keys
-- alike may be set, so the rules read them at full speed during play.

-- Edit distance of two short names (for "did you mean"), nil when long.
local function distance(a, b)
  local la, lb = #a, #b
  if la > 40 or lb > 40 then return nil end
  local prev = {}
  for j = 0, lb do prev[j] = j end
  for i = 1, la do
    local cur = { [0] = i }
    local ca = a:sub(i, i)
    for j = 1, lb do
      local cost = (ca == b:sub(j, j)) and 0 or 1
      cur[j] = math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
    end
    prev = cur
  end
  return prev[lb]
end

-- The defined name closest to `name` (case aside, or at most 2 edits).
local function closest(known, name)
  if type(name) ~= "string" then return nil end
  local best, best_d = nil, 3
  for _, k in ipairs(sorted_keys(known)) do
    if type(k) == "string" then
      local d = (k:lower() == name:lower()) and 0 or distance(k, name)
      if d and d < best_d then best, best_d = k, d end
    end
  end
  return best
end

-- The names a variant declares as new: a list of strings, none of them
-- defined already.
local function provided(v, known, game_id)
  local list = v.provides
  if list == nil then return {} end
  local vid = tostring(v.id)
  if type(list) ~= "table" then
    error("variant '" .. vid .. "': `provides` must be a list of names", 0)
  end
  for i = 1, #list do
    local name = list[i]
    if type(name) ~= "string" then
      error("variant '" .. vid .. "': `provides` must be a list of names, item " .. i
        .. " is " .. tostring(name), 0)
    end
    if known[name] then
      error("variant '" .. vid .. "' provides `" .. name .. "`, but " .. tostring(game_id)
        .. " already defines it: replace it without listing it in `provides`", 0)
    end
  end
  return list
end

-- Run `v.modify(rules)` with assignments of undefined top-level names
-- refused; then the names `v` provides count as defined.
local function strict_modify(rules, v, known)
  local game_id = rules.id
  local new = provided(v, known, game_id)
  if getmetatable(rules) ~= nil then
    -- A rules table with a metatable of its own is not checked.
    v.modify(rules)
  else
    for i = 1, #new do known[new[i]] = true end
    setmetatable(rules, {
      __newindex = function(t, k, x)
        if known[k] then
          rawset(t, k, x)
          return
        end
        local near = closest(known, k)
        error(tostring(game_id) .. " has no rule `" .. tostring(k) .. "`"
          .. (near and (" (did you mean `" .. near .. "`?)") or "")
          .. ": a variant replaces the names its game defines; list a new name in the variant's `provides`"
          .. " (docs/house-rules.md)", 2)
      end,
    })
    v.modify(rules)
    setmetatable(rules, nil)
  end
  for i = 1, #new do
    known[new[i]] = true
    if rawget(rules, new[i]) == nil then
      error("variant '" .. tostring(v.id) .. "' provides `" .. new[i] .. "`, but its modify does not set it", 0)
    end
  end
end

function M.compose(rules, variants)
  if type(rules) ~= "table" then error("a game script must return a table", 0) end
  for _, f in ipairs(REQUIRED) do
    if type(rules[f]) ~= "function" then
      error("game script '" .. tostring(rules.id) .. "' has no function `" .. f .. "`", 0)
    end
  end
  rules.options = rules.options or {}
  rules.bots = rules.bots or {}
  -- Metrics (rules.metrics.NAME = { doc = ..., value = function(game),
  -- share = true when the value is a share from 0 to 1, reported in percent }):
  -- always a table, so that a variant or house rule adds one with
  -- `rules.metrics.NAME = ...` whether or not its game declares any.
  rules.metrics = rules.metrics or {}
  -- Restrictions (rules.restrictions.NAME = { doc = ..., allows =
  -- function(view, option, decision) }): bars a measuring bot from a
  -- mechanic (`deckhand skill --restrict NAME`); a table always, as metrics.
  rules.restrictions = rules.restrictions or {}
  rules.variants = {}
  local known = {}
  for k in pairs(rules) do known[k] = true end
  for _, name in ipairs(PROTOCOL) do known[name] = true end
  local seen = {}
  for _, v in ipairs(variants) do
    if type(v) ~= "table" or type(v.modify) ~= "function" then
      error("a variant must return a table with a `modify` function", 0)
    end
    if v.id ~= nil and seen[v.id] then
      error("variant '" .. tostring(v.id) .. "' is given twice; each variant applies once", 0)
    end
    if v.id ~= nil then seen[v.id] = true end
    if v.game and v.game ~= rules.id then
      error("variant '" .. tostring(v.id) .. "' is for game '" .. tostring(v.game)
        .. "', not '" .. tostring(rules.id) .. "'", 0)
    end
    -- `requires = { "passing" }`: the variants this one builds on, applied before it.
    if v.requires ~= nil then
      if type(v.requires) ~= "table" then
        error("variant '" .. tostring(v.id) .. "': `requires` must be a list of variant names", 0)
      end
      for _, need in ipairs(v.requires) do
        if not seen[need] then
          local later = false
          for _, w in ipairs(variants) do
            if type(w) == "table" and w.id == need then later = true end
          end
          error("variant '" .. tostring(v.id) .. "' requires variant '" .. tostring(need) .. "'"
            .. (later and (" applied before it: give `-v " .. tostring(need) .. "` first")
              or (": add `-v " .. tostring(need) .. "` before it")), 0)
        end
      end
    end
    for _, name in ipairs(sorted_keys(v.options or {})) do
      rules.options[name] = v.options[name]
    end
    if v.players then
      local min = math.max(rules.players.min, v.players.min or rules.players.min)
      local max = math.min(rules.players.max, v.players.max or rules.players.max)
      local default = rules.players.default
      if default and (default < min or default > max) then default = nil end
      rules.players = { min = min, max = max, default = v.players.default or default }
    end
    strict_modify(rules, v, known)
    rules.variants[#rules.variants + 1] = v.id
  end
  return rules
end

-- Plain metadata of a rules table (what Rust reads as JSON).
function M.info(rules)
  local options = {}
  for _, name in ipairs(sorted_keys(rules.options or {})) do
    local o = rules.options[name]
    options[name] = {
      default = o.default, doc = o.doc or "", choices = o.choices,
      min = type(o.min) == "number" and o.min or nil,
      max = type(o.max) == "number" and o.max or nil,
    }
  end
  local metrics = {}
  if type(rules.metrics) ~= "table" then
    error("rules.metrics must be a table of { doc = \"...\", value = function(game) ... end }", 0)
  end
  for _, name in ipairs(sorted_keys(rules.metrics)) do
    local m = rules.metrics[name]
    if type(name) ~= "string" or type(m) ~= "table" or type(m.value) ~= "function" then
      error("metric " .. tostring(name) .. ": expected { doc = \"...\", value = function(game) ... end }", 0)
    end
    if m.share ~= nil and type(m.share) ~= "boolean" then
      error("metric " .. name .. ": `share` is true (its value is a share, from 0 to 1) or false", 0)
    end
    metrics[name] = { doc = type(m.doc) == "string" and m.doc or "", share = m.share or nil }
  end
  if next(metrics) == nil then metrics = nil end
  local restrictions = {}
  if type(rules.restrictions) ~= "table" then
    error("rules.restrictions must be a table of { doc = \"...\", allows = function(view, option, decision) ... end }", 0)
  end
  for _, name in ipairs(sorted_keys(rules.restrictions)) do
    local r = rules.restrictions[name]
    if type(name) ~= "string" or type(r) ~= "table" or type(r.allows) ~= "function" then
      error("restriction " .. tostring(name)
        .. ": expected { doc = \"...\", allows = function(view, option, decision) ... end }", 0)
    end
    restrictions[name] = type(r.doc) == "string" and r.doc or ""
  end
  if next(restrictions) == nil then restrictions = nil end
  -- Named strengths (rules.strengths = { easy = "mc:25", ... }): bot names
  -- a table may ask for by a word.
  local strengths = {}
  if rules.strengths ~= nil then
    if type(rules.strengths) ~= "table" then
      error("rules.strengths must be a table of names to bots, e.g. { easy = \"mc:25\" }", 0)
    end
    for _, name in ipairs(sorted_keys(rules.strengths)) do
      local b = rules.strengths[name]
      if type(name) ~= "string" or type(b) ~= "string" then
        error("strength " .. tostring(name) .. ": expected the name of a bot, e.g. \"mc:100\"", 0)
      end
      strengths[name] = b
    end
  end
  if next(strengths) == nil then strengths = nil end
  local bots = sorted_keys(rules.bots or {})
  -- An empty Lua table reads as a map, not a list: leave out an empty list
  -- (the Rust side defaults it to empty), so a game may have no script bot.
  if #bots == 0 then bots = nil end
  return {
    id = rules.id, title = rules.title or rules.id,
    players = { min = rules.players.min, max = rules.players.max, default = rules.players.default },
    options = options, bots = bots,
    playout_bot = type(rules.playout_bot) == "string" and rules.playout_bot or nil,
    max_steps = type(rules.max_steps) == "number" and rules.max_steps or nil,
    summary = type(rules.summary) == "string" and rules.summary or nil,
    metrics = metrics, restrictions = restrictions, strengths = strengths,
  }
end

-- The value functions of the metrics, sorted by name (the core reads
-- them once per rules and calls each at the end of a game through
-- `metric`).
function M.metric_functions(rules)
  local out = {}
  for _, name in ipairs(sorted_keys(rules.metrics or {})) do
    out[#out + 1] = { name, rules.metrics[name].value }
  end
  return out
end

-- One metric's value for a finished game: a number, a boolean or nil
-- (the core checks the type and names the metric's file and line).
function M.metric(game, f)
  return f(game)
end

