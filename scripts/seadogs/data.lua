--[[
SeaDogs: the components as data. Neither the rulebook nor any public
source lists the cards: every table marked PLACEHOLDER is an invented,
balanced stand-in, consistent with the rulebook's component counts. Each is
a constant of the rules table, so a house rule replaces it in its `modify`
(for instance `rules.SELL_TABLE = {...}` or `rules.TREASURES = {...}`).
]]

return function(rules)
  -- Islands ("Setup"): Sell in the centre, a ring of six with the three
  -- Ports alternating with Action Card, Temple and Whirlpool ("so that no
  -- two Port islands are adjacent"; the order of the three others is not
  -- given, so deckhand picks this one). Index 1 is the centre; 2..7 the ring
  -- in order.
  rules.ISLANDS = {
    { kind = "sell", name = "Sell" },
    { kind = "port", name = "Port 1", port = 1 },
    { kind = "action", name = "Action Card" },
    { kind = "port", name = "Port 2", port = 2 },
    { kind = "temple", name = "Temple" },
    { kind = "port", name = "Port 3", port = 3 },
    { kind = "whirlpool", name = "Whirlpool" },
  }
  rules.CENTRE = 1
  rules.PORT_ISLANDS = { 2, 4, 6 }
  rules.PORT_FACE_UP = 2 -- "place two cargo cards face up near each Port"

  -- Starting supplies ("Give each player ... 3 Cargo cards ..., 3 Gold
  -- coins, and 3 Gunpowder tokens").
  rules.START_CARGO = 3
  rules.START_GOLD = 3
  rules.START_POWDER = 3
  rules.POWDER_TOKENS = 18 -- components: 18 gunpowder tokens
  rules.CUBES = 10         -- components: 10 temple blessing cubes

  -- Gold in the bank by player count (2 players: option bank_two_players,
  -- PLACEHOLDER 30).
  rules.BANK = { [3] = 35, [4] = 40, [5] = 45, [6] = 50 }

  -- "ICONS DISCARDED 2 4 6 8 10 12 14 / GOLD EARNED 1 3 5 8 11 15 18".
  rules.SELL_TABLE = { { 2, 1 }, { 4, 3 }, { 6, 5 }, { 8, 8 }, { 10, 11 }, { 12, 15 }, { 14, 18 } }

  -- "CUBES 1..10 / BONUS GOLD 1 3 6 10 15 21 28 38 45 55" (8 cubes: option
  -- temple_eight).
  rules.TEMPLE_TABLE = { 1, 3, 6, 10, 15, 21, 28, 38, 45, 55 }

  -- Cargo types (PLACEHOLDER ids), their names and REPL colours.
  rules.CARGO_TYPES = { "rum", "spice", "silk", "tea" }
  rules.CARGO_NAMES = { rum = "Rum", spice = "Spice", silk = "Silk", tea = "Tea", wild = "Wild" }
  rules.CARGO_COLOURS = { rum = "red", spice = "orange", silk = "purple", tea = "green", wild = "white" }

  -- The 44 cargo cards (PLACEHOLDER; the rulebook gives only the count): per
  -- type 5 one-icon cards (one with a Treasure Map), 4 two-icon cards (one
  -- with a map), 1 three-icon card; and 4 wilds of one wild icon.
  rules.CARGO = {}
  for _, t in ipairs(rules.CARGO_TYPES) do
    local c = rules.CARGO
    c[#c + 1] = { cargo = t, icons = 1, count = 4 }
    c[#c + 1] = { cargo = t, icons = 1, count = 1, map = true }
    c[#c + 1] = { cargo = t, icons = 2, count = 3 }
    c[#c + 1] = { cargo = t, icons = 2, count = 1, map = true }
    c[#c + 1] = { cargo = t, icons = 3, count = 1 }
  end
  rules.CARGO[#rules.CARGO + 1] = { cargo = "wild", icons = 1, count = 4 }

  -- The attack dice (faces as the rulebook lists them, ids PLACEHOLDER); both
  -- dice alike (the rulebook lists one set of options for the dice).
  rules.DICE_FACES = { "rum", "spice", "silk", "tea", "chest", "gold" }
  rules.FACE_NAMES = { rum = "Rum", spice = "Spice", silk = "Silk", tea = "Tea", chest = "Treasure chest",
    gold = "Gold" }

  -- Temple demand tokens (PLACEHOLDER; the rulebook counts 4): one per cargo
  -- type.
  rules.DEMAND_TOKENS = { "rum", "spice", "silk", "tea" }

  -- Treasure cards (PLACEHOLDER). `bonus` is flat gold; the Ledger and
  -- the Relic are scored by rules.final_score.
  rules.TREASURES = {
    { id = "doubloons", name = "Silver Doubloons", count = 3, bonus = 3 },
    { id = "gold_bars", name = "Gold Bars", count = 3, bonus = 4 },
    { id = "pearls", name = "Pearl Necklace", count = 2, bonus = 5 },
    { id = "astrolabe", name = "Navigator's Astrolabe", count = 1, bonus = 6 },
    { id = "crown", name = "Jewelled Crown", count = 1, bonus = 7 },
    { id = "ledger", name = "Merchant's Ledger", count = 1, bonus = 0 },
    { id = "relic", name = "Temple Relic", count = 1, bonus = 0 },
  }
  -- What an unseen Treasure card is worth on average (for bots and evaluate).
  rules.TREASURE_AVERAGE = 4

  -- Action cards (PLACEHOLDER; the rulebook counts 9): one of each; hold at
  -- most one.
  rules.ACTIONS = {
    { id = "fair_winds", name = "Fair Winds", text = "your turn, before moving: move up to 2 spaces this turn" },
    { id = "smoke_screen", name = "Smoke Screen", text = "when attacked, before the roll: cancel that attack" },
    { id = "loaded_dice", name = "Loaded Dice", text = "your attack, after rolling: turn one die to any face (never doubles)" },
    { id = "spyglass", name = "Spyglass", text = "any time: look at another player's hand" },
    { id = "parley", name = "Parley", text = "when a retaliation is declared against you: cancel it" },
    { id = "black_market", name = "Black Market", text = "at Sell: your wilds sell as the chosen type, 2 icons each" },
    { id = "offering", name = "Offering", text = "at the Temple: any non-wild card counts as matching the demand" },
    { id = "powder_keg", name = "Powder Keg", text = "any time: take 2 gunpowder from the supply" },
    { id = "press_gang", name = "Press Gang", text = "your turn: take a random card from a ship sharing your space" },
  }
  rules.POWDER_KEG = 2

  -- Captains (PLACEHOLDER; the rulebook counts 13): one of each.
  rules.CAPTAINS = {
    { id = "merchant", name = "The Merchant" },
    { id = "quartermaster", name = "The Quartermaster" },
    { id = "navigator", name = "The Navigator" },
    { id = "gunner", name = "The Gunner" },
    { id = "priest", name = "The Priest" },
    { id = "smuggler", name = "The Smuggler" },
    { id = "card_sharp", name = "The Card Sharp" },
    { id = "cartographer", name = "The Cartographer" },
    { id = "ironclad", name = "The Ironclad" },
    { id = "boarding_master", name = "The Boarding Master" },
    { id = "harbormaster", name = "The Harbormaster" },
    { id = "sea_witch", name = "The Sea Witch" },
    { id = "old_salt", name = "The Old Salt" },
  }
  rules.CAPTAIN_TEXT = {
    merchant = "selling 4 or more icons earns 1 extra gold",
    quartermaster = "at a Port, look at three face-down cards and keep two",
    navigator = "move 1 or 2 spaces",
    gunner = "start with 5 gunpowder",
    priest = "take 1 extra blessing cube",
    smuggler = "wilds match the Temple demand as 1 icon",
    card_sharp = "wager 1 to 5 gold when bluffing",
    cartographer = "draw 2 Treasure cards, keep 1",
    ironclad = "a gold demand never costs you more than 1",
    boarding_master = "doubles also take 1 gold from the defender",
    harbormaster = "at a Port you may take three face-down cards",
    sea_witch = "no retaliation against your Whirlpool attack",
    old_salt = "at the end each wild counts as 2 icons of one type",
  }
  rules.MERCHANT_MIN_ICONS = 4
  rules.GUNNER_EXTRA_POWDER = 2
  rules.CARD_SHARP_WAGER = 5
  rules.WAGER_MAX = 3 -- "place 1 to 3 gold coins"
end
