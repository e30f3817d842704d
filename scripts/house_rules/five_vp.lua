--[[
House rule for Sea Change: play to 5 VP (instead of 3).

  deckhand play sea_change --variant scripts/house_rules/five_vp.lua

How it works: it changes the default of the target_vp option, so
`--option target_vp=4` still overrides it. (In the team variant the target
is set by its team_target option; use team_target=target_vp to play to 5.)
]]
return {
  id = "five_vp",
  title = "Play to 5 VP",
  game = "sea_change",
  modify = function(rules)
    local doc = rules.options.target_vp.doc
    rules.options.target_vp = { default = 5, doc = doc .. " (house rule: 5 by default)" }
  end,
}
