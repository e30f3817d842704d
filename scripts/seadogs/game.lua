--[[
SeaDogs (Jacksmack Games): sail a ship between seven islands, trade cargo
for gold, please the temple, and attack the ships you meet, bluffing about
what is in your hand. 2-6 players. Most gold at the end wins.

Rules: the rulebook; what it leaves out is read as stated where it
applies, with the reason, and is an option or a replaceable constant
(docs/seadogs.md). Nothing public describes the cards, so the cargo deck,
the dice ids (the rulebook names the faces), the treasure cards, the temple
tokens, the action cards and the captains are PLACEHOLDER tables, invented
stand-ins: each is a constant of this `rules` table that a house rule can
replace.
The tables live in scripts/seadogs/data.lua; the islands' actions (Port,
Sell, Temple, Action Card, Whirlpool) in scripts/seadogs/spaces.lua; the
attack (dice, demands, bluffs) in scripts/seadogs/attack.lua; the greedy bot
in scripts/seadogs/bot.lua.

Rule API: the constants and the rule functions listed in docs/seadogs.md
("Rule API") are meant to be replaced or wrapped by a variant or house rule;
each is read through `rules` wherever it is used. So are `phases` and
`moves`, the decisions phase by phase (lib/phases.lua; the attack's phase
is in attack.lua): each phase's prompt, options and moves, to wrap or add
to, and `option_texts`, the words of the options (see there). Internal:
decision, apply (which go through `phases`), space_options, attack_status,
the island readers (island_kind, island_name, port_of, island_does), and
who, worded, ev and greedy_choice, which these files mostly call through local
copies (or, for ev, not at all). A variant that adds a name to this table declares it
in its `provides` (docs/house-rules.md); a new phase or move is a new key
of `rules.phases` or `rules.moves` and needs none.

Vocabulary
  cargo type   "rum", "spice", "silk", "tea" (PLACEHOLDER ids: the rulebook
               does not name the four types)
  icons        a cargo card shows 1-3 icons of one type, or 1 wild icon
  map          a cargo card marked with a Treasure Map (the chest face takes one)
  island       1 = Sell (centre); 2..7 the ring: Port, Action Card, Port,
               Temple, Port, Whirlpool ("no two Port islands adjacent"; the
               three between the Ports in the order of option island_order)
  demander     the seat making a demand (the attacker, or in the
               retaliation the defender); target: the seat it is made of

Zones
  deck, discard            cargo draw pile (hidden) and discard pile (public)
  port 1..3                the two face-up cargo cards beside each Port
  actions, action discard  action deck (hidden) and its discard pile (public)
  treasures                treasure deck (hidden)
  captains, captain discard
                           captain deck and the captains not kept (hidden)
  hand[s]                  cargo cards (owner)
  action[s]                the held action card, at most one (owner)
  treasure[s]              treasure cards, face down (owner)
  captain offer[s]         the two captains dealt, while choosing (owner)
  captain choice[s]        the captain kept, until all are revealed (owner)
  captain[s]               the captain, once revealed (public)
  drawn[s]                 cards looked at before keeping some (owner):
                           Quartermaster, Cartographer, a second action card

game.vars (public: no card ids)
  phase      "captain", "start", "action", "after", "keep", "attack",
             "discard_down" (option hand_limit), "game_over"
  turn       the current player; asked: the seat to decide now; first: the
             starting player
  keep       what a "keep" decision is for: "quartermaster", "cartographer",
             "action"; treasure_draws: Treasure cards still owed by a sale
  gold_total the gold of the game (bank + players at setup), for checks
  ship[s]    the island of each ship; gold[s], powder[s], cubes[s]
  bank, powder_supply, cubes_left, demand (the temple demand token)
  attacked   true once this turn's ordinary attack is used
  fair_winds true while Fair Winds is in play this turn
  attack     the attack in progress (see attack.lua), or nil
  islands    this game's seven islands ({kind, name, port}), laid out at
             setup (option island_order)
  claims, calls
             the public record of bluffing (everyone sees it happen; the
             greedy bot reads it): claims.made[s] the claims of seat s,
             claims.shown[s] those called and true (its hand shown),
             claims.caught[s] those called and false; calls.asked[s] the
             claims s could call, calls.made[s] its calls
  turns      turns taken; round: completed rounds of the table
  final      end-game scoring per seat ({gold, treasure, temple, cargo,
             total}); scores (the totals), winners, tie_break (1-3: which
             tie-break decided, nil if none was needed)
]]

local util = require("lib.util")
local phases = require("lib.phases")
local window = require("lib.window")
local copy_array = util.copy_array

local rules = {
  id = "seadogs",
  title = "SeaDogs",
  players = { min = 2, max = 6, default = 4 },
  -- What the REPL's `rules` command prints (docs/seadogs.md has the rest).
  summary = [[
Sail your ship between seven islands and end the game with the most gold.
On your turn you may attack a ship on your island, play an action card, then
sail one or two spaces and take the island's action: at Sell, sell cargo of
one type for gold (more icons at once pay more per icon); at a Port, take
cargo cards; at the Temple, offer the demanded cargo for blessing cubes; at
Action Card, draw an action card; the Whirlpool pulls a ship to you for a
free attack. An attack is a dice roll that demands cargo, gold or gunpowder
of the defender, who may claim to have none with a gold wager, true or a
bluff. At the end, gold, treasure, temple cubes and sets of cargo score.]],
}

---------------------------------------------------------------------------
-- Options: each is a reading of a point the rulebook leaves open
---------------------------------------------------------------------------

