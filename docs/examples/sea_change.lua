-- Sea Change: a Sea Change breaks follow-suit, changes trump at once and
-- can take the trick.
--
--   deckhand lua docs/examples/sea_change.lua --game sea_change -p 4
--
-- With seed 1 (the default) seat 3 leads the first trick.

scenario.set_trump("Blue")                -- mid-round: Blue is trump
scenario.give(3, { "Green 7" })           -- seat 3 will lead Green 7
scenario.give(4, { "Green 5", "Red 7" })  -- seat 4 holds a green and a 7
scenario.give(1, { "Green 12" })          -- seat 1 can follow high
scenario.give(2, { "Green 10", "Blue 5" })

print("trump: " .. scenario.trump())
print("seat " .. scenario.to_move() .. " leads " .. scenario.play("Green 7"))

-- Seat 4 must follow Green, except with a 7 (the value of the last card).
print("seat 4 may play: " .. table.concat(scenario.moves(), ", "))
print("seat 4 plays " .. scenario.play("Red 7"))
print("trump: " .. scenario.trump())

-- Red is trump now: seat 1's Green 12 follows suit but cannot win.
print("seat 1 plays " .. scenario.play("Green 12"))
print("seat 2 plays " .. scenario.play("Green 10"))
print("trick won by seat " .. game.vars.last_trick_winner)
print("seat 4 leads next: " .. tostring(scenario.to_move() == 4))

-- Play on to the end of the game, each seat playing its first legal card,
-- and read the result.
while scenario.to_move() do scenario.play(1) end
local r = scenario.result()
print("game over after " .. r.rounds .. " rounds; VP: " .. table.concat(r.scores, ", ")
  .. "; winner(s): seat " .. table.concat(r.winners, ", seat "))
