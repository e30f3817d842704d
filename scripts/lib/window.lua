--[[
lib/window.lua: reaction windows. At points the rules declare (the start or
end of a turn, after a move, each step of an attack, before an effect
resolves), a window opens: the seats are asked in turn, from the active
player, whether to respond or pass; a response may open a new window on top
(which is settled first); when every seat has passed in a row, the window
closes and its `close` function says what follows.

Each question is an ordinary decision, so traces, undo, saves, replay and
the search bot need nothing more. The decision carries `window = kind`, and
its first option passes (`pass = true`): the core reads both, front ends
may pass for a person who asked them to (the REPL's `autopass`), and the
random bot passes 9 times in 10.

Secrecy: whether a seat is asked must depend on public facts only (a count
of cards with a special back, a token on the table), never on a hidden
card, or being asked would tell everyone what it holds. A seat that cannot
respond is passed without a question.

A game declares each kind of window in `rules.windows`:

  rules.windows.meld = {
    prompt = "Veto the meld?",                       -- or function(game, seat, w)
    -- Whether `seat` is asked (public facts only).
    can_respond = function(game, seat, w) return game.vars.vetoes[seat] > 0 end,
    -- The responses `seat` may make (plain tables; the pass is added first).
    responses = function(game, seat, w) return { { act = "veto", text = "Veto" } } end,
    -- Apply a response; it may open another window (window.open).
    respond = function(game, seat, action, w) ... end,
    -- Everyone passed: what follows (optional; may open another window).
    close = function(game, w) ... end,
  }

`w` is the window: { kind = ..., data = ... (what `open` was given) }; it
lives in game.vars.windows, so it is public and must be plain data.

The game's entry points hand windows to this module:

  local window = require("lib.window")
  function rules.decision(game)
    if window.pending(game) then return window.decision(rules, game) end
    ...
  end
  function rules.apply(game, seat, action)
    if window.pending(game) then return window.apply(rules, game, seat, action) end
    ... -- the move, which may call window.open(game, "meld", { ... })
    window.settle(rules, game)
  end
]]

local window = {}

local PASS = { pass = true, text = "Pass" }

---Open a window of `kind` on top of any open one; `data` (plain data) is
---what its functions receive as `w.data`. The first seat asked is `first`
---(default: game.vars.turn, the active player). Nothing is asked until
---window.settle.
---@param game Game
---@param kind string
---@param data table?
---@param first integer?
function window.open(game, kind, data, first)
  local v = game.vars
  v.windows = v.windows or {}
  local start = first or v.turn or 1
  v.windows[#v.windows + 1] = { kind = kind, data = data or {}, next = start, passes = 0 }
end

---Whether a window is open (a seat is being asked).
---@param game Game|View
---@return boolean
function window.pending(game)
  local ws = game.vars.windows
  return ws ~= nil and #ws > 0
end

---The open window on top (nil when none).
function window.top(game)
  local ws = game.vars.windows
  return ws and ws[#ws] or nil
end

local function spec_of(rules, kind)
  local spec = rules.windows and rules.windows[kind]
  if spec == nil then error("no window '" .. tostring(kind) .. "' in rules.windows", 0) end
  return spec
end

---Move on to the next seat to ask: seats that cannot respond pass without
---a question; a window that every seat has passed in a row closes (its
---`close` runs, which may open another). Call at the end of every move.
---@param rules table
---@param game Game
function window.settle(rules, game)
  local ws = game.vars.windows
  while ws ~= nil and #ws > 0 do
    local w = ws[#ws]
    local spec = spec_of(rules, w.kind)
    while w.passes < game.seats do
      if spec.can_respond(game, w.next, w) then return end
      w.passes = w.passes + 1
      w.next = game:next_seat(w.next)
    end
    ws[#ws] = nil
    if spec.close then spec.close(game, w) end
    ws = game.vars.windows
  end
  if ws ~= nil and #ws == 0 then game.vars.windows = nil end
end

---The question of the open window: pass (option 1) or respond.
---@param rules table
---@param game Game
---@return Decision
function window.decision(rules, game)
  local w = window.top(game)
  local spec = spec_of(rules, w.kind)
  local seat = w.next
  local options = { PASS }
  local responses = spec.responses(game, seat, w)
  for i = 1, #responses do options[#options + 1] = responses[i] end
  local prompt = spec.prompt
  if type(prompt) == "function" then prompt = prompt(game, seat, w) end
  -- A prompt is for people: the default one is worded only when the game
  -- records events (a prompt function may return nil when it does not).
  if prompt == nil and game.logging then prompt = "Respond to " .. w.kind .. "?" end
  return { seat = seat, prompt = prompt, options = options, window = w.kind }
end

---Apply a seat's answer in the open window: a pass moves on; a response
---is applied (`respond`), after which every seat must pass in a row again.
---@param rules table
---@param game Game
---@param seat integer
---@param action table
function window.apply(rules, game, seat, action)
  local w = window.top(game)
  if w == nil or seat ~= w.next then error("P" .. tostring(seat) .. " is not asked now", 0) end
  local spec = spec_of(rules, w.kind)
  w.next = game:next_seat(seat)
  if type(action) == "table" and action.pass then
    w.passes = w.passes + 1
  else
    -- The seat responded: after it (and any window it opens) the others
    -- may answer again, so the passes start over with the next seat.
    w.passes = 0
    spec.respond(game, seat, action, w)
  end
  window.settle(rules, game)
end

return window
