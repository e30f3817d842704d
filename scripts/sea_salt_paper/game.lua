--[[
Sea Salt & Paper (Bombyx; Bruno Cathala & Théo Rivière): draw, discard and
collect cards, play duo pairs for their effects, and end the round with STOP
or LAST CHANCE once your cards are worth 7 points or more. 2-4 players.

Rules: the rulebook. It does not list the colour of every card; the card
list below is deckhand's, and every point the rulebook leaves open is read
as stated where it applies, with its reason (docs/sea-salt-paper.md). Section
names in the comments ("Game turn", "End of the round" ...) are those of the
rulebook.

Vocabulary used in this file
  kind     what a card is: "crab", "boat", "fish", "swimmer", "shark",
           "shell", "octopus", "penguin", "sailor", "lighthouse", "shoal",
           "colony", "captain", "mermaid" (the card property `kind`)
  colour   a colour id (the card property `color`, which the REPL uses to
           colour the card): "darkblue", "lightblue", "black", "yellow",
           "lightgreen", "lightgray", "purple", "lightorange", "pink",
           "orange", "white"
  card points  what "counting the points on their cards" gives: duo pairs,
           collectors, multipliers and mermaids, over the cards in hand and
           in front of the player (rules.card_points)
  colour bonus  1 point per card of the colour the player has most of
           (rules.colour_bonus); scored only in LAST CHANCE rounds

Zones
  deck          hidden  the draw deck, face down ("placed faceup" in the
                        rulebook text is a transcription error: the
                        published English rules say "placed facedown", and
                        cards drawn from it are kept secretly)
  discard 1,    top     the two discard piles: everyone sees the top card
  discard 2             only ("It is not possible to look through the
                        discard piles"), except a crab player (secretly)
  hand[seat]    owner   the seat's hand
  duos[seat]    public  duo pairs played in front of the seat (and mermaids
                        placed to win)
  open hand[seat]
                public  the seat's revealed hand: LAST CHANCE final turns
                        and the end of a round ("reveal their hand"); it
                        still counts as the hand for scoring, and cannot be
                        stolen from (it is protected)
  drawn cards[seat]
                owner   the two cards drawn from the deck, while the seat
                        chooses which one to keep

game.vars (plain data, visible to every seat: no secret card ids here; a
test can set a position by moving cards and setting these):
  round         current round number (1 = first round)
  first         seat that started this round
  turn          seat to act now (nil once the game is over)
  phase         what the seat to act must do: "take" (draw two or take a
                discard top), "keep" (keep one of the two drawn cards),
                "discard" (choose the pile for the other one), "play" (play
                a duo, end the turn, or call), "crab_pile" (crabs: choose a
                pile to look through), "crab_pick" (take a card from it),
                "steal" (shark + swimmer: choose an opponent), "game_over".
                A round that ends is scored and the next one dealt at once:
                there is no decision between rounds (rules.round_over)
  crab_pile     the pile being looked through (phase "crab_pick")
  boat_turns    extra turns already given by boats in this turn (option
                boat_extra_turns)
  call          nil, or {kind = "stop" | "last_chance", seat = caller,
                points = caller's card points when calling}
  final_turns   LAST CHANCE: the seats still to take their final turn, in
                order (the seat to act is the first)
  revealed      per seat: true once the hand is revealed (protected)
  scores        total points per seat
  target        points needed to end the game
  last_round    summary of the last round that ended: {round, ending =
                "stop" | "last_chance" | "empty_deck", caller, bet_won
                (LAST CHANCE), points (card points per seat), bonus (colour
                bonus per seat), gained (per seat)}; nil before that
  game_over     true once the game has ended
  winners       winning seats once the game is over
  mermaid_win   seat that won by placing the 4 mermaids, if any

Rule API: the constants (COLOUR_NAMES, KINDS, DECK, DUOS, COLLECTORS,
MULTIPLIERS, MERMAIDS_TO_WIN, CALL_MIN, DRAW_COUNT, TARGETS, PILES, GREEDY)
and the rule functions listed in docs/sea-salt-paper.md ("Rule API") are
meant to be replaced or wrapped by a variant or house rule (see
scripts/house_rules/): every rule decision below goes through
`rules.something(...)`, never a local copy. So is `phases`, the decisions
phase by phase (lib/phases.lua): each phase's prompt, options and moves, to
wrap or to add to. Internal: decision and apply (which go through
`phases`), scores_text, and points_text, which this file mostly calls
through its local copy. A variant that adds a name to this table declares
it in its `provides` (docs/house-rules.md); a new phase is a new key of
`rules.phases` and needs none.
]]

local rules = {
  id = "sea_salt_paper",
  title = "Sea Salt & Paper",
  players = { min = 2, max = 4, default = 2 },
  -- What the REPL's `rules` command prints (docs/sea-salt-paper.md has the rest).
  summary = [[
On your turn, draw two cards from the deck and keep one (the other goes on
a discard pile), or take the top card of a discard pile. Then you may play
duo pairs from your hand for their effects: 2 Crabs (take any card of a
discard pile), 2 Boats (another turn), 2 Fish (the deck's top card), Shark +
Swimmer (steal a random card). Cards score in hand and in front of you:
pairs, collectors (shells, octopuses, penguins, sailors), multipliers and
mermaids (one per card of your most common colours). With 7 points or more
you may end the round: STOP (everyone scores) or LAST CHANCE (the others
take a last turn; you win the bet if you have the most). Four mermaids win
at once; otherwise the first to the target (40 / 35 / 30 points) wins.]],
}

---------------------------------------------------------------------------
-- Options (each is a reading of a point the rulebook leaves open)
---------------------------------------------------------------------------

rules.options = {
  target = {
    default = "auto",
    min = 1, max = 200,
    doc = "Points that end the game (\"End of game\"): \"auto\" = 40 / 35 / 30 with 2 / 3 / 4 players; "
      .. "or a number.",
  },
  mermaid_white = {
    default = true,
    doc = "Mermaid scoring counts white (the mermaids' own colour) as a colour a mermaid may score, as "
      .. "the Board Game Arena adaptation does (the rulebook is silent, and its mermaid example fits "
      .. "either reading). false: mermaids score only the other colours. The colour bonus "
      .. "always counts white.",
  },
  boat_extra_turns = {
    default = "each",
    choices = { "each", "one" },
    doc = "Boats: \"each\" pair played gives another turn (the rulebook sets no limit; so does the "
      .. "Board Game Arena adaptation); \"one\": only one extra turn per "
      .. "turn, a second pair in the same turn scores but has no effect.",
  },
  last_chance_empty_deck = {
    default = "play_on",
    choices = { "play_on", "no_score" },
    doc = "The deck runs out during the final turns after LAST CHANCE: \"play_on\" = the final turns go "
      .. "on (taking from the discard piles) and the round is scored (the rulebook is silent once a "
      .. "call is made; so plays the Board Game Arena adaptation); \"no_score\" = the "
      .. "round ends at once without scoring, as when no call was made.",
  },
  tie_break = {
    default = "turn_order",
    choices = { "turn_order", "last_round_points" },
    doc = "Tied at the end of the game: \"turn_order\" = the one who went last in the last round wins "
      .. "(rulebook); \"last_round_points\" = the one who scored most in the last round (the "
      .. "Board Game Arena adaptation's tie-break), then turn "
      .. "order.",
  },
}

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
-- Small helpers
---------------------------------------------------------------------------

local function who(seat)
  return "P" .. tostring(seat)
end

local util = require("lib.util")
local phases = require("lib.phases")
local card_name, names, copy_array, zeros = util.card_name, util.names, util.copy_array, util.zeros

local function points_text(n)
  return n .. (n == 1 and " point" or " points")
end
rules.points_text = points_text

local function pile_zone(game, i)
  return game:zone(rules.PILES[i])
end

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

-- The zones whose cards count for a seat.
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

---------------------------------------------------------------------------
-- Scoring ("Card details")
---------------------------------------------------------------------------

-- A count of 0 for every kind, and for every colour, of the game. Tables
-- made whole at once, every count a number: the greedy bot and the search
-- count cards several times a move, and a table grown key by key, with
-- counts that are nil or a number, costs time and gives the compiler a
-- path per case.
local function no_kinds()
  return {
    crab = 0, boat = 0, fish = 0, swimmer = 0, shark = 0, shell = 0, octopus = 0, penguin = 0,
    sailor = 0, lighthouse = 0, shoal = 0, colony = 0, captain = 0, mermaid = 0,
  }
end

local function no_colours()
  return {
    darkblue = 0, lightblue = 0, black = 0, yellow = 0, lightgreen = 0, lightgray = 0, purple = 0,
    lightorange = 0, pink = 0, orange = 0, white = 0,
  }
end

-- Every count of an earlier count set back to 0.
local function zero_counts(t)
  for k in pairs(t) do t[k] = 0 end
  return t
end

---How many cards of each kind and of each colour are in `cards`: every
---kind and colour of the game is there, 0 when none of the cards has it (a
---kind or colour a variant adds is there once counted). `kinds` and
---`colours` (optional): tables to count into instead of new ones, every
---count in them 0 (rules.score_parts sets its own back to 0 after each
---score).
function rules.count(game, cards, kinds, colours)
  kinds = kinds or no_kinds()
  colours = colours or no_colours()
  for i = 1, #cards do
    local c = game.cards[cards[i]]
    kinds[c.kind] = (kinds[c.kind] or 0) + 1
    colours[c.color] = (colours[c.color] or 0) + 1
  end
  return kinds, colours
end

---Duo points: 1 per pair, in hand or played ("The points for duo cards
---count whether the cards have been played or not").
function rules.duo_points(game, kinds)
  local pts = 0
  for _, d in ipairs(rules.DUOS) do
    local a, b = d.kinds[1], d.kinds[2]
    local pairs
    if a == b then
      pairs = math.floor((kinds[a] or 0) / 2)
    else
      pairs = math.min(kinds[a] or 0, kinds[b] or 0)
    end
    pts = pts + pairs * d.points
  end
  return pts
end

-- The kinds collector_points looks at.
local COLLECTOR_KINDS = { "shell", "octopus", "penguin", "sailor" }

---Collector points, from rules.COLLECTORS.
function rules.collector_points(game, kinds)
  local pts = 0
  for i = 1, #COLLECTOR_KINDS do
    local kind = COLLECTOR_KINDS[i]
    local t = rules.COLLECTORS[kind]
    local n = kinds[kind] or 0
    if t and n > 0 then pts = pts + (t[math.min(n, #t)] or 0) end
  end
  return pts
end

-- The kinds multiplier_points looks at.
local MULTIPLIER_KINDS = { "lighthouse", "shoal", "colony", "captain" }

---Multiplier points: each multiplier card scores per card of its kind.
function rules.multiplier_points(game, kinds)
  local pts = 0
  for i = 1, #MULTIPLIER_KINDS do
    local kind = MULTIPLIER_KINDS[i]
    local m = rules.MULTIPLIERS[kind]
    local n = kinds[kind] or 0
    if m and n > 0 then pts = pts + n * m.each * (kinds[m.kind] or 0) end
  end
  return pts
end

-- The order of colour_counts: larger first.
local function larger(_, a, b) return a > b end

---The counts of the colours present, largest first (white left out when
---`no_white`). `into` (optional): a list of an earlier call to fill again
---instead of a new one (the entries past the counts are cleared).
function rules.colour_counts(colours, no_white, into)
  local counts, n = into or {}, 0
  for colour, c in pairs(colours) do
    if c > 0 and not (no_white and colour == "white") then
      n = n + 1
      counts[n] = c
    end
  end
  if into then util.cut(counts, n) end
  -- Largest first, by util.sort_first: a handful of numbers, where
  -- table.sort would compare through Lua's C interface (the search scores
  -- mermaids in every move of its playouts).
  return util.sort_first(counts, n, larger)
end

-- The list mermaid_points sorts the colour counts into, filled again by
-- every call (read at once, never kept: no other rule runs in between).
local MERMAID_COUNTS = {}

---Mermaid points: the first mermaid scores the count of the player's most
---common colour, the second the next most common other colour, and so on;
---one colour per mermaid; mermaids beyond the number of colours score 0
---("Mermaid" in "Card details"). White counts as a colour unless option
---mermaid_white is false.
function rules.mermaid_points(game, kinds, colours)
  local m = kinds.mermaid or 0
  if m == 0 then return 0 end
  local counts = rules.colour_counts(colours, game.options.mermaid_white == false, MERMAID_COUNTS)
  local pts = 0
  for i = 1, m do pts = pts + (counts[i] or 0) end
  return pts
end

-- The tables score_parts counts into, filled again by every score rather
-- than made anew (the greedy bot scores cards several times a move), and
-- whether a score is using them: a score asked while another is computed
-- (a part that a house rule makes score other cards) counts into new ones.
-- After a score, the counts of the cards scored are set back to 0 (cheaper
-- than every count of the tables); a score stopped by an error leaves them
-- in use, and later scores count into new tables.
local SCORE_KINDS, SCORE_COLOURS, scoring = no_kinds(), no_colours(), false

-- The four parts of the card points of the cards counted in `kinds` and
-- `colours`.
local function parts_from(game, kinds, colours)
  local duos = rules.duo_points(game, kinds)
  local collectors = rules.collector_points(game, kinds)
  local multipliers = rules.multiplier_points(game, kinds)
  local mermaids = rules.mermaid_points(game, kinds, colours)
  return duos, collectors, multipliers, mermaids
end

-- The four parts of the card points of `cards` (rules.score_parts in
-- numbers, without its table).
local function parts_of(game, cards)
  local kinds, colours
  local own = not scoring
  if own then
    scoring = true
    kinds, colours = rules.count(game, cards, SCORE_KINDS, SCORE_COLOURS)
  else
    kinds, colours = rules.count(game, cards)
  end
  local duos, collectors, multipliers, mermaids = parts_from(game, kinds, colours)
  if own then
    for i = 1, #cards do
      local c = game.cards[cards[i]]
      SCORE_KINDS[c.kind], SCORE_COLOURS[c.color] = 0, 0
    end
    scoring = false
  end
  return duos, collectors, multipliers, mermaids
end

---Card points of a list of cards, with the parts: {duos, collectors,
---multipliers, mermaids, total}. The kinds and colours counted, which the
---parts receive, are filled again by the next score: a part reads them and
---does not keep them.
function rules.score_parts(game, cards)
  local duos, collectors, multipliers, mermaids = parts_of(game, cards)
  return {
    duos = duos, collectors = collectors, multipliers = multipliers, mermaids = mermaids,
    total = duos + collectors + multipliers + mermaids,
  }
end
local score_parts = rules.score_parts

---"The points on their cards" (hand and in front) of a list of cards: the
---total of rules.score_parts (added up here without making its table while
---score_parts is this file's own).
function rules.card_points(game, cards)
  if rules.score_parts ~= score_parts then return rules.score_parts(game, cards).total end
  local duos, collectors, multipliers, mermaids = parts_of(game, cards)
  return duos + collectors + multipliers + mermaids
end
local card_points, count = rules.card_points, rules.count

-- Scoring with one card more. The greedy bot values each option by the
-- card points of its cards with the option's card; counting the whole hand
-- again for every option was most of its work. While rules.count,
-- rules.score_parts and rules.card_points are this file's own, the card
-- points of a list and one more card are the parts of the list's counts
-- with that card added: the bot counts its cards once per decision and
-- scores each option from those counts (rules.greedy_value). A house rule
-- that replaces one of the three is followed: the bot then scores whole
-- lists through rules.card_points, as before.
local function own_scoring()
  return rules.count == count and rules.score_parts == score_parts and rules.card_points == card_points
end

-- The card points of the cards counted in `kinds` and `colours` (by the
-- game's own rules.count), with `card` added when it is given; the counts
-- are as they were afterwards.
local function counted_points(game, kinds, colours, card)
  local c = card and game.cards[card]
  if c then
    kinds[c.kind] = (kinds[c.kind] or 0) + 1
    colours[c.color] = (colours[c.color] or 0) + 1
  end
  local duos, collectors, multipliers, mermaids = parts_from(game, kinds, colours)
  if c then
    kinds[c.kind] = kinds[c.kind] - 1
    colours[c.color] = colours[c.color] - 1
  end
  return duos + collectors + multipliers + mermaids
end

-- The tables colour_bonus counts into (every seat's bonus is counted at
-- the end of each round), and whether a call is using them: a call stopped
-- by an error leaves them in use, and later calls make their own.
local BONUS_KINDS, BONUS_COLOURS, BONUS_COUNTS, bonus_in_use = no_kinds(), no_colours(), {}, false

---Colour bonus: "1 point per card of the color they have the most of"
---(white included: the mermaids' white is a colour like any other; the
---rulebook names no exception).
function rules.colour_bonus(game, cards)
  if rules.count ~= count or bonus_in_use then
    local _, colours = rules.count(game, cards)
    return rules.colour_counts(colours, false)[1] or 0
  end
  -- With the game's own count: into tables filled again at every call,
  -- then the counts of these cards set back to 0 (as parts_of does).
  bonus_in_use = true
  local _, colours = rules.count(game, cards, BONUS_KINDS, BONUS_COLOURS)
  local most = rules.colour_counts(colours, false, BONUS_COUNTS)[1] or 0
  for i = 1, #cards do
    local c = game.cards[cards[i]]
    BONUS_KINDS[c.kind], BONUS_COLOURS[c.color] = 0, 0
  end
  bonus_in_use = false
  return most
end

-- The list seat_points counts a seat's cards into, filled again by every
-- call (the play decision asks rules.may_call at every turn), and whether a
-- call is using it: a call made while another is scoring (from a house
-- rule's part) makes a list of its own. A call stopped by an error leaves
-- it in use, and later calls make their own lists.
local SEAT_CARDS, seat_cards_in_use = {}, false

---A seat's card points now.
function rules.seat_points(game, seat)
  if seat_cards_in_use then return rules.card_points(game, rules.cards_of(game, seat)) end
  seat_cards_in_use = true
  local points = rules.card_points(game, rules.cards_of(game, seat, SEAT_CARDS))
  seat_cards_in_use = false
  return points
end

---------------------------------------------------------------------------
-- Targets and turn order
---------------------------------------------------------------------------

function rules.target(game)
  local t = game.options.target
  if t == nil or t == "auto" then return rules.TARGETS[game.seats] end
  local n = tonumber(t)
  if n == nil or n <= 0 then error("option target: expected \"auto\" or a positive number, not " .. tostring(t), 0) end
  return n
end

---May `seat` end the round now? Its own turn, no call made yet, and 7+ card
---points ("The round can be ended"; one call per round, since a call ends
---the round).
function rules.may_call(game, seat)
  local v = game.vars
  return v.call == nil and rules.seat_points(game, seat) >= rules.CALL_MIN
end

---Is the seat's hand protected from the shark (revealed after LAST CHANCE)?
function rules.protected(game, seat)
  return game.vars.revealed[seat] == true
end

---The opponents a shark + swimmer pair may steal from: not protected, with
---cards in hand (a hand revealed after LAST CHANCE "is now protected from
---attacks").
function rules.steal_targets(game, seat)
  local out = {}
  for k = 1, game.seats - 1 do
    local s = game:next_seat(seat, k)
    if not rules.protected(game, s) and #game:zone("hand", s) > 0 then out[#out + 1] = s end
  end
  return out
end

---Can anything be taken at the start of a turn (the deck or a discard pile)?
function rules.can_take(game)
  if #game:zone("deck") > 0 then return true end
  for i = 1, #rules.PILES do
    if #pile_zone(game, i) > 0 then return true end
  end
  return false
end

---------------------------------------------------------------------------
-- Rounds
---------------------------------------------------------------------------

-- The zones every seat has (a list made once: a round starts in every
-- playout of a search).
local SEAT_ZONES = { "hand", "duos", "open hand", "drawn cards" }

---Gather every card, shuffle, start the two discard piles face up
---("Game setup": "Reveal the first two cards ... to form two discard
---piles"), and give the first turn to `first`.
function rules.start_round(game, first)
  local v = game.vars
  local deck = game:zone("deck")
  for _, name in ipairs(SEAT_ZONES) do
    for s = 1, game.seats do game:move_all(game:zone(name, s), deck) end
  end
  for i = 1, #rules.PILES do game:move_all(pile_zone(game, i), deck) end
  game:shuffle(deck)
  for i = 1, #rules.PILES do game:move_top(deck, pile_zone(game, i)) end
  v.round = v.round + 1
  v.first = first
  v.call = nil
  v.final_turns = {}
  v.revealed = {}
  for s = 1, game.seats do v.revealed[s] = false end
  if game.logging then
    local tops = {}
    for i = 1, #rules.PILES do tops[i] = pile_zone(game, i)[1] end
    game:event("round_started", {
      round = v.round, first = first, cards = tops,
      text = "Round " .. v.round .. ": " .. who(first) .. " starts; the discard piles show "
        .. names(game, tops),
    })
  end
  rules.start_turn(game, first)
end

---A new turn for `seat`: take cards first ("Game turn", 1). With nothing to
---take (deck and piles empty, possible only in LAST CHANCE final turns) the
---turn goes straight to playing duos.
function rules.start_turn(game, seat)
  local v = game.vars
  v.turn = seat
  v.boat_turns = 0
  v.phase = rules.can_take(game) and "take" or "play"
end

---A seat's turn is over ("If not, it is the turn of the player to their
---left"). In LAST CHANCE final turns the seat reveals its hand; the empty
---deck ends the round without scoring (option last_chance_empty_deck after
---a call).
function rules.end_turn(game, seat)
  local v = game.vars
  local deck_empty = #game:zone("deck") == 0
  if v.call ~= nil then
    rules.reveal(game, seat)
    table.remove(v.final_turns, 1)
    if deck_empty and game.options.last_chance_empty_deck == "no_score" then
      return rules.void_round(game, seat)
    end
    if #v.final_turns == 0 then return rules.score_round(game) end
    return rules.start_turn(game, v.final_turns[1])
  end
  -- "Special case: If the deck is empty at the end of a player's turn, the
  -- round ends immediately without scoring."
  if deck_empty then return rules.void_round(game, seat) end
  rules.start_turn(game, game:next_seat(seat))
end

---Reveal a seat's hand: it moves to the seat's public `open hand` zone,
---where it still counts as its hand and cannot be stolen from.
function rules.reveal(game, seat)
  local v = game.vars
  local hand, shown = game:zone("hand", seat), game:zone("open hand", seat)
  game:move_all(hand, shown)
  v.revealed[seat] = true
  if game.logging then
    game:event("hand_revealed", {
      seat = seat, cards = copy_array(shown),
      text = who(seat) .. " reveals " .. (#shown > 0 and names(game, shown) or "an empty hand")
        .. " (" .. rules.points_text(rules.seat_points(game, seat)) .. " with the cards in front)",
    })
  end
end

---The round ends without scoring (empty deck); the player to the left of
---`seat` starts the next one (the rulebook's rule for the next round's first
---player, applied to the seat whose turn emptied the deck).
function rules.void_round(game, seat)
  local v = game.vars
  v.last_round = { round = v.round, ending = "empty_deck", caller = seat, gained = zeros(game.seats) }
  util.count(game, "rounds") -- metric: rounds ended by LAST CHANCE (of all rounds)
  if game.logging then
    game:event("round_void", {
      round = v.round, seat = seat,
      text = "The deck is empty at the end of " .. who(seat) .. "'s turn: the round ends without scoring",
    })
  end
  rules.round_over(game, game:next_seat(seat))
end

---Points each seat gains at the end of a scored round ("End of the round"):
---STOP: everyone their card points. LAST CHANCE: the caller wins the bet with
---card points >= every opponent's (ties go to the caller); bet won: caller
---card points + colour bonus, opponents their colour bonus only; bet lost:
---caller colour bonus only, opponents their card points.
---Returns gained, points, bonus (per seat) and bet_won (nil for STOP).
function rules.round_points(game)
  local v = game.vars
  local n = game.seats
  local points, bonus = {}, {}
  for s = 1, n do
    local cards = rules.cards_of(game, s)
    points[s] = rules.card_points(game, cards)
    bonus[s] = rules.colour_bonus(game, cards)
  end
  local gained = {}
  if v.call.kind == "stop" then
    for s = 1, n do gained[s] = points[s] end
    return gained, points, bonus, nil
  end
  local caller = v.call.seat
  local won = true
  for s = 1, n do
    if s ~= caller and points[s] > points[caller] then won = false end
  end
  for s = 1, n do
    if s == caller then
      gained[s] = won and (points[s] + bonus[s]) or bonus[s]
    else
      gained[s] = won and bonus[s] or points[s]
    end
  end
  return gained, points, bonus, won
end

---The most card points among the seats other than `seat`.
function rules.most_of_others(points, seat)
  local most = 0
  for s, p in ipairs(points) do
    if s ~= seat and p > most then most = p end
  end
  return most
end

---Score the round, then end the game or deal the next round.
function rules.score_round(game)
  local v = game.vars
  local n = game.seats
  -- "All players reveal their hands" (hands revealed earlier stay revealed).
  for k = 0, n - 1 do
    local s = game:next_seat(v.call.seat, k)
    if not v.revealed[s] then rules.reveal(game, s) end
  end
  local gained, points, bonus, won = rules.round_points(game)
  -- Metrics (rules.metrics, below): rounds, LAST CHANCE calls, bets lost.
  util.count(game, "rounds")
  if v.call.kind == "last_chance" then
    util.count(game, "last_chances")
    if not won then util.count(game, "bets_lost") end
  end
  for s = 1, n do v.scores[s] = v.scores[s] + gained[s] end
  v.last_round = {
    round = v.round, ending = v.call.kind, caller = v.call.seat, bet_won = won,
    points = points, bonus = bonus, gained = gained,
  }
  if game.logging then
    local parts = {}
    for s = 1, n do
      local g, p, b = gained[s], points[s], bonus[s]
      local why = ""
      if g ~= p then
        if g == p + b then
          why = " (" .. p .. " + colour bonus " .. b .. ")"
        elseif g == b then
          why = " (colour bonus; " .. points_text(p) .. " not scored)"
        else
          why = " (" .. points_text(p) .. ", colour bonus " .. b .. ")"
        end
      end
      parts[s] = who(s) .. " +" .. g .. why
    end
    local head
    if v.call.kind == "stop" then
      head = "STOP by " .. who(v.call.seat)
    else
      head = "LAST CHANCE by " .. who(v.call.seat) .. ": bet " .. (won and "won" or "lost") .. " ("
        .. points_text(points[v.call.seat]) .. ", best opponent " .. rules.most_of_others(points, v.call.seat) .. ")"
    end
    game:event("round_scored", {
      round = v.round, ending = v.call.kind, caller = v.call.seat, bet_won = won,
      points = copy_array(points), bonus = copy_array(bonus), gained = copy_array(gained),
      scores = copy_array(v.scores),
      text = head .. ". " .. table.concat(parts, ", ") .. ". Scores: " .. rules.scores_text(game),
    })
  end
  local winners, decided_by = rules.game_winners(game)
  if winners then return rules.end_game(game, winners, nil, "target", decided_by) end
  rules.round_over(game, game:next_seat(v.call.seat))
end

---The round is over and the game goes on: the next round is dealt at once,
---started by `first` ("The player to the left of the one who ended the
---previous round starts"). There is deliberately no decision in between:
---nobody chooses anything there, and a pause would be a step of every
---simulated game (counted in `deckhand sim` statistics and traces, asked of
---one seat only). The revealed hands and the points are in the round's
---events ("hand_revealed", "round_scored" or "round_void"), which the REPL
---prints, and in `vars.last_round`, which the status lines show.
function rules.round_over(game, first)
  rules.start_round(game, first)
end

-- The seats of `tied` that gained most in the last round (`gained`, by
-- seat). A function of its own: a function that makes a function (here the
-- value of each seat) is left to the interpreter by LuaJIT, and
-- rules.game_winners runs at every round's end.
local function most_gained(tied, gained)
  return util.best(tied, function(s) return gained[s] or 0 end)
end

---The winners once someone has reached the target, else nil ("End of
---game"): most points; tied: option tie_break.
function rules.game_winners(game)
  local v = game.vars
  local n = game.seats
  -- (The scores by seat as a table rather than a function: see most_gained.)
  local tied, best = util.best(util.range(n), v.scores)
  if best < v.target then return nil end
  -- The second value says what decided, for the game_over event.
  if #tied == 1 then return tied, "most_points" end
  if game.options.tie_break == "last_round_points" and v.last_round and v.last_round.gained then
    tied = most_gained(tied, v.last_round.gained)
    if #tied == 1 then return tied, "last_round_points" end
  end
  -- "In case of a tie, the one who went last in the last round wins": the
  -- latest in turn order from the round's first player.
  local last, pos = nil, -1
  for _, s in ipairs(tied) do
    local p = (s - v.first) % n
    if p > pos then last, pos = s, p end
  end
  return { last }, "last_in_turn_order"
end

---End the game. `why`: words for the event's text; `ended_by`: why it
---ended ("target": a score reached the target, "mermaids": the four
---mermaids placed); `decided_by`: what decided between tied seats (see
---rules.game_winners). Both are recorded in the game_over event.
function rules.end_game(game, winners, why, ended_by, decided_by)
  local v = game.vars
  v.winners = copy_array(winners)
  v.game_over = true
  v.phase = "game_over"
  v.turn = nil
  if game.logging then
    local w = {}
    for i, s in ipairs(winners) do w[i] = who(s) end
    game:event("game_over", {
      winners = copy_array(winners), scores = copy_array(v.scores),
      ended_by = ended_by, decided_by = decided_by,
      text = table.concat(w, " and ") .. " wins the game" .. (why and (" " .. why) or "")
        .. " (" .. rules.scores_text(game) .. ")",
    })
  end
end

---"If a player places all 4 mermaids, they immediately win the game." When
---the seat to act holds them all (hand and in front), it places them at once
---and wins (the Board Game Arena adaptation checks at the end of the turn;
---placing them sooner changes nothing, as the game ends either way).
function rules.check_mermaids(game, seat)
  local v = game.vars
  if v.game_over or seat == nil then return false end
  -- Counted first without making any table: this runs after every move.
  local held = 0
  for k = 1, #COUNTED_ZONES do
    local z = game:zone(COUNTED_ZONES[k], seat)
    for i = 1, #z do
      if game.cards[z[i]].kind == "mermaid" then held = held + 1 end
    end
  end
  if held < rules.MERMAIDS_TO_WIN then return false end
  local duos = game:zone("duos", seat)
  for _, name in ipairs({ "hand", "open hand" }) do
    local z = game:zone(name, seat)
    local mermaids = {}
    for i = 1, #z do
      if game.cards[z[i]].kind == "mermaid" then mermaids[#mermaids + 1] = z[i] end
    end
    for _, c in ipairs(mermaids) do game:move(c, z, duos) end
  end
  v.mermaid_win = seat
  rules.end_game(game, { seat }, "by placing the " .. rules.MERMAIDS_TO_WIN .. " mermaids", "mermaids")
  return true
end

---------------------------------------------------------------------------
-- A turn: take cards ("Game turn", 1)
---------------------------------------------------------------------------

---Draw up to DRAW_COUNT cards. Two or more: the seat keeps one (phase
---"keep"). One card left in the deck: it is taken, nothing is discarded
---(the rulebook does not cover it; with one card there is nothing to choose
---between, so the player keeps it).
function rules.draw(game, seat)
  local v = game.vars
  local deck, drawn = game:zone("deck"), game:zone("drawn cards", seat)
  for _ = 1, rules.DRAW_COUNT do
    if game:move_top(deck, drawn) == nil then break end
  end
  if game.logging then
    game:event("drew", { seat = seat, count = #drawn, text = who(seat) .. " draws " .. #drawn .. " from the deck" })
    game:event("drew_cards", { to = seat, cards = copy_array(drawn), text = who(seat) .. " (privately) draws " .. names(game, drawn) })
  end
  if #drawn == 1 then
    game:move(drawn[1], drawn, game:zone("hand", seat))
    v.phase = "play"
  else
    v.phase = "keep"
  end
end

---The piles the card left over may be discarded onto: an empty pile if
---there is one ("they have no choice but to put their card there").
---`into` (optional): a list of an earlier call to fill again instead of a
---new one (this runs at every card kept, and at the discard decision).
function rules.discard_piles(game, into)
  local piles, empty = #rules.PILES, 0
  for i = 1, piles do
    if #pile_zone(game, i) == 0 then empty = empty + 1 end
  end
  local out, n = into or {}, 0
  for i = 1, piles do
    if empty == 0 or #pile_zone(game, i) == 0 then
      n = n + 1
      out[n] = i
    end
  end
  if into then util.cut(out, n) end
  return out
end

-- The lists rules.keep and the discard decision receive the piles in,
-- filled again at each call (read at once).
local KEEP_PILES, DISCARD_PILES = {}, {}

---Keep a drawn card; the other one is discarded (onto the only legal pile at
---once, else the seat chooses: phase "discard").
function rules.keep(game, seat, card)
  local v = game.vars
  local drawn = game:zone("drawn cards", seat)
  game:move(card, drawn, game:zone("hand", seat))
  if #drawn == 0 then v.phase = "play"; return end
  local piles = rules.discard_piles(game, KEEP_PILES)
  if #piles == 1 and #drawn == 1 then
    rules.discard(game, seat, drawn[1], piles[1])
  else
    v.phase = "discard"
  end
end

function rules.discard(game, seat, card, pile)
  local v = game.vars
  game:move(card, game:zone("drawn cards", seat), pile_zone(game, pile))
  if game.logging then
    game:event("discarded", {
      seat = seat, card = card, pile = pile,
      text = who(seat) .. " discards " .. card_name(game, card) .. " onto " .. rules.PILES[pile],
    })
  end
  if #game:zone("drawn cards", seat) == 0 then v.phase = "play" end
end

---"OR they take the card on top of one of the two discard piles."
function rules.take_pile(game, seat, pile)
  local z = pile_zone(game, pile)
  local card = game:move_top(z, game:zone("hand", seat))
  if card == nil then error(rules.PILES[pile] .. " is empty", 0) end
  if game.logging then
    game:event("took", {
      seat = seat, card = card, pile = pile,
      text = who(seat) .. " takes " .. card_name(game, card) .. " from " .. rules.PILES[pile],
    })
  end
  game.vars.phase = "play"
end

---------------------------------------------------------------------------
-- A turn: duo pairs ("Game turn", 2; "Duo cards")
---------------------------------------------------------------------------

-- The first two cards of each kind in the hand duo_pairs looks at: one pass
-- over the hand for every pair (each call has its number, `looked`; an
-- entry of an earlier call counts as empty).
local FIRST, SECOND, SEEN, looked = {}, {}, {}, 0

---The duo pairs the seat may play now: one per entry of rules.DUOS that its
---hand completes, with the first matching cards of the hand. `into`
---(optional): a list of an earlier call to fill again instead of a new one
---(the entries past the pairs are cleared; the pairs are new tables).
function rules.duo_pairs(game, seat, into)
  local hand = game:zone("hand", seat)
  local cards = game.cards
  looked = looked + 1
  for i = 1, #hand do
    local c = hand[i]
    local k = cards[c].kind
    if k == nil then
      -- (a card of no kind makes no pair)
    elseif SEEN[k] ~= looked then
      SEEN[k], FIRST[k], SECOND[k] = looked, c, nil
    elseif SECOND[k] == nil then
      SECOND[k] = c
    end
  end
  local out, n = into or {}, 0
  local duos = rules.DUOS
  for j = 1, #duos do
    local d = duos[j]
    local a, b = d.kinds[1], d.kinds[2]
    -- A pair of one kind takes its first two cards; of two kinds, the first of each.
    if SEEN[a] == looked and SEEN[b] == looked then
      local first, second = FIRST[a], nil
      if a == b then second = SECOND[a] else second = FIRST[b] end
      if second ~= nil then
        -- (The list of cards made apart from the pair's table: LuaJIT does
        -- not compile one table constructor nested in another here.)
        local cards = { first, second }
        n = n + 1
        out[n] = { duo = d.id, cards = cards }
      end
    end
  end
  if into then util.cut(out, n) end
  return out
end

local function duo_spec(id)
  for _, d in ipairs(rules.DUOS) do
    if d.id == id then return d end
  end
  error("no duo '" .. tostring(id) .. "'", 0)
end

---Place a pair face up in front of the seat and apply its effect. The pair
---scores the same played or not; an effect that cannot be carried out is
---skipped (the rulebook does not forbid playing such a pair; deckhand lets
---it score and skips what cannot be done).
function rules.play_duo(game, seat, duo, cards)
  local d = duo_spec(duo)
  local hand, front = game:zone("hand", seat), game:zone("duos", seat)
  for _, c in ipairs(cards) do game:move(c, hand, front) end
  if game.logging then
    game:event("duo_played", {
      seat = seat, duo = duo, cards = copy_array(cards),
      text = who(seat) .. " plays " .. names(game, cards) .. ": " .. d.does,
    })
  end
  game.vars.phase = "play"
  rules[d.effect](game, seat)
end

local function skipped(game, seat, why)
  if game.logging then
    game:event("effect_skipped", { seat = seat, text = "No effect: " .. why })
  end
end

---The piles a crab pair may look through (not empty).
function rules.crab_piles(game)
  local out = {}
  for i = 1, #rules.PILES do
    if #pile_zone(game, i) > 0 then out[#out + 1] = i end
  end
  return out
end

---Crabs: "chooses a discard pile, consults it without shuffling it, and
---chooses a card from it to add to their hand. They do not have to show it."
function rules.crab_effect(game, seat)
  local v = game.vars
  local piles = rules.crab_piles(game)
  if #piles == 0 then return skipped(game, seat, "both discard piles are empty") end
  if #piles == 1 then
    rules.look_pile(game, seat, piles[1])
  else
    v.phase = "crab_pile"
  end
end

function rules.look_pile(game, seat, pile)
  local v = game.vars
  v.crab_pile = pile
  v.phase = "crab_pick"
  if game.logging then
    game:event("pile_looked", {
      seat = seat, pile = pile, text = who(seat) .. " looks through " .. rules.PILES[pile],
    })
  end
end

---Take the chosen card from the pile being looked through, secretly.
function rules.crab_take(game, seat, card)
  local v = game.vars
  local pile = v.crab_pile
  game:move(card, pile_zone(game, pile), game:zone("hand", seat))
  v.crab_pile = nil
  v.phase = "play"
  if game.logging then
    game:event("pile_taken", {
      seat = seat, pile = pile, text = who(seat) .. " takes a card from " .. rules.PILES[pile],
    })
    game:event("pile_taken_card", {
      to = seat, card = card, text = who(seat) .. " (privately) takes " .. card_name(game, card) .. " from " .. rules.PILES[pile],
    })
  end
end

---Boats: "The player immediately takes another turn" (option
---boat_extra_turns: each pair, or one per turn). Nothing to take: skipped.
function rules.boat_effect(game, seat)
  local v = game.vars
  if game.options.boat_extra_turns == "one" and v.boat_turns >= 1 then
    return skipped(game, seat, "only one extra turn per turn (option boat_extra_turns)")
  end
  if not rules.can_take(game) then
    return skipped(game, seat, "the deck and both discard piles are empty")
  end
  local used = v.boat_turns
  rules.start_turn(game, seat)
  v.boat_turns = used + 1
  if game.logging then
    game:event("extra_turn", { seat = seat, text = who(seat) .. " takes another turn" })
  end
end

---Fish: "The player adds the top card from the deck to their hand."
function rules.fish_effect(game, seat)
  local card = game:move_top(game:zone("deck"), game:zone("hand", seat))
  if card == nil then return skipped(game, seat, "the deck is empty") end
  if game.logging then
    game:event("fished", { seat = seat, text = who(seat) .. " takes the top card of the deck" })
    game:event("fished_card", { to = seat, card = card, text = who(seat) .. " (privately) takes " .. card_name(game, card) })
  end
end

---Shark + swimmer: "steals a random card from another player": the seat
---chooses the opponent (the rulebook says "another player", not which, so
---the player picks), among those it may steal from.
function rules.steal_effect(game, seat)
  local targets = rules.steal_targets(game, seat)
  if #targets == 0 then
    return skipped(game, seat, "no opponent has an unprotected card in hand")
  end
  if #targets == 1 then return rules.steal(game, seat, targets[1]) end
  game.vars.phase = "steal"
end

function rules.steal(game, seat, victim)
  local hand = game:zone("hand", victim)
  if #hand == 0 or rules.protected(game, victim) then
    error(who(victim) .. "'s hand cannot be stolen from", 0)
  end
  local card = hand[game:random(1, #hand)]
  game:move(card, hand, game:zone("hand", seat))
  game.vars.phase = "play"
  if game.logging then
    game:event("stole", { seat = seat, victim = victim, text = who(seat) .. " steals a random card from " .. who(victim) })
    game:event("stole_card", { to = seat, card = card, text = who(seat) .. " (privately) steals " .. card_name(game, card) .. " from " .. who(victim) })
    game:event("lost_card", { to = victim, card = card, text = who(seat) .. " steals " .. card_name(game, card) .. " from " .. who(victim) .. " (privately to " .. who(victim) .. ")" })
  end
end

---------------------------------------------------------------------------
-- Ending the round ("The round can be ended"; "End of the round")
---------------------------------------------------------------------------

function rules.call(game, seat, kind)
  local v = game.vars
  if not rules.may_call(game, seat) then
    error(who(seat) .. " cannot end the round now (needs " .. rules.CALL_MIN .. " points and no call made)", 0)
  end
  local points = rules.seat_points(game, seat)
  v.call = { kind = kind, seat = seat, points = points }
  if game.logging then
    game:event("called", {
      seat = seat, kind = kind, points = points,
      text = who(seat) .. " calls " .. (kind == "stop" and "STOP" or "LAST CHANCE") .. " with " .. points_text(points),
    })
  end
  if kind == "stop" then
    -- "All players reveal their hands and immediately score."
    return rules.score_round(game)
  end
  -- "The other players each take a final turn ... which they complete by
  -- revealing their hand, which is now protected from attacks."
  rules.reveal(game, seat)
  v.final_turns = {}
  for k = 1, game.seats - 1 do v.final_turns[k] = game:next_seat(seat, k) end
  rules.start_turn(game, v.final_turns[1])
end

---------------------------------------------------------------------------
-- GameScript entry points
---------------------------------------------------------------------------

function rules.setup(game)
  local v = game.vars
  rules.create_deck(game)
  rules.create_zones(game)
  v.scores = zeros(game.seats)
  v.target = rules.target(game)
  v.round = 0
  v.game_over = false
  v.winners = {}
  v.revealed = {}
  v.final_turns = {}
  -- "Choose the first player at random."
  rules.start_round(game, game:random(1, game.seats))
end

local function pile_text(game, i)
  local z = pile_zone(game, i)
  if #z == 0 then return rules.PILES[i] .. ", empty" end
  return rules.PILES[i] .. ", on " .. card_name(game, z[#z])
end

---------------------------------------------------------------------------
-- Decisions, phase by phase (lib/phases.lua): game.vars.phase names the
-- entry of rules.phases; each lists its options and applies them by their
-- `act`. "If a player places all 4 mermaids, they immediately win the game"
-- (rules.check_mermaids): checked after every move of a turn, and before
-- the seat ends its turn or the round.
---------------------------------------------------------------------------

rules.phases = {}

-- Every phase words its options in its `text(game, option)`, from the
-- option's fields and the position of the decision; the options carry the
-- text only when the game is logged (phases.worded): a simulation or a
-- search's copy plays thousands of moves nobody reads, and rules.describe
-- makes the text when someone does (lib/phases.lua, "Texts made when
-- asked").
local worded = phases.worded

-- The options list of the previous decision, emptied to be filled again
-- (phases.decision passes it: see rules.decision), or a new list.
local function emptied(list)
  if list == nil then return {} end
  return util.cut(list, 0)
end

-- Shared options. An option is data that nothing changes once listed
-- (lib/phases.lua: "make each table once and share it where you can"), so
-- in a game that is not logged each distinct option is one table, made the
-- first time it is listed and shared by every later decision, of every
-- game: a search lists options thousands of times a second, and a table
-- made per option per decision was a good part of what the collector had
-- to do. A logged game's options carry their text (phases.worded), so they
-- are made anew at each decision, as before. Never change a shared option.
-- Each store below holds one phase's options by what tells them apart.
local TAKE_OPTIONS = {}      -- ["draw"], or [pile][card] for act "pile"
local KEEP_OPTIONS = {}      -- [card]
local DISCARD_OPTIONS = {}   -- [pile][card]
local PLAY_OPTIONS = {}      -- ["end"], ["stop"], ["last_chance"]
local CRAB_PILE_OPTIONS = {} -- [pile]
local CRAB_PICK_OPTIONS = {} -- [secret text][card]
local STEAL_OPTIONS = {}     -- [seat]

-- The list the play decision receives its duo pairs in, filled again at
-- each play decision (read at once: each pair goes into an option).
local PLAY_PAIRS = {}

-- The table at `store[key]`, made empty on first use.
local function shelf(store, key)
  local t = store[key]
  if t == nil then
    t = {}
    store[key] = t
  end
  return t
end

-- The shared option at `store[key]`: nil when there is none yet, and
-- always in a logged game.
local function shared(game, store, key)
  if game.logging then return nil end
  return store[key]
end

-- `option`, just made: worded (a logged game), else kept at `store[key]` to
-- be shared from now on.
local function made(game, store, key, words, option)
  if game.logging then return worded(game, words, option) end
  store[key] = option
  return option
end

-- "Game turn", 1: draw two cards from the deck (rules.draw), "OR they take
-- the card on top of one of the two discard piles" (rules.take_pile).
rules.phases.take = {
  prompt = "Take a card: draw two from the deck, or the top of a discard pile",
  options = function(game, seat, into)
    local phase = rules.phases.take
    local opts, n = emptied(into), 0
    if #game:zone("deck") > 0 then
      n = n + 1
      opts[n] = shared(game, TAKE_OPTIONS, "draw")
        or made(game, TAKE_OPTIONS, "draw", phase.text, { act = "draw" })
    end
    for i = 1, #rules.PILES do
      local z = pile_zone(game, i)
      local top = z[#z]
      if top ~= nil then
        local by_card = shelf(TAKE_OPTIONS, i)
        n = n + 1
        opts[n] = shared(game, by_card, top)
          or made(game, by_card, top, phase.text, { act = "pile", pile = i, card = top })
      end
    end
    return opts
  end,
  text = function(game, o)
    if o.act == "draw" then
      return #game:zone("deck") >= rules.DRAW_COUNT and "Draw two from the deck, keep one"
        or "Draw the last card of the deck"
    end
    return "Take " .. card_name(game, o.card) .. " from " .. rules.PILES[o.pile]
  end,
  moves = {
    draw = function(game, seat)
      rules.draw(game, seat)
      rules.check_mermaids(game, seat)
    end,
    pile = function(game, seat, action)
      rules.take_pile(game, seat, action.pile)
      rules.check_mermaids(game, seat)
    end,
  },
}

-- The seat keeps one of the cards drawn (secretly: the others are told only
-- that a card was kept).
rules.phases.keep = {
  prompt = "Keep one of the cards you drew (the other is discarded)",
  options = function(game, seat, into)
    local opts = emptied(into)
    local drawn = game:zone("drawn cards", seat)
    for i = 1, #drawn do
      local card = drawn[i]
      opts[i] = shared(game, KEEP_OPTIONS, card) or made(game, KEEP_OPTIONS, card, rules.phases.keep.text,
        { act = "keep", card = card, secret = "keeps one of the cards drawn" })
    end
    return opts
  end,
  text = function(game, o) return "Keep " .. card_name(game, o.card) end,
  moves = {
    keep = function(game, seat, action)
      rules.keep(game, seat, action.card)
      rules.check_mermaids(game, seat)
    end,
  },
}

-- The other drawn card goes onto a discard pile (rules.discard_piles).
rules.phases.discard = {
  prompt = "Discard the other card onto a pile",
  options = function(game, seat, into)
    local opts = emptied(into)
    local drawn = game:zone("drawn cards", seat)
    local card = drawn[#drawn]
    local piles = rules.discard_piles(game, DISCARD_PILES)
    for k = 1, #piles do
      local i = piles[k]
      local by_card = shelf(DISCARD_OPTIONS, i)
      opts[k] = shared(game, by_card, card) or made(game, by_card, card, rules.phases.discard.text,
        { act = "discard", pile = i, card = card })
    end
    return opts
  end,
  text = function(game, o)
    return "Discard " .. card_name(game, o.card) .. " onto " .. pile_text(game, o.pile)
  end,
  moves = {
    discard = function(game, seat, action)
      rules.discard(game, seat, action.card, action.pile)
      rules.check_mermaids(game, seat)
    end,
  },
}

-- "Game turn", 2: play duo pairs (rules.duo_pairs), end the turn, or end
-- the round with STOP or LAST CHANCE once rules.may_call allows it (not in
-- a final turn after LAST CHANCE).
rules.phases.play = {
  prompt = function(game)
    if game.vars.call ~= nil then return "Your final turn: play duo pairs or end it" end
    return "Play a duo pair, end your turn, or end the round"
  end,
  options = function(game, seat, into)
    local phase = rules.phases.play
    local opts = emptied(into)
    local duos = rules.duo_pairs(game, seat, PLAY_PAIRS)
    local n = #duos
    for k = 1, n do
      local p = duos[k]
      -- (Made at each decision: a pair's cards are a list of its own.)
      opts[k] = worded(game, phase.text, { act = "duo", duo = p.duo, cards = p.cards })
    end
    n = n + 1
    opts[n] = shared(game, PLAY_OPTIONS, "end") or made(game, PLAY_OPTIONS, "end", phase.text, { act = "end" })
    if game.vars.call == nil and rules.may_call(game, seat) then
      opts[n + 1] = shared(game, PLAY_OPTIONS, "stop")
        or made(game, PLAY_OPTIONS, "stop", phase.text, { act = "stop" })
      opts[n + 2] = shared(game, PLAY_OPTIONS, "last_chance")
        or made(game, PLAY_OPTIONS, "last_chance", phase.text, { act = "last_chance" })
    end
    return opts
  end,
  -- (The seat deciding is the seat to act, game.vars.turn.)
  text = function(game, o)
    local act = o.act
    if act == "duo" then
      local d = duo_spec(o.duo)
      return "Play " .. d.name .. " (" .. d.does .. ")"
    elseif act == "end" then
      return game.vars.call ~= nil and "End your final turn (reveal your hand)" or "End your turn"
    elseif act == "stop" then
      return "STOP (" .. rules.seat_points(game, game.vars.turn) .. " points: everyone scores now)"
    end
    return "LAST CHANCE (" .. rules.seat_points(game, game.vars.turn) .. " points: bet on having the most)"
  end,
  moves = {
    duo = function(game, seat, action)
      rules.play_duo(game, seat, action.duo, action.cards)
      rules.check_mermaids(game, seat)
    end,
    ["end"] = function(game, seat)
      if rules.check_mermaids(game, seat) then return end
      rules.end_turn(game, seat)
    end,
    stop = function(game, seat)
      if rules.check_mermaids(game, seat) then return end
      rules.call(game, seat, "stop")
    end,
    last_chance = function(game, seat)
      if rules.check_mermaids(game, seat) then return end
      rules.call(game, seat, "last_chance")
    end,
  },
}

-- Crabs, when both piles have cards: which pile to look through.
rules.phases.crab_pile = {
  prompt = "Crabs: look through which discard pile?",
  options = function(game, seat, into)
    local opts = emptied(into)
    local piles = rules.crab_piles(game)
    for k = 1, #piles do
      local i = piles[k]
      opts[k] = shared(game, CRAB_PILE_OPTIONS, i)
        or made(game, CRAB_PILE_OPTIONS, i, rules.phases.crab_pile.text, { act = "crab_pile", pile = i })
    end
    return opts
  end,
  text = function(game, o)
    return "Look through " .. rules.PILES[o.pile] .. " (" .. #pile_zone(game, o.pile) .. " cards)"
  end,
  moves = {
    crab_pile = function(game, seat, action)
      rules.look_pile(game, seat, action.pile)
      rules.check_mermaids(game, seat)
    end,
  },
}

-- Crabs: the card taken from the pile ("They do not have to show it.").
rules.phases.crab_pick = {
  prompt = "Crabs: take a card (the others do not see which)",
  options = function(game, seat, into)
    local v = game.vars
    local opts = emptied(into)
    local z = pile_zone(game, v.crab_pile)
    local secret = "takes a card from " .. rules.PILES[v.crab_pile]
    local by_card = shelf(CRAB_PICK_OPTIONS, secret)
    -- Top card first, as the pile is looked through; the pile is not reordered.
    -- reveal: the chooser sees the pile's cards (and only the chooser: secret).
    local n = #z
    for i = n, 1, -1 do
      local card = z[i]
      opts[n - i + 1] = shared(game, by_card, card) or made(game, by_card, card, rules.phases.crab_pick.text,
        { act = "crab_pick", card = card, secret = secret, reveal = true })
    end
    return opts
  end,
  text = function(game, o) return "Take " .. card_name(game, o.card) end,
  moves = {
    crab_pick = function(game, seat, action)
      rules.crab_take(game, seat, action.card)
      rules.check_mermaids(game, seat)
    end,
  },
}

-- Shark + swimmer, when several opponents may be stolen from: which one.
rules.phases.steal = {
  prompt = "Shark + Swimmer: steal a random card from whom?",
  options = function(game, seat, into)
    local opts = emptied(into)
    local targets = rules.steal_targets(game, seat)
    for k = 1, #targets do
      local s = targets[k]
      opts[k] = shared(game, STEAL_OPTIONS, s)
        or made(game, STEAL_OPTIONS, s, rules.phases.steal.text, { act = "steal", seat = s })
    end
    return opts
  end,
  text = function(game, o)
    local hand = game:zone("hand", o.seat)
    return "Steal from " .. who(o.seat) .. " (" .. (hand.count or #hand) .. " cards in hand)"
  end,
  moves = {
    steal = function(game, seat, action)
      rules.steal(game, seat, action.seat)
      rules.check_mermaids(game, seat)
    end,
  },
}

-- `previous`: the decision asked before, whose table and options list are
-- filled again (nothing reads a decision once the next one is asked).
function rules.decision(game, previous)
  if game.vars.game_over then return nil end
  return phases.decision(rules, game, nil, previous)
end

function rules.apply(game, seat, action)
  local v = game.vars
  if v.game_over then error("the game is over", 0) end
  if seat ~= v.turn then error("it is " .. who(v.turn) .. "'s turn, not " .. who(seat) .. "'s", 0) end
  phases.apply(rules, game, seat, action)
end

---An option in words: its text, made by its phase when the option does not
---carry it (an unlogged game's options).
function rules.describe(game, action)
  return phases.describe(game, action, rules)
end

---------------------------------------------------------------------------
-- Why a card is not one of your moves (rules.why_not, for the REPL). It
-- reads only what the seat may see: its own hand and drawn cards, the tops
-- of the discard piles, the phase. A card it cannot see is not located.
---------------------------------------------------------------------------

-- Whether `card` is in `seat`'s zone `name`.
local function holds(game, seat, name, card)
  local z = game:zone(name, seat)
  for i = 1, #z do
    if z[i] == card then return true end
  end
  return false
end

-- "the top of discard 1 (Crab (yellow)) or of discard 2 (...)": what may be taken.
local function tops_text(game)
  local tops = {}
  for i = 1, #rules.PILES do
    local z = pile_zone(game, i)
    if #z > 0 then tops[#tops + 1] = rules.PILES[i] .. " (" .. card_name(game, z[#z]) .. ")" end
  end
  if #tops == 0 then return "" end
  return ", or take the top card of " .. table.concat(tops, " or ")
end

-- Why a duo card of the hand makes no pair: its partner is missing.
local function no_pair(game, seat, card)
  local kind = game.cards[card].kind
  local name = rules.KINDS[kind].name
  for _, d in ipairs(rules.DUOS) do
    local partner = d.kinds[1] == kind and d.kinds[2] or (d.kinds[2] == kind and d.kinds[1]) or nil
    if partner then
      local hand = game:zone("hand", seat)
      for i = 1, #hand do
        if hand[i] ~= card and game.cards[hand[i]].kind == partner then
          return nil -- a pair is there: no reason to give
        end
      end
      local pname = rules.KINDS[partner].name
      if partner == kind then
        return "a duo is a pair: " .. name .. " needs a second " .. name .. " in your hand, and you hold only one"
      end
      return "a duo is a pair: " .. name .. " pairs with a " .. pname .. " (" .. d.name .. "), and you hold no "
        .. pname
    end
  end
  return nil
end

---Why `seat` may not take, keep, discard or play `card` now: one sentence
---for that seat, or nil (no reason to give; the REPL then lists the moves).
function rules.why_not(game, seat, card)
  local v = game.vars
  local c = game.cards[card]
  if c == nil then return nil end
  if v.game_over then return "the game is over" end
  if v.turn ~= seat then return "it is not your turn" end
  local name = c.name
  local phase = v.phase
  if phase == "take" then
    if holds(game, seat, "hand", card) then
      return "you hold " .. name .. " already; first take a card: draw two from the deck" .. tops_text(game)
    end
    return "you may draw two from the deck" .. tops_text(game) .. " (only a pile's top card may be taken)"
  elseif phase == "keep" then
    local drawn = {}
    local z = game:zone("drawn cards", seat)
    for i = 1, #z do drawn[#drawn + 1] = card_name(game, z[i]) end
    return "keep one of the cards you drew: " .. util.and_list(drawn)
  elseif phase == "discard" then
    local z = game:zone("drawn cards", seat)
    return "discard the card you did not keep, " .. card_name(game, z[#z]) .. ", onto a pile"
  elseif phase == "play" then
    if not holds(game, seat, "hand", card) then
      return "duo pairs are played from your hand, and you do not hold " .. name
    end
    local kind = rules.KINDS[c.kind]
    if kind.category ~= "duo" then
      return name .. " is not a duo card: it scores where it is, in your hand ("
        .. kind.category .. " cards are never played)"
    end
    return no_pair(game, seat, card)
  elseif phase == "crab_pile" then
    return "first choose which discard pile to look through"
  elseif phase == "crab_pick" then
    return "take a card of " .. rules.PILES[v.crab_pile] .. ", the pile you look through"
  elseif phase == "steal" then
    return "first choose whom to steal from"
  end
  return nil
end

---The round count of `result`, without building it (the search bots ask
---after every move of a playout).
function rules.rounds(game)
  return game.vars.round or 0
end

function rules.result(game)
  local v = game.vars
  return { scores = copy_array(v.scores), winners = copy_array(v.winners or {}), rounds = v.round }
end

---How good the position is for `seat`, from 0 to 1, for search bots (the
---`mc` bot stops its playouts at the end of a round and asks this): 0.5
---plus the lead over the best other seat as a share of the target (behind
---by a whole target: 0; ahead by one: 1). Once the game is over: 1 for a
---win (shared by k: 1/k), else 0.
function rules.evaluate(game, seat)
  local v = game.vars
  if v.game_over then return util.win_share(v.winners, seat) end
  local best = nil
  for s = 1, game.seats do
    if s ~= seat and (best == nil or v.scores[s] > best) then best = v.scores[s] end
  end
  local lead = (v.scores[seat] - (best or 0)) / v.target
  return math.max(0, math.min(1, 0.5 + lead))
end

---------------------------------------------------------------------------
-- Status lines (REPL)
---------------------------------------------------------------------------

function rules.scores_text(game)
  local v = game.vars
  local parts = {}
  for s = 1, game.seats do parts[s] = who(s) .. " " .. v.scores[s] end
  return table.concat(parts, ", ") .. " of " .. v.target
end

function rules.status(view)
  local v = view.vars
  local me = view.seat
  local lines = {}
  lines[1] = "Round " .. v.round .. ", started by " .. who(v.first)
  lines[2] = "Scores: " .. rules.scores_text(view)
  local mine = rules.cards_of(view, me)
  local p = rules.score_parts(view, mine)
  lines[3] = "Your points: " .. p.total .. " (duos " .. p.duos .. ", collectors " .. p.collectors
    .. ", multipliers " .. p.multipliers .. ", mermaids " .. p.mermaids .. "); colour bonus "
    .. rules.colour_bonus(view, mine)
  -- A LAST CHANCE in progress (the call of a round that has been scored,
  -- which ended the game, is in "Last round" below).
  if v.call ~= nil and v.call.kind == "last_chance" and not v.game_over then
    local left = {}
    for i, s in ipairs(v.final_turns) do left[i] = who(s) end
    lines[#lines + 1] = who(v.call.seat) .. " called LAST CHANCE with " .. v.call.points .. " points; final turns: "
      .. (#left > 0 and table.concat(left, ", ") or "none")
    local prot = {}
    for s = 1, view.seats do
      if v.revealed[s] then prot[#prot + 1] = who(s) end
    end
    lines[#lines + 1] = "Revealed, protected from the shark: " .. table.concat(prot, ", ")
  end
  if v.mermaid_win then
    lines[#lines + 1] = who(v.mermaid_win) .. " placed the " .. rules.MERMAIDS_TO_WIN .. " mermaids and wins"
  end
  local lr = v.last_round
  if lr ~= nil then
    local parts = {}
    for s = 1, view.seats do parts[s] = who(s) .. " +" .. (lr.gained[s] or 0) end
    local how = lr.ending == "empty_deck" and "deck ran out, no scoring"
      or lr.ending == "stop" and ("STOP by " .. who(lr.caller))
      or ("LAST CHANCE by " .. who(lr.caller) .. ", bet " .. (lr.bet_won and "won" or "lost"))
    lines[#lines + 1] = "Last round (" .. how .. "): " .. table.concat(parts, ", ")
  end
  return lines
end

---------------------------------------------------------------------------
-- Bots
---------------------------------------------------------------------------

-- Greedy: values a card by how much it raises the bot's card points now,
-- plus a little for what it may lead to (half a duo pair, a first shell,
-- octopus or sailor, a multiplier waiting for its cards, a completed pair's
-- effect). It takes the better of the discard tops and the expected value of
-- a draw, keeps the better drawn card, always plays its duo pairs (steal,
-- crabs and fish before boats), and once it has CALL_MIN points it ends the
-- round: LAST CHANCE when it is clearly ahead of every opponent's estimate
-- (their visible cards plus a guess per hidden card), else STOP. It decides
-- from its seat's view only.

rules.GREEDY = {
  draw_value = 1.0,        -- expected gain of drawing two and keeping one
  half_pair = 0.4,         -- a duo card that waits for its partner
  first_collector = 0.5,   -- a first shell or octopus (worth 0 alone)
  first_sailor = 1.0,      -- a first sailor (worth 0 alone, 5 with two)
  lone_multiplier = 0.4,   -- a multiplier with nothing to multiply yet
  effect = { crab = 0.8, boat = 0.6, fish = 0.6, shark = 0.8 },
  hidden_card = 0.9,       -- guessed points of each card in an opponent's hand
  lead_for_last_chance = 2, -- how far ahead to bet with LAST CHANCE
}

-- How many cards of each kind are in `cards` (0 when none), in `into` (a
-- table of an earlier call, filled again) or a new table.
local function kinds_of(view, cards, into)
  local k = into and zero_counts(into) or no_kinds()
  for i = 1, #cards do
    local kind = view.cards[cards[i]].kind
    k[kind] = (k[kind] or 0) + 1
  end
  return k
end

-- The cards of `mine` and one more, in a list reused from call to call
-- (the greedy bot values every option this way, in every move of the
-- search's playouts): the entries past the end are cleared, so that its
-- length is exactly #mine + 1.
local WITH = {}
local function with_card(mine, card)
  local n = #mine
  for i = 1, n do WITH[i] = mine[i] end
  WITH[n + 1] = card
  return util.cut(WITH, n + 1)
end

---How much `card` is worth to a seat holding `mine` (its counted cards).
---`base` (the card points of `mine`) and `have` (the kinds of `mine`, as
---counted by kinds_of) are computed when not given; a bot valuing several
---cards against the same `mine` passes them. `counted` (optional): the
---kinds and colours of `mine` as the game's own rules.count counts them,
---{ kinds = ..., colours = ... }: while the scoring is the game's own (see
---own_scoring), `mine` with `card` is scored from them instead of being
---counted again. Otherwise the list of cards with `card` that
---rules.card_points receives is reused from one call to the next.
function rules.greedy_value(view, mine, card, base, have, counted)
  local G = rules.GREEDY
  base = base or rules.card_points(view, mine)
  local with
  if counted ~= nil and own_scoring() then
    with = counted_points(view, counted.kinds, counted.colours, card)
  else
    with = rules.card_points(view, with_card(mine, card))
  end
  local value = with - base
  local kind = view.cards[card].kind
  have = have or kinds_of(view, mine)
  for _, d in ipairs(rules.DUOS) do
    local a, b = d.kinds[1], d.kinds[2]
    if kind == a or kind == b then
      local other = (kind == a) and b or a
      local partner = (a == b) and ((have[a] or 0) % 2 == 1) or ((have[other] or 0) > (have[kind] or 0))
      if partner then
        value = value + (G.effect[d.id] or 0)
      else
        value = value + G.half_pair
      end
    end
  end
  local n = have[kind] or 0
  if (kind == "shell" or kind == "octopus") and n == 0 then value = value + G.first_collector end
  if kind == "sailor" and n == 0 then value = value + G.first_sailor end
  local m = rules.MULTIPLIERS[kind]
  if m and (have[m.kind] or 0) == 0 then value = value + G.lone_multiplier end
  return value
end

-- The zones of an opponent the greedy bot sees whole.
local VISIBLE_ZONES = { "duos", "open hand" }

---Guessed card points of an opponent: what is visible, plus a guess per
---hidden card.
function rules.greedy_estimate(view, seat)
  local visible = {}
  for k = 1, #VISIBLE_ZONES do
    local z = view:zone(VISIBLE_ZONES[k], seat)
    for i = 1, #z do visible[#visible + 1] = z[i] end
  end
  local hand = view:zone("hand", seat)
  local hidden = hand.count or #hand
  return rules.card_points(view, visible) + hidden * rules.GREEDY.hidden_card
end

local DUO_ORDER = { shark = 1, crab = 2, fish = 3, boat = 4 }

-- How the greedy bot rates option `o` in `phase` (nil: not at all); the
-- best rated is chosen. A function of its own rather than one made per
-- decision: LuaJIT does not compile code that makes functions, and the
-- search bots play their playouts with this bot.
local function greedy_score(view, phase, o, mine, base, have, counted)
  if phase == "take" then
    if o.act == "draw" then return rules.GREEDY.draw_value end
    return rules.greedy_value(view, mine, o.card, base, have, counted)
  elseif phase == "keep" or phase == "crab_pick" then
    return rules.greedy_value(view, mine, o.card, base, have, counted)
  elseif phase == "discard" then
    -- Cover the top that is worth more (to anyone, as far as the bot can tell).
    local z = view:zone(rules.PILES[o.pile])
    local top = z.top or z[#z]
    if top == nil then return 0 end
    return rules.greedy_value(view, mine, top, base, have, counted)
  elseif phase == "crab_pile" then
    return view:zone(rules.PILES[o.pile]).count or #view:zone(rules.PILES[o.pile])
  elseif phase == "steal" then
    local z = view:zone("hand", o.seat)
    return (z.count or #z) * 100 + view.vars.scores[o.seat]
  end
  return nil
end

-- The bot's tables, filled again at each decision it scores: its cards,
-- the kinds it holds (with a house rule's scoring), and the counts of its
-- cards by the game's own rules.count (`counted` of rules.greedy_value:
-- its kinds are also the kinds it holds). After a decision the counts of
-- its cards are set back to 0; a decision stopped by an error (util.safe_bot
-- catches it) leaves them `counts_dirty`, and the next one sets every
-- count back to 0 first.
local MINE = {}
local HAVE = no_kinds()
local COUNTED = { kinds = no_kinds(), colours = no_colours() }
local counts_dirty = false

local SCORED = { take = true, keep = true, crab_pick = true, discard = true, crab_pile = true, steal = true }

local function greedy_choice(view, decision)
  local opts = decision.options
  if #opts <= 1 then return 1 end
  local me = view.seat
  local phase = view.vars.phase
  if SCORED[phase] then
    local mine = rules.cards_of(view, me, MINE)
    local base, have, counted
    if own_scoring() then
      -- Counted once; each option is scored from the counts (counted_points).
      local kinds, colours = COUNTED.kinds, COUNTED.colours
      if counts_dirty then
        zero_counts(kinds)
        zero_counts(colours)
      end
      counts_dirty = true
      rules.count(view, mine, kinds, colours)
      base = counted_points(view, kinds, colours, nil)
      have, counted = kinds, COUNTED
    else
      base = rules.card_points(view, mine)
      have = kinds_of(view, mine, HAVE)
    end
    local bi, bs = 1, nil
    for i = 1, #opts do
      local s = greedy_score(view, phase, opts[i], mine, base, have, counted)
      if s ~= nil and (bs == nil or s > bs) then bi, bs = i, s end
    end
    if counted then
      local cards, kinds, colours = view.cards, COUNTED.kinds, COUNTED.colours
      for i = 1, #mine do
        local c = cards[mine[i]]
        kinds[c.kind], colours[c.color] = 0, 0
      end
      counts_dirty = false
    end
    return bi
  elseif phase == "play" then
    local duo, duo_rank = nil, nil
    local stop, last_chance, end_turn = nil, nil, nil
    for i = 1, #opts do
      local o = opts[i]
      local act = o.act
      if act == "duo" then
        local r = DUO_ORDER[o.duo] or 9
        if duo_rank == nil or r < duo_rank then duo, duo_rank = i, r end
      elseif act == "stop" then
        stop = i
      elseif act == "last_chance" then
        last_chance = i
      elseif act == "end" then
        end_turn = i
      end
    end
    if duo then return duo end
    if stop then
      local base = rules.card_points(view, rules.cards_of(view, me, MINE))
      local est = 0
      for s = 1, view.seats do
        if s ~= me then est = math.max(est, rules.greedy_estimate(view, s)) end
      end
      if base >= est + rules.GREEDY.lead_for_last_chance then return last_chance end
      return stop
    end
    return end_turn or 1
  end
  return 1
end

-- The search bot (`mc`) plays its playouts with this bot: random play
-- almost never ends a round the way a player would (it rarely calls STOP or
-- LAST CHANCE at a good moment), so random playouts judge moves poorly.
rules.playout_bot = "greedy"

-- Metrics: one value per finished game, which `sim` and `compare` report
-- with intervals (docs/lab.md). The counters are kept by util.count in
-- void_round and score_round above.
rules.metrics = {
  ["rounds ended by LAST CHANCE"] = {
    share = true,
    doc = "Share of the game's rounds ended by a LAST CHANCE call (the others: STOP or an empty deck)",
    value = function(game) return util.per(game, "last_chances", "rounds") end,
  },
  ["LAST CHANCE bets lost"] = {
    share = true,
    doc = "Share of LAST CHANCE bets the caller lost (games without a LAST CHANCE call do not count)",
    value = function(game) return util.per(game, "bets_lost", "last_chances") end,
  },
  ["games won by four mermaids"] = {
    doc = "Share of games ended by a player placing all four mermaids",
    value = function(game) return game.vars.mermaid_win ~= nil end,
  },
}

rules.bots = {
  greedy = util.safe_bot(greedy_choice),
}

return rules
