--[[
House rule for Sea Change: every 8 is worth -5 (instead of -4).

  deckhand play sea_change --variant scripts/house_rules/eights_minus_five.lua

How it works: all card points come from the table rules.POINTS (value ->
points); this rule swaps in a copy of it with 8 -> -5. The cards' `points`
property is read from that table too, so the REPL shows -5 as well.
]]
return {
  id = "eights_minus_five",
  title = "Every 8 is worth -5",
  game = "sea_change",
  modify = function(rules)
    local points = {}
    for value = 0, 15 do points[value] = rules.POINTS[value] end
    points[8] = -5
    rules.POINTS = points
  end,
}
