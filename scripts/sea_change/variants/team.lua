--[[
Sea Change, team variant ("Team variant" in the rulebook), 4-8 players.

  deckhand play sea_change --variant team --option layout=3-2-2

Teammates sit in alternating order: seat 1 is in team 1, seat 2 in team 2 ...
going round the teams that still need players, so with 3-2-2 the teams are
{1,4,7}, {2,5}, {3,6}. Each player still wins tricks into their own pile;
at round end the points of a team are summed and the team with the most
points gets 1 VP (tied teams all get 1 VP). By default a team needs its size
plus one VP to win ("It is recommended that each team play for a number of
VPs equal to their team size plus one"), so 3-2-2 plays to 4, 3 and 3.

Everything else (scoring per side, tie-breaks, status lines) is in game.lua,
which treats a team like a player whenever game.teams is set.
]]

local util = require("lib.util")

-- Suggested layouts per player count, the first being the default.
local LAYOUTS = {
  [4] = { "2-2" },
  [5] = { "2-2-1", "3-2" },
  [6] = { "2-2-2", "3-3" },
  [7] = { "2-2-2-1", "3-2-2" },
  [8] = { "2-2-2-2", "4-4" },
}

local choices = { "auto" }
for n = 4, 8 do
  for _, l in ipairs(LAYOUTS[n]) do choices[#choices + 1] = l end
end

---Team sizes of a layout text "3-2-2" -> {3, 2, 2}, checked against the seats.
local function parse_layout(game)
  local text = game.options.layout
  if text == "auto" then text = LAYOUTS[game.seats][1] end
  local sizes, total = {}, 0
  for part in string.gmatch(tostring(text), "[^-]+") do
    local k = util.whole(part)
    if k == nil or k < 1 then error("option layout: bad team size '" .. part .. "' in '" .. text .. "'", 0) end
    sizes[#sizes + 1] = k
    total = total + k
  end
  if #sizes < 2 or total ~= game.seats then
    error("option layout: '" .. tostring(text) .. "' is not a team layout for " .. game.seats
      .. " players (suggested: " .. table.concat(LAYOUTS[game.seats], " or ") .. ")", 0)
  end
  return sizes
end

---Seats in alternating order: deal the seats round the teams, skipping the
---teams that are full.
local function alternate(sizes, seats)
  local teams = {}
  for t = 1, #sizes do teams[t] = {} end
  local t = 0
  for s = 1, seats do
    repeat t = t % #sizes + 1 until #teams[t] < sizes[t]
    teams[t][#teams[t] + 1] = s
  end
  return teams
end

return {
  id = "team",
  title = "Team variant",
  game = "sea_change",
  players = { min = 4, max = 8 },
  options = {
    layout = {
      default = "auto",
      choices = choices,
      doc = "Team sizes, e.g. \"3-2-2\". auto = the first suggestion: 4: 2-2; 5: 2-2-1 or 3-2; "
        .. "6: 2-2-2 or 3-3; 7: 2-2-2-1 or 3-2-2; 8: 2-2-2-2 or 4-4.",
    },
    team_target = {
      default = "size_plus_one",
      min = 1, max = 20,
      doc = "VP a team needs to win: \"size_plus_one\" (team size + 1, as the rulebook recommends), "
        .. "\"target_vp\" (the target_vp option, the same for every team) or a number.",
    },
  },
  modify = function(rules)
    rules.make_teams = function(game)
      game:set_teams(alternate(parse_layout(game), game.seats))
    end
    rules.target_vp = function(game, side)
      local opt = game.options.team_target
      if opt == "size_plus_one" then return #game.teams[side] + 1 end
      if opt == "target_vp" then return tonumber(game.options.target_vp) end
      local n = tonumber(opt)
      if n == nil then
        error("option team_target: expected size_plus_one, target_vp or a number, not '" .. tostring(opt) .. "'", 0)
      end
      return n
    end
  end,
}
