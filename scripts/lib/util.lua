--[[
lib/util.lua: small helpers every game script needs (card names for event
texts, copies of arrays for event data).

  local util = require("lib.util")
  util.names(game, {3, 7})      --> "Blue 5, Red 9"
]]

local util = {}

---The name of a card.
---@param game Game|View
---@param card CardId
---@return string
function util.card_name(game, card)
  return game.cards[card].name
end

---The names of a list of cards, joined with ", ".
---@param game Game|View
---@param cards CardId[]
---@return string
function util.names(game, cards)
  local out = {}
  for i = 1, #cards do out[i] = game.cards[cards[i]].name end
  return table.concat(out, ", ")
end

---A copy of an array (for event data, which must not share the game's tables).
---@generic T
---@param t T[]
---@return T[]
---Names joined for a sentence: "Green 3", "Green 3 and Green 9",
---"Green 3, Green 5 and Green 9".
function util.and_list(names)
  if #names <= 1 then return names[1] or "" end
  return table.concat(names, ", ", 1, #names - 1) .. " and " .. names[#names]
end

---The names of the cards of `seat`'s hand (zone "hand") for which
---`keep(card)` is true, in card order: what a seat is told it holds.
function util.held_names(game, seat, keep)
  local held = {}
  local hand = game:zone("hand", seat)
  for i = 1, #hand do
    if keep(hand[i]) then held[#held + 1] = hand[i] end
  end
  table.sort(held)
  for i = 1, #held do held[i] = game.cards[held[i]].name end
  return held
end

---The reasons a seat may not play a card that every trick game shares, for
---rules.why_not: the game is over, it is another seat's turn, the seat does
---not hold the card. nil when none applies.
function util.why_not_basics(game, seat, card, in_hand)
  local v = game.vars
  if v.game_over then return "the game is over" end
  if v.turn ~= seat then return "it is not your turn" end
  if not in_hand then return "you do not hold " .. game.cards[card].name end
  return nil
end

function util.copy_array(t)
  local out = {}
  for i = 1, #t do out[i] = t[i] end
  return out
end

---`list` cut to its first `n` entries: the entries after them taken out
---(up to the first empty one: a list filled again from its start, as the
---rules do with a list they reuse from call to call instead of making a
---new one). Returns `list`.
---@param list any[]
---@param n integer
---@return any[]
function util.cut(list, n)
  local i = n + 1
  while list[i] ~= nil do
    list[i] = nil
    i = i + 1
  end
  return list
end

---The first `n` entries of `list` sorted in place, by insertion (stable:
---entries neither before the other keep their order); `before(ctx, a, b)`
---is true when `a` goes before `b`. For the short lists the rules sort at
---every decision (a hand's cards): a loop the compiler turns into machine
---code, where table.sort compares through Lua's C interface and stays in
---the interpreter, and no function is made per call (`ctx` carries what
---the order reads, such as the game's cards).
---@param list any[]
---@param n integer
---@param before fun(ctx: any, a: any, b: any): boolean
---@param ctx any
---@return any[]
function util.sort_first(list, n, before, ctx)
  for i = 2, n do
    local x, j = list[i], i - 1
    while j >= 1 and before(ctx, x, list[j]) do
      list[j + 1] = list[j]
      j = j - 1
    end
    list[j + 1] = x
  end
  return list
end

---`x` as a whole number (a number or a numeric text such as an option's
---value), or nil when it is not one: util.whole("3") --> 3, util.whole("2.5")
---and util.whole("x") --> nil. (LuaJIT has no integer subtype, so this takes
---the place of Lua 5.3's math.tointeger.)
---@param x any
---@return integer?
function util.whole(x)
  local n = tonumber(x)
  if n ~= nil and n == math.floor(n) and n > -2^53 and n < 2^53 then return n end
  return nil
end

---An array of `n` zeros (a score per seat).
---@param n integer
---@return integer[]
function util.zeros(n)
  local out = {}
  for i = 1, n do out[i] = 0 end
  return out
end

---The numbers 1..n (the seats of a game: util.range(game.seats)).
---@param n integer
---@return integer[]
function util.range(n)
  local out = {}
  for i = 1, n do out[i] = i end
  return out
end

---The items of `list` with the highest value(item) (with `lowest`: the
---lowest), in list order: every item tied at the top. Also returns that value.
---`value` may also be a table of the values by item (value[item]): code
---that a search runs in every playout passes one, since LuaJIT compiles no
---code path that makes a function.
---@generic T
---@param list T[]
---@param value (fun(item: T): number)|table<T, number>
---@param lowest? boolean
---@return T[], number|nil
function util.best(list, value, lowest)
  local best, out = nil, {}
  local by_table = type(value) == "table"
  for _, x in ipairs(list) do
    local v
    if by_table then v = value[x] else v = value(x) end
    if best == nil or (lowest and v < best) or (not lowest and v > best) then
      best, out = v, { x }
    elseif v == best then
      out[#out + 1] = x
    end
  end
  return out, best
end

---Give `rules` the `rounds` and `result` of a game that keeps its count of
---rounds in game.vars.round and its winning seats in game.vars.winners (nil
---or empty until the game ends): `result(game)` is { scores, winners,
---rounds } with copies of the lists, and `rounds(game)` the same count
---without building that table (the search bots ask it after every move of
---a playout; 0 before the first round). The scores are a copy of
---game.vars.scores (empty while it is nil), or what `scores(game)` returns
---(a new list, one score per seat) for a game that keeps them otherwise.
---@param rules GameScript
---@param scores? fun(game: Game): number[]
function util.install_result(rules, scores)
  local copy_array = util.copy_array
  scores = scores or function(game) return copy_array(game.vars.scores or {}) end
  function rules.rounds(game)
    return game.vars.round or 0
  end
  function rules.result(game)
    local v = game.vars
    return { scores = scores(game), winners = copy_array(v.winners or {}), rounds = v.round }
  end
end

---What a finished game is worth to `seat`: 1 for a win, 1/k for a win
---shared by k seats, 0 otherwise (for rules.evaluate).
---@param winners Seat[]
---@param seat Seat
---@return number
function util.win_share(winners, seat)
  for _, w in ipairs(winners) do
    if w == seat then return 1 / #winners end
  end
  return 0
end

---A script bot that never fails a game: `choose(view, decision)` wrapped so
---that an error or an answer that is not an option index (with its cards,
---for an option that asks for cards) plays the first option that asks for
---no cards instead (a bot's mistake must not stop a simulation).
---@param choose fun(view: View, decision: Decision): integer
---@return fun(view: View, decision: Decision): integer
function util.safe_bot(choose)
  return function(view, decision)
    local opts = decision.options
    local ok, i, cards = pcall(choose, view, decision)
    if ok and type(i) == "number" and opts[i] ~= nil
        and (opts[i].choose == nil or type(cards) == "table") then
      return i, cards
    end
    -- The first option that asks for no cards; else the fewest cards the
    -- first option allows.
    for k = 1, #opts do
      if type(opts[k]) ~= "table" or opts[k].choose == nil then return k end
    end
    local first = {}
    for k = 1, opts[1].choose.min or 0 do first[k] = opts[1].choose.from[k] end
    return 1, first
  end
end

---Count `by` (default 1) into the counter `name` of the game's tally: the
---figures a game's metrics (rules.metrics) read at its end. The tally is a
---field of the game object, not of game.vars, so players, views and
---traces never see it; it starts empty, so a variant that replaces setup
---keeps it working. A counter belongs to the scripts that count into it
---first (the game's own, or one house-rule file): a house rule that
---counts into one of the game's counters gets an error, and counts under
---a name of its own instead (it may read any counter).
---@param game Game
---@param name string
---@param by? number
function util.count(game, name, by)
  return game:count(name, by) -- a tail call: the core sees who counts
end

---The first card id that plain data names the way options and events name
---cards (a `card` number, or a number in a `cards` list, at any depth), or
---nil: for the rules.invariants of a game whose public variables
---(game.vars) must name no card.
---@param data any
---@return CardId?
function util.named_card(data)
  if type(data) ~= "table" then return nil end
  for k, x in pairs(data) do
    if k == "card" and type(x) == "number" then return x end
    if k == "cards" and type(x) == "table" then
      for i = 1, #x do
        if type(x[i]) == "number" then return x[i] end
      end
    end
    local id = util.named_card(x)
    if id ~= nil then return id end
  end
  return nil
end

---A counter of the game's tally (0 when never counted).
---@param game Game
---@param name string
---@return number
function util.counted(game, name)
  local t = game.tally
  return t and t[name] or 0
end

---A counter of the game's tally divided by `of`: another counter's name, or
---a number (e.g. the rounds played). nil when `of` is 0, so that a metric
---of a game with nothing to divide by is left out of the statistics.
---@param game Game
---@param name string
---@param of string|number|nil
---@return number|nil
function util.per(game, name, of)
  local n = type(of) == "string" and util.counted(game, of) or of or 0
  if n == 0 then return nil end
  return util.counted(game, name) / n
end

return util
