-- A lost LAST CHANCE bet still scores the caller's card points (instead of only
-- the colour bonus). The opponents score as usual.
return {
  id = "gentle_last_chance", title = "A lost bet scores the caller's points", game = "sea_salt_paper",
  modify = function(rules)
    local round_points = rules.round_points
    rules.round_points = function(game)
      local gained, points, bonus, won = round_points(game)
      if won == false then gained[game.vars.call.seat] = points[game.vars.call.seat] end
      return gained, points, bonus, won
    end
  end,
}
