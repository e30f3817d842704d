--[[
House rule for SeaDogs: a longer game, with 15 more gold in the bank at every
player count (the game ends when the bank is empty).

  deckhand play seadogs --variant scripts/house_rules/seadogs_big_bank.lua

How it works: it wraps rules.bank_size, which every count goes through (the
rulebook's table rules.BANK, and option bank_two_players with 2 players).
]]
local EXTRA = 15

return {
  id = "seadogs_big_bank",
  title = "SeaDogs: 15 more gold in the bank",
  game = "seadogs",
  modify = function(rules)
    local bank_size = rules.bank_size
    rules.bank_size = function(game) return bank_size(game) + EXTRA end
  end,
}