rules.options = {
  bank_two_players = {
    default = 30,
    min = 1, max = 500,
    doc = "Gold in the bank with 2 players (the rulebook's table starts at 3 players: 35, 40, 45, 50; "
      .. "PLACEHOLDER 30, continuing its +5 per player).",
  },
  claim_needs_wager = {
    default = true,
    doc = "Every claim of not having the demanded item needs a 1-3 gold wager, true or not (\"To do so the "
      .. "defender must place 1 to 3 gold\"). false: a defender who truly has none simply says so (\"they "
      .. "simply say they do not have that item type\") and the exchange ends; only a bluff is wagered.",
  },
  gold_face_tie = {
    default = "strict",
    choices = { "strict", "shared" },
    doc = "Gold face: the defender pays 2 when it \"has the most gold coins of all players\": \"strict\" = "
      .. "more than every other player; \"shared\" = no player has more (a tie for the most pays 2).",
  },
  temple_eight = {
    default = 38,
    choices = { 38, 36 },
    doc = "Temple bonus for 8 cubes: 38 as printed, or 36 (the triangular number the rest of the table "
      .. "follows; a likely misprint).",
  },
  sell_beyond_table = {
    default = "cap",
    choices = { "cap", "extend" },
    doc = "Selling more than 14 icons: \"cap\" at 18 gold (the rulebook's table stops at 14 icons, 18 "
      .. "gold); \"extend\" = 3 more gold per 2 icons. Odd "
      .. "counts always round down to the step reached.",
  },
  wild_in_sale = {
    default = false,
    doc = "false: a Sale is of \"cards of a single cargo type\" and a wild is of no type (a wild stands for "
      .. "\"any single icon\" only \"for end game scoring\"), so wilds are not sold (but with the Black "
      .. "Market). true: a wild may join a Sale as one icon of the type sold.",
  },
  bluff_not_called = {
    default = "exchange",
    choices = { "exchange", "attack" },
    doc = "\"If the bluff is not called the exchange ends immediately\": \"exchange\" = that demand ends "
      .. "and the retaliation still follows (an exchange is one demand); \"attack\" = an uncalled claim "
      .. "against the attacker's demand ends the whole attack, with no retaliation.",
  },
  island_order = {
    default = "action-temple-whirlpool",
    choices = { "action-temple-whirlpool", "action-whirlpool-temple", "temple-action-whirlpool",
      "temple-whirlpool-action", "whirlpool-action-temple", "whirlpool-temple-action", "random" },
    doc = "The islands between the Ports (the rulebook says only that no two Ports are adjacent): the "
      .. "island after Port 1, after Port 2 and after Port 3 in ring order (the default: Action Card, "
      .. "Temple, Whirlpool), or \"random\": one of the six orders drawn for each game.",
  },
  temple_token = {
    default = "change",
    choices = { "change", "fixed" },
    doc = "After a player takes blessing cubes the demand token is replaced by a random one of the other "
      .. "three (\"change\", PLACEHOLDER: the rulebook does not say when the token changes), or stays "
      .. "for the whole game (\"fixed\").",
  },
  treasure_gain = {
    default = "sell",
    choices = { "sell", "port" },
    doc = "How Treasure cards are gained (not in the rules; PLACEHOLDER): \"sell\" = one per Treasure "
      .. "Map card among the cards sold; \"port\" = at a Port a player may hand in a map card instead of "
      .. "taking cargo, for one Treasure card.",
  },
  call_needs_match = {
    default = true,
    doc = "A bluff may be called only by a player who can match the whole wager (the rulebook does not "
      .. "cover a shorter player; calling is matching the wager). false: a player "
      .. "with less gold calls by putting in all its gold.",
  },
  any_time = {
    default = "windows",
    choices = { "windows", "own" },
    doc = "When \"any time\" action cards (Spyglass, Powder Keg) may be played: \"windows\" = at any "
      .. "decision of the holder's and, on every player's turn, in a reaction window at its end, where "
      .. "every seat holding an action card is asked in turn from the active player; \"own\" = only at "
      .. "the holder's own decisions (no window: faster simulations).",
  },
  game_end = {
    default = "end_of_turn",
    choices = { "end_of_turn", "immediately" },
    doc = "The bank or the treasure deck empties: the game ends at the end of that turn (the rulebook "
      .. "does not say at what moment; the turn is finished), or "
      .. "\"immediately\" (the rest of the turn is not played).",
  },
  bank_short = {
    default = "pay_rest",
    choices = { "pay_rest", "no_sale" },
    doc = "The bank cannot pay a Sale in full: it pays what is left and the game ends (the rulebook does "
      .. "not cover it; the bank is then empty, which ends the game), or "
      .. "\"no_sale\": such a Sale is not allowed.",
  },
  hand_limit = {
    default = 0,
    doc = "Cargo cards a player may hold at the end of its turn (0 = no limit, as the rulebook states "
      .. "none); above it the player "
      .. "discards down to the limit.",
  },
  doubles_gunpowder = {
    default = false,
    doc = "Doubles: \"the attack automatically succeeds, and the defender may not bluff or retaliate\"; false: "
      .. "nor force a reroll, the demand is resolved at once. true: the defender may still spend a gunpowder "
      .. "after the demand to force a reroll (\"After a demand is selected, the defender may choose to spend "
      .. "a gunpowder\"; the rulebook bars only the bluff and the retaliation).",
  },
  captains = {
    default = true,
    doc = "Play with captains (deal 2, keep 1).",
  },
}

---------------------------------------------------------------------------
-- Data (PLACEHOLDER tables) and the attack
---------------------------------------------------------------------------

-- The decisions, phase by phase (lib/phases.lua): the turn's phases are
-- under "Decisions" below, the attack's in attack.lua.
rules.phases = {}

