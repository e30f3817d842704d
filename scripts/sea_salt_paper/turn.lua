--[[
Sea Salt & Paper: a turn ("Game turn"): taking cards (draw two and keep one,
or take the top of a discard pile), then the duo pairs and their effects
("Duo cards"). The decisions that ask for them are in decisions.lua.
]]

return function(rules, helpers)
  local util = require("lib.util")
  local card_name, names, copy_array = util.card_name, util.names, util.copy_array
  local who, pile_zone = helpers.who, helpers.pile_zone

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

  -- The list rules.keep receives the piles in, filled again at each call
  -- (read at once).
  local KEEP_PILES = {}

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

  helpers.duo_spec = duo_spec
end
