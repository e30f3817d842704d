-- Guards around the library functions that can defeat the host's limits,
-- run once when a VM is made, before the prelude and any script. It
-- replaces functions in the VM's own library tables, so the prelude, every
-- script and every method call on a string (`s:gsub(...)`) get the guarded
-- versions.
--
-- 1. The budget cannot be caught. When a call runs out of instructions or
--    memory, the host sets `guard.aborted`; `pcall`, `xpcall` and
--    `coroutine.resume` then raise the error again instead of returning it,
--    so the error reaches the host whatever the script wraps around it.
-- 2. The C stack is bounded. Library functions that call back into Lua
--    from C (a `gsub` replacement function, a `sort` comparator, a
--    `__tostring` reached from `string.format` or `print`, a coroutine)
--    nest C frames that no Lua limit sees: a few lines of recursion through
--    them overflow the process's stack. Each such call counts one level of
--    `guard.depth`; past `guard.max_depth` it is an ordinary script error.
-- 3. Pattern matching cannot run away. A pattern with many repetition
--    items can backtrack for hours on a short subject inside one C call,
--    where no instruction count reaches. A match whose worst case exceeds
--    `guard.max_match_steps` is refused with an error before it starts.
-- 4. Error messages survive: a NUL byte in a message is written as `\0`
--    (the host reads messages as C strings, which would end at the NUL).
--
-- `reset` starts a new call into the VM: no nesting, not aborted. The
-- prelude's entry points run it first; the host runs it before a chunk.

local guard = ...

local type, tostring = type, tostring
local raw_error, raw_assert = error, assert
local raw_pcall, raw_xpcall = pcall, xpcall
local co_create, co_resume = coroutine.create, coroutine.resume
local s_byte, s_find, s_gsub, s_sub = string.byte, string.find, string.gsub, string.sub

local MAX_DEPTH = guard.max_depth
local NOMEM = "not enough memory"

-- error and assert: NUL bytes written out. The level is kept pointing at the
-- caller of `error` (this wrapper adds one frame; it must not be a tail call).
local function clean(msg)
  if type(msg) == "string" and s_find(msg, "\0", 1, true) then
    return (s_gsub(msg, "%z", "\\0"))
  end
  return msg
end

-- An error value that is not a string has no position of its own: the
-- host is told where it was raised, for its message.
function error(msg, level)
  level = level or 1
  if type(level) == "number" and level > 0 then
    if type(msg) ~= "string" then
      local _, where = raw_pcall(raw_error, "", level + 2)
      if type(where) == "string" and where ~= "" then guard.note(s_sub(where, 1, -3)) end
    end
    level = level + 1
  end
  raw_error(clean(msg), level)
end

function assert(v, msg, ...)
  if not v then
    if msg == nil then msg = "assertion failed!" end
    raw_error(clean(msg), 0)
  end
  return v, msg, ...
end

-- After a protected call: back to the caller's depth; a budget error (or an
-- out-of-memory error, which is the memory budget's) goes on up.
local function after(depth, ok, ...)
  guard.depth = depth
  if guard.aborted then raw_error(guard.message, 0) end
  if not ok and (...) == NOMEM then
    guard.aborted = true
    guard.message = "out of memory (the script memory limit was reached)"
    raw_error(guard.message, 0)
  end
  return ok, ...
end

function pcall(f, ...)
  return after(guard.depth, raw_pcall(f, ...))
end

-- The handler is not run for a budget error (it could itself run away,
-- and LuaJIT would call it again for its own error, without end).
function xpcall(f, handler, ...)
  local function h(...)
    if guard.aborted then return guard.message end
    return handler(...)
  end
  return after(guard.depth, raw_xpcall(f, h, ...))
end

