-- Sea Salt & Paper: take a discard's top card, then play a Shark +
-- Swimmer duo to steal a random card from the opponent's hand.
--
--   deckhand lua docs/examples/sea_salt_paper.lua --game sea_salt_paper -p 2
--
-- With seed 1 (the default) seat 2 starts; the hands start empty, so the
-- cards given here come from the deck and the hands grow.

scenario.give(2, { "Shark (black)", "Crab (yellow)" })
scenario.give(1, { "Mermaid (white)", "Fish (dark blue)" })
scenario.on_top("Swimmer (yellow)", "discard 1")

print("seat 2 may: " .. table.concat(scenario.moves(), " | "))
print("seat 2: " .. scenario.play("Take Swimmer (yellow) from discard 1"))
print("seat 2 may: " .. table.concat(scenario.moves(), " | "))
print("seat 2: " .. scenario.play(1))

-- The stolen card came from seat 1's hand of two.
print("seat 1 holds: " .. table.concat(scenario.cards("hand", 1), ", "))
print("seat 2 holds: " .. table.concat(scenario.cards("hand", 2), ", "))
print("seat 2's duos: " .. table.concat(scenario.cards("duos", 2), ", "))
print("seat 2: " .. scenario.play("End your turn"))
print("seat " .. scenario.to_move() .. " to move")
