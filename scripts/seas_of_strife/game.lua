--[[
Seas of Strife (Rio Grande Games, Mark Major; also published as "Texas
Showdown" and first self-published as "Strife"): a trick-AVOIDANCE game for
3-6 players. The suit with the most cards in a trick decides who takes it;
every trick taken is a penalty point; fewest points wins.

Rules: the rulebook; where it is silent, the reading used by default is
stated where it applies, with its reason. Section names in the comments
below ("Game setup", "Who takes the trick?" ...) are those of the rulebook.
These are the main ("Texas Showdown") rules; the designer's rules are
variants/strife.lua, and the "Other Variations" are variants/passing.lua and
variants/happy_faces.lua. Every reading that could go another way is a
named option, or a constant or function of the rules table that a variant or
house rule can replace (docs/seas-of-strife.md lists them all).

Cards
  60 cards in eight suits ("Components"); values are unique across the deck,
  so a card is named by its colour and number ("Orange 0", "Dark Red 74").
  Properties: name, suit (id below), value, face (true for the highest card
  of its suit: the star / Face card), color (the suit's colour, for the
  REPL), rank (1 = lowest of its suit) and of (cards in the suit), as the
  flags on the printed card show. Card ids follow the values, so a hand
  sorted by id reads Orange 0 ... Dark Red 74.

Zones
  deck         hidden  all cards between rounds (cards never dealt stay here)
  hand[seat]   owner   the seat's hand
  won[seat]    hidden  the tricks the seat took this round, face down
                       ("a single face-down pile"; how many tricks each seat
                       has is public, in vars.tricks)
  trick        public  the trick being played, in play order (bottom = led)
  pass[seat]   owner   passing variant only: the cards a seat is passing,
                       hidden from the others until the pass resolves

game.vars (plain data; a test can set a rulebook position by moving cards
and setting these):
  round            current round number (1 = first)
  hand_size        cards dealt to each seat this round
  trick_no         number of the trick being played in this round (1..)
  phase            "play" (a seat plays a card), "choose_leader" (the taker
                   of a trick picks who leads next), "pass" (passing
                   variant) or "over"
  turn             seat to decide now; nil once the game is over
  leader           seat that leads (led) the current trick
  chooser          phase "choose_leader": the seat choosing
  first_card       the card that must open the round's first trick (the 0;
                   see rules.first_card), nil once it has been played
  trick_players    who played each card of the `trick` zone, in order
  tricks           tricks taken this round, per seat
  voids            what play has shown this round (lib/trick.lua
                   note_void): voids[seat][suit] = true once the seat did
                   not follow a suit in the trick; nil until someone has
                   (read by rules.may_hold)
  played           the cards of the tricks already taken this round, in
                   order (every player saw them: bots may count them)
  last_winner      who took the previous trick (nil at round start)
  scores           penalty points per seat, all rounds so far
  end_at           penalty points that end the game (see rules.end_at)
  last_round       {round, tricks, faces, penalties} of the last scored round
  pass             passing variant: {distance, seat, count} while passing
  game_over        true once the game has ended
  winners          winning seats once the game is over

Rule API: the constants (SUITS, LEFT_OUT, HAND_SIZE, END_AT,
PENALTY_PER_TRICK) and the rule functions listed in docs/seas-of-strife.md
("Rule API") are meant to be replaced or wrapped by a variant or house rule:
every rule decision below goes through `rules.something(...)`, never a local
copy. So is `phases`, the decisions phase by phase (lib/phases.lua): each
phase's prompt, options and apply, to wrap, and new phases to add
(variants/passing.lua adds "pass"; a new key of `rules.phases` needs no
`provides`). So is why_not (why a card may not be played now, for the
REPL): a variant that changes may_play should replace it as well.
Internal: decision and apply, which go through `phases`;
`rules.trick` is read once, into the local T, so replacing it has no
effect. A variant that adds any other name to this table declares it in
its `provides` (docs/house-rules.md).
]]

local trick = require("lib.trick")
local util = require("lib.util")
local phases = require("lib.phases")

local rules = {
  id = "seas_of_strife",
  title = "Seas of Strife",
  players = { min = 3, max = 6, default = 4 },
  -- What the REPL's `rules` command prints (docs/seas-of-strife.md has the rest).
  summary = [[
A trick-avoidance game: every trick you take is a penalty point, and the
fewest points win. The lowest card in play opens each round. Play a card of
a suit already in the trick (any of them, not only the led one) if you can;
otherwise play any card. The suit with the most cards in the trick decides:
the highest card of that suit takes it (on a tie, the highest card of the
tied suits). Taking a trick with a suit's star card may let you choose who
leads next (option leader_choice). The game ends at the end of the round in
which someone reaches the penalty limit (option end_at).]],
}

---------------------------------------------------------------------------
-- Options
---------------------------------------------------------------------------

rules.options = {
  end_at = {
    default = "auto",
    min = 1, max = 200,
    doc = "Penalty points that end the game at the end of a round (\"End of a round\"): \"auto\" = "
      .. "15 with 3 or 4 players, 12 with 5, 10 with 6; or a number.",
  },
  leader_choice = {
    default = "winning_card",
    choices = { "winning_card", "any_star", "never" },
    doc = "Who may choose the next leader (\"Who leads the next trick?\"): \"winning_card\" = the taker "
      .. "of a trick won WITH the highest (star) card of its suit; \"any_star\" = the taker of any trick "
      .. "holding a star card; \"never\" = the taker always leads. (The rulebook does not say whether "
      .. "the star must be the card taking the trick; the default reads it so, any_star is the other "
      .. "reading.)",
  },
  final_tie = {
    default = "shared",
    choices = { "shared", "play_on" },
    doc = "Game end with several players tied on fewest points: \"shared\" = all tied players win; "
      .. "\"play_on\" = play more rounds until the tie is broken (\"Players may also choose to play "
      .. "additional rounds\").",
  },
}

