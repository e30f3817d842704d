--[[
Sea Change (Inside Up Games, Conor McGoey): a trick-taking game for 1-8
players where matching the value of the last card played changes trump.

Rules: the rulebook, English (EN) and French (FR) editions. Where it is
silent, the reading used by default is stated where it applies, with its
reason, and is an option or a replaceable constant (docs/sea-change.md).
Section names in the comments below ("Game play", "Round end" ...) are
those of the English rulebook.

Vocabulary used in this file
  suit   a suit id: "blue", "green", "red", "purple", "yellow" (the cards'
         `suit` and `color` properties); shown as "Blue" ...
  who    who played a card / won a trick: a seat number, or AI (= 0) for the
         automatic opponent of the solo game (the AI is not a seat).
  side   who scores Victory Points: a seat, or in team games (game.teams set,
         see variants/team.lua) a team number (index into game.teams).

Zones
  deck            hidden  all cards between rounds; in a 2-player game the
                          face-down draw pile
  hand[seat]      owner   the seat's hand
  won[seat]       hidden  cards the seat won this round, face down
  trick           public  the trick being played, in play order (bottom = led)
  last_trick      public  the previous trick ("Any player is allowed to look
                          back at the cards involved in the last trick")
  ai_stack        hidden  solo only: the AI's face-down stack (top = next card)
  ai_won          hidden  solo only: the cards won by the AI this round

game.vars (plain data; a test can set a rulebook position by moving cards
and setting these):
  solo                true in the 1-player game
  round               current round number (1 = first round)
  dealer              seat dealing this round (solo: always 1)
  trick_no            number of the trick being played in this round (1..)
  leader              who leads the current trick (solo: always AI = 0)
  turn                seat to play now; nil once the game is over
  trump               suit that is trump now; nil before the first card of a
                      round (that card sets it)
  lead                suit of the led card of the current trick; nil while
                      the trick is empty
  trick_players       who played each card of the `trick` zone, in order
  last_trick_players  who played each card of the `last_trick` zone
  last_trick_winner   who won the trick in `last_trick` (nil if none)
  voids               what play has shown this round (lib/trick.lua
                      note_void): voids[seat][suit] = true once the seat
                      played off the lead suit without a Sea Change; nil
                      until someone has (read by rules.may_hold)
  points              round points so far, per seat (array): printed card
                      points of the tricks won; the trump-0 bonus is only
                      added at round end
  ai_points           solo: the AI's round points so far
  vp                  Victory Points per side (array: per seat, or per team
                      in team games)
  ai_vp               solo: the AI's Victory Points
  targets             VP a side needs to win the game, per side (array)
  last_round          summary of the last scored round: {round, points (per
                      seat, with the trump-0 bonus), counts (cards won, per
                      seat), ai_points (solo), side_points (teams), trump,
                      zero_holder (seat, AI, or absent)}; the game-end
                      tie-breaks read zero_holder and counts
  game_over           true once the game has ended
  winners             winning seats once the game is over (solo: {1} if you
                      won, {} if the AI won)

Rule API: the constants (SUITS, SUIT_NAMES, DECKS, HAND_SIZE, POINTS,
TRUMP_ZERO_POINTS, SOLO_NEEDED_VALUE) and the rule functions listed in
docs/sea-change.md ("Rule API") are meant to be replaced or wrapped by a
variant or house rule (see scripts/house_rules/): every rule decision below
goes through `rules.something(...)`, never a local copy. The game's one
kind of decision is rules.phases.play (lib/phases.lua). rules.why_not
(why a card may not be played now, for the REPL) is a hook too: a variant
that changes may_play should replace it as well. Internal: side_name
and vp_text (status texts); `rules.trick` and `rules.AI` are read once, into
the locals T and AI, so replacing them has no effect. A variant that adds a
name to this table declares it in its `provides` (docs/house-rules.md).
]]

local trick = require("lib.trick")
local util = require("lib.util")
local phases = require("lib.phases")

local rules = {
  id = "sea_change",
  title = "Sea Change",
  players = { min = 1, max = 8, default = 4 },
  -- What the REPL's `rules` command prints (docs/sea-change.md has the rest).
  summary = [[
A trick-taking game. The first card of a round sets trump. Follow the lead
suit if you can; otherwise play any card. Playing a card of the same value
as the last card played is a Sea Change: it may break follow-suit, and its
suit becomes trump (see the option match_into_trump for a match in trump).
The highest trump wins the trick, else the highest card of the lead suit.
Cards carry printed points; at round end the 0 of the trump suit is worth
5. Round points become Victory Points; the first side to its target wins.
With 2 players each player draws a card after playing one.]],
}

---------------------------------------------------------------------------
-- Options
---------------------------------------------------------------------------

rules.options = {
  target_vp = {
    default = 3,
    min = 1, max = 20,
    doc = "Victory Points needed to win the game (\"Round end\": for a longer or shorter game, "
      .. "increase or decrease it). Team games use team_target instead.",
  },
  suits = {
    default = "auto",
    doc = "Suits used with 1-4 players (the rulebook lets players choose): \"auto\" = the first ones "
      .. "of blue, green, red, purple, yellow; or a comma-separated list such as \"red,purple,yellow\" "
      .. "(3 suits for 1-3 players, 4 for 4; 5+ players always use all five).",
  },
  match_into_trump = {
    default = true,
    doc = "A card matching the last card's value in the suit that is already trump counts as a "
      .. "Sea Change (legal even when holding the lead suit; trump stays). false: it is an "
      .. "ordinary card and must follow suit. (The rulebook is silent; the default treats it as "
      .. "any other match.)",
  },
  solo_ai_sea_change = {
    default = true,
    doc = "Solo: the AI's second card makes a Sea Change when it matches your card's value "
      .. "(the rulebook: \"Resolve according to the regular rules\", read as including the Sea "
      .. "Change).",
  },
  solo_more_points = {
    default = true,
    doc = "Solo: to win a round you need MORE points than the AI and at least one 8 (English "
      .. "rules). false: only the 8 is needed (French text).",
  },
  final_tie = {
    default = "shared",
    choices = { "shared", "play_on" },
    doc = "Game end, when the tie-breaks (trump 0, then fewest cards collected this round) "
      .. "leave several winners: \"shared\" = they share the win; \"play_on\" = play more rounds "
      .. "until one is ahead. (The rulebook is silent.)",
  },
}

---------------------------------------------------------------------------
-- Constants
---------------------------------------------------------------------------

-- The automatic opponent of the solo game: it plays cards and wins tricks
-- but is not a seat and takes no decisions.
rules.AI = 0

-- Suits in their usual order ("Card information", B). "auto" uses the first
-- ones of this list.
rules.SUITS = { "blue", "green", "red", "purple", "yellow" }
rules.SUIT_NAMES = { blue = "Blue", green = "Green", red = "Red", purple = "Purple", yellow = "Yellow" }

-- "Deck setup": suits and card values by player count, as the rulebook's
-- deck-setup chart gives them.
local BASE = { 0, 4, 5, 6, 7, 8, 9, 10, 11, 12 }
rules.DECKS = {
  [1] = { suits = 3, values = BASE },
  [2] = { suits = 3, values = BASE },
  [3] = { suits = 3, values = BASE },
  [4] = { suits = 4, values = BASE },
  [5] = { suits = 5, values = BASE },
  [6] = { suits = 5, values = { 0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13 } },
  [7] = { suits = 5, values = { 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14 } },
  [8] = { suits = 5, values = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 } },
}

