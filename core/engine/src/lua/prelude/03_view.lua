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

