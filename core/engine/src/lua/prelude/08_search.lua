---------------------------------------------------------------------------
-- Search support: option keys, playouts, tapes, guesses
---------------------------------------------------------------------------

-- The entry points below call these as they are here, not through the
-- wrappers at the end of this file (a wrapper starts a new call for the
-- guards, which must not happen inside a call).
local describe, evaluate, result, rounds, bot_choice = M.describe, M.evaluate, M.result,
  M.rounds, M.bot

-- What `viewer` can tell the options of the pending decision apart by, one
-- text per option: the option's own text, except for a secret option of
-- another seat, which shows only what that seat's rivals are told (its
-- `secret` text, or that a secret choice was made). A search keys the
-- decisions of other seats by these, so that it never tells apart what the
-- searching seat could not.
local function option_key(game, d, o, viewer)
  local secret = d.seat ~= viewer and type(o) == "table" and o.secret or nil
  if secret == true then return "makes a secret choice" end
  if type(secret) == "string" then return secret end
  return describe(game, o)
end

function M.option_keys(game, viewer)
  local d = game._decision
  local out = {}
  if d == nil then return out end
  for i, o in ipairs(d.options) do
    out[i] = option_key(game, d, o, viewer)
  end
  return out
end

-- The key of option `index` alone (nil when there is no such option), for
-- a search that needs only the move it plays.
function M.option_key(game, viewer, index)
  local d = game._decision
  local o = d and d.options[index]
  if o == nil then return nil end
  return option_key(game, d, o, viewer)
end

-- What a finished playout is worth to every seat: the rules' evaluation
-- when `at_horizon` is true and the game goes on, else 1 for a win (1/k for a
-- win shared by k seats) and 0 otherwise.
local function worth(game, at_horizon)
  local out = {}
  if at_horizon and game._decision ~= nil then
    for s = 1, game.seats do out[s] = evaluate(game, s) end
    return out
  end
  local r = result(game)
  local winners = type(r) == "table" and r.winners or {}
  local k = #winners
  for s = 1, game.seats do out[s] = 0 end
  for _, s in ipairs(winners) do
    if out[s] ~= nil then out[s] = 1 / k end
  end
  return out
end

-- Play a search's copy of a game on, one step after another inside this
-- one call (the playout is the search's hot path: no crossing into Rust per
-- step): each choice made by the script bot `bot`, or at random with the
-- copy's own generator (a guess at the hidden cards reseeds it). Stops at
-- the game's end, or once the round count passes `horizon` (when given),
-- or after `cut` steps (when given; the position is then worth the rules'
-- evaluation), or after `max_steps` steps. Returns what the position is
-- worth to each seat (nil after `max_steps`), then the pending seat and
-- option count.
--
-- A decision whose options ask for a set of cards, or (for random play) a
-- reaction window, is handed back to the core, which chooses it as the
-- random bot or the script bot does everywhere else (core/engine/src/game/random.rs:
-- sets built card by card, windows passed 9 times in 10), applies it and
-- calls this again.
--
-- Returns the worth (nil when stopped early), whether the core must choose
-- the pending decision, the steps taken, then (after at least one step)
-- what `refresh` said of the decision pending now.
local function asks_cards(d)
  local opts = d.options
  for i = 1, rawlen(opts) do
    local o = opts[i]
    if type(o) == "table" and o.choose ~= nil then return true end
  end
  return false
end

function M.playout(game, horizon, bot, max_steps, cut)
  local rules, random, token = game.rules, core_random, game._core
  if cut and not rules.evaluate then
    error("a playout cut short is worth the rules' evaluate(game, seat), which these rules do not define", 0)
  end
  local steps = 0
  local d = game._decision
  if d == nil then return worth(game, horizon ~= nil), false, 0, nil, 0, 0, false, 0 end
  -- (kind is read by the core only after a step, from refresh.)
  local seat, n, kind, subsets, pass = d.seat, rawlen(d.options), 0, asks_cards(d), 0
  if d.window ~= nil then pass = 1 end
  while d ~= nil do
    if horizon and rounds(game) > horizon then break end
    if cut and steps >= cut then
      return worth(game, true), false, steps, seat, n, kind, subsets, pass
    end
    if steps >= max_steps then
      return nil, false, steps, seat, n, kind, subsets, pass
    end
    if subsets or (pass ~= 0 and not bot) then
      return nil, true, steps, seat, n, kind, subsets, pass
    end
    local i
    if bot then i = bot_choice(game, bot) else i = random(token, 1, n) end
    rules.apply(game, seat, d.options[i])
    seat, n, kind, subsets, pass = refresh(game)
    steps = steps + 1
    d = game._decision
  end
  return worth(game, horizon ~= nil), false, steps, seat, n, kind, subsets, pass
end

