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