-- The words of the options offered at most decisions, by the option's
-- `act`: rules.option_texts[act](game, option), asked while the option's
-- decision is pending (some words tell how things stand: what an island
-- does now, where a wager comes from). A game that records events (the
-- REPL, `play`, a replay, a trace) puts them in each option's `text` as the
-- option is made, so a move of the past keeps the words it was offered
-- with; a game that records none (a simulation, a search's copy) leaves
-- `text` out, and rules.describe words the option when asked (a search
-- tells options apart by their words). Filled below and in attack.lua.
rules.option_texts = {}

require("seadogs.data")(rules)
require("seadogs.attack")(rules)
require("seadogs.bot")(rules)

local function who(seat) return "P" .. tostring(seat) end
rules.who = who

local function card_name(game, id) return game.cards[id].name end

---`option` with its `text` from rules.option_texts when the game records
---events (see there and lib/phases.lua, "Texts made when asked"); returns
---the option.
local function worded(game, option)
  return phases.worded(game, rules.option_texts[option.act], option)
end
rules.worded = worded

-- Options (or offers) by card id, for table.sort.
local function by_card(a, b) return a.card < b.card end

---An action card's name with what it does, for its holder.
local function action_text(game, id)
  local a = game.cards[id].action
  for _, def in ipairs(rules.ACTIONS) do
    if def.id == a then return game.cards[id].name .. " (" .. def.text .. ")" end
  end
  return game.cards[id].name
end

---An event, when the game is logging. These files test `game.logging`
---themselves before an event (`if game.logging then game:event(...) end`),
---so that a game nobody records (a simulation, a search's copy) does not
---build the event's data and text at all; `rules.ev` is for a variant that
---raises an event of its own.
function rules.ev(game, kind, data)
  if game.logging then game:event(kind, data) end
end

---------------------------------------------------------------------------
-- Islands
---------------------------------------------------------------------------

---Is island b adjacent to island a? Ring neighbours, and the centre Sell
---island with every ring island (the rulebook says only "adjacent space";
---deckhand reads the centre as touching the whole ring around it).
function rules.adjacent(a, b)
  if a == b then return false end
  if a == rules.CENTRE or b == rules.CENTRE then return true end
  local ring = #rules.ISLANDS - 1
  local i, j = a - 1, b - 1
  local d = math.abs(i - j)
  return d == 1 or d == ring - 1
end

-- Scratch for rules.reachable: the spaces from the starting island to each
-- island (false: not reached). Every call fills it afresh.
local reach_dist = {}

---The islands a ship on `from` may reach moving up to `steps` spaces, not
---counting `from` itself (a ship "must move"), in island order.
function rules.reachable(from, steps)
  local n = #rules.ISLANDS
  local dist = reach_dist
  for b = 1, n do dist[b] = false end
  dist[from] = 0
  -- Each step reaches the islands adjacent to those the step before reached.
  for step = 1, steps do
    for a = 1, n do
      if dist[a] == step - 1 then
        for b = 1, n do
          if dist[b] == false and rules.adjacent(a, b) then dist[b] = step end
        end
      end
    end
  end
  local out = {}
  for b = 1, n do
    if b ~= from and dist[b] then out[#out + 1] = b end
  end
  return out
end

---The islands of this game, 1..7 (vars.islands, laid out at setup by
---option island_order from rules.ISLANDS).
function rules.islands(game) return game.vars.islands or rules.ISLANDS end

function rules.island_kind(game, i) return rules.islands(game)[i].kind end

function rules.island_name(game, i) return rules.islands(game)[i].name end

---What an island's action is, in a few words, for option texts and the
---table (the Temple's names the demand now showing).
function rules.island_does(game, i)
  local kind = rules.island_kind(game, i)
  if kind == "port" then return "take cargo cards" end
  if kind == "sell" then return "sell cards of one cargo type for gold" end
  if kind == "action" then return "draw an action card" end
  if kind == "temple" then
    if game.vars.cubes_left <= 0 then return "no blessing cubes left" end
    return "offer a " .. rules.CARGO_NAMES[game.vars.demand] .. " card for blessing cubes"
  end
  if kind == "whirlpool" then return "pull a ship here and attack it for free" end
  return kind
end

---The Port number (1..3) of a Port island.
function rules.port_of(game, i) return rules.islands(game)[i].port end

---The six orders of the islands between the Ports (option island_order):
---the kind of island after Port 1, after Port 2 and after Port 3.
rules.ISLAND_ORDERS = {
  { "action", "temple", "whirlpool" }, { "action", "whirlpool", "temple" },
  { "temple", "action", "whirlpool" }, { "temple", "whirlpool", "action" },
  { "whirlpool", "action", "temple" }, { "whirlpool", "temple", "action" },
}

---This game's islands (option island_order): rules.ISLANDS with the islands
---between the Ports in the order asked, or in one of rules.ISLAND_ORDERS
---drawn with the game's generator ("random"). The Ports stay where they
---are, so the seats' starting Ports do not change.
function rules.island_layout(game)
  local order = game.options.island_order or "action-temple-whirlpool"
  local kinds
  if order == "random" then
    kinds = rules.ISLAND_ORDERS[game:random(1, #rules.ISLAND_ORDERS)]
  else
    kinds = {}
    for k in string.gmatch(order, "[^-]+") do kinds[#kinds + 1] = k end
  end
  local others = {}
  for _, isl in ipairs(rules.ISLANDS) do
    if isl.kind ~= "port" and isl.kind ~= rules.ISLANDS[rules.CENTRE].kind then others[isl.kind] = isl end
  end
  local out, j = {}, 0
  for i, isl in ipairs(rules.ISLANDS) do
    if i == rules.CENTRE or isl.kind == "port" then
      out[i] = { kind = isl.kind, name = isl.name, port = isl.port }
    else
      j = j + 1
      local put = others[kinds[j] or ""]
      if put == nil then error("option island_order: no island " .. tostring(kinds[j]) .. " to place", 0) end
      out[i] = { kind = put.kind, name = put.name, port = put.port }
    end
  end
  return out
end

---The Port nearest to a seat's place at the table ("Players place their
---ship on the port closest to themselves"): the seats sit evenly around the
---table, seat 1 facing Port 1, and the three Ports are a third of the way
---round from each other; a seat half-way between two takes the later one.
function rules.start_island(game, seat)
  local k = math.floor((seat - 1) * 3 / game.seats + 0.5) % 3 + 1
  return rules.PORT_ISLANDS[k]
end

---Seats other than `seat` whose ships share its island.
function rules.ships_with(game, seat)
  local out = {}
  local here = game.vars.ship[seat]
  for k = 1, game.seats - 1 do
    local s = game:next_seat(seat, k)
    if game.vars.ship[s] == here then out[#out + 1] = s end
  end
  return out
end

---------------------------------------------------------------------------
-- Cards
---------------------------------------------------------------------------

---The four kinds of card have different backs ("44 Cargo cards (Black
---backs), 12 Treasure Cards (Blue Backs), 9 Action Cards (Gray Backs), 13
---Captain Cards (Green Backs)"): the `back` property tells the core, so that
---the `mc` search's guesses at hidden cards swap a card only with unseen
---cards of the same kind.
function rules.create_cards(game)
  local deck = game:new_zone("deck", { visibility = "hidden" })
  for _, c in ipairs(rules.CARGO) do
    for _ = 1, c.count do
      local t = c.cargo
      local name
      if t == "wild" then
        name = "Wild"
      else
        name = rules.CARGO_NAMES[t] .. " x" .. c.icons .. (c.map and " (map)" or "")
      end
      game:place(game:new_card { name = name, kind = "cargo", back = "black", cargo = t, icons = c.icons,
        map = c.map or false, color = rules.CARGO_COLOURS[t] }, deck)
    end
  end
  local tdeck = game:new_zone("treasures", { visibility = "hidden" })
  for _, t in ipairs(rules.TREASURES) do
    for _ = 1, t.count do
      game:place(game:new_card { name = t.name, kind = "treasure", back = "blue", treasure = t.id,
        bonus = t.bonus or 0, color = "yellow" }, tdeck)
    end
  end
  local adeck = game:new_zone("actions", { visibility = "hidden" })
  for _, a in ipairs(rules.ACTIONS) do
    game:place(game:new_card { name = a.name, kind = "action", back = "gray", action = a.id, color = "gray" }, adeck)
  end
  local cdeck = game:new_zone("captains", { visibility = "hidden" })
  for _, c in ipairs(rules.CAPTAINS) do
    game:place(game:new_card { name = c.name, kind = "captain", back = "green", captain = c.id,
      color = "lightgreen" }, cdeck)
  end
end

function rules.create_zones(game)
  game:new_zone("discard", { visibility = "public" })
  for p = 1, #rules.PORT_ISLANDS do game:new_zone("port " .. p, { visibility = "public" }) end
  game:new_zone("action discard", { visibility = "public" })
  game:new_zone("captain discard", { visibility = "hidden" })
  for s = 1, game.seats do
    game:new_zone("hand", { owner = s, visibility = "owner" })
    game:new_zone("action", { owner = s, visibility = "owner" })
    game:new_zone("treasure", { owner = s, visibility = "owner" })
    game:new_zone("captain offer", { owner = s, visibility = "owner" })
    game:new_zone("captain choice", { owner = s, visibility = "owner" })
    game:new_zone("captain", { owner = s, visibility = "public" })
    game:new_zone("drawn", { owner = s, visibility = "owner" })
  end
end

---Draw the top card of `deck` into `to`: "If a card needs to be drawn and
---there are none remaining, reshuffle the discard pile to form a new deck."
---Returns the card, or nil when the deck and its discard pile are both empty.
function rules.draw_from(game, deck_name, discard_name, to)
  local deck = game:zone(deck_name)
  if #deck == 0 then
    local discard = game:zone(discard_name)
    if #discard == 0 then return nil end
    game:move_all(discard, deck)
    game:shuffle(deck)
    if game.logging then
      game:event("reshuffled", { pile = deck_name, text = "The " .. discard_name .. " pile is shuffled into a new deck" })
    end
  end
  return game:move_top(deck, to)
end

function rules.draw_cargo(game, to) return rules.draw_from(game, "deck", "discard", to) end

function rules.draw_action(game, to) return rules.draw_from(game, "actions", "action discard", to) end

---Fill a Port's face-up cards up to two.
function rules.refill_port(game, p)
  local z = game:zone("port " .. p)
  while #z < rules.PORT_FACE_UP do
    if rules.draw_cargo(game, z) == nil then break end
  end
end

---The icons a card shows of cargo type `t` (wilds show none of any type).
function rules.icons_of(game, card, t)
  local c = game.cards[card]
  if c.cargo == t then return c.icons end
  return 0
end

---Does `seat`'s hand hold a card with an icon of type `t`?
function rules.holds_type(game, seat, t)
  local hand = game:zone("hand", seat)
  for i = 1, #hand do
    if game.cards[hand[i]].cargo == t then return true end
  end
  return false
end

---The Treasure Map cargo cards in a hand.
function rules.map_cards(game, seat)
  local out = {}
  local hand = game:zone("hand", seat)
  for i = 1, #hand do
    if game.cards[hand[i]].map then out[#out + 1] = hand[i] end
  end
  table.sort(out)
  return out
end

---The seat's revealed captain id, or nil (a captain acts once revealed).
function rules.captain(game, seat)
  local z = game:zone("captain", seat)
  if #z == 0 or z.count then return nil end
  return game.cards[z[1]].captain
end

function rules.has_captain(game, seat, id)
  return rules.captain(game, seat) == id
end

---The seat's held action card (id and action id), or nil.
function rules.held_action(game, seat)
  local z = game:zone("action", seat)
  if z.count or #z == 0 then return nil end
  return z[1], game.cards[z[1]].action
end

---------------------------------------------------------------------------
-- Gold, gunpowder, cubes
---------------------------------------------------------------------------

---Move up to `n` gold from the bank to a seat; returns what was paid.
function rules.pay_from_bank(game, seat, n)
  local v = game.vars
  local paid = math.min(n, v.bank)
  v.bank = v.bank - paid
  v.gold[seat] = v.gold[seat] + paid
  return paid
end

---Move up to `n` gold from one seat to another; returns what moved.
function rules.pay(game, from, to, n)
  local v = game.vars
  local paid = math.min(n, v.gold[from])
  v.gold[from] = v.gold[from] - paid
  v.gold[to] = v.gold[to] + paid
  return paid
end

---Take up to `n` gunpowder tokens from the supply.
function rules.take_powder(game, seat, n)
  local v = game.vars
  local got = math.min(n, v.powder_supply)
  v.powder_supply = v.powder_supply - got
  v.powder[seat] = v.powder[seat] + got
  return got
end

function rules.spend_powder(game, seat)
  local v = game.vars
  if v.powder[seat] < 1 then error(who(seat) .. " has no gunpowder", 0) end
  v.powder[seat] = v.powder[seat] - 1
  v.powder_supply = v.powder_supply + 1
end

---"The defender has the most gold coins of all players" (option gold_face_tie).
function rules.has_most_gold(game, seat)
  local v = game.vars
  for s = 1, game.seats do
    if s ~= seat then
      if v.gold[s] > v.gold[seat] then return false end
      if v.gold[s] == v.gold[seat] and game.options.gold_face_tie == "strict" then return false end
    end
  end
  return true
end

---------------------------------------------------------------------------
-- Tables: Sell and Temple
---------------------------------------------------------------------------

---Gold for selling `icons` icons ("ICONS DISCARDED / GOLD EARNED"): the
---last step reached (odd counts round down); beyond 14, option
---sell_beyond_table.
function rules.sell_gold(game, icons)
  local gold, last = 0, nil
  for _, step in ipairs(rules.SELL_TABLE) do
    if icons >= step[1] then gold, last = step[2], step end
  end
  if last ~= nil and last == rules.SELL_TABLE[#rules.SELL_TABLE] and icons > last[1]
    and game.options.sell_beyond_table == "extend" then
    gold = gold + 3 * math.floor((icons - last[1]) / 2)
  end
  return gold
end

rules.PRINTED_EIGHT = 38 -- the printed bonus for 8 cubes (option temple_eight)

---Bonus gold for `cubes` blessing cubes at the end of the game; 8 cubes by
---option temple_eight; beyond the table (10 cubes and the Temple Relic) the
---triangular numbers go on.
function rules.temple_bonus(game, cubes)
  if cubes <= 0 then return 0 end
  local eight = util.whole(game.options.temple_eight)
  if cubes == 8 and eight ~= nil and eight ~= rules.PRINTED_EIGHT then return eight end
  local t = rules.TEMPLE_TABLE[cubes]
  if t then return t end
  return math.floor(cubes * (cubes + 1) / 2)
end

---------------------------------------------------------------------------
-- Setup
---------------------------------------------------------------------------

function rules.bank_size(game)
  if game.seats == 2 then
    local b = util.whole(game.options.bank_two_players)
    if b == nil or b < 0 then error("option bank_two_players: expected a whole number", 0) end
    return b
  end
  return rules.BANK[game.seats]
end

function rules.setup(game)
  local v = game.vars
  local n = game.seats
  v.islands = rules.island_layout(game)
  rules.create_cards(game)
  rules.create_zones(game)
  local deck = game:zone("deck")
  game:shuffle(deck)
  for p = 1, #rules.PORT_ISLANDS do rules.refill_port(game, p) end
  game:shuffle(game:zone("actions"))
  game:shuffle(game:zone("treasures"))
  game:shuffle(game:zone("captains"))
  v.demand = rules.DEMAND_TOKENS[game:random(1, #rules.DEMAND_TOKENS)]
  v.cubes_left = rules.CUBES
  v.bank = rules.bank_size(game)
  v.powder_supply = rules.POWDER_TOKENS
  v.gold, v.powder, v.cubes, v.ship = {}, {}, {}, {}
  v.claims = { made = {}, shown = {}, caught = {} }
  v.calls = { asked = {}, made = {} }
  local hands = {}
  for s = 1, n do
    hands[s] = game:zone("hand", s)
    v.gold[s] = rules.START_GOLD
    v.powder[s] = 0
    rules.take_powder(game, s, rules.START_POWDER)
    v.cubes[s] = 0
    v.claims.made[s], v.claims.shown[s], v.claims.caught[s] = 0, 0, 0
    v.calls.asked[s], v.calls.made[s] = 0, 0
    v.ship[s] = rules.start_island(game, s)
  end
  game:deal(deck, hands, rules.START_CARGO)
  v.gold_total = v.bank + n * rules.START_GOLD
  v.first = game:random(1, n)
  v.turn = v.first
  v.turns = 0
  v.round = 0
  v.attacked = false
  v.fair_winds = false
  v.game_over = false
  v.winners = {}
  if game.logging then
    local ships = {}
    for s = 1, n do ships[s] = who(s) .. " at " .. rules.island_name(game, v.ship[s]) end
    local ring = {}
    for i = 1, #v.islands do
      if i ~= rules.CENTRE then ring[#ring + 1] = v.islands[i].name end
    end
    game:event("setup", { first = v.first, demand = v.demand, bank = v.bank,
      text = "Bank " .. v.bank .. " gold; temple demands " .. rules.CARGO_NAMES[v.demand] .. "; "
        .. table.concat(ships, ", ") .. "; " .. who(v.first) .. " starts; around Sell: " .. table.concat(ring, ", ") })
  end
  if game.options.captains and n * 2 <= #game:zone("captains") then
    for s = 1, n do
      local offer = game:zone("captain offer", s)
      game:move_top(game:zone("captains"), offer)
      game:move_top(game:zone("captains"), offer)
    end
    v.phase = "captain"
    v.asked = 1
  else
    rules.start_turn(game, v.first)
  end
end

---A seat keeps one of its two captains (secretly); when every seat has
---chosen, all are revealed together ("all captain cards are revealed at
---the same time").
function rules.keep_captain(game, seat, card)
  local v = game.vars
  local offer = game:zone("captain offer", seat)
  game:move(card, offer, game:zone("captain choice", seat))
  game:move_all(offer, game:zone("captain discard"))
  if seat < game.seats then
    v.asked = seat + 1
    return
  end
  local parts = {}
  for s = 1, game.seats do
    local z = game:zone("captain choice", s)
    local c = z[1]
    game:move(c, z, game:zone("captain", s))
    if game.logging then
      parts[s] = who(s) .. " " .. card_name(game, c) .. " (" .. rules.CAPTAIN_TEXT[game.cards[c].captain] .. ")"
    end
    rules.on_captain(game, s, game.cards[c].captain)
  end
  if game.logging then game:event("captains_revealed", { text = "Captains: " .. table.concat(parts, ", ") }) end
  rules.start_turn(game, v.first)
end

---What a captain does when revealed (The Gunner's extra gunpowder).
function rules.on_captain(game, seat, id)
  if id == "gunner" then rules.take_powder(game, seat, rules.GUNNER_EXTRA_POWDER) end
end

---------------------------------------------------------------------------
-- Turns
---------------------------------------------------------------------------

function rules.start_turn(game, seat)
  local v = game.vars
  v.turn = seat
  v.asked = seat
  v.phase = "start"
  v.attacked = false
  v.fair_winds = false
  v.attack = nil
end

---The steps a seat's ship may move this turn (The Navigator, Fair Winds).
function rules.move_steps(game, seat)
  if game.vars.fair_winds or rules.has_captain(game, seat, "navigator") then return 2 end
  return 1
end

function rules.move(game, seat, island)
  local v = game.vars
  local from = v.ship[seat]
  local ok = false
  for _, b in ipairs(rules.reachable(from, rules.move_steps(game, seat))) do
    if b == island then ok = true end
  end
  if not ok then error("cannot move from " .. rules.island_name(game, from) .. " to " .. rules.island_name(game, island), 0) end
  v.ship[seat] = island
  v.phase = "action"
  if game.logging then
    game:event("moved", { seat = seat, from = from, island = island,
      text = who(seat) .. " sails to " .. rules.island_name(game, island) })
  end
end

---The end of a turn: hand limit, the end of the game, or the next player.
function rules.end_turn(game, seat)
  local v = game.vars
  local limit = util.whole(game.options.hand_limit) or 0
  if limit > 0 and #game:zone("hand", seat) > limit then
    v.phase = "discard_down"
    v.asked = seat
    return
  end
  v.turns = v.turns + 1
  if rules.game_should_end(game) then return rules.end_game(game) end
  if game.options.any_time == "windows" then
    -- "Action cards may be played at any time ... on other player's turns":
    -- a reaction window at the end of the turn (rules.windows.turn_end);
    -- the next turn starts when it closes.
    window.open(game, "turn_end", { seat = seat }, seat)
    return window.settle(rules, game)
  end
  rules.next_turn(game, seat)
end

---The turn after `seat`'s.
function rules.next_turn(game, seat)
  local v = game.vars
  local nxt = game:next_seat(seat)
  if nxt == v.first then v.round = v.round + 1 end
  rules.start_turn(game, nxt)
end

-- Reaction windows (lib/window.lua). At the end of every turn each seat
-- holding an action card is asked in turn, from the player whose turn
-- ends, whether it plays an "any time" card (Spyglass, Powder Keg). Who is
-- asked depends only on how many action cards a seat holds, which is
-- public, so being asked tells nothing of which card it is: a seat holding
-- another card is asked too, and can only pass.
rules.windows = {
  turn_end = {
    -- (For people: a game that records no events shows none.)
    prompt = function(game, seat, w)
      if not game.logging then return nil end
      return "End of " .. who(w.data.seat) .. "'s turn: play an action card, or pass"
    end,
    can_respond = function(game, seat)
      local z = game:zone("action", seat)
      return (z.count or #z) > 0
    end,
    responses = function(game, seat)
      local out = {}
      for _, o in ipairs(rules.action_plays(game, seat, "window")) do
        if o.action == "spyglass" or o.action == "powder_keg" then out[#out + 1] = o end
      end
      return out
    end,
    respond = function(game, seat, action) rules.play_action(game, seat, action) end,
    close = function(game, w) rules.next_turn(game, w.data.seat) end,
  },
}

---"The game ends when all of the Gold is removed from the bank, or all of
---the treasure cards have been taken from the Treasure deck."
function rules.game_should_end(game)
  return game.vars.bank <= 0 or #game:zone("treasures") == 0
end

---With option game_end = "immediately", the game ends as soon as a bank or
---treasure deck empties; returns true then.
function rules.check_immediate_end(game)
  if game.options.game_end == "immediately" and not game.vars.game_over and rules.game_should_end(game) then
    rules.end_game(game)
    return true
  end
  return false
end

---------------------------------------------------------------------------
-- Space actions
---------------------------------------------------------------------------

-- In spaces.lua: each island's options (rules.space_options) and what
-- taking them does (Port, Sell, the Treasure cards, Action Card, Temple,
-- Whirlpool), then rules.after_action.
require("seadogs.spaces")(rules, { action_text = action_text })

---------------------------------------------------------------------------
-- Action cards played on the holder's own decisions
---------------------------------------------------------------------------

---Discard the held action card as played.
function rules.discard_action(game, seat)
  local card = rules.held_action(game, seat)
  game:move(card, game:zone("action", seat), game:zone("action discard"))
  util.count(game, "actions_played") -- metric: action cards played
  if game.logging then
    game:event("action_played", { seat = seat, card = card, text = who(seat) .. " plays " .. card_name(game, card) })
  end
  return card
end

---The action card plays open to `seat` at a decision of phase `phase`
---("Action cards may be played at any time depending on the card's text"):
---Fair Winds before moving; Press Gang on the holder's turn with a ship
---beside it; Spyglass and Powder Keg at any decision of the holder's.
function rules.action_plays(game, seat, phase)
  local v = game.vars
  local card, id = rules.held_action(game, seat)
  if card == nil then return {} end
  local out = {}
  local mine = v.turn == seat and v.attack == nil
  if id == "fair_winds" and mine and phase == "start" and not v.fair_winds then
    out[#out + 1] = worded(game, { act = "play", action = id })
  elseif id == "press_gang" and mine and (phase == "start" or phase == "action" or phase == "after") then
    for _, s in ipairs(rules.ships_with(game, seat)) do
      if #game:zone("hand", s) > 0 then
        out[#out + 1] = worded(game, { act = "play", action = id, seat = s })
      end
    end
  elseif id == "spyglass" then
    for k = 1, game.seats - 1 do
      local s = game:next_seat(seat, k)
      out[#out + 1] = worded(game, { act = "play", action = id, seat = s })
    end
  elseif id == "powder_keg" and v.powder_supply > 0 then
    out[#out + 1] = worded(game, { act = "play", action = id })
  end
  return out
end

-- The words of playing each action card (rules.action_plays).
local PLAY_TEXTS = {
  fair_winds = function() return "Play Fair Winds (move up to 2 spaces this turn)" end,
  press_gang = function(o) return "Play Press Gang: take a random card from " .. who(o.seat) end,
  spyglass = function(o) return "Play Spyglass: look at " .. who(o.seat) .. "'s hand" end,
  powder_keg = function() return "Play Powder Keg (take 2 gunpowder)" end,
}

function rules.option_texts.play(game, o)
  local words = PLAY_TEXTS[o.action]
  return words and words(o) or ("Play " .. tostring(o.action))
end

function rules.play_action(game, seat, action)
  local v = game.vars
  local _, id = rules.held_action(game, seat)
  if id ~= action.action then error("you do not hold that action card", 0) end
  rules.discard_action(game, seat)
  if id == "fair_winds" then
    v.fair_winds = true
  elseif id == "powder_keg" then
    local got = rules.take_powder(game, seat, rules.POWDER_KEG)
    if game.logging then
      game:event("powder_taken", { seat = seat, count = got, text = who(seat) .. " takes " .. got .. " gunpowder" })
    end
  elseif id == "spyglass" then
    -- Nothing changes but what the player knows: the events are the card's effect.
    if game.logging then
      local hand = game:zone("hand", action.seat)
      game:event("hand_seen", { seat = seat, target = action.seat,
        text = who(seat) .. " looks at " .. who(action.seat) .. "'s hand" })
      game:event("hand_shown", { to = seat, seat = action.seat, cards = copy_array(hand), reveal = true,
        text = who(seat) .. " (privately) sees " .. who(action.seat) .. "'s hand: "
          .. (#hand > 0 and util.names(game, hand) or "empty") })
    end
  elseif id == "press_gang" then
    local hand = game:zone("hand", action.seat)
    if #hand == 0 then return end
    local c = hand[game:random(1, #hand)]
    game:move(c, hand, game:zone("hand", seat))
    if game.logging then
      game:event("press_gang", { seat = seat, target = action.seat,
        text = who(seat) .. " takes a random card from " .. who(action.seat) })
      game:event("press_gang_card", { to = seat, card = c,
        text = who(seat) .. " (privately) takes " .. card_name(game, c) })
      game:event("press_gang_card", { to = action.seat, card = c,
        text = who(action.seat) .. " (privately) loses " .. card_name(game, c) .. " to " .. who(seat) })
    end
  end
end

---------------------------------------------------------------------------
-- End of the game and scoring
---------------------------------------------------------------------------

---The most pairs of matching icons a list of cargo cards makes, wilds
---counting as any single icon (The Old Salt: 2 icons of one type), chosen
---best: returns pairs, icons per type (with the wilds placed).
function rules.set_pairs(game, cards, old_salt)
  local count = {}
  for _, t in ipairs(rules.CARGO_TYPES) do count[t] = 0 end
  local wilds = 0
  for _, id in ipairs(cards) do
    local c = game.cards[id]
    if c.cargo == "wild" then wilds = wilds + 1 elseif count[c.cargo] then count[c.cargo] = count[c.cargo] + c.icons end
  end
  local per = old_salt and 2 or 1
  local types = rules.CARGO_TYPES
  local best = -1
  local function pairs_of()
    local p = 0
    for _, t in ipairs(types) do p = p + math.floor(count[t] / 2) end
    return p
  end
  local function place(left, from)
    if left == 0 then
      local p = pairs_of()
      if p > best then best = p end
      return
    end
    for i = from, #types do
      count[types[i]] = count[types[i]] + per
      place(left - 1, i)
      count[types[i]] = count[types[i]] - per
    end
  end
  place(wilds, 1)
  return best
end

---All the cargo icons in a hand (wilds 1 each, or 2 with The Old Salt), for
---the third tie-break.
function rules.hand_icons(game, seat)
  local hand = game:zone("hand", seat)
  local n = 0
  local old = rules.has_captain(game, seat, "old_salt")
  for i = 1, #hand do
    local c = game.cards[hand[i]]
    n = n + ((c.cargo == "wild" and old) and 2 or c.icons)
  end
  return n
end

---A seat's end-game score, by parts: gold, treasure, temple, cargo, total.
function rules.final_score(game, seat)
  local v = game.vars
  local hand = game:zone("hand", seat)
  local tz = game:zone("treasure", seat)
  local treasure, relics = 0, 0
  for i = 1, #tz do
    local c = game.cards[tz[i]]
    if c.treasure == "ledger" then
      local icons = {}
      for j = 1, #hand do
        local h = game.cards[hand[j]]
        if h.cargo ~= "wild" then icons[h.cargo] = (icons[h.cargo] or 0) + h.icons end
      end
      for _, t in ipairs(rules.CARGO_TYPES) do
        if (icons[t] or 0) >= 2 then treasure = treasure + 1 end
      end
    elseif c.treasure == "relic" then
      relics = relics + 1
    else
      treasure = treasure + c.bonus
    end
  end
  local p = {
    gold = v.gold[seat],
    treasure = treasure,
    temple = rules.temple_bonus(game, v.cubes[seat] + relics),
    cargo = rules.set_pairs(game, hand, rules.has_captain(game, seat, "old_salt")),
  }
  p.total = p.gold + p.treasure + p.temple + p.cargo
  return p
end

---The winners: the highest total; tied: most Treasure cards, then most
---temple cubes, then most cargo icons in hand; still tied: a shared win
---(the rulebook's last tie-break, the first to circumnavigate the globe in
---a pirate ship, cannot be played).
function rules.winners(game, totals)
  local v = game.vars
  local tied = util.best(util.range(game.seats), function(s) return totals[s] end)
  local breaks = {
    function(s) return #game:zone("treasure", s) end,
    function(s) return v.cubes[s] end,
    function(s) return rules.hand_icons(game, s) end,
  }
  local by = nil
  for i, f in ipairs(breaks) do
    if #tied == 1 then break end
    tied = util.best(tied, f)
    by = i
  end
  return tied, by
end

rules.TIE_BREAKS = { "most Treasure cards", "most temple cubes", "most cargo icons in hand" }

function rules.end_game(game)
  local v = game.vars
  v.game_over = true
  v.phase = "game_over"
  v.attack = nil
  local totals, final = {}, {}
  for s = 1, game.seats do
    local p = rules.final_score(game, s)
    final[s] = p
    totals[s] = p.total
  end
  local winners, by = rules.winners(game, totals)
  v.final = final
  v.scores = totals
  v.winners = winners
  v.tie_break = by
  if game.logging then
    local parts = {}
    for s = 1, game.seats do
      local p = final[s]
      parts[s] = who(s) .. " " .. p.total .. " (gold " .. p.gold .. ", treasure " .. p.treasure .. ", temple " .. p.temple
        .. ", cargo " .. p.cargo .. ")"
    end
    local w = {}
    for i, s in ipairs(winners) do w[i] = who(s) end
    local why = v.bank <= 0 and "the bank is empty" or "the treasure deck is empty"
    for s = 1, game.seats do
      game:event("treasures_revealed", { seat = s, cards = copy_array(game:zone("treasure", s)), reveal = true,
        text = who(s) .. " reveals " .. (#game:zone("treasure", s) > 0 and util.names(game, game:zone("treasure", s)) or "no treasure") })
    end
    -- ended_by: "bank" (the last gold was paid out) or "treasure_deck"
    -- (its last card was taken); tie_break: the index of the tie-break in
    -- rules.TIE_BREAKS that decided, nil when the scores did.
    game:event("game_over", { winners = copy_array(winners), scores = copy_array(totals), tie_break = by,
      ended_by = v.bank <= 0 and "bank" or "treasure_deck",
      text = "Game over (" .. why .. "): " .. table.concat(parts, "; ") .. ". " .. table.concat(w, " and ")
        .. (#w == 1 and " wins" or " share the win")
        .. ((by and #w > 1) and " (still tied after every tie-break)" or "")
        .. ((by and #w == 1) and (" (tie-break: " .. rules.TIE_BREAKS[by] .. ")") or "") })
  end
end

---------------------------------------------------------------------------
-- Decisions, phase by phase (lib/phases.lua): game.vars.phase names the
-- entry of rules.phases. The seat to decide is game.vars.asked (the player
-- whose turn it is, or the seat an attack or the captains' choice asks).
-- Every option names its move with `act`: a phase's own moves are in its
-- `moves`; those offered in several phases (attack a ship, play an action
-- card) in rules.moves.
---------------------------------------------------------------------------

local function asked(game) return game.vars.asked or game.vars.turn end

rules.moves = {
  -- "Attack a ship here" (once a turn: vars.attacked).
  attack = function(game, seat, action)
    local v = game.vars
    if v.attacked then error("you have already attacked this turn", 0) end
    v.attacked = true
    rules.begin_attack(game, seat, action.seat, false)
  end,
  -- An action card (rules.action_plays lists when each may be played).
  play = function(game, seat, action) rules.play_action(game, seat, action) end,
}

-- Before the game: every seat keeps one of its two captains, P1 first.
rules.phases.captain = {
  seat = asked,
  prompt = "Keep one of your two captains (the other is discarded; all are revealed together)",
  options = function(game, seat)
    local opts = {}
    local offer = game:zone("captain offer", seat)
    for i = 1, #offer do
      local c = offer[i]
      opts[#opts + 1] = { act = "captain", card = c, text = "Keep " .. card_name(game, c) .. ": "
        .. rules.CAPTAIN_TEXT[game.cards[c].captain], secret = "keeps a captain" }
    end
    return opts
  end,
  moves = {
    captain = function(game, seat, action) rules.keep_captain(game, seat, action.card) end,
  },
}

---The prompt of the phases "start" and "after": it names only what can be
---done now. The prompt is for people: a game that records no events shows
---none.
local function turn_prompt(game, seat, options)
  if not game.logging then return nil end
  local can = {}
  for _, o in ipairs(options) do can[o.act] = true end
  local verbs = {}
  if can.attack then verbs[#verbs + 1] = "attack a ship here" end
  if can.play then verbs[#verbs + 1] = "play an action card" end
  verbs[#verbs + 1] = game.vars.phase == "start" and "sail to an island" or "end your turn"
  local prompt = table.concat(verbs, ", ", 1, #verbs - 1) .. (#verbs > 1 and ", or " or "") .. verbs[#verbs]
  return prompt:sub(1, 1):upper() .. prompt:sub(2)
end

---The options of the phases "start" and "after": attack a ship here (once a
---turn), play an action card, then sail ("start") or end the turn ("after").
local function turn_options(game, seat)
  local v = game.vars
  local phase = v.phase
  local opts = {}
  if not v.attacked then
    for _, s in ipairs(rules.ships_with(game, seat)) do
      opts[#opts + 1] = worded(game, { act = "attack", seat = s })
    end
  end
  for _, o in ipairs(rules.action_plays(game, seat, phase)) do opts[#opts + 1] = o end
  if phase == "start" then
    for _, b in ipairs(rules.reachable(v.ship[seat], rules.move_steps(game, seat))) do
      opts[#opts + 1] = worded(game, { act = "move", island = b })
    end
  else
    opts[#opts + 1] = { act = "end", text = "End your turn" }
  end
  return opts
end

function rules.option_texts.attack(game, o) return "Attack " .. who(o.seat) end

function rules.option_texts.move(game, o)
  return "Sail to " .. rules.island_name(game, o.island) .. " (" .. rules.island_does(game, o.island) .. ")"
end

-- The start of a turn: attack, play an action card, or sail.
rules.phases.start = {
  seat = asked,
  prompt = turn_prompt,
  options = turn_options,
  moves = {
    move = function(game, seat, action) rules.move(game, seat, action.island) end,
  },
}

-- At the island sailed to: its action (rules.space_options), or none.
rules.phases.action = {
  seat = asked,
  prompt = "Take the action of this island, or not",
  options = function(game, seat)
    local opts = {}
    rules.space_options(game, seat, opts)
    for _, o in ipairs(rules.action_plays(game, seat, "action")) do opts[#opts + 1] = o end
    opts[#opts + 1] = { act = "skip", text = "Take no action here" }
    return opts
  end,
  moves = {
    port = function(game, seat, action) rules.port_action(game, seat, action.how) end,
    sell = function(game, seat, action) rules.sell(game, seat, action.cargo, action.cards, action.market) end,
    draw_action = function(game, seat) rules.action_card_action(game, seat) end,
    temple = function(game, seat, action) rules.temple(game, seat, action.card, action.offering) end,
    whirlpool = function(game, seat, action) rules.whirlpool(game, seat, action.seat, action.no_attack) end,
    skip = function(game, seat) rules.after_action(game, seat) end,
  },
}

-- After the island's action: attack, play an action card, or end the turn.
rules.phases.after = {
  seat = asked,
  prompt = turn_prompt,
  options = turn_options,
  moves = {
    ["end"] = function(game, seat) rules.end_turn(game, seat) end,
  },
}

local KEEP_PROMPTS = {
  quartermaster = "Keep two of the three cargo cards: choose the one to put at the bottom of the deck (secret)",
  cartographer = "Keep one of the two Treasure cards (secret; the other goes to the bottom of the deck)",
  action = "Keep one action card and discard the other face up (the one kept is secret)",
}

-- Cards looked at before keeping some (vars.keep says which): the
-- Quartermaster's three cargo cards, the Cartographer's two Treasure cards,
-- a second action card.
rules.phases.keep = {
  seat = asked,
  prompt = function(game)
    local keep = game.vars.keep
    return (keep and KEEP_PROMPTS[keep]) or "Choose (secretly)"
  end,
  options = function(game, seat)
    local v = game.vars
    local opts = {}
    local drawn = game:zone("drawn", seat)
    local ids = copy_array(drawn)
    if v.keep == "action" then ids[#ids + 1] = game:zone("action", seat)[1] end
    table.sort(ids)
    for _, c in ipairs(ids) do
      local text
      if v.keep == "quartermaster" then
        text = "Put " .. card_name(game, c) .. " at the bottom of the deck (keep the others)"
      elseif v.keep == "cartographer" then
        text = "Keep " .. card_name(game, c)
      else
        text = "Keep " .. action_text(game, c) .. " (discard the other)"
      end
      -- Secret: the others learn only which action card is discarded
      -- (face up, event action_discarded), never the card kept.
      opts[#opts + 1] = { act = "keep", card = c, text = text,
        secret = v.keep == "action" and "keeps one of two action cards" or "keeps a card" }
    end
    return opts
  end,
  moves = {
    keep = function(game, seat, action) rules.keep_drawn(game, seat, action.card) end,
  },
}

-- Option hand_limit: above it at the end of the turn, discard a card.
rules.phases.discard_down = {
  seat = asked,
  prompt = "Discard a cargo card (hand limit)",
  options = function(game, seat)
    local opts = {}
    local hand = game:zone("hand", seat)
    for i = 1, #hand do
      opts[#opts + 1] = { act = "discard", card = hand[i], text = "Discard " .. card_name(game, hand[i]) }
    end
    table.sort(opts, by_card)
    return opts
  end,
  moves = {
    discard = function(game, seat, action)
      game:move(action.card, game:zone("hand", seat), game:zone("discard"))
      if game.logging then
        game:event("discarded", { seat = seat, card = action.card,
          text = who(seat) .. " discards " .. card_name(game, action.card) })
      end
      rules.end_turn(game, seat)
    end,
  },
}

-- `previous` is the game's previous decision (the prelude passes it back):
-- a phase's decision fills it again rather than making a new table, unless
-- it was a reaction window's (which has fields of its own).
function rules.decision(game, previous)
  if game.vars.game_over then return nil end
  if window.pending(game) then return window.decision(rules, game) end
  if previous ~= nil and previous.window ~= nil then previous = nil end
  return phases.decision(rules, game, nil, previous)
end

function rules.apply(game, seat, action)
  local v = game.vars
  if v.game_over then error("the game is over", 0) end
  if window.pending(game) then return window.apply(rules, game, seat, action) end
  if seat ~= (v.asked or v.turn) then error("it is not " .. who(seat) .. "'s decision", 0) end
  local attacking = v.phase == "attack"
  phases.apply(rules, game, seat, action)
  -- Option game_end = "immediately": the game ends as soon as the bank or
  -- the treasure deck is empty, but not in the middle of an attack.
  if not v.game_over and not (attacking and v.attack ~= nil) then rules.check_immediate_end(game) end
end

---An option in words: its text, or (an option of the decision pending in a
---game that records no events) the words rules.option_texts gives it.
function rules.describe(game, action)
  if type(action) == "table" then
    if action.act == "sell" and action.cards and not action.choose then
      -- A sale chosen: its cards, icons and gold.
      return rules.sale_text(game, action)
    end
  end
  return phases.describe(game, action, rules)
end

-- rules.rounds and rules.result: the completed rounds of the table, and
-- the scores (none until the end-game scoring) and winners in game.vars
-- (lib/util.lua).
util.install_result(rules)

---A seat's estimated end-game total from what it knows of itself (gold,
---cubes, treasure cards valued at their average, pairs in hand).
function rules.estimate(game, seat, own)
  local v = game.vars
  local tz = game:zone("treasure", seat)
  local n = tz.count or #tz
  local hand = game:zone("hand", seat)
  local cards = hand.count and math.floor(hand.count * 0.7) or rules.set_pairs(game, hand, false)
  return v.gold[seat] + n * rules.TREASURE_AVERAGE + rules.temple_bonus(game, v.cubes[seat]) + cards
end

---How good the position is for `seat` (0..1), for the `mc` search bot
---(playouts stop at the end of the round of the table and ask this): 0.5
---plus the lead of its estimated total over the best other seat's, as a
---share of 30 gold. Once the game is over: 1 for a win (1/k shared).
function rules.evaluate(game, seat)
  local v = game.vars
  if v.game_over then return util.win_share(v.winners, seat) end
  local mine = rules.estimate(game, seat, true)
  local best = nil
  for s = 1, game.seats do
    if s ~= seat then
      local e = rules.estimate(game, s, false)
      if best == nil or e > best then best = e end
    end
  end
  return math.max(0, math.min(1, 0.5 + (mine - (best or 0)) / 30))
end

---------------------------------------------------------------------------
-- Status lines (REPL)
---------------------------------------------------------------------------

function rules.status(view)
  local v = view.vars
  local lines = {}
  local at = {}
  for i = 1, #rules.ISLANDS do at[i] = {} end
  for s = 1, view.seats do table.insert(at[v.ship[s]], who(s)) end
  local isl = {}
  for i = 1, #rules.ISLANDS do
    isl[#isl + 1] = rules.island_name(view, i) .. (#at[i] > 0 and (" [" .. table.concat(at[i], " ") .. "]") or "")
  end
  lines[#lines + 1] = "Islands: " .. table.concat(isl, " - ")
  lines[#lines + 1] = "Bank " .. v.bank .. " gold; temple demands " .. rules.CARGO_NAMES[v.demand] .. ", "
    .. v.cubes_left .. (v.cubes_left == 1 and " cube left" or " cubes left") .. "; gunpowder supply " .. v.powder_supply
  for s = 1, view.seats do
    local tz = view:zone("treasure", s)
    local treasures = tz.count or #tz
    lines[#lines + 1] = who(s) .. ": " .. v.gold[s] .. " gold, " .. v.powder[s] .. " gunpowder, " .. v.cubes[s]
      .. (v.cubes[s] == 1 and " cube, " or " cubes, ") .. treasures .. " treasure card" .. (treasures == 1 and "" or "s") .. ", at "
      .. rules.island_name(view, v.ship[s]) .. (s == view.seat and " (you)" or "")
  end
  -- The seat's own score if the game ended now (its hand and treasure cards
  -- are its own to see): the end-game scoring, by parts.
  if view.seat ~= nil and view.seat >= 1 and view.seat <= view.seats and not v.final then
    local p = rules.final_score(view, view.seat)
    lines[#lines + 1] = "Your score if the game ended now: " .. p.total .. " (gold " .. p.gold .. ", treasure "
      .. p.treasure .. ", temple " .. p.temple .. ", cargo " .. p.cargo .. ")"
  end
  if v.attack then lines[#lines + 1] = rules.attack_status(view) end
  if v.final then
    local f = {}
    for s = 1, view.seats do f[s] = who(s) .. " " .. v.final[s].total end
    lines[#lines + 1] = "Final: " .. table.concat(f, ", ")
  end
  return lines
end

---------------------------------------------------------------------------
-- Invariants (checked by the conformance suite after every step; see
-- docs/scripting.md, rules.invariants). Facts no legal play breaks.
---------------------------------------------------------------------------

---Gold is conserved: the bank, the players and the wager of an attack in
---progress hold the gold of the game (the end-game bonuses are counted in
---the scores, not paid); nobody's gold is negative; the blessing cubes and
---the gunpowder tokens are all somewhere; the public variables name no
---card. At the end: the bank or the treasure deck is empty ("The game
---ends when..."), each score is the sum of its parts, with the gold the
---seat holds, and the winners have the best score.
function rules.invariants(game)
  local v = game.vars
  local named = util.named_card(v)
  if named ~= nil then return "game.vars names card " .. named .. " (" .. card_name(game, named) .. ")" end
  local on_table = v.bank + (v.attack and v.attack.pot or 0)
  for s = 1, game.seats do
    if v.gold[s] < 0 then return "seat " .. s .. " has " .. v.gold[s] .. " gold" end
    on_table = on_table + v.gold[s]
  end
  if v.bank < 0 then return "the bank has " .. v.bank .. " gold" end
  if on_table ~= v.gold_total then
    return "gold on the table is " .. on_table .. ", the game has " .. v.gold_total
  end
  local cubes, powder = v.cubes_left, v.powder_supply
  for s = 1, game.seats do
    cubes = cubes + v.cubes[s]
    powder = powder + v.powder[s]
  end
  if cubes ~= rules.CUBES then return cubes .. " blessing cubes, not " .. rules.CUBES end
  if powder ~= rules.POWDER_TOKENS then return powder .. " gunpowder tokens, not " .. rules.POWDER_TOKENS end
  if not v.game_over then return true end
  if v.bank > 0 and #game:zone("treasures") > 0 then return "the game ended with gold in the bank and treasure cards left" end
  local best
  for s = 1, game.seats do
    local f = v.final[s]
    if f.gold + f.treasure + f.temple + f.cargo ~= f.total then
      return who(s) .. " scores " .. f.total .. ", not the sum of its parts"
    end
    if f.gold ~= v.gold[s] then return who(s) .. " scores " .. f.gold .. " gold and holds " .. v.gold[s] end
    if v.scores[s] ~= f.total then return who(s) .. " has the score " .. v.scores[s] .. " and the total " .. f.total end
    if best == nil or f.total > best then best = f.total end
  end
  if #v.winners == 0 then return "nobody wins" end
  for _, w in ipairs(v.winners) do
    if v.scores[w] ~= best then return who(w) .. " wins with " .. v.scores[w] .. ", not the best score " .. best end
  end
  return true
end

---------------------------------------------------------------------------
-- Why a card is not one of your moves (rules.why_not, for the REPL). Kept in
-- this one block, apart from the rules above. It reads only what the seat
-- may see: its own hand, action card, captains and cards looked at, the
-- Ports' face-up cards and the discard piles; a card it cannot see is never
-- located.
---------------------------------------------------------------------------

-- Where `seat` sees `card`: the name of one of its own zones, "port" (with
-- the Port's island), "discard", or nil (not visible to it).
local function why_not_where(game, seat, card)
  for _, name in ipairs({ "hand", "action", "treasure", "captain offer", "captain choice", "drawn" }) do
    local z = game:zone(name, seat)
    for i = 1, #z do
      if z[i] == card then return name end
    end
  end
  for island = 1, #rules.islands(game) do
    local p = rules.port_of(game, island)
    if p then
      local z = game:zone("port " .. p)
      for i = 1, #z do
        if z[i] == card then return "port", island end
      end
    end
  end
  for _, name in ipairs({ "discard", "action discard" }) do
    local z = game:zone(name)
    for i = 1, #z do
      if z[i] == card then return "discard" end
    end
  end
  return nil
end

-- The names of the cards of `seat`'s zone `name`, sorted, joined for a sentence.
local function why_not_names(game, seat, name)
  local ids = copy_array(game:zone(name, seat))
  table.sort(ids)
  for i = 1, #ids do ids[i] = card_name(game, ids[i]) end
  return util.and_list(ids)
end

---Why `seat` may not use `card` now, one sentence for that seat, or nil (no
---reason to give: the REPL then lists the moves).
function rules.why_not(game, seat, card)
  local v = game.vars
  local c = game.cards[card]
  if c == nil then return nil end
  if v.phase == "game_over" then return "the game is over" end
  if asked(game) ~= seat then return "it is not your turn" end
  local name = c.name
  local where, island = why_not_where(game, seat, card)
  if v.phase == "captain" then
    return "first keep one of your two captains: " .. why_not_names(game, seat, "captain offer")
  elseif v.phase == "keep" then
    return "first choose among the cards you are looking at"
  elseif v.phase == "discard_down" then
    return "first discard a cargo card from your hand (hand limit): you hold " .. why_not_names(game, seat, "hand")
  elseif v.phase == "attack" then
    return "first finish the attack in progress"
  end
  if where == nil then return "you do not hold " .. name end
  if where == "discard" then return name .. " is in a discard pile, out of play" end
  local here = v.ship[seat]
  if where == "port" then
    if island ~= here then
      return name .. " lies at " .. rules.island_name(game, island) .. ": its cargo is taken there (sail to "
        .. rules.island_name(game, island) .. " first)"
    end
    if v.phase ~= "action" then return "a Port's cargo is taken as the island's action, which is over this turn" end
    return nil
  end
  if where == "hand" and c.kind == "cargo" then
    if v.phase == "start" then
      return "cargo is sold at Sell, offered at the Temple or traded at a Port: sail there first"
    end
    if v.phase == "after" then
      return "cargo is used only in the island's action, which is over this turn"
    end
    local kind = rules.island_kind(game, here)
    if kind == "temple" and c.cargo ~= v.demand and c.cargo ~= "wild" then
      return "the Temple takes only " .. rules.CARGO_NAMES[v.demand] .. " now"
    end
    if kind ~= "sell" and kind ~= "temple" and kind ~= "port" then
      return "there is nothing to do with cargo at " .. rules.island_name(game, here)
    end
    return nil
  end
  if where == "action" then
    return "an action card is played at its moment: " .. action_text(game, card)
  end
  if where == "treasure" then return "Treasure cards are not played: they score at the end" end
  return nil
end

-- Metrics: one value per finished game, which `sim` and `compare` report
-- with intervals (docs/lab.md), read from the state at the game's end
-- (both ends can happen in the same turn: each metric counts its own).
rules.metrics = {
  ["games ended by the bank"] = {
    doc = "Share of games that ended because the bank ran out of gold",
    value = function(game) return game.vars.bank <= 0 end,
  },
  ["games ended by the treasure deck"] = {
    doc = "Share of games that ended because the Treasure deck ran out",
    value = function(game) return #game:zone("treasures") == 0 end,
  },
  ["games decided by a tie-break"] = {
    doc = "Share of games where the highest totals tied and a tie-break (Treasure cards, cubes, cargo icons) decided",
    value = function(game) return game.vars.tie_break ~= nil end,
  },
  -- The mix of actions, counted during play (util.count) and read at the
  -- end: how much fighting and trading a rule change brings.
  ["attacks per round"] = {
    doc = "Attacks made (the Whirlpool's free attacks included) per completed round of the table",
    value = function(game) return util.per(game, "attacks", game.vars.round) end,
  },
  ["sales per round"] = {
    doc = "Sales made at Sell per completed round of the table",
    value = function(game) return util.per(game, "sales", game.vars.round) end,
  },
  ["claims called"] = {
    share = true,
    doc = "Share of the claims of having none (true or bluffs) that the demander called",
    value = function(game) return util.per(game, "calls", "claims") end,
  },
  ["action cards played"] = {
    doc = "Action cards played in the game, by every player",
    value = function(game) return util.counted(game, "actions_played") end,
  },
}

---------------------------------------------------------------------------
-- Strengths a person may ask for at the table (`seats=human,hard,easy`):
-- the greedy bot, then a search at about 20 ms and 0.2 s of thought a move
-- (in playouts, so games replay exactly). docs/bots.md, "Which bot, per
-- game", gives the measurements behind them.
---------------------------------------------------------------------------

rules.strengths = { easy = "greedy", medium = "mc:60", hard = "ismcts:600" }

return rules