-- Copying a game into a search's copy again. A search copies the same
-- position once per guess, so the position is first written down as a
-- tape (M.tape): its tables numbered in the order they are first reached
-- (the game itself is table 1), each table's metatable, and every entry
-- as (table, key, value), a key or value that is a table given by its
-- number. Copying the game again (M.copy_tape) replays the tape into the
-- tables the copy's previous replay of the same tape made: each is
-- emptied (keeping its room) and filled again, by loops without recursion
-- or weak tables, which the compiler turns into straight code. Only
-- tables the replay made itself are reused: never a table the rules
-- share between games, which a script may have put into the copy during
-- play. The tape shares what M.clone shares (rules, cards, options) and
-- leaves out the copy's token, log and `words`.
local tclear = core.table_clear
core.table_clear = nil

-- The kinds of entries a tape keeps apart, each replayed by a loop of its
-- own: a loop that meets one kind of key and value only compiles to
-- straight code, where one loop over them all branched on every entry.
-- "it" and "st" hold a table's number as the value; "other" holds any
-- entry, its key and value each either plain or a table's number.
local TAPE_KINDS = { "in", "sn", "ss", "sb", "it", "st" }

function M.tape(game)
  local number, tables, mts = {}, { game }, { false }
  number[game] = 1
  local tape = { mts = mts, other = { n = 0 } }
  for _, kind in ipairs(TAPE_KINDS) do tape[kind] = { n = 0 } end
  local function number_of(t)
    local i = number[t]
    if i == nil then
      i = #tables + 1
      tables[i], number[t] = t, i
      local mt = getmetatable(t)
      mts[i] = type(mt) == "table" and mt or false
    end
    return i
  end
  local function add(kind, at, k, v)
    local list = tape[kind]
    local n = list.n + 1
    list.n = n
    list[3 * n - 2], list[3 * n - 1], list[3 * n] = at, k, v
  end
  -- Entry k = v of table `at`; `shared`: the value is kept as it is, even
  -- a table.
  local function entry(at, k, v, shared)
    local tk, tv = type(k), type(v)
    if shared then
      -- kept as it is (below)
    elseif tk == "number" and k == floor(k) and k >= 1 and k < 2 ^ 31 then
      if tv == "number" then return add("in", at, k, v) end
      if tv == "table" then return add("it", at, k, number_of(v)) end
    elseif tk == "string" then
      if tv == "number" then return add("sn", at, k, v) end
      if tv == "string" then return add("ss", at, k, v) end
      if tv == "boolean" then return add("sb", at, k, v) end
      if tv == "table" then return add("st", at, k, number_of(v)) end
    end
    -- Anything else: 5 slots (table, key, key's table number or 0,
    -- value, value's table number or 0).
    local other = tape.other
    local n = other.n + 1
    other.n = n
    local o = 5 * (n - 1)
    other[o + 1] = at
    if tk == "table" then other[o + 2], other[o + 3] = false, number_of(k)
    else other[o + 2], other[o + 3] = k, 0 end
    if tv == "table" and not shared then other[o + 4], other[o + 5] = false, number_of(v)
    else other[o + 4], other[o + 5] = v, 0 end
  end
  for k, v in pairs(game) do
    if k == "_core" then
      -- the copy keeps the token of its own Rust table
    elseif k == "rules" or k == "cards" or k == "options" then
      entry(1, k, v, true) -- immutable during play: shared
    elseif k == "_log" or k == "logging" or k == "words" then
      entry(1, k, false) -- a copy keeps no log and builds no texts
    else
      entry(1, k, v)
    end
  end
  local i = 2
  while i <= #tables do
    for k, v in pairs(tables[i]) do entry(i, k, v) end
    i = i + 1
  end
  tape.tables = #tables
  return tape
end

-- Make the search's copy `copy` (made by M.clone from a game of the same
-- rules) the position `tape` wrote down again, keeping its own token.
-- `mine` (kept by the copy's Rust side, empty at first) holds the tables
-- the copy's last replay made, and of which tape.
function M.copy_tape(copy, tape, mine)
  if mine.tape ~= tape then
    tclear(mine)
    mine.tape, mine[1] = tape, copy
  end
  local mts = tape.mts
  local token = copy._core
  tclear(copy)
  rawset(copy, "_core", token)
  for i = 2, tape.tables do
    local t, mt = mine[i], mts[i]
    if t == nil then
      t = {}
      mine[i] = t
    else
      tclear(t)
    end
    if getmetatable(t) ~= (mt or nil) then setmetatable(t, mt or nil) end
  end
  -- One loop per kind (see TAPE_KINDS), each the same three lines.
  local l = tape["in"]
  for e = 1, 3 * l.n, 3 do rawset(mine[l[e]], l[e + 1], l[e + 2]) end
  l = tape.sn
  for e = 1, 3 * l.n, 3 do rawset(mine[l[e]], l[e + 1], l[e + 2]) end
  l = tape.ss
  for e = 1, 3 * l.n, 3 do rawset(mine[l[e]], l[e + 1], l[e + 2]) end
  l = tape.sb
  for e = 1, 3 * l.n, 3 do rawset(mine[l[e]], l[e + 1], l[e + 2]) end
  l = tape.it
  for e = 1, 3 * l.n, 3 do rawset(mine[l[e]], l[e + 1], mine[l[e + 2]]) end
  l = tape.st
  for e = 1, 3 * l.n, 3 do rawset(mine[l[e]], l[e + 1], mine[l[e + 2]]) end
  l = tape.other
  for e = 1, 5 * l.n, 5 do
    local k, v = l[e + 1], l[e + 3]
    if l[e + 2] ~= 0 then k = mine[l[e + 2]] end
    if l[e + 4] ~= 0 then v = mine[l[e + 4]] end
    rawset(mine[l[e]], k, v)
  end
end

-- The definitions of cards 1.. last handed to the core whole, and the
-- number of properties of each; nil when one had a table for a value
-- (only plain values are compared).
local LAST_DEFS, LAST_SIZES = nil, nil

-- Whether cards 1..game._ncards are defined exactly as LAST_DEFS.
local function same_defs(game)
  local last, sizes = LAST_DEFS, LAST_SIZES
  if last == nil or #last ~= game._ncards then return false end
  local cards = game.cards
  for id = 1, #last do
    local was, n = last[id], 0
    for k, x in pairs(cards[id]) do
      if k ~= "id" then
        if was[k] ~= x then return false end
        n = n + 1
      end
    end
    if n ~= sizes[id] then return false end
  end
  return true
end

-- Definitions of cards `from`..game._ncards without their `id` field (the
-- core fetches them when first needed): `false` and the list. `true`
-- alone when the core keeps the definitions it was last handed whole
-- (`kept`) and cards 1.. are defined exactly so again (each game of a run
-- usually makes the same deck): it reuses its copy.
function M.card_defs(game, from, kept)
  if from == 1 and kept and same_defs(game) then return true end
  local out, sizes, plain = {}, {}, true
  for id = from, game._ncards do
    local def, n = {}, 0
    for k, x in pairs(game.cards[id]) do
      if k ~= "id" then
        def[k] = x
        n = n + 1
        if type(x) == "table" then plain = false end
      end
    end
    out[#out + 1] = def
    sizes[#sizes + 1] = n
  end
  if from == 1 then
    if plain then
      LAST_DEFS, LAST_SIZES = out, sizes
    else
      LAST_DEFS, LAST_SIZES = nil, nil
    end
  end
  return false, out
end

-- The pairs {owner, card} that rules.may_hold rules out, for every seat of
-- `owners` and card of `cards` (what play has shown: a suit a player could
-- not follow); empty when the rules define no may_hold.
function M.ruled_out(game, owners, cards)
  local f = game.rules.may_hold
  local out = {}
  if not f then return out end
  for _, o in ipairs(owners) do
    for _, c in ipairs(cards) do
      if not f(game, o, c) then out[#out + 1] = { o, c } end
    end
  end
  return out
end

-- The back of every card by id (its `back` property as text, "" when it
-- has none): a face-down card shows its back, so a search's guesses swap a
-- hidden card only with cards of the same back (Game::card_backs).
function M.card_backs(game)
  local out, cards = {}, game.cards
  for id = 1, game._ncards do
    local b = cards[id].back
    out[id] = b == nil and "" or tostring(b)
  end
  return out
end

-- Overwrite zone mirrors with the core's contents ({[zone id] = cards}),
-- after the core rearranged hidden cards in a fork (Game::determinized).
function M.set_zones(game, zones)
  for id, cards in pairs(zones) do
    local z = game._zones[id]
    local n = #z
    for i = 1, #cards do z[i] = cards[i] end
    for i = #cards + 1, n do z[i] = nil end
    z.sorted = nil
  end
end

-- The same for the zones whose ids `ids` lists, each read from the core by
-- a direct call: false (and the core hands the cards over as tables) when
-- there are no direct calls or a zone cannot be read so.
function M.load_zones(game, ids)
  if load_mirror == nil then return false end
  local zones, token = game._zones, game._core
  for i = 1, #ids do
    local z = zones[ids[i]]
    if z == nil or not load_mirror(token, z) then return false end
    z.sorted = nil
  end
  return true
end

-- Zone mirrors as arrays by zone id, for the core's consistency check.
function M.mirrors(game)
  local out = {}
  for id, z in ipairs(game._zones) do
    local cards = {}
    for i = 1, #z do cards[i] = z[i] end
    out[id] = cards
  end
  return out
end

