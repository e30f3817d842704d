-- SeaDogs: selling cargo at the Sell island. The more icons of one type
-- sold at once, the more gold each icon brings.
--
--   deckhand lua docs/examples/seadogs.lua --game seadogs -p 2
--
-- With seed 1 (the default) both seats first keep a captain; then seat 1
-- sails.

scenario.give(1, { "Tea x3", "Tea x2", "Tea x2", "Rum x1", "Silk x1" })
print("seat 1 holds: " .. table.concat(scenario.cards("hand", 1), ", "))

print("seat 1: " .. scenario.play(1))   -- a captain each
print("seat 2: " .. scenario.play(1))
print("seat 1 may: " .. table.concat(scenario.moves(), " | "))
print("seat 1: " .. scenario.play("Sail to Sell (sell cards of one cargo type for gold)"))
print("seat 1 may: " .. table.concat(scenario.moves(), " | "))
-- A sale is one move that names its cards: all three Tea cards (7 icons)
-- bring 5 gold, where two of them (4 icons) would bring 3.
print("seat 1: " .. scenario.play("Sell Tea", { "Tea x3", "Tea x2", "Tea x2" }))
print("seat 1 holds: " .. table.concat(scenario.cards("hand", 1), ", "))
print(table.concat(scenario.status(1), "\n"))
