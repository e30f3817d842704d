--[[
Sea Salt & Paper (Bombyx; Bruno Cathala & Théo Rivière): draw, discard and
collect cards, play duo pairs for their effects, and end the round with STOP
or LAST CHANCE once your cards are worth 7 points or more. 2-4 players.

Rules: the rulebook. It does not list the colour of every card; the card
list (cards.lua) is deckhand's, and every point the rulebook leaves open is
read as stated where it applies, with its reason (docs/sea-salt-paper.md).
Section names in the comments ("Game turn", "End of the round" ...) are
those of the rulebook.

The rules are this file and the files beside it, each loaded with
`require` and given the rules table:
  options.lua    the options
  cards.lua      the cards and the scoring tables (constants), the deck and
                 the zones
  scoring.lua    card points and the colour bonus ("Card details")
  rounds.lua     the target, starting and ending rounds and turns, scoring a
                 round, the end of the game, STOP and LAST CHANCE
  turn.lua       a turn: taking cards, then the duo pairs and their effects
  decisions.lua  the decisions, phase by phase (lib/phases.lua)
  bot.lua        the greedy bot
This file holds the entry points (setup, decision, apply, describe), why a
card is not one of your moves, the result, the status lines, the metrics
and the invariants.

Vocabulary used in these files
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
scripts/house_rules/): every rule decision in these files goes through
`rules.something(...)`, never a local copy. So is `phases`, the decisions
phase by phase (lib/phases.lua): each phase's prompt, options and moves, to
wrap or to add to. Internal: decision and apply (which go through
`phases`), scores_text, and points_text, which these files mostly call
through a local copy. A variant that adds a name to this table declares
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
-- The files of the rules, and the helpers they share
---------------------------------------------------------------------------

local util = require("lib.util")
local phases = require("lib.phases")
local card_name, zeros = util.card_name, util.zeros

-- The helpers the files of these rules share. They are not names of the
-- rules table: a variant or house rule neither sees nor replaces them.
-- Each file adds what it offers the others.
local helpers = {}

function helpers.who(seat)
  return "P" .. tostring(seat)
end
local who = helpers.who

local function points_text(n)
  return n .. (n == 1 and " point" or " points")
end
rules.points_text = points_text
helpers.points_text = points_text

function helpers.pile_zone(game, i)
  return game:zone(rules.PILES[i])
end
local pile_zone = helpers.pile_zone

-- Options (each is a reading of a point the rulebook leaves open).
require("sea_salt_paper.options")(rules)
-- Constants: the cards and the scoring tables ("Card details"); the deck
-- and the zones.
require("sea_salt_paper.cards")(rules, helpers)
-- Scoring ("Card details").
require("sea_salt_paper.scoring")(rules, helpers)
-- Targets and turn order; rounds; ending the round ("The round can be
-- ended"; "End of the round"; "End of game").
require("sea_salt_paper.rounds")(rules, helpers)
-- A turn: take cards ("Game turn", 1); duo pairs ("Game turn", 2; "Duo
-- cards").
require("sea_salt_paper.turn")(rules, helpers)
-- Decisions, phase by phase (lib/phases.lua).
require("sea_salt_paper.decisions")(rules, helpers)
-- The greedy bot.
require("sea_salt_paper.bot")(rules, helpers)

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

-- rules.rounds and rules.result: the round count, and the scores and
-- winners in game.vars (lib/util.lua).
util.install_result(rules)

---How good the position is for `seat`, from 0 to 1, for search bots (the
---`mc` bot stops its playouts at the end of a round, or after a few moves
---with `mc:N:cut=K`, and asks this): 0.5 plus the lead over the best other
---seat as a share of the target (behind by a whole target: 0; ahead by
---one: 1). Each seat's score counts what the round under way would give it
---if it were scored now: rules.round_points after a call, else the seat's
---card points, as a STOP scores them ("End of the round"). Between rounds
---the hands are empty and only the scores count. Once the game is over: 1
---for a win (shared by k: 1/k), else 0.
function rules.evaluate(game, seat)
  local v = game.vars
  if v.game_over then return util.win_share(v.winners, seat) end
  local now = v.call ~= nil and rules.round_points(game) or nil
  local mine, best = nil, nil
  for s = 1, game.seats do
    local total = v.scores[s] + (now and now[s] or rules.seat_points(game, s))
    if s == seat then
      mine = total
    elseif best == nil or total > best then
      best = total
    end
  end
  local lead = (mine - (best or 0)) / v.target
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

-- Metrics: one value per finished game, which `sim` and `compare` report
-- with intervals (docs/lab.md). The counters are kept by util.count in
-- void_round and score_round (rounds.lua).
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


---------------------------------------------------------------------------
-- Invariants (checked by the conformance suite after every step; see
-- docs/scripting.md, rules.invariants). Facts no legal play breaks.
---------------------------------------------------------------------------

---The deck is the 58 cards of rules.DECK, and the public variables name none
---of them. Every seat's score is the sum of the points the rounds awarded it
---(rules.score_round counts them as it adds them). Cards lie where a turn
---leaves them: drawn cards only while the seat to act chooses among them; a
---revealed hand is all in the open (`open hand`) and an unrevealed one all
---hidden; in front of a seat only duo pairs (and, once they win, its
---mermaids). Nobody has reached the target while the game goes on; at the
---end one seat wins: the one who placed the four mermaids, or one with the
---most points, which reached the target ("End of game").
function rules.invariants(game)
  local v = game.vars
  local n = game.seats
  local deck = 0
  for _, entry in ipairs(rules.DECK) do deck = deck + #entry.colours end
  if #game.cards ~= deck then return #game.cards .. " cards, where rules.DECK lists " .. deck end
  local named = util.named_card(v)
  if named ~= nil then return "game.vars names card " .. named .. " (" .. card_name(game, named) .. ")" end
  if v.round < 1 then return "round " .. tostring(v.round) .. " after setup" end
  if #v.scores ~= n then return #v.scores .. " scores for " .. n .. " seats" end
  for s = 1, n do
    local awarded = util.counted(game, "points awarded to P" .. s)
    if v.scores[s] ~= awarded then
      return who(s) .. " has " .. v.scores[s] .. " points, but the rounds awarded " .. awarded
    end
  end
  for s = 1, n do
    local drawn = #game:zone("drawn cards", s)
    local choosing = s == v.turn and (v.phase == "keep" or v.phase == "discard")
    if drawn > 0 and not (choosing or v.game_over) then
      return who(s) .. " holds " .. drawn .. " drawn cards in phase " .. tostring(v.phase)
    end
    if choosing and drawn < (v.phase == "keep" and 2 or 1) then
      return who(s) .. " has " .. drawn .. " drawn cards in phase " .. v.phase
    end
    local hidden, shown = #game:zone("hand", s), #game:zone("open hand", s)
    if v.revealed[s] and hidden > 0 then return who(s) .. " revealed its hand but holds " .. hidden .. " hidden cards" end
    if not v.revealed[s] and shown > 0 then return who(s) .. " shows " .. shown .. " cards before revealing its hand" end
    local front, paired = game:zone("duos", s), 0
    for i = 1, #front do
      local c = game.cards[front[i]]
      if c.category == "duo" then
        paired = paired + 1
      elseif not (c.kind == "mermaid" and v.mermaid_win == s) then
        return card_name(game, front[i]) .. " lies in front of " .. who(s) .. ", among the duo pairs"
      end
    end
    if paired % 2 ~= 0 then return who(s) .. " has " .. paired .. " duo cards in front: not pairs" end
  end
  if not v.game_over then
    for s = 1, n do
      if v.scores[s] >= v.target then
        return who(s) .. " has " .. v.scores[s] .. " points of " .. v.target .. " and the game goes on"
      end
    end
    return true
  end
  if #v.winners ~= 1 then return #v.winners .. " winners" end
  local w = v.winners[1]
  if v.mermaid_win ~= nil then
    if w ~= v.mermaid_win then return who(w) .. " wins, but " .. who(v.mermaid_win) .. " placed the mermaids" end
    local front, mermaids = game:zone("duos", w), 0
    for i = 1, #front do
      if game.cards[front[i]].kind == "mermaid" then mermaids = mermaids + 1 end
    end
    if mermaids < rules.MERMAIDS_TO_WIN then return who(w) .. " won with " .. mermaids .. " mermaids placed" end
    return true
  end
  local best = v.scores[1]
  for s = 2, n do best = math.max(best, v.scores[s]) end
  if best < v.target then return "the game ended with " .. best .. " points at most, short of " .. v.target end
  if v.scores[w] ~= best then return who(w) .. " wins with " .. v.scores[w] .. " points, not the most (" .. best .. ")" end
  return true
end

---------------------------------------------------------------------------
-- Restrictions: a bot barred from a mechanic, to measure what the mechanic
-- is worth (`deckhand skill sea_salt_paper --restrict never_stop`).
---------------------------------------------------------------------------

rules.restrictions = {
  never_stop = {
    doc = "never calls STOP (LAST CHANCE stays open)",
    allows = function(view, option) return option.act ~= "stop" end,
  },
  never_last_chance = {
    doc = "never calls LAST CHANCE (STOP stays open)",
    allows = function(view, option) return option.act ~= "last_chance" end,
  },
}

---------------------------------------------------------------------------
-- Strengths a person may ask for at the table (`seats=human,hard,easy`):
-- the greedy bot, then a search at about 20 ms and 0.2 s of thought a move
-- (in playouts, so games replay exactly). docs/bots.md, "Which bot, per
-- game", gives the measurements behind them.
---------------------------------------------------------------------------

rules.strengths = { easy = "greedy", medium = "mc:100", hard = "mc:1000" }

return rules
