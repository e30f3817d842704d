--[[
Sea Salt & Paper: the greedy bot, which the search bots also play their
playouts with.
]]

return function(rules, helpers)
  local util = require("lib.util")
  local no_kinds, no_colours, zero_counts = helpers.no_kinds, helpers.no_colours, helpers.zero_counts
  local own_scoring, counted_points = helpers.own_scoring, helpers.counted_points

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

  rules.bots = {
    greedy = util.safe_bot(greedy_choice),
  }
end
