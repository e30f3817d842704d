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
-- game's folder and scripts/lib, else the file itself ("?" for a function
-- of C); kept per rules and function (weak keys: rules and functions come
-- and go with games).
local ORIGINS = setmetatable({}, { __mode = "k" })

local function origin(rules, f)
  local known = ORIGINS[rules]
  if known == nil then
    known = setmetatable({}, { __mode = "k" })
    ORIGINS[rules] = known
  end
  local o = f and known[f]
  if o then return o end
  if f and getinfo(f, "S").what == "C" then f = nil end
  local file = f and (core_defined_at(f):match("^(.*):%d+$")) or "?"
  local id = tostring(rules.id)
  local own = file:sub(1, #id + 1) == id .. "/" or file:find("/" .. id .. "/", 1, true) ~= nil
    or file:sub(1, 4) == "lib/" or file:find("/lib/", 1, true) ~= nil
  o = own and "the game" or file
  if f then known[f] = o end
  return o
end

-- Count `by` (default 1) into counter `name`: util.count calls this as a
-- tail call, so this method's caller (level 2 of `getinfo`) is the script
-- counting.
function Game:count(name, by)
  local t, owners = self.tally, self.tally_owners
  if t == nil then
    t, owners = {}, {}
    self.tally, self.tally_owners = t, owners
  end
  local caller = getinfo(2, "f")
  local who = origin(self.rules, caller and caller.func)
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

