-- Seas of Strife: follow any suit already in the trick, if you can; the
-- suit with the most cards takes the trick, with its highest card; the
-- taker chooses who leads next.
--
--   deckhand lua docs/examples/seas_of_strife.lua --game seas_of_strife -p 4
--
-- With seed 1 (the default) seat 2 holds the Orange 0 and opens the round.

-- Seat 3 gives its oranges to seat 1 (seat 1 sends back two other cards):
-- seat 3 cannot follow Orange.
scenario.give(1, { "Orange 5", "Orange 6" })
scenario.give(3, { "Blue 32" })
print("seat 3 holds: " .. table.concat(scenario.cards("hand", 3), ", "))

print("seat 2 opens with " .. scenario.play("Orange 0"))
print("seat 3 may play: " .. table.concat(scenario.moves(), ", "))
print("seat 3 plays " .. scenario.play("Blue 32"))

-- Orange and Blue are both in the trick now: seat 4 may follow either.
print("seat 4 may play: " .. table.concat(scenario.moves(), ", "))
print("seat 4 plays " .. scenario.play("Blue 35"))
print("seat 1 plays " .. scenario.play("Blue 38"))

-- Three blues against one orange: Blue takes it, with seat 1's Blue 38.
print("tricks taken: " .. table.concat(game.vars.tricks, ", "))
print("seat " .. scenario.to_move() .. " chooses who leads: "
  .. table.concat(scenario.moves(), ", "))
