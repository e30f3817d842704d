--[[
Sea Salt & Paper: the cards ("Card details"): the constants of the deck and
of its scoring tables, then the deck and the zones made at setup, and the
cards that count for a seat.
]]

return function(rules, helpers)
  local util = require("lib.util")

  ---------------------------------------------------------------------------
  -- Constants: the cards and the scoring tables ("Card details")
  ---------------------------------------------------------------------------

  -- Colour ids and how they are written.
  rules.COLOUR_NAMES = {
    darkblue = "dark blue", lightblue = "light blue", black = "black", yellow = "yellow",
    lightgreen = "light green", lightgray = "light grey", purple = "purple",
    lightorange = "light orange", pink = "pink", orange = "orange", white = "white",
  }

  -- Kinds: name and category.
  rules.KINDS = {
    crab = { name = "Crab", category = "duo" },
    boat = { name = "Boat", category = "duo" },
    fish = { name = "Fish", category = "duo" },
    swimmer = { name = "Swimmer", category = "duo" },
    shark = { name = "Shark", category = "duo" },
    shell = { name = "Shell", category = "collector" },
    octopus = { name = "Octopus", category = "collector" },
    penguin = { name = "Penguin", category = "collector" },
    sailor = { name = "Sailor", category = "collector" },
    lighthouse = { name = "Lighthouse", category = "multiplier" },
    shoal = { name = "Shoal of fish", category = "multiplier" },
    colony = { name = "Penguin colony", category = "multiplier" },
    captain = { name = "Captain", category = "multiplier" },
    mermaid = { name = "Mermaid", category = "mermaid" },
  }

  -- The 58 cards: one colour entry per card. The rulebook gives the counts but
  -- not every colour; this list is the one two independent public
  -- implementations agree on card for card.
  rules.DECK = {
    { kind = "crab", colours = { "darkblue", "darkblue", "lightblue", "lightblue", "yellow", "yellow",
      "black", "lightgreen", "lightgray" } },
    { kind = "boat", colours = { "darkblue", "darkblue", "lightblue", "lightblue", "black", "black",
      "yellow", "yellow" } },
    { kind = "fish", colours = { "darkblue", "darkblue", "black", "black", "lightblue", "yellow",
      "lightgreen" } },
    { kind = "swimmer", colours = { "darkblue", "lightblue", "black", "yellow", "lightorange" } },
    { kind = "shark", colours = { "darkblue", "lightblue", "black", "lightgreen", "purple" } },
    { kind = "shell", colours = { "darkblue", "lightblue", "black", "yellow", "lightgreen", "lightgray" } },
    { kind = "octopus", colours = { "lightblue", "yellow", "lightgreen", "purple", "lightgray" } },
    { kind = "penguin", colours = { "purple", "lightorange", "pink" } },
    { kind = "sailor", colours = { "pink", "orange" } },
    { kind = "lighthouse", colours = { "purple" } },
    { kind = "shoal", colours = { "lightgray" } },
    { kind = "colony", colours = { "lightgreen" } },
    { kind = "captain", colours = { "lightorange" } },
    { kind = "mermaid", colours = { "white", "white", "white", "white" } },
  }

  -- Duo pairs: the two kinds of a pair, the points per pair ("1 point for each
  -- pair"; "1 point for each combination of swimmer and shark"), the name of
  -- the rules function applying the effect, and how the pair is named. Pairs
  -- count whether played or still in hand; two sharks or two swimmers are not
  -- a pair (a pair is one shark with one swimmer).
  rules.DUOS = {
    { id = "crab", kinds = { "crab", "crab" }, points = 1, effect = "crab_effect",
      name = "2 Crabs", does = "look through a discard pile and take a card" },
    { id = "boat", kinds = { "boat", "boat" }, points = 1, effect = "boat_effect",
      name = "2 Boats", does = "take another turn" },
    { id = "fish", kinds = { "fish", "fish" }, points = 1, effect = "fish_effect",
      name = "2 Fish", does = "take the top card of the deck" },
    { id = "shark", kinds = { "shark", "swimmer" }, points = 1, effect = "steal_effect",
      name = "Shark + Swimmer", does = "steal a random card from an opponent" },
  }

  -- Collectors: points by how many the player has (1, 2, 3 ...). A count past
  -- the end of a table scores its last entry.
  rules.COLLECTORS = {
    shell = { 0, 2, 4, 6, 8, 10 },
    octopus = { 0, 3, 6, 9, 12 },
    penguin = { 1, 3, 5 },
    sailor = { 0, 5 },
  }

  -- Multipliers: points per card of another kind; a multiplier does not count
  -- as a card of that kind.
  rules.MULTIPLIERS = {
    lighthouse = { kind = "boat", each = 1 },
    shoal = { kind = "fish", each = 1 },
    colony = { kind = "penguin", each = 2 },
    captain = { kind = "sailor", each = 3 },
  }

  -- "If they place 4 mermaid cards, the player immediately wins the game."
  rules.MERMAIDS_TO_WIN = 4

  -- "If the player has reached 7 points or more ... they can decide to end the round."
  rules.CALL_MIN = 7

  -- Cards drawn from the deck by "take the first two cards" (keep one).
  rules.DRAW_COUNT = 2

  -- "2 / 3 / 4 players: 40 / 35 / 30 points" (option target = "auto").
  rules.TARGETS = { [2] = 40, [3] = 35, [4] = 30 }

  -- The number of discard piles and their zone names.
  rules.PILES = { "discard 1", "discard 2" }

  ---------------------------------------------------------------------------
  -- Deck and zones
  ---------------------------------------------------------------------------

  ---Define the 58 cards into the deck zone, in the order of rules.DECK.
  function rules.create_deck(game)
    local deck = game:new_zone("deck", { visibility = "hidden" })
    for _, entry in ipairs(rules.DECK) do
      local k = rules.KINDS[entry.kind]
      for _, colour in ipairs(entry.colours) do
        local id = game:new_card {
          name = k.name .. " (" .. (rules.COLOUR_NAMES[colour] or colour) .. ")",
          kind = entry.kind,
          category = k.category,
          color = colour,
        }
        game:place(id, deck)
      end
    end
    return deck
  end

  function rules.create_zones(game)
    for i = 1, #rules.PILES do
      game:new_zone(rules.PILES[i], { visibility = "top" })
    end
    for s = 1, game.seats do
      game:new_zone("hand", { owner = s, visibility = "owner" })
      game:new_zone("duos", { owner = s, visibility = "public" })
      game:new_zone("open hand", { owner = s, visibility = "public" })
      game:new_zone("drawn cards", { owner = s, visibility = "owner" })
    end
  end

  -- The zones whose cards count for a seat (rules.check_mermaids reads them too).
  local COUNTED_ZONES = { "hand", "duos", "open hand" }

  ---The cards that count for a seat: "both in their hand and in front of
  ---them" (hand, played duos, revealed hand). Works on a game or on the seat's
  ---own View. `into` (optional): a list of an earlier call to fill again
  ---instead of a new one (the entries past the cards are cleared); this
  ---file passes one where the list is read at once and not kept (a seat's
  ---points are counted at every decision of the search's playouts).
  function rules.cards_of(game, seat, into)
    local out, n = into or {}, 0
    for k = 1, #COUNTED_ZONES do
      local z = game:zone(COUNTED_ZONES[k], seat)
      for i = 1, #z do
        n = n + 1
        out[n] = z[i]
      end
    end
    if into then util.cut(out, n) end
    return out
  end

  helpers.COUNTED_ZONES = COUNTED_ZONES
end