-- One more level of C calls (called straight from the function the script
-- called, so that the message points at the script's line).
local function deeper(name)
  local d = guard.depth
  if d >= MAX_DEPTH then
    raw_error(name .. ": calls back into Lua nested more than " .. MAX_DEPTH
      .. " deep (a recursion through " .. name .. "?)", 3)
  end
  guard.depth = d + 1
  return d
end

function coroutine.resume(co, ...)
  return after(deeper("coroutine.resume"), co_resume(co, ...))
end

-- coroutine.wrap raises the coroutine's error in the caller, like Lua's.
local function unwrap(ok, ...)
  if not ok then raw_error((...), 0) end
  return ...
end
function coroutine.wrap(f)
  local co = co_create(f)
  return function(...)
    return unwrap(after(deeper("coroutine.resume"), co_resume(co, ...)))
  end
end

-- A library function that can call back into Lua from C, counted.
local function leave(depth, ...)
  guard.depth = depth
  return ...
end
local function counted(name, f)
  return function(...)
    return leave(deeper(name), f(...))
  end
end

-- The worst case of a match, from the pattern's repetition items (`*`, `+`,
-- `-`, `?` after a single character class): k of them can share out the
-- n characters of the subject in C(n + k, k) ways, all of which a failing
-- match may try, from every start position unless the pattern is anchored
-- (`^`). Items are counted once per pattern text.
-- The position just after the set `[...]` that starts at `i` (a `]` right
-- after `[` or `[^` belongs to the set; `%]` does too).
local function past_set(p, i, n)
  i = i + 1
  if s_byte(p, i) == 94 then i = i + 1 end
  i = i + 1
  while i <= n and s_byte(p, i) ~= 93 do
    if s_byte(p, i) == 37 then i = i + 1 end
    i = i + 1
  end
  return i + 1
end

local REPEATS, cached = {}, 0
local function repeats(p)
  local k = REPEATS[p]
  if k then return k end
  if cached >= 256 then REPEATS, cached = {}, 0 end
  k = 0
  local i, n = 1, #p
  if s_byte(p, 1) == 94 then i = 2 end -- ^
  while i <= n do
    local c = s_byte(p, i)
    local single = true
    if c == 37 then -- %
      local d = s_byte(p, i + 1)
      if d == 98 then i = i + 4; single = false -- %bxy
      elseif d == 102 then -- %f[set]
        i = i + 2
        if s_byte(p, i) == 91 then i = past_set(p, i, n) end
        single = false
      else i = i + 2 end
    elseif c == 91 then -- [set]
      i = past_set(p, i, n)
    elseif c == 40 or c == 41 then i = i + 1; single = false -- ( )
    else i = i + 1 end
    if single then
      local q = s_byte(p, i)
      if q == 42 or q == 43 or q == 45 or q == 63 then k = k + 1; i = i + 1 end
    end
  end
  REPEATS[p] = k
  cached = cached + 1
  return k
end

local MAX_STEPS = guard.max_match_steps
local function check_match(name, s, p)
  if type(s) ~= "string" and type(s) ~= "number" then return end
  if type(p) ~= "string" then return end
  local k = repeats(p)
  if k < 2 then return end
  local n = #tostring(s)
  local cost = s_byte(p, 1) == 94 and 1 or n + 1
  for j = 1, k do
    cost = cost * (n + j) / j
    if cost > MAX_STEPS then
      raw_error(name .. ": the pattern '" .. clean(p) .. "' has " .. k
        .. " repetition items; on a subject of " .. n
        .. " characters it could backtrack for hours (simplify the pattern"
        .. " or shorten the subject)", 3)
    end
  end
end

-- find, match and gmatch never call back into Lua; gsub does (a function
-- or a table with `__index` as the replacement).
local function matcher(name, f)
  return function(s, p, ...)
    check_match(name, s, p)
    return f(s, p, ...)
  end
end
local raw_find = string.find
function string.find(s, p, init, plain)
  if not plain then check_match("string.find", s, p) end
  return raw_find(s, p, init, plain)
end
string.match = matcher("string.match", string.match)
string.gmatch = matcher("string.gmatch", string.gmatch)
local raw_gsub = string.gsub
function string.gsub(s, p, repl, n)
  check_match("string.gsub", s, p)
  return leave(deeper("string.gsub"), raw_gsub(s, p, repl, n))
end
string.format = counted("string.format", string.format)
table.sort = counted("table.sort", table.sort)
if table.foreach then table.foreach = counted("table.foreach", table.foreach) end
if table.foreachi then table.foreachi = counted("table.foreachi", table.foreachi) end
print = counted("print", print)

-- The string metatable (how `s:gsub(...)` finds the library) cannot be
-- reached, so the library behind every string stays as it is here.
getmetatable("").__metatable = false

local function reset()
  guard.depth = 0
  guard.aborted = false
end

return { guarded = counted, reset = reset }
