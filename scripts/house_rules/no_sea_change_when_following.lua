--[[
House rule for Sea Change: a Sea Change is not allowed on a card that
follows suit.

  deckhand play sea_change --variant scripts/house_rules/no_sea_change_when_following.lua

A card of the lead suit that matches the value of the last card played is
then just an ordinary card: it stays legal (it follows suit) but trump does
not change. A matching card of another suit still makes a Sea Change.

How it works: every "is this a Sea Change?" question (legal plays, trump
changes, the option texts, the bots) goes through rules.is_sea_change; this
rule wraps it.
]]
return {
  id = "no_sea_change_when_following",
  title = "No Sea Change on a card that follows suit",
  game = "sea_change",
  modify = function(rules)
    local is_sea_change = rules.is_sea_change
    rules.is_sea_change = function(game, card)
      return is_sea_change(game, card) and game.cards[card].suit ~= game.vars.lead
    end
  end,
}
