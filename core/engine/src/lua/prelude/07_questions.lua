---------------------------------------------------------------------------
-- Questions front ends and bots ask of a game: descriptions, bots, status,
-- reasons, results, rounds, evaluations, copies
---------------------------------------------------------------------------

function M.describe(game, option)
  local f = game.rules.describe
  if f then return tostring(f(game, option)) end
  if type(option) == "table" then
    if option.card then return game.cards[option.card].name end
    if option.text then return tostring(option.text) end
  end
  return tostring(option)
end

function M.bot(game, name)
  local f = game.rules.bots[name]
  if not f then error("no bot named '" .. tostring(name) .. "'", 0) end
  local d = game._decision
  local i, cards = f(bot_view(game, d.seat), d)
  if type(i) ~= "number" or i < 1 or i > rawlen(d.options) or i % 1 ~= 0 then
    error("bot '" .. name .. "' returned " .. tostring(i) .. ", not an option index 1.."
      .. rawlen(d.options), 0)
  end
  -- For an option that asks for cards, the bot returns them too (ids).
  local o, c = choose_of(game, i)
  if o == nil then return i end
  if type(cards) ~= "table" then
    error("bot '" .. name .. "' chose option " .. i .. ", which asks for cards, without a list of cards", 0)
  end
  local at, taken, picks = {}, {}, {}
  for p = 1, #c.from do
    local id = c.from[p]
    at[id] = at[id] or p
  end
  for k = 1, #cards do
    local p = at[cards[k]]
    if p == nil or taken[p] then
      error("bot '" .. name .. "' chose card " .. tostring(cards[k]) .. ", which option " .. i .. " does not offer", 0)
    end
    taken[p] = true
    picks[#picks + 1] = p
  end
  tsort(picks)
  return i, picks
end

-- The options of the pending decision that restriction `name` allows
-- (rules.restrictions[name].allows(view, option, decision), from the view
-- of the seat to move), as a list of 1-based indices; nil when it allows
-- them all, or none (a bar that leaves nothing to play is lifted).
function M.allowed(game, name)
  local r = game.rules.restrictions[name]
  if type(r) ~= "table" or type(r.allows) ~= "function" then
    error("no restriction named '" .. tostring(name) .. "'", 0)
  end
  local d = game._decision
  local view = bot_view(game, d.seat)
  local n = rawlen(d.options)
  local out = {}
  for i = 1, n do
    if r.allows(view, d.options[i], d) then out[#out + 1] = i end
  end
  if #out == 0 or #out == n then return nil end
  return out
end

function M.status(game, seat)
  local f = game.rules.status
  if not f then return {} end
  return f(M.view(game, seat or 1)) or {}
end

-- Why `seat` may not play `card` now, as a sentence for that seat
-- (rules.why_not); nil when the rules give no reason.
function M.why_not(game, seat, card)
  local f = game.rules.why_not
  if not f then return nil end
  local r = f(game, seat, card)
  if r == nil or r == false then return nil end
  return tostring(r)
end

function M.result(game)
  local f = game.rules.result
  if not f then return { scores = {}, winners = {}, rounds = 0 } end
  return f(game)
end

-- The number of rounds played or under way (the `rounds` of the result):
-- the rules' `rounds(game)` when they give one (the search asks after every
-- move of a playout: it should cost no table), else from `result`.
function M.rounds(game)
  local quick = game.rules.rounds
  if quick then
    local n = quick(game)
    if type(n) ~= "number" then
      error("rounds must return a number, got " .. tostring(n), 0)
    end
    return n
  end
  local f = game.rules.result
  if not f then return 0 end
  local r = f(game)
  return type(r) == "table" and tonumber(r.rounds) or 0
end

-- The rules' estimate of how good the position is for `seat`, from 0 (a
-- sure loss) to 1 (a sure win); nil when the rules give none.
function M.evaluate(game, seat)
  local f = game.rules.evaluate
  if not f then return nil end
  local v = f(game, seat)
  if type(v) ~= "number" or v ~= v then
    error("evaluate must return a number from 0 to 1, got " .. tostring(v), 0)
  end
  return v
end

-- A copy of a game for search and simulation; `token` names the copied
-- Rust table.
function M.clone(game, token)
  local copy = setmetatable({}, GAME_META)
  local seen = {}
  for k, v in pairs(game) do
    if k == "_core" then
      copy[k] = token
    elseif k == "rules" or k == "cards" or k == "options" then
      copy[k] = v -- immutable during play: shared
    else
      copy[k] = deepcopy(v, seen)
    end
  end
  copy._log = false
  copy.logging = false
  copy.words = false
  return copy
end

