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
local core_defined_at = core.defined_at
-- LuaJIT's `debug.getinfo` (the prelude's alone: no script reaches the
-- `debug` library), for `Game:count` to learn which function counts.
local getinfo = core.getinfo
core.getinfo = nil

-- Shuffle or sort a zone's cards in the core; the primitive writes the new
-- order into the zone's mirror.
local core_shuffle, core_sort, core_cards = core.shuffle, core.sort, core.cards
local function shuffle_zone(token, zone) core_shuffle(token, zone.id, zone) end
local function sort_zone(token, zone) core_sort(token, zone.id, zone) end

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

-- Direct calls (core/engine/src/lua/declare.rs): with the compiler on, the
-- core has already put wrappers in `core` that call the busiest primitives
-- through LuaJIT's FFI without leaving the trace; the prelude (never a
-- script) gets `ffi` for the step's report below.
if core.direct then
  local d = core.direct
  local ffi = d.ffi
  load_mirror = function(token, zone)
    core_cards(token, zone.id, zone)
    return true
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