---------------------------------------------------------------------------
-- Constants
---------------------------------------------------------------------------

-- "Components": eight suits, in ascending order of their values. `lo`..`hi`
-- are the card values; the highest (`hi`) is the star / Face card. Note the
-- gaps: there is no 30, 39-40, 48-50, 57-60 or 66-70.
rules.SUITS = {
  { id = "orange", name = "Orange", theme = "Doldrums", color = "orange", lo = 0, hi = 10 },
  { id = "red", name = "Red", theme = "Reef", color = "red", lo = 11, hi = 20 },
  { id = "gray", name = "Gray", theme = "Fog", color = "gray", lo = 21, hi = 29 },
  { id = "blue", name = "Blue", theme = "Iceberg", color = "blue", lo = 31, hi = 38 },
  { id = "green", name = "Green", theme = "Rocks", color = "green", lo = 41, hi = 47 },
  { id = "purple", name = "Purple", theme = "Storm", color = "purple", lo = 51, hi = 56 },
  { id = "teal", name = "Teal", theme = "Whirlpool", color = "teal", lo = 61, hi = 65 },
  { id = "darkred", name = "Dark Red", theme = "Kraken", color = "darkred", lo = 71, hi = 74 },
}

-- "Game setup": suits left in the box by player count ("In a 3-player game,
-- leave out the orange (doldrums) and dark red (Kraken) cards").
rules.LEFT_OUT = { [3] = { orange = true, darkred = true } }

-- "For 3 or 4 players, each player should have 15 cards; 5 players should
-- have 12 cards each; 6 players should have 10 cards each." (rules.hand_size
-- never deals more than the deck allows: the Strife 3-player deck of 30
-- cards gives 10 each.)
rules.HAND_SIZE = { [3] = 15, [4] = 15, [5] = 12, [6] = 10 }

-- "Keep playing rounds until at least one player has reached or exceeded a
-- certain number of penalty points at the end of a round: 3 or 4 players:
-- 15 points | 5 players: 12 points | 6 players: 10 points".
rules.END_AT = { [3] = 15, [4] = 15, [5] = 12, [6] = 10 }

-- "Each player scores 1 penalty point for each trick they have taken."
rules.PENALTY_PER_TRICK = 1

-- The shared trick mechanics. Taken tricks go straight to the taker's
-- face-down pile: the rulebook has no "look at the last trick" rule (the
-- trick_won event and the REPL still show its cards as it is taken).
local T = trick.new { keep_last = false, tricks_var = "tricks" }
rules.trick = T

---------------------------------------------------------------------------
-- Small helpers
---------------------------------------------------------------------------

local function who_name(seat)
  return "P" .. tostring(seat)
end

---The name of a suit id ("Dark Red").
function rules.suit_name(suit)
  for _, s in ipairs(rules.SUITS) do
    if s.id == suit then return s.name end
  end
  return tostring(suit)
end

local card_name, names, copy_array, zeros = util.card_name, util.names, util.copy_array, util.zeros

---------------------------------------------------------------------------
-- Deck and setup
---------------------------------------------------------------------------

