--[[
Sea Salt & Paper: scoring ("Card details"): the card points of a list of
cards (duo pairs, collectors, multipliers, mermaids), the colour bonus, and
a seat's card points now. The counting tables are filled again by every
score rather than made anew: the greedy bot and the search score cards
several times a move.
]]

return function(rules, helpers)
  local util = require("lib.util")

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

  -- For the greedy bot (bot.lua): fresh counts, counts set back to 0, whether
  -- the scoring is this file's own, and the points of counted cards.
  helpers.no_kinds, helpers.no_colours, helpers.zero_counts = no_kinds, no_colours, zero_counts
  helpers.own_scoring, helpers.counted_points = own_scoring, counted_points
end
