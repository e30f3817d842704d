-- The Lua half of deckhand's core: the Game object scripts receive, the
-- per-seat View, rules composition and the step protocol the Rust half calls.
-- It knows no particular game. Card moves, shuffles, random numbers and
-- events go through the Rust primitives in `core` (the truth); the zone
-- tables scripts read are mirrors kept in step here, so reading a hand is a
-- plain table read. A primitive acts on the table of the game being played;
-- its first argument, `game._core`, is the game object's token, which the
-- core checks names that game.

local core = ...

local M = {}

local type, pairs, ipairs, error, setmetatable, tostring = type, pairs, ipairs, error, setmetatable, tostring
-- Lists the rules hand back (a decision's options, the zones of a deal)
-- are read by their raw length: a `__len` of the script's never decides
-- how far the core reads.
local rawlen = rawlen
local tremove, tinsert, tsort, tconcat = table.remove, table.insert, table.sort, table.concat
local floor = math.floor
local core_move, core_random, core_event = core.move, core.random, core.event
local core_move_all, core_place, core_deal = core.move_all, core.place, core.deal
local core_bot_random = core.bot_random
local core_defined_at, core_caller = core.defined_at, core.caller

-- The mirror of a zone the core has reordered: the core returns the new
-- order as multiple values (cheaper than a table).
local function reordered(zone, ...)
  local order = { ... }
  for i = 1, #order do zone[i] = order[i] end
end

-- Shuffle or sort a zone's cards in the core and in its mirror.
local function shuffle_zone(token, zone) reordered(zone, core.shuffle(token, zone.id)) end
local function sort_zone(token, zone) reordered(zone, core.sort(token, zone.id)) end

-- With direct calls, a step writes what it decided into the core's buffer
-- (set below) instead of returning five values.
local report_step = nil

-- Fill a zone's mirror from the core (direct calls only, set below): false
-- when it cannot.
local load_mirror = nil

-- Take out item `i` of a list of `n` items: table.remove in the interpreter
-- (one call in C, which ignores `n`); with the compiler (below), a loop it
-- compiles, where table.remove from the middle of a list would end the
-- trace.
local remove_at = tremove

-- Direct calls (core/engine/src/lua/fast.rs): with the compiler on, the core hands
-- the prelude (never a script) LuaJIT's `ffi` and the addresses of a few
-- primitives, which compiled code then calls without leaving the trace.
-- A direct call answers 0 (done), 2 (done, with events to charge: settle)
-- or 1 (nothing done: the same call again through the ordinary primitive,
-- which gives the usual error). Arguments that are not numbers never reach
-- it.
if core.direct then
  local d = core.direct
  local ffi = d.ffi
  local in_play = ffi.cast("void *", d.in_play)
  local function bind(name) return ffi.cast(d[name].ctype, d[name].address) end
  local settle = core.settle
  local direct_move, plain_move = bind("move"), core_move
  core_move = function(token, card, from, to, bottom, draw)
    if type(token) == "number" and type(card) == "number" and type(from) == "number"
      and type(to) == "number" then
      local status = direct_move(in_play, token, card, from, to, bottom, draw)
      if status == 0 then return end
      if status == 2 then return settle() end
    end
    return plain_move(token, card, from, to, bottom, draw)
  end
  local direct_move_all, plain_move_all = bind("move_all"), core_move_all
  core_move_all = function(token, from, to)
    if type(token) == "number" and type(from) == "number" and type(to) == "number" then
      local status = direct_move_all(in_play, token, from, to)
      if status == 0 then return end
      if status == 2 then return settle() end
    end
    return plain_move_all(token, from, to)
  end
  local direct_place, plain_place = bind("place"), core_place
  core_place = function(token, card, zone, defined)
    if type(token) == "number" and type(card) == "number" and type(zone) == "number"
      and type(defined) == "number" then
      local status = direct_place(in_play, token, card, zone, defined)
      if status == 0 then return end
      if status == 2 then return settle() end
    end
    return plain_place(token, card, zone, defined)
  end
  local ROOM = 64
  local direct_deal, plain_deal, zone_ids = bind("deal"), core_deal, ffi.new("double[?]", ROOM)
  core_deal = function(token, from, to, n)
    local count = type(to) == "table" and rawlen(to) or 0
    if type(token) == "number" and type(from) == "number" and type(n) == "number"
      and count <= ROOM then
      local numbers = true
      for i = 1, count do
        local z = to[i]
        if type(z) ~= "number" then numbers = false; break end
        zone_ids[i - 1] = z
      end
      if numbers then
        local status = direct_deal(in_play, token, from, zone_ids, count, n)
        if status == 0 then return end
        if status == 2 then return settle() end
      end
    end
    return plain_deal(token, from, to, n)
  end
  -- Room for the order of a zone of up to CARDS cards (a larger one goes
  -- through the ordinary primitive).
  local CARDS = 512
  local order, count = ffi.new("uint32_t[?]", CARDS), ffi.new("uint32_t[1]")
  local function reorder(direct, plain_zone)
    return function(token, zone)
      local id = zone.id
      if type(token) == "number" and type(id) == "number" then
        local status = direct(in_play, token, id, order, CARDS, count)
        if status ~= 1 then
          for i = 1, count[0] do zone[i] = order[i - 1] end
          if status == 2 then settle() end
          return
        end
      end
      return plain_zone(token, zone)
    end
  end
  local direct_cards = bind("cards")
  load_mirror = function(token, zone)
    local id = zone.id
    if type(token) ~= "number" or type(id) ~= "number"
      or direct_cards(in_play, token, id, order, CARDS, count) ~= 0 then
      return false
    end
    local n, old = count[0], #zone
    for i = 1, n do zone[i] = order[i - 1] end
    for i = n + 1, old do zone[i] = nil end
    return true
  end
  shuffle_zone = reorder(bind("shuffle"), shuffle_zone)
  sort_zone = reorder(bind("sort"), sort_zone)
  local direct_random, plain_random = bind("random"), core_random
  local drawn = ffi.new("double[1]")
  core_random = function(token, lo, hi)
    if type(token) == "number" and type(lo) == "number" and type(hi) == "number"
      and direct_random(in_play, token, lo, hi, drawn) == 0 then
      return drawn[0]
    end
    return plain_random(token, lo, hi)
  end
  remove_at = function(list, i, n)
    for j = i, n - 1 do list[j] = list[j + 1] end
    list[n] = nil
  end
  local decided = ffi.cast("double *", d.decided)
  report_step = function(seat, n, kind, subsets, pass)
    decided[0] = seat or 0
    decided[1] = n
    decided[2] = kind
    decided[3] = subsets and 1 or 0
    decided[4] = pass
  end
  core.direct = nil
end

-- Sorted keys of a table, so that nothing here depends on `pairs` order.
local function sorted_keys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  tsort(keys, function(a, b)
    local ta, tb = type(a), type(b)
    if ta ~= tb then return ta < tb end
    return a < b
  end)
  return keys
end
M.sorted_keys = sorted_keys

-- Deep copy of plain data (functions and userdata are shared, not copied).
local function deepcopy(v, seen)
  if type(v) ~= "table" then return v end
  seen = seen or {}
  if seen[v] then return seen[v] end
  local out = {}
  seen[v] = out
  for k, x in pairs(v) do out[deepcopy(k, seen)] = deepcopy(x, seen) end
  local mt = getmetatable(v)
  if type(mt) == "table" then setmetatable(out, mt) end
  return out
end
M.deepcopy = deepcopy

-- A table whose unknown keys are errors when read: catches `options.targt_vp`.
-- A copy of plain data (tables of numbers, strings, booleans, tables): each
-- game gets its own options table from the one the host keeps converted.
local function copy_data(t)
  local out = {}
  for k, v in pairs(t) do
    if type(v) == "table" then v = copy_data(v) end
    out[k] = v
  end
  return out
end

local function strict(t, what)
  return setmetatable(t, {
    __index = function(_, k)
      error(what .. ": no such key '" .. tostring(k) .. "' (known: "
        .. tconcat(sorted_keys(t), ", ") .. ")", 2)
    end,
  })
end

---------------------------------------------------------------------------
-- Game
---------------------------------------------------------------------------

-- The methods of every game object, shared by all games of this VM. No
-- script can reach this table: the metatable games get (GAME_META) is
-- hidden (`getmetatable(game)` gives `false`), and the methods table has
-- no field leading back to itself (were `Game.__index = Game`, then
-- `game.__index` would hand it out, and a rule writing into it would
-- change every later game of the VM).
local Game = {}
local GAME_META = { __index = Game, __metatable = false }

function Game:new_card(props)
  if type(props) ~= "table" or type(props.name) ~= "string" then
    error("new_card: expects a table with a string `name`", 2)
  end
  -- Ids are counted here rather than in the core (a call into Rust per
  -- card): the core learns the count when a card is placed (core.place)
  -- or when it fetches definitions (Game::ensure_cards reads `_ncards`).
  local id = self._ncards + 1
  self._ncards = id
  -- The table itself becomes the definition (a copy per card was about 3%
  -- of a simulated game). Its `id` is set here, so a table passed twice (a
  -- template changed between calls would change the first card too) is
  -- refused at its second use.
  if props.id ~= nil then
    error("new_card: this table already has an `id` (card " .. tostring(props.id)
      .. "): pass a fresh table for each card, and do not set `id` yourself", 2)
  end
  props.id = id
  self.cards[id] = props
  return id
end

function Game:new_zone(name, spec)
  spec = spec or {}
  local vis = spec.visibility or "public"
  local id = core.new_zone(self._core, name, spec.owner, vis)
  local z = { id = id, name = name, owner = spec.owner, visibility = vis }
  self._zones[id] = z
  local by_owner = self._zindex[name]
  if not by_owner then by_owner = {}; self._zindex[name] = by_owner end
  by_owner[spec.owner or 0] = z
  return z
end

function Game:zone(name, owner)
  local by_owner = self._zindex[name]
  local z = by_owner and by_owner[owner or 0]
  if not z then
    error("no zone '" .. tostring(name) .. "'" .. (owner and (" for seat " .. tostring(owner)) or ""), 2)
  end
  return z
end

-- Place a freshly defined card into a zone (setup only).
function Game:place(card, zone)
  core_place(self._core, card, zone.id, self._ncards)
  zone[#zone + 1] = card
  if zone.sorted then zone.sorted = nil end
end

-- `draw` (set by move_top only): the card is the top of `from`, drawn.
local function move(self, card, from, to, where, draw)
  local bottom = where == "bottom"
  core_move(self._core, card, from.id, to.id, bottom, draw == true)
  local n = #from
  if from[n] == card then
    from[n] = nil
  else
    for i = n - 1, 1, -1 do
      if from[i] == card then remove_at(from, i, n); break end
    end
  end
  if bottom then tinsert(to, 1, card) else to[#to + 1] = card end
  if to.sorted then to.sorted = nil end
end

function Game:move(card, from, to, where)
  move(self, card, from, to, where, false)
end

-- Draw: the top card of `from` onto `to` (the trace tells a draw from a
-- move of a card the rules named).
function Game:move_top(from, to)
  local card = from[#from]
  if card == nil then return nil end
  move(self, card, from, to, nil, true)
  return card
end

function Game:move_all(from, to)
  if from == to then return end
  local n, m = #from, #to
  -- Moving an empty zone of this game changes nothing (no card, no event,
  -- no knowledge): skip the call into the core. Anything else, a table
  -- that is not one of this game's zones included, goes to the core.
  if n == 0 and self._zones[from.id] == from and self._zones[to.id] == to then return end
  core_move_all(self._core, from.id, to.id)
  for i = 1, n do
    to[m + i] = from[i]
    from[i] = nil
  end
  if n > 0 and to.sorted then to.sorted = nil end
end

function Game:shuffle(zone)
  shuffle_zone(self._core, zone)
  zone.sorted = nil
end

-- Put a zone in card-id order (a player sorting a hand); `zone.sorted` is
-- then true until a card arrives or the zone is shuffled (taking cards out
-- keeps the order), so a game that lists a sorted hand's cards in order
-- need not sort them again.
function Game:sort(zone)
  sort_zone(self._core, zone)
  zone.sorted = true
end

-- Deal `n` cards to each zone of `to` in turn, one at a time from the top
-- of `from` (one call into the core for the whole deal).
function Game:deal(from, to, n)
  if type(to) ~= "table" then error("deal: expects a list of zones to deal to", 2) end
  local ids, count = {}, rawlen(to)
  for i = 1, count do
    local z = rawget(to, i)
    if type(z) ~= "table" then error("deal: item " .. i .. " of the zones to deal to is not a zone", 2) end
    ids[i] = z.id
  end
  core_deal(self._core, from.id, ids, n)
  local k = #from
  for _ = 1, n do
    for i = 1, count do
      local z = to[i]
      z[#z + 1] = from[k]
      from[k] = nil
      k = k - 1
    end
  end
  for i = 1, count do to[i].sorted = nil end
end

function Game:random(lo, hi)
  return core_random(self._core, lo, hi)
end

function Game:event(kind, data)
  if self._log then core_event(self._core, kind, data or {}) end
end

function Game:next_seat(seat, k)
  return (seat - 1 + (k or 1)) % self.seats + 1
end

function Game:set_teams(teams)
  core.set_teams(self._core, teams)
  self.teams = deepcopy(teams)
  self.team_of = {}
  for t, members in ipairs(teams) do
    for _, s in ipairs(members) do self.team_of[s] = t end
  end
end

-- The tally of a game: counters the rules add to during play (through
-- util.count) and its metrics read at the end. A counter belongs to the
-- scripts that count into it first: the game's own (its folder and the
-- shared library) or one house-rule file. Counting into a counter from
-- another of these is an error, so a house rule's `rounds` can never add
-- to the game's own `rounds` unnoticed (a metric dividing by it would be
-- off by half): a house rule counts under names of its own, and may read
-- any counter.

-- Whose a script file is, by the function counting: "the game" for the
-- game's folder and scripts/lib, else the file itself; kept per rules and
-- function (weak keys: rules and functions come and go with games).
local ORIGINS = setmetatable({}, { __mode = "k" })

local function origin(rules, f)
  local known = ORIGINS[rules]
  if known == nil then
    known = setmetatable({}, { __mode = "k" })
    ORIGINS[rules] = known
  end
  local o = f and known[f]
  if o then return o end
  local file = f and (core_defined_at(f):match("^(.*):%d+$")) or "?"
  local id = tostring(rules.id)
  local own = file:sub(1, #id + 1) == id .. "/" or file:find("/" .. id .. "/", 1, true) ~= nil
    or file:sub(1, 4) == "lib/" or file:find("/lib/", 1, true) ~= nil
  o = own and "the game" or file
  if f then known[f] = o end
  return o
end

-- Count `by` (default 1) into counter `name`: util.count calls this as a
-- tail call, so this method's caller is the script counting.
function Game:count(name, by)
  local t, owners = self.tally, self.tally_owners
  if t == nil then
    t, owners = {}, {}
    self.tally, self.tally_owners = t, owners
  end
  local who = origin(self.rules, core_caller(1))
  local owner = owners[name]
  if owner == nil then
    owners[name] = who
  elseif owner ~= who then
    error("counter '" .. tostring(name) .. "' is counted both by " .. owner .. " and by " .. who
      .. ": a house rule counts under names of its own (and may read any counter with"
      .. " util.counted)", 2)
  end
  t[name] = (t[name] or 0) + (by or 1)
end

---------------------------------------------------------------------------
-- View: what one seat may see
---------------------------------------------------------------------------

local View = {}
local VIEW_META = { __index = View, __metatable = false } -- as GAME_META

-- The game behind each view, out of the bots' reach (a view has no field
-- leading back to the game; weak keys: views are short-lived).
local VIEW_GAME = setmetatable({}, { __mode = "k" })

-- The same for the views M.bot keeps (see bot_view below), with weak
-- values too: the game keeps its bot views (through BOT_VIEWS), so a
-- strong link back would keep every game alive. And, for those views
-- only, the masked zone tables view:zone hands out, by zone id, filled
-- again at each call.
local BOT_VIEW_GAME = setmetatable({}, { __mode = "kv" })
local BOT_VIEW_MASKS = setmetatable({}, { __mode = "k" })

-- Every field of `t` removed (keeping its room).
local function emptied(t)
  for k in next, t do t[k] = nil end
  return t
end

function View:zone(name, owner)
  local z = (VIEW_GAME[self] or BOT_VIEW_GAME[self]):zone(name, owner)
  local vis = z.visibility
  if vis == "public" or (vis == "owner" and z.owner == self.seat) then
    return z
  end
  local masks = BOT_VIEW_MASKS[self]
  if masks == nil then
    local masked = { id = z.id, name = z.name, owner = z.owner, visibility = vis, count = #z }
    if vis == "top" then masked.top = z[#z] end
    return masked
  end
  -- A bot's view kept by M.bot: its table for this zone, emptied and
  -- filled as a new one would be.
  local masked = masks[z.id]
  if masked == nil then
    masked = {}
    masks[z.id] = masked
  else
    emptied(masked)
  end
  masked.id, masked.name, masked.owner, masked.visibility, masked.count = z.id, z.name, z.owner, vis, #z
  if vis == "top" then masked.top = z[#z] end
  return masked
end

-- A bot's own random number, uniform in [lo, hi], from the stream the core
-- gives the bot for this decision (drawn from the game's seed, the seat and
-- the step: the same position gets the same number). Never the game's
-- generator: a bot mixing its play changes no shuffle or die.
function View:random(lo, hi)
  return core_bot_random(lo, hi)
end

-- What `seat` may see: zones through view:zone (masked by visibility), and
-- the public data of the game. `vars` is the game's own table: rules keep
-- secrets in zones, not in vars (docs/scripting.md).
function M.view(game, seat)
  local v = setmetatable({
    seat = seat,
    seats = game.seats,
    options = game.options,
    vars = game.vars,
    cards = game.cards,
    teams = game.teams,
    team_of = game.team_of,
  }, VIEW_META)
  VIEW_GAME[v] = game
  return v
end

-- The views M.bot hands to bots, one per game and seat, kept from one
-- decision to the next (weak keys: a game that is gone takes its views
-- along). A view and its masked zones were about a third of the tables a
-- search's playout made with a script bot; kept, a bot's view is emptied
-- and filled again at each decision, so the bot finds exactly the fields
-- a new view has (whatever it wrote into the view at an earlier decision
-- is gone), and view:zone fills its masked tables again the same way.
local BOT_VIEWS = setmetatable({}, { __mode = "k" })

local function bot_view(game, seat)
  local views = BOT_VIEWS[game]
  if views == nil then
    views = {}
    BOT_VIEWS[game] = views
  end
  local v = views[seat]
  if v == nil then
    v = setmetatable({}, VIEW_META)
    views[seat] = v
    BOT_VIEW_GAME[v] = game
    BOT_VIEW_MASKS[v] = {}
  else
    emptied(v)
  end
  v.seat, v.seats, v.options, v.vars = seat, game.seats, game.options, game.vars
  v.cards, v.teams, v.team_of = game.cards, game.teams, game.team_of
  return v
end

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
  "why_not", "summary", "metrics", "choices", "windows",
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
    metrics = metrics,
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

---------------------------------------------------------------------------
-- Step protocol
---------------------------------------------------------------------------

-- SEATS[n][s] is true for the seats s of an n-seat game: checking a
-- decision's seat is a table read rather than a call to `type`.
local SEATS = setmetatable({}, {
  __index = function(t, n)
    local ok = {}
    for s = 1, n do ok[s] = true end
    t[n] = ok
    return ok
  end,
})

-- rules.decision(game, previous) also receives the game's previous decision
-- (nil at the first): the rules may fill that table again and return it, so
-- that a decision allocates nothing. Nothing reads a decision once the next
-- one is asked for.
-- Decision kinds by number: a step returns the number of its decision's
-- kind (a number crosses to the core for free, a string does not), and the
-- core asks the name of each number once (M.kind_name). -1: the decision
-- names no kind; 0: one of too many kinds to number (the core reads it).
local KIND_IDS, KIND_NAMES = {}, {}
local MAX_KINDS = 1000
-- The most options a decision may offer (as many as a game may define
-- cards): the core reads and describes each one.
local MAX_OPTIONS = 100000
local function kind_id(kind)
  if type(kind) ~= "string" then return -1 end
  local id = KIND_IDS[kind]
  if id ~= nil then return id end
  if #KIND_NAMES >= MAX_KINDS then return 0 end
  id = #KIND_NAMES + 1
  KIND_NAMES[id], KIND_IDS[kind] = kind, id
  return id
end

function M.kind_name(id)
  return KIND_NAMES[id]
end

-- The cards of the pending decision's options when every option is
-- exactly { card = N } (a card to play), as multiple values; nothing
-- otherwise. One call instead of reading every option from the core.
local OPTION_CARDS = {} -- reused: the answer is copied out at once
function M.option_cards(game)
  local d = game._decision
  local opts = d and d.options
  if type(opts) ~= "table" then return end
  local n = rawlen(opts)
  if n > 200 then return end -- too many values to return at once
  local out = OPTION_CARDS
  for i = 1, n do
    local o = opts[i]
    if type(o) ~= "table" then return end
    local c = rawget(o, "card")
    if type(c) ~= "number" or c % 1 ~= 0 then return end
    for k in next, o do
      if k ~= "card" then return end
    end
    out[i] = c
  end
  return unpack(out, 1, n)
end

-- A decision the rules returned is not one: the error names where the
-- decision function is defined (the last variant or house rule that
-- replaced `decision`), since it has returned and no traceback names it.
local function bad_decision(game, msg)
  error(core_defined_at(game.rules.decision) .. ": " .. msg, 0)
end

local function refresh(game)
  local d = game.rules.decision(game, game._decision)
  game._decision = d
  if d == nil then return nil, 0, -1, false, 0 end
  if type(d) ~= "table" then
    -- The function has returned: name where it is defined (the last
    -- variant or house rule that replaced `decision`).
    bad_decision(game, "`decision` returned a " .. type(d)
      .. ", not a table { seat = ..., options = { ... } } or nil")
  end
  local opts = rawget(d, "options")
  if not SEATS[game.seats][d.seat] then
    bad_decision(game, "decision: `seat` must be a seat number 1.." .. game.seats .. ", got "
      .. tostring(d.seat))
  end
  local n = type(opts) == "table" and rawlen(opts) or 0
  if n == 0 then
    bad_decision(game, "decision for seat " .. d.seat .. " has no options")
  end
  if n > MAX_OPTIONS then
    bad_decision(game, "decision for seat " .. d.seat .. " has " .. n .. " options, more than the "
      .. MAX_OPTIONS .. " a decision may offer")
  end
  -- Whether an option asks for a set of cards (`choose`), and, in a
  -- reaction window (`d.window`), which option passes (`pass = true`).
  -- (One look per option: this runs at every decision of every game.)
  local subsets, pass = false, 0
  for i = 1, n do
    local o = rawget(opts, i)
    if type(o) == "table" then
      if o.choose ~= nil then subsets = true end
    elseif o == nil then
      bad_decision(game, "decision for seat " .. d.seat .. ": option " .. i .. " of " .. n
        .. " is nil (a list of options has no holes)")
    end
  end
  local window = d.window
  if window ~= nil then
    for i = 1, n do
      local o = opts[i]
      if type(o) == "table" and o.pass == true then
        pass = i
        break
      end
    end
  end
  if window ~= nil and (type(window) ~= "string" or pass == 0) then
    bad_decision(game, "decision for seat " .. d.seat .. ": a window (`window` = its kind, a string) "
      .. "needs an option with `pass = true`")
  end
  return d.seat, n, kind_id(d.kind), subsets, pass
end

-- `game.logging` (public, read-only for scripts): true when the events the
-- script raises are recorded (trace, log). When false, game:event does
-- nothing, so a script may skip building event data and texts:
--   if game.logging then game:event("x", { text = ... }) end
-- `game.words` (public, read-only): true when someone reads the events'
-- texts (the REPL, a replay); false when only their facts are kept (a
-- trace, which leaves `text` out), so a script may skip building texts:
--   text = game.words and ("Trick won by " .. name) or nil
function M.new_game(rules, token, seats, options, logging, words)
  local game = setmetatable({
    seats = seats,
    options = strict(copy_data(options), "options"),
    vars = {},
    cards = {},
    rules = rules,
    _core = token,
    _zones = {},
    _zindex = {},
    _ncards = 0,
    _log = logging,
    logging = logging and true or false,
    words = (logging and words) and true or false,
  }, GAME_META)
  rules.setup(game)
  return game
end

M.refresh = refresh

function M.step(game, index)
  local d = game._decision
  game.rules.apply(game, d.seat, d.options[index])
  if report_step then return report_step(refresh(game)) end
  return refresh(game)
end

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
-- or after `max_steps` steps. Returns what the position is worth to each
-- seat (nil after `max_steps`), then the pending seat and option count.
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

function M.playout(game, horizon, bot, max_steps)
  local rules, random, token = game.rules, core_random, game._core
  local steps = 0
  local d = game._decision
  if d == nil then return worth(game, horizon ~= nil), false, 0, nil, 0, 0, false, 0 end
  -- (kind is read by the core only after a step, from refresh.)
  local seat, n, kind, subsets, pass = d.seat, rawlen(d.options), 0, asks_cards(d), 0
  if d.window ~= nil then pass = 1 end
  while d ~= nil do
    if horizon and rounds(game) > horizon then break end
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

---------------------------------------------------------------------------
-- Scenarios: setting up a position by card names, then playing from it
---------------------------------------------------------------------------

-- `deckhand lua FILE` runs a file with `game` (a new game of the rules
-- chosen, full access) and `scenario`, the table this function makes: helpers
-- that set up a position by card names and play from it. Every helper moves
-- cards with game:move, so the core keeps each card in exactly one zone; a
-- helper never makes or removes a card. The rules may add helpers of their
-- own in `rules.scenario` (`function(game, ...)`, e.g. set_trump), which
-- appear here with `game` filled in.
local describe_option, rules_result = M.describe, M.result

function M.scenario(game)
  local S = {}
  local lower = string.lower

  -- Every zone of the game, in creation order.
  local function zones()
    local out = {}
    for id = 1, #game._zones do out[id] = game._zones[id] end
    return out
  end

  -- The zone that holds `card`, and its position there.
  local function where(card)
    for _, z in ipairs(zones()) do
      for i = 1, #z do
        if z[i] == card then return z, i end
      end
    end
    return nil
  end

  local function zone_label(z)
    return z.owner and (z.name .. " of seat " .. z.owner) or z.name
  end

  -- The cards whose name is `name` (case does not matter), by id.
  local function named(name, level)
    if type(name) ~= "string" then
      error("a card is named by a string, not a " .. type(name), level + 1)
    end
    local out, want = {}, lower(name)
    for id = 1, game._ncards do
      local c = game.cards[id]
      if c and type(c.name) == "string" and lower(c.name) == want then out[#out + 1] = id end
    end
    if #out == 0 then error("no card of this game is called '" .. name .. "'", level + 1) end
    return out
  end

  -- A zone given as a zone table, or as a name and an owner.
  local function zone_of(z, owner, level)
    if type(z) == "table" and z.id and game._zones[z.id] == z then return z end
    local by_owner = game._zindex[z]
    local found = by_owner and by_owner[owner or 0]
    if not found then
      error("no zone '" .. tostring(z) .. "'" .. (owner and (" for seat " .. tostring(owner)) or ""), level + 1)
    end
    return found
  end

  -- scenario.card(name): the id of the card called `name` (the first by
  -- id when several share it).
  function S.card(name)
    return named(name, 2)[1]
  end

  -- scenario.name(card): a card's name.
  function S.name(card)
    local c = game.cards[card]
    return c and c.name or tostring(card)
  end

  -- scenario.where(name or id): the zone holding the card ("hand of seat 2").
  function S.where(card)
    if type(card) == "string" then card = named(card, 2)[1] end
    local z = where(card)
    return z and zone_label(z) or nil
  end

  -- scenario.cards(zone, owner): the names of a zone's cards, bottom first.
  function S.cards(z, owner)
    z = zone_of(z, owner, 2)
    local out = {}
    for i = 1, #z do out[i] = S.name(z[i]) end
    return out
  end

  -- scenario.give(seat, names [, zone]): the cards named go to that seat's
  -- zone (default "hand"), each from wherever it is. Each one that
  -- arrives sends back a card of that zone that is not named to the zone
  -- it came from, so every zone keeps its size (a trade, not a gift); a
  -- name given twice means two cards of that name.
  function S.give(seat, names, zone)
    local to = zone_of(zone or "hand", seat, 2)
    if type(names) == "string" then names = { names } end
    -- One card per name: one already in `to` first, else the first by id.
    local wanted, order = {}, {}
    for _, name in ipairs(names) do
      local pick
      for _, id in ipairs(named(name, 2)) do
        if not wanted[id] then
          if where(id) == to then pick = id; break end
          pick = pick or id
        end
      end
      if not pick then error("not enough cards called '" .. name .. "'", 2) end
      wanted[pick] = true
      order[#order + 1] = pick
    end
    for _, id in ipairs(order) do
      local from = where(id)
      if from ~= to then
        game:move(id, from, to)
        -- The top-most card of `to` that is not wanted goes back.
        for i = #to, 1, -1 do
          if not wanted[to[i]] then
            game:move(to[i], to, from)
            break
          end
        end
      end
    end
  end

  -- scenario.on_top(name, zone [, owner]): the card goes on top of the
  -- zone; the card that was on top goes to where it came from (sizes kept).
  -- In the same zone, it only moves to the top.
  function S.on_top(name, z, owner)
    z = zone_of(z, owner, 2)
    local card = named(name, 2)[1]
    local from = where(card)
    if from == z then
      game:move(card, z, z)
      return
    end
    local old_top = z[#z]
    game:move(card, from, z)
    if old_top then
      -- The old top, now second from the top, goes back in its place.
      game:move(old_top, z, from)
    end
  end

  -- The pending decision, asked of the rules again: the position may have
  -- been changed since (cards given, vars set).
  local function decision()
    refresh(game)
    return game._decision
  end

  -- scenario.to_move(): the seat to move (nil when the game is over).
  function S.to_move()
    local d = decision()
    return d and d.seat or nil
  end

  -- scenario.moves(): the legal moves' texts, in option order.
  function S.moves()
    local d = decision()
    local out = {}
    if d == nil then return out end
    for i, o in ipairs(d.options) do out[i] = describe_option(game, o) end
    return out
  end

  -- scenario.play(move [, cards]): play a move given by its number, its
  -- text or the name of the card it plays (case does not matter); for a
  -- move that asks for a set of cards, `cards` names them (names or ids;
  -- the rules' check must accept them). Returns the move's text.
  function S.play(move, cards)
    local d = decision()
    if d == nil then error("the game is over: there is no move to play", 2) end
    local index
    if type(move) == "number" then
      if move >= 1 and move <= rawlen(d.options) and move % 1 == 0 then index = move end
    elseif type(move) == "string" then
      local want = lower(move)
      for i, o in ipairs(d.options) do
        local text = lower(describe_option(game, o))
        local card = type(o) == "table" and o.card and game.cards[o.card]
        if text == want or (card and lower(card.name) == want) then
          if index then
            error("'" .. move .. "' could be move " .. index .. " or move " .. i .. ": give the number", 2)
          end
          index = i
        end
      end
    end
    if not index then
      error("seat " .. d.seat .. " has no move '" .. tostring(move) .. "' (its moves: "
        .. tconcat(S.moves(), ", ") .. ")", 2)
    end
    local o, c = choose_of(game, index)
    local value = d.options[index]
    if o ~= nil then
      if type(cards) ~= "table" then
        error("move " .. index .. " asks for a set of cards: scenario.play(move, { cards... })", 2)
      end
      local picks, taken = {}, {}
      for _, want in ipairs(cards) do
        local found
        for p = 1, #c.from do
          local id = c.from[p]
          if not taken[p] and (id == want or (type(want) == "string"
              and lower(game.cards[id].name) == lower(want))) then
            found = p
            break
          end
        end
        if not found then error("move " .. index .. " offers no card '" .. tostring(want) .. "'", 2) end
        taken[found] = true
        picks[#picks + 1] = found
      end
      tsort(picks)
      local why = verdict(game, d.seat, o, c, cards_at(c, picks), false)
      if why then error("not these cards: " .. why, 2) end
      value = chosen(game, index, picks)
    end
    local text = describe_option(game, value)
    game.rules.apply(game, d.seat, value)
    refresh(game)
    return text
  end

  -- scenario.status(seat): the rules' status lines for that seat.
  function S.status(seat)
    local f = game.rules.status
    if not f then return {} end
    return f(M.view(game, seat or 1)) or {}
  end

  -- scenario.result(): the rules' result: { scores, winners, rounds }.
  function S.result()
    return rules_result(game)
  end

  -- The rules' own helpers, with `game` filled in.
  local own = game.rules.scenario
  if type(own) == "table" then
    for _, k in ipairs(sorted_keys(own)) do
      local f = own[k]
      if S[k] ~= nil then
        error("rules.scenario." .. tostring(k) .. " has the name of a built-in scenario helper", 0)
      end
      if type(f) == "function" then
        S[k] = function(...) return f(game, ...) end
      end
    end
  end
  return S
end

-- The entry points the host calls: each starts a new call for the guards
-- (no nesting of C calls, not aborted) before it runs.
local reset = core.reset
for _, name in ipairs({ "compose", "info", "new_game", "refresh", "kind_name", "option_cards", "describe", "bot",
    "subset", "check", "chosen", "build",
    "status", "why_not", "result", "evaluate", "clone", "card_defs", "ruled_out", "card_backs",
    "set_zones", "load_zones", "mirrors", "tape", "copy_tape", "metric_functions", "metric" }) do
  local f = M[name]
  M[name] = function(...)
    reset()
    return f(...)
  end
end
-- The entry points called at every step, playout and step of a search's
-- walk down its tree take a fixed number of arguments: the compiler leaves
-- a function with `...` to the interpreter.
local step, step_subset, playout, key, keys = M.step, M.step_subset, M.playout, M.option_key, M.option_keys
M.rounds = function(game)
  reset()
  return rounds(game)
end
M.option_keys = function(game, viewer)
  reset()
  return keys(game, viewer)
end
M.step = function(game, index)
  reset()
  return step(game, index)
end
M.option_key = function(game, viewer, index)
  reset()
  return key(game, viewer, index)
end
M.step_subset = function(game, index, picks)
  reset()
  return step_subset(game, index, picks)
end
M.playout = function(game, horizon, bot, max_steps)
  reset()
  return playout(game, horizon, bot, max_steps)
end

return M