-- Cards in each hand ("Hand setup"; 2 players: "deal out 10 cards to both").
rules.HAND_SIZE = 10

-- Printed points by card value, the same in every suit: table A. The
-- rulebook does not list the printed values; deckhand works them out from
-- its worked examples, and this table fits every one of them with points on
-- as few values as possible ("Only on select cards"), each suit of the base
-- deck summing to 0. A house rule may replace the whole table.
rules.POINTS = {
  [0] = 0, [1] = 0, [2] = -1, [3] = 0, [4] = 0, [5] = 0, [6] = 0, [7] = 0,
  [8] = -4, [9] = 2, [10] = 1, [11] = 0, [12] = 1, [13] = 0, [14] = 0, [15] = 3,
}

-- "During tricks, 0s are not worth any points. At the end of the round ...
-- the 0 from that [trump] suit, and only that suit, is now worth 5 points."
rules.TRUMP_ZERO_POINTS = 5

-- The card value a solo player must collect at least once per round ("Solo
-- play": "at least one card with a value of 8").
rules.SOLO_NEEDED_VALUE = 8

local AI = rules.AI

-- The shared trick mechanics; the AI's won cards go to "ai_won".
local T = trick.new {
  won_zone = function(game, who)
    if who == AI then return game:zone("ai_won") end
    return game:zone("won", who)
  end,
}
rules.trick = T

local function trick_cards(game)
  return game:zone("trick")
end

---------------------------------------------------------------------------
-- Small helpers (names for texts)
---------------------------------------------------------------------------

local function suit_name(suit)
  return rules.SUIT_NAMES[suit] or tostring(suit)
end

local function who_name(who, solo)
  if who == AI then return "the AI" end
  if solo then return "you" end
  return "P" .. tostring(who)
end

local card_name, names, copy_array, zeros = util.card_name, util.names, util.copy_array, util.zeros


---------------------------------------------------------------------------
-- Sides (who scores VP) and targets
---------------------------------------------------------------------------

-- Overridden by variants/team.lua to call game:set_teams during setup.
function rules.make_teams(game) end

local SINGLES = {}

---The scoring sides: game.teams in a team game, else one side per seat.
function rules.sides(game)
  if game.teams then return game.teams end
  local n = game.seats
  local s = SINGLES[n]
  if s == nil then
    s = {}
    for i = 1, n do s[i] = { i } end
    SINGLES[n] = s
  end
  return s
end

---The side of a seat (its team number in a team game, else the seat).
function rules.side_of(game, seat)
  local team_of = game.team_of
  if team_of then return team_of[seat] end
  return seat
end

---VP the side needs to win the game.
function rules.target_vp(game, side)
  return tonumber(game.options.target_vp)
end

---------------------------------------------------------------------------
-- Deck
---------------------------------------------------------------------------

---The suits in play, in the order of rules.SUITS ("Deck setup").
function rules.suits_in_play(game)
  local spec = rules.DECKS[game.seats]
  local want = spec.suits
  local opt = game.options.suits
  if opt == nil or opt == "" or opt == "auto" then
    local out = {}
    for i = 1, want do out[i] = rules.SUITS[i] end
    return out
  end
  local chosen = {}
  for name in string.gmatch(string.lower(tostring(opt)), "[^,%s]+") do
    if rules.SUIT_NAMES[name] == nil then
      error("option suits: unknown suit '" .. name .. "' (use " .. table.concat(rules.SUITS, ", ") .. ")", 0)
    end
    if chosen[name] then error("option suits: '" .. name .. "' is listed twice", 0) end
    chosen[name] = true
  end
  local out = {}
  for _, s in ipairs(rules.SUITS) do
    if chosen[s] then out[#out + 1] = s end
  end
  if #out ~= want then
    error("option suits: " .. game.seats .. " players use " .. want .. " suits, not " .. #out
      .. " (\"" .. tostring(opt) .. "\")", 0)
  end
  return out
end

---Define the cards (suit by suit, values ascending, so card ids sort the
---way a hand is sorted) into the deck zone.
function rules.create_deck(game)
  local deck = game:new_zone("deck", { visibility = "hidden" })
  local values = rules.DECKS[game.seats].values
  for _, suit in ipairs(rules.suits_in_play(game)) do
    for _, value in ipairs(values) do
      local id = game:new_card {
        name = suit_name(suit) .. " " .. value,
        suit = suit,
        value = value,
        color = suit,
        points = rules.POINTS[value] or 0,
      }
      game:place(id, deck)
    end
  end
  return deck
end

---------------------------------------------------------------------------
-- Points
---------------------------------------------------------------------------

---Points of a card during the round (and on the trick_won event).
function rules.card_points(game, card)
  return rules.POINTS[game.cards[card].value] or 0
end

---Points of a won card at round end, when `trump` is the trump suit after
---the last card of the round ("Big Finish"): the trump 0 is worth
---TRUMP_ZERO_POINTS.
function rules.end_points(game, card, trump)
  local c = game.cards[card]
  if c.value == 0 and c.suit == trump then return rules.TRUMP_ZERO_POINTS end
  return rules.card_points(game, card)
end

---Points of a list of cards (during the round).
function rules.cards_points(game, cards)
  local sum = 0
  for i = 1, #cards do sum = sum + rules.card_points(game, cards[i]) end
  return sum
end

---------------------------------------------------------------------------
-- Playing a card: Sea Change, follow suit, winner
---------------------------------------------------------------------------

---Does `card` match the value of the last card played in the current trick?
function rules.is_match(game, card)
  local z = trick_cards(game)
  local last = z[#z]
  return last ~= nil and game.cards[last].value == game.cards[card].value
end

---Is playing `card` now a Sea Change ("Game play": "matches the value of the
---last card played")? A Sea Change is automatic, wanted or not ("Bad Idea"),
---and may break follow-suit. A match in the suit that is already trump is a
---Sea Change that leaves trump as it is, unless match_into_trump is false.
function rules.is_sea_change(game, card)
  if not rules.is_match(game, card) then return false end
  if game.cards[card].suit == game.vars.trump then
    return game.options.match_into_trump == true
  end
  return true
end

---Does `seat` hold a card of `suit`?
function rules.holds_suit(game, seat, suit)
  return T:holds_prop(game, seat, suit, "suit")
end

---May `seat` play `card` now? The leader plays anything; others must follow
---the lead suit if they can ("Game play"), except for a Sea Change ("with one
---exception"). `holds_lead` (optional) saves looking through the hand again.
function rules.may_play(game, seat, card, holds_lead)
  local lead = game.vars.lead
  if lead == nil then return true end
  if game.cards[card].suit == lead then return true end
  if holds_lead == nil then holds_lead = rules.holds_suit(game, seat, lead) end
  if not holds_lead then return true end -- a sluff: any card
  return rules.is_sea_change(game, card)
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
  if rules.may_play(game, seat, card) then return nil end
  local lead = v.lead
  -- "Game play": follow the lead suit if you can; only a Sea Change (a card
  -- of the value of the last card played) may break it.
  local held = util.held_names(game, seat, function(c) return game.cards[c].suit == lead end)
  local z = trick_cards(game)
  local last = z[#z] and game.cards[z[#z]]
  local match = last and (", or play a " .. tostring(last.value) .. " to match the last card (a Sea Change)") or ""
  return "you must follow " .. suit_name(lead) .. ": you hold " .. util.and_list(held) .. match
end

---Strength of a card in a trick: any trump beats any non-trump; else the lead
---suit; other cards cannot win (nil). ("The highest-valued card from the
---trump suit wins the trick. If no card from the trump suit was played, then
---the highest-valued card from the lead suit wins.")
function rules.card_rank(game, card, trump, lead)
  local c = game.cards[card]
  if c.suit == trump then return 100 + c.value end
  if c.suit == lead then return c.value end
  return nil
end

-- rules.card_rank through lib/trick's best_index (ctx carries trump and lead;
-- one table reused, so resolving a trick allocates nothing).
local RANK_CTX = {}
local function rank_with_ctx(game, card, ctx)
  return rules.card_rank(game, card, ctx.trump, ctx.lead)
end

---Index of the winning card among `cards` (default: the trick zone), with
---`trump` and `lead` (default: the current ones). Trump is the trump after
---the last card: a Sea Change counts at once, for the whole trick.
function rules.trick_winner(game, cards, trump, lead)
  local v = game.vars
  cards = cards or T:cards(game)
  trump = trump or v.trump
  lead = lead or v.lead
  RANK_CTX.trump, RANK_CTX.lead = trump, lead
  return trick.best_index(game, cards, rank_with_ctx, RANK_CTX)
end

local function resolver(game, cards)
  return rules.trick_winner(game, cards)
end

---Cards in a complete trick: one per seat; solo: AI, you, AI.
function rules.trick_size(game)
  if game.seats == 1 then return 3 end
  return game.seats
end

---Put `card` into the trick for `who`, from `from` (default: who's hand),
---setting lead suit and trump and raising trump_changed events.
function rules.play_card(game, who, card, from)
  local v = game.vars
  local c = game.cards[card]
  if #trick_cards(game) == 0 then
    -- "The suit of this first card of the round is both the lead suit and
    -- the trump suit"; later tricks: the first card sets only the lead suit.
    v.lead = c.suit
    if v.trump == nil then
      v.trump = c.suit
      if game.logging then
        game:event("trump_changed", {
          suit = c.suit, seat = who, card = card, reason = "lead",
          text = game.words and (c.name .. " led by " .. who_name(who, v.solo) .. ": "
            .. suit_name(c.suit) .. " is trump") or nil,
        })
      end
    end
  else
    local sea_change = rules.is_sea_change(game, card)
    -- Off the lead suit without a Sea Change: the player has none of the
    -- lead suit ("must follow suit if they can"); search bots use this.
    if not sea_change and who ~= AI and c.suit ~= v.lead then T:note_void(game, who, v.lead) end
    rules.change_trump(game, who, card, sea_change)
  end
  T:play(game, who, card, from)
end

---A Sea Change made by `card` (sea_change: whether it is one) changes trump
---at once, unless the solo AI played it and solo_ai_sea_change is off.
function rules.change_trump(game, who, card, sea_change)
  local v = game.vars
  local c = game.cards[card]
  if sea_change and (who ~= AI or game.options.solo_ai_sea_change) then
    -- The Sea Change is immediate: it counts for the card played and every
    -- card after it in this trick, and carries over to the next tricks.
    util.count(game, "sea_changes") -- metric: Sea Changes per round
    if c.suit ~= v.trump then
      util.count(game, "round_trump_changes") -- metric: rounds where trump never changed
      local old = v.trump
      v.trump = c.suit
      if game.logging then
        game:event("trump_changed", {
          suit = c.suit, seat = who, card = card, reason = "sea_change",
          text = game.words and ("Sea Change by " .. who_name(who, v.solo) .. " with " .. c.name
            .. ": trump " .. suit_name(old) .. " → " .. suit_name(c.suit)) or nil,
        })
      end
    elseif game.logging then
      -- A Sea Change into the suit that is already trump changes nothing;
      -- recorded so that a trace tells it from a card that is no Sea Change.
      game:event("trump_kept", {
        suit = c.suit, seat = who, card = card, reason = "sea_change_into_trump",
        text = game.words and ("Sea Change by " .. who_name(who, v.solo) .. " with " .. c.name .. ": "
          .. suit_name(c.suit) .. " stays trump") or nil,
      })
    end
  elseif sea_change and game.logging then
    -- The solo AI's Sea Change, with option solo_ai_sea_change off.
    game:event("trump_kept", {
      suit = v.trump, seat = who, card = card, reason = "solo_ai_sea_change_off",
      text = game.words and ("The AI's " .. c.name .. " changes nothing (solo_ai_sea_change is off)") or nil,
    })
  end
end

---2 players: "After a card is played, draw a new card from the draw pile"
---(each player right after their own card, so the leader draws first).
function rules.draw(game, seat)
  if game.seats ~= 2 then return end
  local hand = T:hand_of(game, seat)
  local card = game:move_top(game:zone("deck"), hand)
  if card then
    T:clear_voids(game, seat) -- the new card may be of a suit it lacked
    game:sort(hand)
    if game.logging then
      -- Told to the drawer only: the others know a card was drawn, not which.
      game:event("drew_card", {
        to = seat, card = card,
        text = game.words and (who_name(seat) .. " draws " .. card_name(game, card)) or nil,
      })
    end
  end
end

---May `seat` hold `card`, as far as play has shown (search bots deal the
---hidden cards accordingly)? Not when it has failed to follow that suit.
function rules.may_hold(game, seat, card)
  return T:may_hold(game, seat, card)
end

---Solo: the AI plays the top card of its stack (it does not follow suit).
function rules.ai_play(game)
  local stack = game:zone("ai_stack")
  local card = stack[#stack]
  if card == nil then error("solo: the AI stack is empty", 0) end
  rules.play_card(game, AI, card, stack)
end

---Who plays next in the current trick (AI = 0 for the solo AI).
function rules.next_player(game)
  if game.vars.solo then
    -- "The AI will always lead the trick ... After you contribute a card,
    -- the AI will play a second card into the current trick."
    if T:count(game) == 1 then return 1 end
    return AI
  end
  return T:next_player(game, rules.trick_size(game))
end

---------------------------------------------------------------------------
-- Trick end, round end, game end
---------------------------------------------------------------------------

---Resolve the complete trick: the winner collects it and leads the next one.
function rules.finish_trick(game)
  local v = game.vars
  local i, winner, wcard = T:resolve(game, resolver)
  local pts = rules.cards_points(game, T:cards(game))
  -- Who played each card (0 = the solo AI), for the event: copied before
  -- the trick is collected, which reuses the list.
  local players = game.logging and copy_array(T:players(game)) or nil
  -- The event lists the cards; without events the trick is collected
  -- without copying it.
  local cards = T:collect(game, winner, game.logging)
  if winner == AI then
    v.ai_points = v.ai_points + pts
  else
    v.points[winner] = v.points[winner] + pts
  end
  if game.logging then
    game:event("trick_won", {
      winner = winner, cards = cards, players = players, points = pts, card = wcard,
      text = game.words and ("Trick won by " .. who_name(winner, v.solo) .. " with " .. card_name(game, wcard)
        .. " (" .. names(game, cards) .. "): " .. pts .. " point" .. ((pts == 1 or pts == -1) and "" or "s"))
        or nil,
    })
  end
  v.lead = nil
  v.trick_no = v.trick_no + 1
  -- "Play continues with the winner of each trick leading the next trick";
  -- solo: the AI always leads.
  if not v.solo then T:set_leader(game, winner) end
end

---Is the round over (every hand and the draw pile empty)?
function rules.round_over(game)
  for s = 1, game.seats do
    if #T:hand_of(game, s) > 0 then return false end
  end
  return #game:zone("deck") == 0
end

---Round points of `who` (seat or AI), with the trump-0 bonus; also the number
---of cards won and whether a card of value SOLO_NEEDED_VALUE was won.
function rules.round_score(game, who, trump)
  local z = T:won_zone(game, who)
  local sum, needed = 0, false
  local cards, want = game.cards, rules.SOLO_NEEDED_VALUE
  for i = 1, #z do
    sum = sum + rules.end_points(game, z[i], trump)
    if cards[z[i]].value == want then needed = true end
  end
  return sum, #z, needed
end

-- (The round-end and evaluation code below makes no closures: LuaJIT
-- compiles no code path through a function that makes one, and a search
-- bot runs it at the end of every playout.)

-- Does the won pile `z` hold the 0 of `trump`?
local function holds_zero(cards, z, trump)
  for i = 1, #z do
    local c = cards[z[i]]
    if c.value == 0 and c.suit == trump then return true end
  end
  return false
end

---Who won the 0 of `trump` this round (seat, AI, or nil).
function rules.zero_holder(game, trump)
  local cards = game.cards
  for s = 1, game.seats do
    if holds_zero(cards, T:won_zone(game, s), trump) then return s end
  end
  if game.vars.solo and holds_zero(cards, T:won_zone(game, AI), trump) then return AI end
  return nil
end

---Score the round and award VP ("Round end"); ends the game or deals the
---next round.
function rules.end_round(game)
  local v = game.vars
  T:flush(game)
  local trump = v.trump -- "the trump suit after the last card" ("Big Finish")
  local n = game.seats
  local points, counts = {}, {}
  local needed = false
  for s = 1, n do
    local p, c, nd = rules.round_score(game, s, trump)
    points[s], counts[s] = p, c
    if s == 1 then needed = nd end
  end
  local zero = rules.zero_holder(game, trump)
  -- Metrics (rules.metrics, below): rounds played, and rounds whose trump
  -- never changed after the lead.
  util.count(game, "rounds")
  if util.counted(game, "round_trump_changes") == 0 then util.count(game, "calm_rounds") end
  game.tally.round_trump_changes = 0
  local summary = { round = v.round, points = points, trump = trump, zero_holder = zero, counts = counts }
  if v.solo then
    summary.ai_points = rules.round_score(game, AI, trump)
  elseif game.teams then
    summary.side_points = rules.side_points(game, points)
  end
  v.last_round = summary
  if game.logging then
    local text
    if game.words then
      text = "Round " .. v.round .. " (trump " .. suit_name(trump) .. "): "
      if v.solo then
        text = text .. "you " .. points[1] .. ", the AI " .. summary.ai_points
      else
        local parts = {}
        for s = 1, n do parts[s] = who_name(s) .. " " .. points[s] end
        text = text .. table.concat(parts, ", ")
      end
      if zero ~= nil then
        text = text .. "; the " .. suit_name(trump) .. " 0 (" .. rules.TRUMP_ZERO_POINTS .. " points) went to "
          .. who_name(zero, v.solo)
      end
    end
    -- The cards each seat collected this round (`ai_collected`: the solo
    -- AI's), from which the points are counted.
    local collected = {}
    for s = 1, n do collected[s] = copy_array(T:won_zone(game, s)) end
    game:event("round_scored", {
      round = v.round, points = copy_array(points), ai_points = summary.ai_points,
      side_points = summary.side_points and copy_array(summary.side_points) or nil,
      trump = trump, zero_holder = zero, collected = collected,
      reveal = true, -- the won cards are counted openly at the round's end
      ai_collected = v.solo and copy_array(T:won_zone(game, AI)) or nil, text = text,
    })
  end

  if v.solo then
    rules.award_solo(game, points[1], summary.ai_points, needed)
  else
    rules.award_vp(game, points)
  end

  if not v.game_over then
    rules.start_round(game)
  end
end

---Points of each side this round.
function rules.side_points(game, points)
  local out = {}
  for t, members in ipairs(rules.sides(game)) do
    local sum = 0
    for _, s in ipairs(members) do sum = sum + points[s] end
    out[t] = sum
  end
  return out
end

---"The player with the highest score will earn 1 Victory Point ... In the
---event of a tie, all tied players receive 1 VP." (Teams: the team with the
---most points.) Then checks the end of the game.
function rules.award_vp(game, points)
  local v = game.vars
  local sp = rules.side_points(game, points)
  local got = util.best(util.range(#sp), sp)
  for _, t in ipairs(got) do v.vp[t] = v.vp[t] + 1 end
  if game.logging then
    local text
    if game.words then
      local parts = {}
      for i, t in ipairs(got) do parts[i] = rules.side_name(game, t) end
      text = table.concat(parts, ", ") .. " +1 VP (" .. rules.vp_text(game) .. ")"
    end
    game:event("vp_awarded", {
      seats = (not game.teams) and copy_array(got) or nil,
      teams = game.teams and copy_array(got) or nil,
      vp = copy_array(v.vp),
      text = text,
    })
  end
  local winners, decided_by = rules.game_winners(game)
  if winners then rules.end_game(game, winners, decided_by) end
end

---Solo round end ("Solo play"): you win the round with more points than the
---AI (option solo_more_points) and at least one 8 collected; otherwise the AI
---gains 1 VP. First to the target (you or the AI) ends the game.
function rules.award_solo(game, you, ai, has_needed)
  local v = game.vars
  local won = has_needed and (you > ai or not game.options.solo_more_points)
  if won then
    v.vp[1] = v.vp[1] + 1
  else
    v.ai_vp = v.ai_vp + 1
  end
  if game.logging then
    game:event("vp_awarded", {
      seats = won and { 1 } or nil, ai = not won,
      vp = copy_array(v.vp), ai_vp = v.ai_vp,
      text = game.words and ((won and "You" or "The AI") .. " +1 VP (you " .. v.vp[1] .. ", the AI "
        .. v.ai_vp .. ")") or nil,
    })
  end
  local target = v.targets[1]
  if v.vp[1] >= target then
    rules.end_game(game, { 1 }, "target")
  elseif v.ai_vp >= target then
    rules.end_game(game, {}, "target")
  end
end

-- The sides of `cand` whose members collected the fewest cards (`counts`
-- per seat), in order.
local function fewest_cards(cand, sides, counts)
  local collected = {}
  for _, t in ipairs(cand) do
    local c = 0
    for _, s in ipairs(sides[t]) do c = c + (counts[s] or 0) end
    collected[t] = c
  end
  return (util.best(cand, collected, true))
end

---The winning sides when the game is over, else nil ("Game end"). Several
---sides at their target at once: the one holding the trump 0 wins; else the
---one that collected the fewest cards this round; still tied: option
---final_tie ("shared" win, or "play_on" another round). The second value
---says what decided (for the game_over event): "target" (one side reached
---it), "most_vp" (several did, one by more), "trump_zero", "fewest_cards"
---or "shared".
function rules.game_winners(game)
  local v = game.vars
  local sides = rules.sides(game)
  local cand, best = {}, nil
  for t = 1, #sides do
    local margin = v.vp[t] - v.targets[t]
    if margin >= 0 then
      if best == nil or margin > best then
        cand, best = { t }, margin
      elseif margin == best then
        cand[#cand + 1] = t
      end
    end
  end
  if #cand == 0 then return nil end
  if #cand == 1 then
    local at_target = 0
    for t = 1, #sides do
      if v.vp[t] >= v.targets[t] then at_target = at_target + 1 end
    end
    return cand, (at_target > 1) and "most_vp" or "target"
  end
  util.count(game, "tie_breaks") -- metric: games decided by a tie-break
  -- Tie-break 1: "the player who collected the 0 in the trump suit wins".
  local summary = v.last_round
  local zero = summary and summary.zero_holder
  if zero ~= nil and zero ~= AI then
    local zs = rules.side_of(game, zero)
    for _, t in ipairs(cand) do
      if t == zs then return { t }, "trump_zero" end
    end
  end
  -- Tie-break 2: "whoever has collected the fewest cards this round wins".
  local out = fewest_cards(cand, sides, summary and summary.counts or {})
  if #out > 1 and game.options.final_tie == "play_on" then return nil end
  return out, (#out > 1) and "shared" or "fewest_cards"
end

---End the game with these winning sides (solo: {1} or {}); `decided_by`:
---what decided the winners (see rules.game_winners), for the event.
function rules.end_game(game, sides, decided_by)
  local v = game.vars
  local winners = {}
  for _, t in ipairs(sides) do
    for _, s in ipairs(rules.sides(game)[t]) do winners[#winners + 1] = s end
  end
  table.sort(winners)
  v.winners = winners
  v.game_over = true
  v.turn = nil
  if not game.logging then return end
  local text -- none when nobody reads it (game.words is false: a trace)
  if game.words and v.solo then
    text = (#winners > 0) and "You win the game!" or "The AI wins the game."
  elseif game.words then
    local parts = {}
    for i, t in ipairs(sides) do parts[i] = rules.side_name(game, t) end
    text = table.concat(parts, " and ") .. ((#sides > 1) and " share the win" or " wins the game")
      .. " (" .. rules.vp_text(game) .. ")"
  end
  game:event("game_over", {
    winners = copy_array(winners), vp = copy_array(v.vp), ai_vp = v.ai_vp,
    scores = rules.result(game).scores,
    points = v.last_round and copy_array(v.last_round.points) or nil,
    -- Why the game ended (a side reached its VP target: the only way it
    -- ends) and what decided between the sides that did.
    ended_by = "target_vp", decided_by = decided_by,
    text = text,
  })
end

---------------------------------------------------------------------------
-- Rounds
---------------------------------------------------------------------------

---Gather, shuffle and deal a new round; the next dealer is the player to the
---left of the previous one, and the player left of the dealer leads.
function rules.start_round(game)
  local v = game.vars
  local n = game.seats
  local deck = game:zone("deck")
  v.round = v.round + 1
  if v.round > 1 and not v.solo then
    T:rotate(game, "dealer") -- "the player to the left of the dealer will become the new dealer"
  end
  T:gather(game, deck, v.solo and { game:zone("ai_stack"), game:zone("ai_won") } or nil)
  game:shuffle(deck)
  if v.solo then
    -- "deal yourself 10 cards. The remaining cards are placed facedown in an AI stack."
    T:deal(game, deck, 1, rules.HAND_SIZE, 1)
    game:move_all(deck, game:zone("ai_stack"))
    v.leader = AI
  else
    local first = game:next_seat(v.dealer)
    -- 3+ players: the whole deck, 10 each; 2 players: 10 each, the rest is
    -- the draw pile.
    T:deal(game, deck, first, rules.HAND_SIZE)
    v.leader = first
  end
  T:sort_hands(game) -- players sort their hands; legal cards then come in order
  v.trump = nil -- "The trump suit carries over between tricks, not rounds."
  v.lead = nil
  v.trick_no = 1
  v.points = zeros(n)
  if v.solo then v.ai_points = 0 end
  if game.logging then
    game:event("round_started", {
      round = v.round, dealer = v.dealer,
      text = game.words and ("Round " .. v.round .. (v.solo and "" or (": " .. who_name(v.dealer) .. " deals")))
        or nil,
    })
  end
end

---Run everything automatic until a seat must choose (or the game is over):
---trick resolution, round end, the solo AI's cards.
function rules.advance(game)
  local v = game.vars
  local size = rules.trick_size(game)
  while not v.game_over do
    if T:complete(game, size) then
      rules.finish_trick(game)
      if rules.round_over(game) then
        rules.end_round(game)
      end
    else
      local who = rules.next_player(game)
      if who == AI then
        rules.ai_play(game)
      else
        v.turn = who
        return
      end
    end
  end
  v.turn = nil
end

---------------------------------------------------------------------------
-- GameScript entry points
---------------------------------------------------------------------------

function rules.setup(game)
  local v = game.vars
  local n = game.seats
  rules.make_teams(game)
  rules.create_deck(game)
  T:create_zones(game)
  v.solo = (n == 1)
  if v.solo then
    game:new_zone("ai_stack", { visibility = "hidden" })
    game:new_zone("ai_won", { visibility = "hidden" })
    v.ai_vp = 0
    v.dealer = 1
  else
    v.dealer = game:random(1, n) -- random first dealer
  end
  local sides = rules.sides(game)
  v.vp = zeros(#sides)
  v.targets = {}
  for t = 1, #sides do v.targets[t] = rules.target_vp(game, t) end
  v.round = 0
  v.game_over = false
  v.winners = {}
  rules.start_round(game)
  rules.advance(game)
end

-- Prompts, cached by lead and trump so that a decision allocates no string.
local PROMPTS = {}
local function prompt(lead, trump)
  local l, t = lead or "-", trump or "-"
  local row = PROMPTS[l]
  if row == nil then row = {}; PROMPTS[l] = row end
  local p = row[t]
  if p == nil then
    if lead == nil then
      p = (trump == nil) and "Lead a card (it sets trump)" or ("Lead a card (trump " .. suit_name(trump) .. ")")
    else
      p = "Play a card (lead " .. suit_name(lead) .. ", trump " .. suit_name(trump) .. ")"
    end
    row[t] = p
  end
  return p
end

---The options of `seat` now: one {card = id} per card rules.may_play
---allows, sorted by id. `into` (optional) is a list to fill and return
---instead of a new one.
function rules.legal_options(game, seat, into)
  local lead = game.vars.lead
  -- Whether the seat can follow suit, worked out once for the whole hand.
  local holds = false
  if lead ~= nil then holds = rules.holds_suit(game, seat, lead) end
  return T:options(game, seat, rules.may_play, holds, into)
end

-- The game's one kind of decision (lib/phases.lua): the seat to play,
-- game.vars.turn, plays a card. Sea Change keeps no game.vars.phase: its
-- entry points name the phase "play".
rules.phases = {}
rules.phases.play = {
  -- The prompt is for people: a game that records no events shows none.
  prompt = function(game)
    local v = game.vars
    return game.logging and prompt(v.lead, v.trump) or nil
  end,
  options = function(game, seat, into)
    return rules.legal_options(game, seat, into)
  end,
  -- `action` is one of the options listed for `seat` (the core applies
  -- nothing else), so it is not checked again here.
  apply = function(game, seat, action)
    rules.play_card(game, seat, action.card)
    rules.draw(game, seat)
    rules.advance(game)
  end,
}

-- `into` is this game's previous decision (the prelude passes it back), so
-- a decision and its options list are filled afresh rather than allocated.
function rules.decision(game, into)
  if game.vars.game_over then return nil end
  return phases.decision(rules, game, "play", into or {})
end

function rules.apply(game, seat, action)
  if seat ~= game.vars.turn then
    error("it is " .. who_name(game.vars.turn) .. "'s turn, not " .. who_name(seat) .. "'s", 0)
  end
  phases.apply(rules, game, seat, action, "play")
end

function rules.describe(game, action)
  local card = type(action) == "table" and action.card or nil
  local c = card and game.cards[card]
  if not c then return tostring(action) end
  local v = game.vars
  -- Only a card still in the hand of the seat to play gets marks: describe
  -- may also be asked about an action that is already in the past.
  if v.game_over or v.turn == nil or not T:in_hand(game, v.turn, card) then return c.name end
  if #T:cards(game) == 0 then
    if v.trump == nil then return c.name .. " (trump → " .. suit_name(c.suit) .. ")" end
    return c.name
  end
  if rules.is_sea_change(game, card) then
    if c.suit ~= v.trump then
      return c.name .. " (Sea Change → " .. suit_name(c.suit) .. ")"
    end
    return c.name .. " (Sea Change, " .. suit_name(c.suit) .. " stays trump)"
  end
  return c.name
end

-- rules.rounds and rules.result (lib/util.lua): the round count, the
-- winners, and as scores each seat's VP: its side's (a team's seats share
-- their team's), or in a solo game the player's alone.
util.install_result(rules, function(game)
  local v = game.vars
  local scores = {}
  if v.solo then
    scores[1] = v.vp[1]
  else
    for s = 1, game.seats do scores[s] = v.vp[rules.side_of(game, s)] end
  end
  return scores
end)

-- 1 for a lead in VP, 0.5 for a tie, 0 behind.
local function versus(mine, theirs)
  if mine > theirs then return 1 elseif mine == theirs then return 0.5 end
  return 0
end

---How good the position is for `seat`, from 0 to 1, for search bots (the
---`mc` bot stops its playouts at the end of a round and asks this): the
---share of the other sides that `seat`'s side leads in VP, a tie counting
---half; solo: against the AI. Once the game is over: 1 for a win (shared
---by k: 1/k), else 0.
function rules.evaluate(game, seat)
  local v = game.vars
  if v.game_over then return util.win_share(v.winners, seat) end
  if v.solo then return versus(v.vp[1], v.ai_vp) end
  local me, sum, others = rules.side_of(game, seat), 0, 0
  for t = 1, #v.vp do
    if t ~= me then
      sum, others = sum + versus(v.vp[me], v.vp[t]), others + 1
    end
  end
  return others > 0 and sum / others or 0.5
end

---------------------------------------------------------------------------
-- Status lines (REPL)
---------------------------------------------------------------------------

---A side in words: "P3", or "Team 2 (P2 P4)".
function rules.side_name(game, side)
  if game.teams then
    local m = {}
    for i, s in ipairs(game.teams[side]) do m[i] = who_name(s) end
    return "Team " .. side .. " (" .. table.concat(m, " ") .. ")"
  end
  return who_name(side)
end

---Everyone's VP in words.
function rules.vp_text(game)
  local v = game.vars
  if v.solo then
    return "you " .. v.vp[1] .. ", the AI " .. (v.ai_vp or 0) .. " of " .. v.targets[1]
  end
  local parts = {}
  for t = 1, #v.vp do
    parts[t] = rules.side_name(game, t) .. " " .. v.vp[t] .. "/" .. v.targets[t]
  end
  return table.concat(parts, ", ")
end

function rules.status(view)
  local v = view.vars
  local lines = {}
  local head = "Trump: " .. (v.trump and suit_name(v.trump) or "-")
    .. "   Lead: " .. (v.lead and suit_name(v.lead) or "-")
    .. "   Round " .. tostring(v.round)
    .. (v.game_over and ", game over" or (", trick " .. tostring(v.trick_no)))
  if not v.solo then head = head .. "   Dealer: " .. who_name(v.dealer) end
  lines[1] = head
  lines[2] = "VP: " .. rules.vp_text(view)
  -- Once the game is over, the last round's points as scored (with the
  -- trump 0's points), as the round's summary gave them.
  local last = v.game_over and v.last_round or nil
  local points = last and last.points or v.points
  local pts = {}
  if v.solo then
    pts[1] = "you " .. points[1] .. ", the AI " .. ((last and last.ai_points) or v.ai_points or 0)
  else
    for s = 1, view.seats do pts[s] = who_name(s) .. " " .. points[s] end
    if view.teams then
      local sp = rules.side_points(view, points)
      for t = 1, #sp do pts[#pts + 1] = "team " .. t .. " " .. sp[t] end
    end
  end
  lines[3] = "Round points: " .. table.concat(pts, ", ")
  if v.last_trick_winner ~= nil then
    lines[4] = "Last trick won by " .. who_name(v.last_trick_winner, v.solo)
  end
  return lines
end

---------------------------------------------------------------------------
-- Bots
---------------------------------------------------------------------------

-- Greedy: for each legal card, work out who would win the trick as it
-- stands after that card (with any Sea Change it makes) and how many points
-- the trick holds, then
--   * if I would win: worth the trick's points, discounted when players
--     still to come may take it from me (more so for a non-trump card);
--   * if a teammate would win: worth the points to my side;
--   * if an opponent would win: worth minus some of the points (dumping an 8
--     on an opponent is good, handing them a 9 is bad);
-- minus a small cost for spending a strong card, so among cards doing the
-- same job it plays the lowest. Uses only the view.
local function greedy_choice(view, decision)
  local opts = decision.options
  if #opts <= 1 then return 1 end
  local v, cards, me = view.vars, view.cards, view.seat
  local tz = view:zone("trick")
  local n_in = #tz
  local solo = v.solo
  local size = solo and 3 or view.seats
  local after = size - n_in - 1
  local players = v.trick_players
  local team_of = view.team_of
  local my_side = team_of and team_of[me] or me
  local hand = view:zone("hand", me)
  local zero_bonus = (#hand <= 1) and rules.TRUMP_ZERO_POINTS or 2
  local base = 0
  local buf = {}
  for i = 1, n_in do
    buf[i] = tz[i]
    base = base + rules.card_points(view, tz[i])
  end
  local best_i, best_s = 1, nil
  for i = 1, #opts do
    local card = opts[i].card
    local c = cards[card]
    local trump, lead = v.trump, v.lead
    if n_in == 0 then
      lead = c.suit
      if trump == nil then trump = c.suit end
    elseif rules.is_sea_change(view, card) then
      trump = c.suit
    end
    buf[n_in + 1] = card
    local w = rules.trick_winner(view, buf, trump, lead)
    local winner = (w == n_in + 1) and me or players[w]
    local pts = base + rules.card_points(view, card)
    for j = 1, n_in + 1 do
      local d = cards[buf[j]]
      if d.value == 0 and d.suit == trump then pts = pts + zero_bonus end
    end
    if solo and winner == me then
      for j = 1, n_in + 1 do
        if cards[buf[j]].value == rules.SOLO_NEEDED_VALUE then pts = pts + 2 end
      end
    end
    local s
    if winner == me then
      if after <= 0 then
        s = pts
      else
        local sure = (c.suit == trump) and (0.5 + c.value / 40) or 0.3
        s = pts * sure
      end
    else
      local ws = (winner == AI and solo) and -1 or (team_of and team_of[winner] or winner)
      local factor = (after <= 0) and 1 or 0.6
      if ws == my_side then
        s = pts * factor
      elseif solo then
        s = -pts * factor
      else
        s = -pts * factor * 0.5
      end
    end
    s = s - (c.value + ((c.suit == trump) and 16 or 0)) * 0.01
    if best_s == nil or s > best_s then best_i, best_s = i, s end
  end
  return best_i
end

-- Metrics: one value per finished game, which `sim` and `compare` report
-- with intervals (docs/lab.md). The counters are kept by util.count during
-- play (play_card/change_trump and end_round above).
rules.metrics = {
  ["sea changes per round"] = {
    doc = "Sea Changes played per round (a match that changes trump, or one into the trump suit)",
    value = function(game) return util.per(game, "sea_changes", "rounds") end,
  },
  ["rounds where trump never changed"] = {
    share = true,
    doc = "Share of the game's rounds in which trump stayed the suit of the first card led",
    value = function(game) return util.per(game, "calm_rounds", "rounds") end,
  },
  ["games decided by a tie-break"] = {
    doc = "Share of games where several sides reached their target together and the tie-breaks "
      .. "(trump 0, then fewest cards) were looked at",
    value = function(game)
      return util.counted(game, "tie_breaks") > 0
    end,
  },
}

rules.bots = {
  greedy = function(view, decision)
    local ok, i = pcall(greedy_choice, view, decision)
    if ok and type(i) == "number" and decision.options[i] ~= nil then return i end
    return 1
  end,
}

---------------------------------------------------------------------------
-- Invariants (checked by the conformance suite after every step; see
-- docs/scripting.md, rules.invariants). Facts no legal play breaks.
---------------------------------------------------------------------------

---No hand holds more than a hand's worth of cards; with 3 or more seats
---(every card dealt, no draw pile), every hand holds the same number of
---cards once the cards played to the current trick are counted back. At
---the end, after a round at least, the result gives a score per seat, its
---side's VP; in a game of several sides every winning side reached its
---target ("the first side to its target wins") and wins with all its
---seats.
function rules.invariants(game)
  local v = game.vars
  if v.game_over then
    if (v.round or 0) < 1 then return "the game ended before its first round" end
    local scores = rules.result(game).scores
    if #scores ~= game.seats then return #scores .. " scores for " .. game.seats .. " seats" end
    if v.solo then return true end
    for s = 1, game.seats do
      if scores[s] ~= v.vp[rules.side_of(game, s)] then
        return "P" .. s .. " scores " .. scores[s] .. ", its side has " .. v.vp[rules.side_of(game, s)] .. " VP"
      end
    end
    if #v.winners == 0 then return "nobody wins" end
    local won = {}
    for _, w in ipairs(v.winners) do won[w] = true end
    for _, w in ipairs(v.winners) do
      local t = rules.side_of(game, w)
      if v.vp[t] < v.targets[t] then
        return "P" .. w .. " wins with " .. v.vp[t] .. " VP, short of the target " .. v.targets[t]
      end
      for _, s in ipairs(rules.sides(game)[t]) do
        if not won[s] then return "P" .. w .. " wins without P" .. s .. ", of the same side" end
      end
    end
    return true
  end
  local played = {}
  for _, who in ipairs(v.trick_players or {}) do played[who] = true end
  local size
  for s = 1, game.seats do
    local n = #game:zone("hand", s)
    if n > rules.HAND_SIZE then
      return "seat " .. s .. " holds " .. n .. " cards, more than a hand of " .. rules.HAND_SIZE
    end
    if game.seats >= 3 then
      n = n + (played[s] and 1 or 0)
      if size == nil then
        size = n
      elseif n ~= size then
        return "hand sizes differ: seat " .. s .. " has " .. n .. " cards counting its card in the trick, seat 1 has " .. size
      end
    end
  end
  return true
end

---------------------------------------------------------------------------
-- Scenario helpers (`deckhand lua FILE`, docs/scripting.md): the parts of a
-- position that are not where cards lie. Each gets the game first.
---------------------------------------------------------------------------

rules.scenario = {}

---Make `suit` trump now ("Blue" or "blue"). Set before the round's first
---card, it stays: that card then sets only the lead suit, as in a round
---already under way.
function rules.scenario.set_trump(game, suit)
  local want = tostring(suit):lower()
  for _, s in ipairs(rules.SUITS) do
    if s == want then
      game.vars.trump = s
      return
    end
  end
  error("no suit '" .. tostring(suit) .. "' (suits: " .. table.concat(rules.SUITS, ", ") .. ")", 2)
end

---The trump suit's name now ("Blue"), or nil before the round's first card.
function rules.scenario.trump(game)
  local t = game.vars.trump
  return t and suit_name(t) or nil
end

---------------------------------------------------------------------------
-- Restrictions: a bot barred from a mechanic, to measure what the mechanic
-- is worth (`deckhand skill sea_change --restrict never_sea_change`).
---------------------------------------------------------------------------

rules.restrictions = {
  never_sea_change = {
    doc = "never plays a card that makes a Sea Change (matches the last card's value) when another card may be played",
    allows = function(view, option)
      return not (option.card and rules.is_sea_change(view, option.card))
    end,
  },
}

---------------------------------------------------------------------------
-- Strengths a person may ask for at the table (`seats=human,hard,easy`):
-- the greedy bot, then a search at about 20 ms and 0.2 s of thought a move
-- (in playouts, so games replay exactly). docs/bots.md, "Which bot, per
-- game", gives the measurements behind them.
---------------------------------------------------------------------------

rules.strengths = { easy = "greedy", medium = "mc:300", hard = "ismcts:2000" }

return rules
