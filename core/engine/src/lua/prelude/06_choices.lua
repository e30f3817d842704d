---------------------------------------------------------------------------
-- Options that ask for a set of cards
---------------------------------------------------------------------------
-- An option with a `choose` field asks its chooser for a set of cards as
-- well (one decision, one choice in the log):
--   { act = "sell", text = "Sell cards", choose = { from = {ids...},
--     min = 1, max = 5, check = "sale" } }
-- `from` lists the candidate cards; `min` (default 0) and `max` (default
-- #from) bound how many; `check` names an entry of rules.choices:
--   rules.choices.sale = {
--     valid = function(game, seat, cards, option) return true end, -- or false, why
--     partial = function(game, seat, cards, option) ... end, -- optional, for bots
--     score = function(game, seat, cards, option) return gold end,  -- optional, for bots
--   }
-- Bots build a set card by card, keeping a card when `partial` (else
-- `valid`) accepts the set with it: `partial` says whether more cards may
-- still make the set a choice ("one cargo type" for a sale that must also
-- be worth some gold).
-- The rules then apply a copy of the option without `choose` whose `cards`
-- lists the chosen cards (in the order of `from`). The core asks for
-- positions in `from` ("picks", 1-based, ascending).

local function choose_of(game, index)
  local d = game._decision
  local o = d and d.options[index]
  local c = type(o) == "table" and o.choose or nil
  if c == nil then return nil, nil end
  if type(c) ~= "table" or type(c.from) ~= "table" then
    error("option " .. tostring(index) .. ": `choose.from` must be a list of cards", 0)
  end
  return o, c
end

local function bounds(c)
  local n = #c.from
  local lo, hi = c.min or 0, c.max or n
  if hi > n then hi = n end
  return lo, hi
end

local function check_of(game, c)
  if c.check == nil then return nil end
  local choices = game.rules.choices
  local ch = type(choices) == "table" and choices[c.check] or nil
  if type(ch) ~= "table" then
    error("`choose.check` names '" .. tostring(c.check) .. "', which is not in rules.choices", 0)
  end
  return ch
end

local function cards_at(c, picks)
  local cards = {}
  for i = 1, #picks do cards[i] = c.from[picks[i]] end
  return cards
end

-- Why `cards` cannot be chosen (nil when they can). `partial`: a set being
-- built, which may still be smaller than `min`, checked with the rules'
-- `partial` (may more cards make it a choice?) when they give one.
local function verdict(game, seat, o, c, cards, partial)
  local lo, hi = bounds(c)
  local n = #cards
  if n > hi or (n < lo and not partial) then
    if lo == hi then
      return "choose exactly " .. lo .. " card" .. (lo == 1 and "" or "s")
    end
    return "choose " .. lo .. " to " .. hi .. " cards"
  end
  local ch = check_of(game, c)
  local f = ch and ((partial and ch.partial) or ch.valid)
  if f then
    local ok, why = f(game, seat, cards, o)
    if not ok then
      return why ~= nil and tostring(why) or "these cards cannot be chosen together"
    end
  end
  return nil
end

-- The candidates of option `index` and its bounds, and whether the rules
-- score its sets; nothing for an ordinary option.
function M.subset(game, index)
  local o, c = choose_of(game, index)
  if o == nil then return nil, 0, 0, false end
  local lo, hi = bounds(c)
  local ch = check_of(game, c)
  return c.from, lo, hi, (ch ~= nil and ch.score ~= nil)
end

-- Why the cards at `picks` cannot be chosen with option `index` (nil when
-- they can).
function M.check(game, index, picks)
  local o, c = choose_of(game, index)
  if o == nil then return "option " .. tostring(index) .. " does not ask for cards" end
  for i = 1, #picks do
    local p = picks[i]
    if c.from[p] == nil then
      return "there is no card " .. tostring(p) .. " to choose (1 to " .. #c.from .. ")"
    end
  end
  return verdict(game, game._decision.seat, o, c, cards_at(c, picks), false)
end

-- The value the rules apply for option `index` with the cards at `picks`.
local function chosen(game, index, picks)
  local o, c = choose_of(game, index)
  if o == nil then error("option " .. tostring(index) .. " does not ask for cards", 0) end
  local v = {}
  for k, x in pairs(o) do
    if k ~= "choose" then v[k] = x end
  end
  v.cards = cards_at(c, picks)
  return v
end
M.chosen = chosen

function M.step_subset(game, index, picks)
  local d = game._decision
  game.rules.apply(game, d.seat, chosen(game, index, picks))
  if report_step then return report_step(refresh(game)) end
  return refresh(game)
end

-- Build a set for option `index` card by card, without listing sets: walk
-- the positions of `order`, adding a card when the set with it still
-- passes the check (the check must accept the parts of what it accepts,
-- save for `min`), up to `target` cards. With `greedy` (and a score), add
-- at each step the card whose set scores best, while that beats the set
-- without it. The picks (ascending), or nil when the set built is not a
-- valid choice.
function M.build(game, index, order, target, greedy)
  local o, c = choose_of(game, index)
  if o == nil then error("option " .. tostring(index) .. " does not ask for cards", 0) end
  local seat = game._decision.seat
  local lo, hi = bounds(c)
  if target > hi then target = hi end
  local ch = check_of(game, c)
  local score = greedy and ch and ch.score or nil
  local set, picks = {}, {}
  local function try(p)
    set[#set + 1] = c.from[p]
    local ok = verdict(game, seat, o, c, set, true) == nil
    set[#set] = nil
    return ok
  end
  if score then
    local used = {}
    local current = score(game, seat, set, o)
    while #set < hi do
      local best, best_p = nil, nil
      for i = 1, #order do
        local p = order[i]
        if not used[p] and try(p) then
          set[#set + 1] = c.from[p]
          local v = score(game, seat, set, o)
          set[#set] = nil
          if type(v) == "number" and (best == nil or v > best) then best, best_p = v, p end
        end
      end
      if best_p == nil or (#set >= lo and best <= current) then break end
      used[best_p] = true
      set[#set + 1] = c.from[best_p]
      picks[#picks + 1] = best_p
      current = best
    end
  else
    -- Up to `target` cards; then, while the set is not yet a choice (too
    -- few cards, or a check such as "worth some gold" that more cards
    -- may meet), more of them.
    for i = 1, #order do
      local p = order[i]
      if #set >= target and verdict(game, seat, o, c, set, false) == nil then break end
      if #set >= hi then break end
      if try(p) then
        set[#set + 1] = c.from[p]
        picks[#picks + 1] = p
      end
    end
  end
  if verdict(game, seat, o, c, set, false) ~= nil then return nil end
  tsort(picks)
  return picks
end