---The suit specs in play for this player count, in ascending order.
function rules.suits_in_play(game)
  local out = {}
  local left_out = rules.LEFT_OUT[game.seats] or {}
  for _, s in ipairs(rules.SUITS) do
    if not left_out[s.id] then out[#out + 1] = s end
  end
  return out
end

---Define the cards of the suits in play (ascending values, so ids sort the
---way a hand reads) into the deck zone. Left-out suits are not created:
---they stay in the box.
function rules.create_deck(game)
  local deck = game:new_zone("deck", { visibility = "hidden" })
  for _, s in ipairs(rules.suits_in_play(game)) do
    local size = s.hi - s.lo + 1
    for value = s.lo, s.hi do
      local id = game:new_card {
        name = s.name .. " " .. value,
        suit = s.id,
        value = value,
        face = (value == s.hi),
        color = s.color,
        rank = value - s.lo + 1,
        of = size,
      }
      game:place(id, deck)
    end
  end
  return deck
end

---Create hands, won piles and the trick zone (a variant that needs more
---zones wraps this; zones can only be made during setup).
function rules.create_zones(game)
  T:create_zones(game)
end

---Cards dealt to each seat: rules.HAND_SIZE, or fewer if the deck is short
---("deal them out equally to all players").
function rules.hand_size(game)
  local n = game.seats
  local even = math.floor(#game:zone("deck") / n)
  local want = rules.HAND_SIZE[n] or even
  if want > even then return even end
  return want
end

---Penalty points that end the game (option end_at).
function rules.end_at(game)
  local opt = game.options.end_at
  if opt == "auto" then return rules.END_AT[game.seats] end
  local n = util.whole(opt)
  if n == nil or n < 1 then
    error("option end_at: expected \"auto\" or a whole number of points, not '" .. tostring(opt) .. "'", 0)
  end
  return n
end

---Is `card` the star / Face card (the highest of its suit)?
function rules.is_face(game, card)
  return game.cards[card].face == true
end

---The card that opens every round: "The player who has the 0 card opens the
---first trick of the round by placing it"; "In a 3-player game, the player
---who has the 11 starts the first trick by playing that card instead"; Strife
---with 3 players: "The player who has the blue (iceberg) 31 card plays the
---first card". Each is the lowest card in play, which is what this returns.
function rules.first_card(game)
  local best, best_v = nil, nil
  local cards = game.cards
  for id = 1, #cards do
    local v = cards[id].value
    if best_v == nil or v < best_v then best, best_v = id, v end
  end
  return best
end

---------------------------------------------------------------------------
-- Following and taking tricks
---------------------------------------------------------------------------

---May `seat` play `card` now? "The cards played must be the same suit as a
---card already in the trick, if possible" (any of the suits present, not
---only the led one: Example trick 2, "Anna must now either play a purple
---(storm) or a red (reef) card"). "If a player cannot play a card in a
---matching suit, they may play any card." The first trick of a round must
---be opened with rules.first_card. `holds` (optional): does the seat hold a
---suit of the trick (worked out once per decision).
function rules.may_play(game, seat, card, holds)
  local first = game.vars.first_card
  if first ~= nil and #T:cards(game) == 0 then return card == first end
  return T:may_follow_any(game, seat, card, holds, "suit")
end

---Why `seat` may not play `card` now, one sentence for that seat (the REPL
---prints it when a person names a card that is not one of their moves);
---nil when it may. It reads only what the seat knows: its own hand and the
---public trick. A variant that changes may_play should replace it too.
function rules.why_not(game, seat, card)
  local v = game.vars
  if game.cards[card] == nil then return nil end
  local basic = util.why_not_basics(game, seat, card, T:in_hand(game, seat, card))
  if basic then return basic end
  if v.phase ~= "play" then return "this is not the time to play a card" end
  if rules.may_play(game, seat, card) then return nil end
  local first = v.first_card
  if first ~= nil and #T:cards(game) == 0 then
    return "the round must be opened with " .. card_name(game, first)
  end
  -- "The cards played must be the same suit as a card already in the trick,
  -- if possible": any suit present, not only the led one.
  local present, suits = {}, {}
  local trick_cards = T:cards(game)
  for i = 1, #trick_cards do
    local suit = game.cards[trick_cards[i]].suit
    if not present[suit] then
      present[suit] = true
      suits[#suits + 1] = rules.suit_name(suit)
    end
  end
  local held = util.held_names(game, seat, function(c) return present[game.cards[c].suit] end)
  return "you must play a suit already in the trick (" .. util.and_list(suits) .. "): you hold "
    .. util.and_list(held)
end

---How much each suit of `cards` counts towards "the suit with the most
---cards in the trick": suit -> count. The Strife variant zeroes suits here.
function rules.suit_counts(game, cards)
  return trick.group_counts(game, cards, "suit")
end

local function value_rank(game, card)
  return game.cards[card].value
end

---Index of the play that takes the trick among `cards` (default: the trick
---zone), and the winning count. "Figure out which suit has the most cards in
---the trick. The player who played the highest-ranked card of that suit
---takes the trick. If two or more suits are tied for most cards in the
---trick, the player who played the highest card of any of the tied colors
---takes the trick." (If rules.suit_counts counts no suit, as when Strife
---zeroes them all, the highest card of the trick wins.)
function rules.trick_winner(game, cards)
  cards = cards or T:cards(game)
  return trick.majority_index(game, cards, value_rank, rules.suit_counts(game, cards), "suit")
end

---May the taker of this trick choose who leads next? "If a player takes a
---trick with the highest-ranked card of a particular suit, they may decide
---which player opens the next trick. They may, of course, pick themselves."
---Option leader_choice: the winning card is a star (default), any star is
---in the trick, or never. `wcard` is the winning card, `cards` the trick.
function rules.may_choose_leader(game, winner, wcard, cards)
  local mode = game.options.leader_choice
  if mode == "winning_card" then return rules.is_face(game, wcard) end
  if mode == "any_star" then
    for i = 1, #cards do
      if rules.is_face(game, cards[i]) then return true end
    end
  end
  return false
end

---Put `card` from `seat`'s hand into the trick.
function rules.play_card(game, seat, card)
  local v = game.vars
  if v.first_card == card then v.first_card = nil end
  local tz = T:cards(game)
  if #tz > 0 and not T:trick_has(game, game.cards[card].suit) then
    -- Not following: the player holds none of the suits in the trick ("must
    -- play a card of a suit already present ... if they can"); search bots
    -- use this (rules.may_hold).
    for i = 1, #tz do T:note_void(game, seat, game.cards[tz[i]].suit) end
  end
  T:play(game, seat, card)
end

---May `seat` hold `card`, as far as play has shown (search bots deal the
---hidden cards accordingly)? Not a suit it failed to follow this round.
function rules.may_hold(game, seat, card)
  return T:may_hold(game, seat, card)
end

---Resolve the complete trick: the taker puts it in their pile; then the
---next leader (the taker, or whoever they choose), or the round ends.
function rules.finish_trick(game)
  local v = game.vars
  local cards = T:cards(game)
  local players = copy_array(T:players(game))
  local i, most = rules.trick_winner(game, cards)
  local winner, wcard = players[i], cards[i]
  local taken = T:collect(game, winner)
  local played = v.played
  for k = 1, #taken do played[#played + 1] = taken[k] end
  v.last_winner = winner
  local over = rules.round_over(game)
  -- No choice after the last trick: the next round is opened by the holder
  -- of rules.first_card whatever happens.
  local chooses = (not over) and rules.may_choose_leader(game, winner, wcard, taken)
  -- Metrics (rules.metrics, below): tricks, tricks where two or more suits
  -- tied for the most cards, tricks whose taker chooses the next leader.
  util.count(game, "tricks")
  if most > 0 then
    local tied = 0
    for _, c in pairs(rules.suit_counts(game, taken)) do
      if c == most then tied = tied + 1 end
    end
    if tied > 1 then util.count(game, "tied_tricks") end
  end
  if chooses then util.count(game, "leader_choices") end
  if game.logging then
    local suit = game.cards[wcard].suit
    local text -- only when read (game.words is false for a trace)
    if game.words then
      local why
      if most == 0 then
        why = "every suit zeroed, the highest card"
      else
        why = most .. " " .. rules.suit_name(suit)
      end
      local parts = {}
      for k = 1, #taken do parts[k] = card_name(game, taken[k]) .. " (" .. who_name(players[k]) .. ")" end
      text = who_name(winner) .. " takes trick " .. v.trick_no .. " with " .. card_name(game, wcard)
        .. " (" .. why .. "): " .. table.concat(parts, ", ")
        .. (chooses and ("; " .. who_name(winner) .. " chooses who leads next") or "")
    end
    game:event("trick_won", {
      winner = winner, cards = taken, players = players, card = wcard,
      suit = (most > 0) and suit or nil, count = most,
      round = v.round, trick = v.trick_no, chooses = chooses,
      tricks = copy_array(v.tricks),
      text = text,
    })
  end
  v.trick_no = v.trick_no + 1
  if over then
    rules.end_round(game)
  elseif chooses then
    v.phase = "choose_leader"
    v.chooser = winner
    v.turn = winner
  else
    -- "As a general rule, the player who takes a trick always opens the next one."
    rules.set_leader(game, winner)
  end
end

---Make `seat` lead the next trick.
function rules.set_leader(game, seat)
  local v = game.vars
  T:set_leader(game, seat)
  v.phase = "play"
  v.chooser = nil
  v.turn = seat
end

---Is the round over ("When all cards have been played out of each player's
---hand")?
function rules.round_over(game)
  for s = 1, game.seats do
    if #T:hand_of(game, s) > 0 then return false end
  end
  return true
end

---------------------------------------------------------------------------
-- Scoring and the end of the game
---------------------------------------------------------------------------

---How many star / Face cards `seat` took this round.
function rules.faces_won(game, seat)
  local n = 0
  T:each_won(game, seat, function(card)
    if rules.is_face(game, card) then n = n + 1 end
  end)
  return n
end

---Penalty points of `seat` for this round: "1 penalty point for each trick
---they have taken". (Happy Faces wraps this.)
function rules.round_penalty(game, seat, tricks)
  return tricks * rules.PENALTY_PER_TRICK
end
local round_penalty = rules.round_penalty

---What taking a trick made of `cards` costs its taker, in tricks, as far as
---these cards show (for bots; scoring is rules.round_penalty): 1. Variants
---that make some cards worth having (Happy Faces) lower it.
function rules.trick_cost(game, cards)
  return 1
end

---Score the round, then end the game or deal the next round.
function rules.end_round(game)
  local v = game.vars
  local n = game.seats
  local tricks, faces, pens = copy_array(v.tricks), {}, {}
  for s = 1, n do
    faces[s] = rules.faces_won(game, s)
    pens[s] = rules.round_penalty(game, s, tricks[s])
    v.scores[s] = v.scores[s] + pens[s]
    -- What the rules gave, for rules.invariants (below).
    util.count(game, "penalty points of P" .. s, pens[s])
  end
  v.last_round = { round = v.round, tricks = tricks, faces = faces, penalties = pens }
  -- Metric: rounds where some player took no trick.
  util.count(game, "rounds")
  for s = 1, n do
    if tricks[s] == 0 then
      util.count(game, "trickless_rounds")
      break
    end
  end
  if game.logging then
    local parts = {}
    for s = 1, n do
      local why = tricks[s] .. (tricks[s] == 1 and " trick" or " tricks")
      if pens[s] ~= tricks[s] * rules.PENALTY_PER_TRICK and faces[s] > 0 then
        why = why .. ", " .. faces[s] .. (faces[s] == 1 and " Face card" or " Face cards")
      end
      parts[s] = who_name(s) .. " +" .. pens[s] .. " (" .. why .. ") = " .. v.scores[s]
    end
    game:event("round_scored", {
      round = v.round, tricks = tricks, faces = faces, penalties = copy_array(pens),
      scores = copy_array(v.scores),
      text = "Round " .. v.round .. ": " .. table.concat(parts, ", "),
    })
  end
  local winners = rules.game_winners(game)
  if winners then
    rules.end_game(game, winners)
  else
    rules.start_round(game)
  end
end

---The winners if the game is over, else nil: the game ends when someone has
---reached or exceeded the end score; "The player with the fewest points
---wins! If there is a tie, all tied players have won" (option final_tie:
---"play_on" plays more rounds until the tie is broken).
function rules.game_winners(game)
  local v = game.vars
  local reached = false
  for s = 1, game.seats do
    if v.scores[s] >= v.end_at then reached = true end
  end
  if not reached then return nil end
  local out = util.best(util.range(game.seats), function(s) return v.scores[s] end, true)
  if #out > 1 and game.options.final_tie == "play_on" then return nil end
  return out
end

---End the game with these winners.
function rules.end_game(game, winners)
  local v = game.vars
  v.winners = copy_array(winners)
  v.game_over = true
  v.phase = "over"
  v.turn = nil
  if game.logging then
    local parts = {}
    for i, s in ipairs(winners) do parts[i] = who_name(s) end
    local sc = {}
    for s = 1, game.seats do sc[s] = who_name(s) .. " " .. v.scores[s] end
    -- The game ends only when a score reaches the end score; the fewest
    -- penalty points win, several tied on fewest share the win.
    game:event("game_over", {
      winners = copy_array(winners), scores = copy_array(v.scores), rounds = v.round,
      ended_by = "end_score", decided_by = (#winners > 1) and "shared" or "fewest_points",
      text = table.concat(parts, " and ") .. ((#winners > 1) and " share the win" or " wins the game")
        .. " (penalty points: " .. table.concat(sc, ", ") .. ")",
    })
  end
end

---------------------------------------------------------------------------
-- Rounds
---------------------------------------------------------------------------

---Gather, shuffle and deal a new round ("start the next one by reshuffling
---and dealing the cards as before"), then rules.after_deal.
function rules.start_round(game)
  local v = game.vars
  local deck = game:zone("deck")
  v.round = v.round + 1
  T:gather(game, deck)
  game:shuffle(deck)
  local size = rules.hand_size(game)
  v.hand_size = size
  T:deal(game, deck, 1, size)
  v.trick_no = 1
  v.played = {}
  v.last_winner = nil
  if game.logging then
    game:event("round_started", {
      round = v.round, hand_size = size,
      text = game.words and ("Round " .. v.round .. ": " .. size .. " cards each") or nil,
    })
  end
  rules.after_deal(game)
end

---What happens between the deal and the first lead (the passing variant
---passes cards here).
function rules.after_deal(game)
  rules.begin_play(game)
end

---The holder of rules.first_card leads it.
function rules.begin_play(game)
  local v = game.vars
  local first = rules.first_card(game)
  local seat = T:holder(game, first)
  if seat == nil then error("no seat holds " .. card_name(game, first) .. ", which opens the round", 0) end
  v.first_card = first
  if game.logging then
    -- reveal: the rules have the holder show the card (see the conformance
    -- suite in docs/architecture.md).
    game:event("first_lead", {
      seat = seat, card = first, reveal = true,
      text = game.words and (who_name(seat) .. " holds " .. card_name(game, first) .. " and opens the round with it")
        or nil,
    })
  end
  rules.set_leader(game, seat)
end

---------------------------------------------------------------------------
-- Decisions, phase by phase (lib/phases.lua): game.vars.phase names the
-- entry of rules.phases ("play", "choose_leader"; the passing variant adds
-- "pass").
---------------------------------------------------------------------------

rules.phases = {}

local PROMPT_FIRST = "Open the round"
local PROMPT_LEAD = "Lead a card"
local PROMPT_FOLLOW = "Play a card (a suit already in the trick if you can)"

-- A seat plays a card: "a card of a suit already present in the trick ... if
-- they can" (rules.may_play); the round opens with rules.first_card.
rules.phases.play = {
  prompt = function(game)
    if #T:cards(game) > 0 then return PROMPT_FOLLOW end
    return (game.vars.first_card ~= nil) and PROMPT_FIRST or PROMPT_LEAD
  end,
  options = function(game, seat)
    local holds = nil
    if #T:cards(game) > 0 then holds = T:holds_trick_prop(game, seat, "suit") end
    return T:options(game, seat, rules.may_play, holds)
  end,
  apply = function(game, seat, action)
    local card = type(action) == "table" and action.card or nil
    if type(card) ~= "number" or game.cards[card] == nil or action.pass then
      error("expected an option {card = id}, got " .. tostring(action), 0)
    end
    if not T:in_hand(game, seat, card) then
      error(card_name(game, card) .. " is not in " .. who_name(seat) .. "'s hand", 0)
    end
    if not rules.may_play(game, seat, card) then
      if game.vars.first_card ~= nil then
        error("the round must be opened with " .. card_name(game, game.vars.first_card), 0)
      end
      error(card_name(game, card) .. ": you must play a suit already in the trick", 0)
    end
    rules.play_card(game, seat, card)
    if T:complete(game, game.seats) then
      rules.finish_trick(game)
    else
      game.vars.turn = T:next_player(game, game.seats)
    end
  end,
}

-- Leader options, one shared table per seat: {seat = s, text = "P3 leads"}.
local LEAD_OPTION = {}
local function lead_option(seat)
  local o = LEAD_OPTION[seat]
  if o == nil then
    o = { seat = seat, text = who_name(seat) .. " leads" }
    LEAD_OPTION[seat] = o
  end
  return o
end

-- "Who leads the next trick?": the taker chooses (rules.may_choose_leader)
-- any seat, themselves first, then clockwise.
rules.phases.choose_leader = {
  seat = function(game) return game.vars.chooser end,
  prompt = "You took the trick: choose who leads the next one, yourself included",
  options = function(game, me)
    local opts = {}
    local s = me
    for i = 1, game.seats do
      opts[i] = lead_option(s)
      s = game:next_seat(s)
    end
    return opts
  end,
  apply = function(game, seat, action)
    local who = type(action) == "table" and util.whole(action.seat) or nil
    if who == nil or who < 1 or who > game.seats then
      error("expected an option {seat = n} with a seat 1.." .. game.seats .. ", got " .. tostring(action), 0)
    end
    if game.logging then
      game:event("leader_chosen", {
        chooser = seat, seat = who,
        text = game.words and (who_name(seat) .. " chooses "
          .. (who == seat and "to lead" or (who_name(who) .. " to lead"))) or nil,
      })
    end
    rules.set_leader(game, who)
  end,
}

---------------------------------------------------------------------------
-- GameScript entry points
---------------------------------------------------------------------------

function rules.setup(game)
  local v = game.vars
  rules.create_deck(game)
  rules.create_zones(game)
  v.scores = zeros(game.seats)
  v.end_at = rules.end_at(game)
  v.round = 0
  v.game_over = false
  v.winners = {}
  rules.start_round(game)
end

function rules.decision(game)
  if game.vars.game_over then return nil end
  return phases.decision(rules, game)
end

function rules.apply(game, seat, action)
  local v = game.vars
  if v.game_over then error("the game is over", 0) end
  if seat ~= v.turn then
    error("it is " .. who_name(v.turn) .. "'s turn, not " .. who_name(seat) .. "'s", 0)
  end
  phases.apply(rules, game, seat, action)
end

---An option in words: the card ("Orange 10 ★" for a star card), with "takes
---the trick so far" when it would; or the leader option's text. (The
---passing variant adds its pass options.)
function rules.describe(game, action)
  if type(action) ~= "table" then return tostring(action) end
  local card = action.card
  local c = card and game.cards[card]
  if c == nil then
    if action.text then return tostring(action.text) end
    return tostring(action)
  end
  local name = c.name
  if c.face then name = name .. " ★" end
  local v = game.vars
  -- Only a card still in the hand of the seat to play gets the mark:
  -- describe may also be asked about an action in the past.
  if v.phase ~= "play" or v.turn == nil or not T:in_hand(game, v.turn, card) then return name end
  local tz = T:cards(game)
  if #tz == 0 then return name end
  local cards = copy_array(tz)
  cards[#cards + 1] = card
  if rules.trick_winner(game, cards) == #cards then
    return name .. " (takes the trick so far)"
  end
  return name
end

-- rules.rounds and rules.result: the round count, and the penalty points
-- and winners in game.vars (lib/util.lua).
util.install_result(rules)

---Lines under the table in the REPL.
function rules.status(view)
  local v = view.vars
  local n = view.seats
  local lines = {}
  local head
  if (v.trick_no or 0) > (v.hand_size or 0) then
    -- The round's last trick is over (the end of the game): no trick
    -- "16 of 15".
    head = "Round " .. tostring(v.round) .. ", all " .. tostring(v.hand_size) .. " tricks played"
  else
    head = "Round " .. tostring(v.round) .. ", trick " .. tostring(v.trick_no) .. " of " .. tostring(v.hand_size)
  end
  if v.phase == "choose_leader" then
    head = head .. "   " .. who_name(v.chooser) .. " chooses who leads next"
  elseif v.phase == "pass" and v.pass then
    local c, d = v.pass.count, v.pass.distance
    head = head .. "   Passing " .. c .. (c == 1 and " card " or " cards ") .. d
      .. (d == 1 and " seat" or " seats") .. " to the left"
  elseif v.leader then
    head = head .. "   Leader: " .. who_name(v.leader)
  end
  lines[#lines + 1] = head
  local tz = view:zone("trick")
  if #tz > 0 then
    local counts = rules.suit_counts(view, tz)
    local raw = trick.group_counts(view, tz, "suit")
    local parts = {}
    for _, s in ipairs(rules.SUITS) do
      local k = raw[s.id]
      if k then
        local c = counts[s.id] or 0
        -- "2 Orange": how many cards of the suit (not a card's value).
        parts[#parts + 1] = k .. " " .. s.name .. ((c ~= k) and (" (counts " .. c .. ")") or "")
      end
    end
    lines[#lines + 1] = "In the trick: " .. table.concat(parts, ", ")
  end
  local t, p = {}, {}
  for s = 1, n do
    t[s] = who_name(s) .. " " .. tostring(v.tricks and v.tricks[s] or 0)
    p[s] = who_name(s) .. " " .. tostring(v.scores[s])
  end
  lines[#lines + 1] = "Tricks this round: " .. table.concat(t, ", ")
  lines[#lines + 1] = "Penalty points: " .. table.concat(p, ", ") .. " (the game ends at " .. tostring(v.end_at)
    .. "; fewest wins)"
  if v.last_winner then lines[#lines + 1] = "Last trick taken by " .. who_name(v.last_winner) end
  return lines
end

---------------------------------------------------------------------------
-- Bots
---------------------------------------------------------------------------

-- Greedy: avoid taking tricks. Every card is judged by the chance of taking
-- the trick with it, looking one card ahead: for each card the bot has not
-- seen (not in its hand, the trick or a taken trick), would that card, added
-- by a player still to come, change who takes the trick? From the share of
-- such cards and the number of players still to come it estimates the
-- chance that the bot ends up with the trick (certain when it plays last).
-- It plays the card with the lowest chance (weighed by what the trick would
-- cost, rules.trick_cost: under Happy Faces a trick holding Face cards costs
-- less, or is worth taking), less a bonus for getting rid of
-- a dangerous card (one that beats most unseen cards of its suit), so it
-- dumps high cards when that is safe and takes an unavoidable trick with its
-- worst card. It passes its most dangerous cards, and when it chooses the
-- next leader it picks the seat after its own, so that it plays last (it
-- sees the whole trick before choosing). All of it goes through the rules
-- (rules.trick_winner, rules.suit_counts), so it follows variants such as
-- Strife. Uses only the view.

-- Cards the seat has not seen: not in its hand, in the trick, or played
-- earlier this round.
local function unseen_cards(view)
  local known = {}
  local hand = view:zone("hand", view.seat)
  for i = 1, #hand do known[hand[i]] = true end
  local tz = view:zone("trick")
  for i = 1, #tz do known[tz[i]] = true end
  local played = view.vars.played or {}
  for i = 1, #played do known[played[i]] = true end
  local out = {}
  for id = 1, #view.cards do
    if not known[id] then out[#out + 1] = id end
  end
  return out
end

-- Does a Face card zero out its suit (Strife)? Asked of the rules, so a
-- house rule that changes rules.suit_counts is followed.
local function faces_zero(view)
  for id = 1, #view.cards do
    if view.cards[id].face then
      return (rules.suit_counts(view, { id })[view.cards[id].suit] or 0) == 0
    end
  end
  return false
end

-- How dangerous a card is to keep: the share of the unseen cards of its
-- suit that it beats, and a little of its value (ties between suits go to
-- the highest card). A zeroing Face card is nearly harmless.
local function danger(view, card, unseen, zeroing)
  local c = view.cards[card]
  if zeroing and c.face then return 0.1 end
  local same, lower = 0, 0
  for i = 1, #unseen do
    local u = view.cards[unseen[i]]
    if u.suit == c.suit then
      same = same + 1
      if u.value < c.value then lower = lower + 1 end
    end
  end
  local share = (same > 0) and (lower / same) or 1
  return 0.75 * share + 0.25 * (c.value / 74)
end

-- Chance that the player of the last card of `cards` (index #cards) ends up
-- taking the trick, with `after` players still to play.
local function take_chance(view, cards, unseen, after)
  local me = #cards
  local mine = rules.trick_winner(view, cards) == me
  if after <= 0 then return mine and 1 or 0 end
  local flips = 0
  local n = #cards + 1
  for i = 1, #unseen do
    cards[n] = unseen[i]
    local w = rules.trick_winner(view, cards)
    if (w == me) ~= mine then flips = flips + 1 end
  end
  cards[n] = nil
  local f = (#unseen > 0) and (flips / #unseen) or 0
  local keep = (1 - f) ^ after
  if mine then return keep end
  return 1 - keep
end

local function greedy_play(view, decision)
  local opts = decision.options
  if #opts <= 1 then return 1 end
  local unseen = unseen_cards(view)
  local zeroing = faces_zero(view)
  local tz = view:zone("trick")
  local base = {}
  for i = 1, #tz do base[i] = tz[i] end
  local after = view.seats - #tz - 1
  local best_i, best_s = 1, nil
  for i = 1, #opts do
    local card = opts[i].card
    base[#tz + 1] = card
    local p = take_chance(view, base, unseen, after)
    local cost = rules.trick_cost(view, base)
    base[#tz + 1] = nil
    local s = -p * cost + 0.35 * danger(view, card, unseen, zeroing)
    if best_s == nil or s > best_s then best_i, best_s = i, s end
  end
  return best_i
end

-- The pass (variant passing): the cards most dangerous to keep, as many
-- as the pass asks for.
local function greedy_pass(view, decision)
  local choose = decision.options[1].choose
  local unseen = unseen_cards(view)
  local zeroing = faces_zero(view)
  local ranked = {}
  for i, card in ipairs(choose.from) do
    ranked[i] = { card = card, d = danger(view, card, unseen, zeroing) }
  end
  table.sort(ranked, function(a, b)
    if a.d ~= b.d then return a.d > b.d end
    return a.card < b.card
  end)
  local cards = {}
  for i = 1, choose.max do cards[i] = ranked[i].card end
  return 1, cards
end

local function greedy_leader(view, decision)
  local want = view.seat % view.seats + 1 -- the seat after mine: I play last
  for i, o in ipairs(decision.options) do
    if o.seat == want then return i end
  end
  return 1
end

local function greedy_choice(view, decision)
  local o = decision.options[1]
  if o.seat ~= nil then return greedy_leader(view, decision) end
  if o.choose ~= nil then return greedy_pass(view, decision) end
  return greedy_play(view, decision)
end

-- Metrics: one value per finished game, which `sim` and `compare` report
-- with intervals (docs/lab.md). The counters are kept by util.count in
-- finish_trick and end_round above.
local per = util.per

rules.metrics = {
  ["tricks decided by a tie between suits"] = {
    share = true,
    doc = "Share of tricks where two or more suits tied for the most cards (the highest card of the tied suits took it)",
    value = function(game) return per(game, "tied_tricks", "tricks") end,
  },
  ["tricks where the taker chose the leader"] = {
    share = true,
    doc = "Share of tricks after which the taker chose who leads next (option leader_choice)",
    value = function(game) return per(game, "leader_choices", "tricks") end,
  },
  ["rounds where someone took no trick"] = {
    share = true,
    doc = "Share of rounds in which at least one player took no trick at all",
    value = function(game) return per(game, "trickless_rounds", "rounds") end,
  },
}

rules.bots = {
  greedy = function(view, decision)
    local ok, i, cards = pcall(greedy_choice, view, decision)
    if ok and type(i) == "number" and decision.options[i] ~= nil then return i, cards end
    -- A choice of cards needs its cards: the first ones it may take.
    local choose = decision.options[1].choose
    if choose then
      local first = {}
      for k = 1, choose.min or 0 do first[k] = choose.from[k] end
      return 1, first
    end
    return 1
  end,
}


---How good the position is for `seat`, from 0 to 1, for search bots (the
---`mc` bot stops its playouts at the end of a round and asks this): the
---share of the other seats that have more penalty points than `seat`, a tie
---counting half. Once the game is over: 1 for a win (shared by k: 1/k).
function rules.evaluate(game, seat)
  local v = game.vars
  if v.game_over then return util.win_share(v.winners, seat) end
  local mine, sum = v.scores[seat], 0
  for s = 1, game.seats do
    if s ~= seat then
      if v.scores[s] > mine then sum = sum + 1 elseif v.scores[s] == mine then sum = sum + 0.5 end
    end
  end
  return sum / (game.seats - 1)
end


---------------------------------------------------------------------------
-- Invariants (checked by the conformance suite after every step; see
-- docs/scripting.md, rules.invariants). Facts no legal play breaks.
---------------------------------------------------------------------------

---The deck is the cards of the suits in play ("Components", "Game setup").
---In a round every seat was dealt hand_size cards, the rest stay in the
---deck; each trick took one card of every seat, so the seats hold the same
---number of cards (counting a card in the trick under way; not while the
---passing variant's cards are on their way), the tricks taken add up to the
---tricks played, and a seat's pile holds its tricks. The seat choosing the
---next leader took the last trick. Every seat's penalty points are the sum
---of what the rounds gave it (rules.end_round counts them as it adds them);
---the last round scored played every card of the hands, and, under the
---game's own rules.round_penalty, gave each seat a point per trick. The
---game goes on while nobody has reached the end score; then the fewest
---points win, every seat tied on fewest sharing the win, and the last
---round scored counted the tricks and Face cards still in the piles.
function rules.invariants(game)
  local v = game.vars
  local n = game.seats
  local deck = 0
  for _, s in ipairs(rules.suits_in_play(game)) do deck = deck + s.hi - s.lo + 1 end
  if #game.cards ~= deck then return #game.cards .. " cards, where the suits in play have " .. deck end
  if v.round < 1 then return "round " .. tostring(v.round) .. " after setup" end
  local size, done = v.hand_size, v.trick_no - 1
  local undealt = #game:zone("deck")
  if undealt ~= deck - n * size then
    return undealt .. " cards in the deck, where " .. n .. " hands of " .. size .. " leave " .. (deck - n * size)
  end
  local in_trick = {}
  for _, p in ipairs(T:players(game)) do in_trick[p] = true end
  local tricks = 0
  for s = 1, n do
    tricks = tricks + v.tricks[s]
    local pile = T:won_count(game, s)
    if pile ~= v.tricks[s] * n then
      return who_name(s) .. " took " .. v.tricks[s] .. " tricks, but its pile holds " .. pile .. " cards"
    end
    if v.phase ~= "pass" then
      local held = #T:hand_of(game, s) + (in_trick[s] and 1 or 0)
      if held ~= size - done then
        return who_name(s) .. " holds " .. held .. " cards after " .. done .. " tricks of a hand of " .. size
      end
    end
  end
  if tricks ~= done then return tricks .. " tricks taken after " .. done .. " tricks played" end
  if #v.played ~= done * n then return #v.played .. " cards played in " .. done .. " tricks" end
  if v.phase == "choose_leader" and (v.chooser ~= v.last_winner or v.turn ~= v.chooser) then
    return "P" .. tostring(v.chooser) .. " chooses the leader, but " .. who_name(v.last_winner) .. " took the trick"
  end
  if #v.scores ~= n then return #v.scores .. " scores for " .. n .. " seats" end
  for s = 1, n do
    local given = util.counted(game, "penalty points of P" .. s)
    if v.scores[s] ~= given then
      return who_name(s) .. " has " .. v.scores[s] .. " penalty points, but the rounds gave " .. given
    end
  end
  local last = v.last_round
  if last ~= nil then
    local taken = 0
    for s = 1, n do taken = taken + last.tricks[s] end
    if taken ~= size then return "round " .. last.round .. " had " .. taken .. " tricks, hands of " .. size end
    if rules.round_penalty == round_penalty then
      for s = 1, n do
        if last.penalties[s] ~= last.tricks[s] * rules.PENALTY_PER_TRICK then
          return who_name(s) .. " took " .. last.tricks[s] .. " tricks in round " .. last.round .. " for "
            .. last.penalties[s] .. " penalty points"
        end
      end
    end
  end
  local fewest, most = v.scores[1], v.scores[1]
  for s = 2, n do
    fewest, most = math.min(fewest, v.scores[s]), math.max(most, v.scores[s])
  end
  if not v.game_over then
    if most >= v.end_at then
      -- Only option final_tie = "play_on" plays on, while seats tie on fewest.
      local tied = 0
      for s = 1, n do
        if v.scores[s] == fewest then tied = tied + 1 end
      end
      if game.options.final_tie ~= "play_on" or tied < 2 then
        return "a seat has " .. most .. " penalty points of " .. v.end_at .. " and the game goes on"
      end
    end
    return true
  end
  if most < v.end_at then return "the game ended with " .. most .. " penalty points at most, short of " .. v.end_at end
  -- The last round's tricks are still in the piles: it is the round scored.
  if last == nil or last.round ~= v.round then return "round " .. v.round .. " ended the game unscored" end
  for s = 1, n do
    if last.tricks[s] ~= v.tricks[s] or last.faces[s] ~= rules.faces_won(game, s) then
      return who_name(s) .. " scored " .. last.tricks[s] .. " tricks and " .. last.faces[s] .. " Face cards, and took "
        .. v.tricks[s] .. " and " .. rules.faces_won(game, s)
    end
  end
  local k = 0
  for s = 1, n do
    if v.scores[s] == fewest then
      k = k + 1
      if v.winners[k] ~= s then return who_name(s) .. " has the fewest points and is not a winner" end
    end
  end
  if #v.winners ~= k then return #v.winners .. " winners, " .. k .. " seats with the fewest points" end
  return true
end

---------------------------------------------------------------------------
-- Strengths a person may ask for at the table (`seats=human,hard,easy`):
-- the greedy bot, then a search at about 20 ms and 0.2 s of thought a move
-- (in playouts, so games replay exactly). docs/bots.md, "Which bot, per
-- game", gives the measurements behind them.
---------------------------------------------------------------------------

rules.strengths = { easy = "greedy", medium = "mc:120", hard = "ismcts:1000" }

return rules
