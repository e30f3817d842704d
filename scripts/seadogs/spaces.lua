--[[
SeaDogs: the islands' actions ("Spaces"): what a ship does at the island it
sails to. The options of each island (rules.space_options) and their moves:
a Port's cargo cards (rules.port_action), a Sale at Sell (rules.sales,
rules.sale_options, rules.sale_value, rules.sell), the Treasure cards a
sale or a Port brings (rules.draw_treasures), the cards looked at before
keeping some (rules.keep_drawn), the Action Card island
(rules.action_card_action), the Temple (rules.temple_cards, rules.temple)
and the Whirlpool (rules.whirlpool), then rules.after_action. The phase
that offers them ("action") is in game.lua with the turn's other phases.
]]

return function(rules, own)
  local util = require("lib.util")
  local copy_array = util.copy_array
  local function who(seat) return "P" .. tostring(seat) end
  local function card_name(game, id) return game.cards[id].name end
  -- Options (or offers) by card id, for table.sort.
  local function by_card(a, b) return a.card < b.card end
  -- An action card's name with what it does (game.lua's).
  local action_text = own.action_text

  ---Port: two face-down cards (The Harbormaster: three; The Quartermaster:
  ---look at three, keep two), or one face-down card and the port's two
  ---face-up cards, which are then replaced.
  function rules.port_action(game, seat, how)
    local v = game.vars
    local p = rules.port_of(game, v.ship[seat])
    local hand = game:zone("hand", seat)
    if how == "face_up" then
      local z = game:zone("port " .. p)
      local shown = game.logging and copy_array(z) -- the cards taken, for the event
      rules.draw_cargo(game, hand)
      game:move_all(z, hand)
      rules.refill_port(game, p)
      if game.logging then
        game:event("took_port", { seat = seat, port = p, cards = shown,
          text = who(seat) .. " takes a face-down card and " .. util.names(game, shown) })
      end
      return rules.after_action(game, seat)
    elseif how == "down3" then
      for _ = 1, 3 do rules.draw_cargo(game, hand) end
      if game.logging then
        game:event("took_cargo", { seat = seat, count = 3, text = who(seat) .. " takes three face-down cards" })
      end
      return rules.after_action(game, seat)
    elseif how == "look3" then
      local drawn = game:zone("drawn", seat)
      for _ = 1, 3 do rules.draw_cargo(game, drawn) end
      if game.logging then
        game:event("looked_cargo", { seat = seat, count = #drawn,
          text = who(seat) .. " looks at " .. #drawn .. " cards to keep two (Quartermaster)" })
      end
      if #drawn <= 2 then
        game:move_all(drawn, hand)
        return rules.after_action(game, seat)
      end
      v.phase = "keep"
      v.keep = "quartermaster"
      return
    elseif how == "map" then
      -- Option treasure_gain = "port": hand in a Treasure Map card.
      local maps = rules.map_cards(game, seat)
      if #maps == 0 then error("no Treasure Map card to hand in", 0) end
      game:move(maps[1], hand, game:zone("discard"))
      if game.logging then
        game:event("handed_in_map", { seat = seat, card = maps[1],
          text = who(seat) .. " hands in " .. card_name(game, maps[1]) .. " for a Treasure card" })
      end
      v.treasure_draws = 1
      return rules.draw_treasures(game, seat)
    end
    rules.draw_cargo(game, hand)
    rules.draw_cargo(game, hand)
    if game.logging then
      game:event("took_cargo", { seat = seat, count = 2, text = who(seat) .. " takes two face-down cards" })
    end
    rules.after_action(game, seat)
  end

  ---Sell: the possible sales of a hand. "Players may discard any number of
  ---cards of a single cargo type": for each type, every choice of how many
  ---cards of each kind to sell (a kind = the icons and the map marker, cards of
  ---one kind being alike), so that a player may keep any card it wants (a
  ---3-icon card for the Temple, a map card). Wilds: see rules.sale_wilds.
  ---Left out: a choice that adds a card without a map to another for no more
  ---gold, and a choice worth no gold, unless it holds a Treasure Map card and
  ---a sale is how a map becomes a Treasure card (option treasure_gain =
  ---"sell"): a lone map card is then worth selling for nothing. Returns a list
  ---of {cargo, cards, icons, gold, market}, the sales worth most first within
  ---a type, those spending the Black Market after those that keep it.
  function rules.sales(game, seat)
    local hand = game:zone("hand", seat)
    local wilds = {}
    local by = {}
    for i = 1, #hand do
      local c = game.cards[hand[i]]
      if c.cargo == "wild" then
        wilds[#wilds + 1] = hand[i]
      else
        by[c.cargo] = by[c.cargo] or {}
        table.insert(by[c.cargo], hand[i])
      end
    end
    table.sort(wilds)
    local out = {}
    for _, t in ipairs(rules.CARGO_TYPES) do
      for _, w in ipairs(rules.sale_wilds(game, seat)) do
        for _, s in ipairs(rules.type_sales(game, seat, t, by[t] or {}, wilds, w)) do out[#out + 1] = s end
      end
    end
    return out
  end

  ---How wilds may join a sale: a list of ways, each {icons = per wild, market =
  ---spends the Black Market}. Without the Black Market, wilds join a sale only
  ---with option wild_in_sale, as 1 icon. Holding the Black Market ("your wilds
  ---sell as the chosen type, 2 icons each"), its holder may use it, or keep
  ---it and sell as without it: both are offered (a sale with no wild never
  ---spends it).
  function rules.sale_wilds(game, seat)
    local ways = { { icons = game.options.wild_in_sale and 1 or 0, market = false } }
    local _, held = rules.held_action(game, seat)
    if held == "black_market" then ways[#ways + 1] = { icons = 2, market = true } end
    return ways
  end

  ---The sales of cargo type `t` from its cards `cards` and the hand's wilds,
  ---wilds joining as `way` says (rules.sale_wilds).
  function rules.type_sales(game, seat, t, cards, wilds, way)
    local market = way.market
    local merchant = rules.has_captain(game, seat, "merchant")
    local tz = game:zone("treasures")
    local maps_pay = game.options.treasure_gain == "sell" and (tz.count or #tz) > 0
    -- The type's cards in kinds, most icons first (maps first among equals).
    cards = copy_array(cards)
    table.sort(cards, function(a, b)
      local ca, cb = game.cards[a], game.cards[b]
      if ca.icons ~= cb.icons then return ca.icons > cb.icons end
      if ca.map ~= cb.map then return ca.map end
      return a < b
    end)
    local kinds = {}
    for _, id in ipairs(cards) do
      local c = game.cards[id]
      local k = kinds[#kinds]
      if k == nil or k.icons ~= c.icons or k.map ~= c.map then
        k = { icons = c.icons, map = c.map, cards = {} }
        kinds[#kinds + 1] = k
      end
      k.cards[#k.cards + 1] = id
    end
    if way.icons > 0 and #wilds > 0 then kinds[#kinds + 1] = { icons = way.icons, wild = true, cards = wilds } end
    local mine = {}
    local take = {}
    local bank_ok = game.options.bank_short ~= "no_sale"
    -- Gold by icons sold, worked out once: GOLD[icons + 1].
    local most = 0
    for _, k in ipairs(kinds) do most = most + #k.cards * k.icons end
    local GOLD = {}
    for icons = 0, most do
      local gold = rules.sell_gold(game, icons)
      if merchant and icons >= rules.MERCHANT_MIN_ICONS then gold = gold + 1 end
      GOLD[icons + 1] = gold
    end
    local function visit(i, icons, typed, wilds_used, maps)
      if i > #kinds then
        -- Only wilds: a sale of the type needs one of its cards, unless the
        -- Black Market sells the wilds as that type. The Black Market pass
        -- lists only the sales it changes: those with a wild.
        if icons == 0 or (typed == 0 and not market) or (market and wilds_used == 0) then return end
        local gold = GOLD[icons + 1]
        if not (gold > 0 or (maps > 0 and maps_pay)) then return end
        if not (bank_ok or gold <= game.vars.bank) then return end
        -- Leave out a sale with a card (not a map) that earns nothing: the
        -- same sale without it pays as much (gold only grows with icons, so
        -- checking one card at a time is enough).
        for j, k in ipairs(kinds) do
          if take[j] > 0 and not k.map and GOLD[icons - k.icons + 1] >= gold then return end
        end
        local list = {}
        for j, k in ipairs(kinds) do
          for c = 1, take[j] do list[#list + 1] = k.cards[c] end
        end
        mine[#mine + 1] = { cargo = t, cards = list, icons = icons, gold = gold, market = market }
        return
      end
      local k = kinds[i]
      for c = #k.cards, 0, -1 do
        take[i] = c
        if k.wild then
          visit(i + 1, icons + c * k.icons, typed, c, maps)
        else
          visit(i + 1, icons + c * k.icons, typed + c, wilds_used, maps + (k.map and c or 0))
        end
      end
    end
    visit(1, 0, 0, 0, 0)
    table.sort(mine, function(a, b)
      if a.gold ~= b.gold then return a.gold > b.gold end
      if #a.cards ~= #b.cards then return #a.cards < #b.cards end
      for i = 1, #a.cards do
        if a.cards[i] ~= b.cards[i] then return a.cards[i] < b.cards[i] end
      end
      return false
    end)
    return mine
  end

  ---Whether every card of a list is a wild (a sale that says its type).
  local function only_wilds(game, cards)
    for _, c in ipairs(cards) do
      if game.cards[c].cargo ~= "wild" then return false end
    end
    return true
  end

  ---What selling `cards` as cargo type `cargo` (`market`: spending the held
  ---Black Market) would be: {icons, gold, maps, typed, wilds}, or nil and why
  ---it is not a sale. A sale is of one cargo type: cards of that type and,
  ---as rules.sale_wilds says, wilds (2 icons each with the Black Market, 1
  ---with option wild_in_sale); wilds alone need the Black Market, and a sale
  ---with the Black Market sells a wild (else it would spend the card for
  ---nothing). It must be worth something: gold, or a Treasure Map card when a
  ---sale is how a map becomes a Treasure card (option treasure_gain = "sell";
  ---a lone map card is then worth selling for nothing). Under option
  ---bank_short = "no_sale", the bank must be able to pay.
  function rules.sale_value(game, seat, cargo, cards, market)
    local wild_icons = market and 2 or (game.options.wild_in_sale and 1 or 0)
    local icons, maps, typed, wilds = 0, 0, 0, 0
    for _, id in ipairs(cards) do
      local c = game.cards[id]
      if c.cargo == "wild" then
        if wild_icons == 0 then
          return nil, "a wild sells only with the Black Market (option wild_in_sale)"
        end
        icons, wilds = icons + wild_icons, wilds + 1
      elseif c.cargo ~= cargo then
        return nil, "a sale is of a single cargo type: " .. card_name(game, id) .. " is not "
          .. rules.CARGO_NAMES[cargo]
      else
        icons, typed = icons + c.icons, typed + 1
      end
      if c.map then maps = maps + 1 end
    end
    if typed == 0 and wilds > 0 and not market then
      return nil, "wilds alone sell only with the Black Market"
    end
    if market and wilds == 0 then return nil, "a sale with the Black Market sells a wild" end
    local gold = rules.sell_gold(game, icons)
    if rules.has_captain(game, seat, "merchant") and icons >= rules.MERCHANT_MIN_ICONS then gold = gold + 1 end
    local tz = game:zone("treasures")
    local maps_pay = game.options.treasure_gain == "sell" and (tz.count or #tz) > 0
    if gold == 0 and not (maps > 0 and maps_pay) then
      return nil, "these cards are worth no gold (" .. icons .. " icon" .. (icons == 1 and "" or "s") .. ")"
    end
    if game.options.bank_short == "no_sale" and gold > game.vars.bank then
      return nil, "the bank has only " .. game.vars.bank .. " gold"
    end
    return { icons = icons, gold = gold, maps = maps, typed = typed, wilds = wilds }
  end

  -- A sale is one choice of cards (rules.sale_options): the rules check it,
  -- and score it for the bots by its gold, less a little per card sold (a
  -- card kept is worth something).
  rules.choices = rules.choices or {}
  rules.choices.sale = {
    valid = function(game, seat, cards, option)
      local s, why = rules.sale_value(game, seat, option.cargo, cards, option.market)
      if s == nil then return false, why end
      return true
    end,
    -- Cards that more cards may make a sale: of the type, or wilds that may join.
    partial = function(game, seat, cards, option)
      local wilds_join = option.market or game.options.wild_in_sale
      for _, id in ipairs(cards) do
        local t = game.cards[id].cargo
        if t ~= option.cargo and not (t == "wild" and wilds_join) then return false end
      end
      return true
    end,
    score = function(game, seat, cards, option)
      local s = rules.sale_value(game, seat, option.cargo, cards, option.market)
      if s == nil then return -1 end
      return s.gold - 0.3 * #cards + (s.maps > 0 and 1 or 0)
    end,
  }

  -- Card orders for the Sell island's lists (util.sort_first): each is given
  -- the game's cards and two card ids.

  -- As a hand shows the cards: most icons first, a map card first among
  -- equals, wilds last (then by id: a total order).
  local function hand_order(cards, a, b)
    local ca, cb = cards[a], cards[b]
    if (ca.cargo == "wild") ~= (cb.cargo == "wild") then return cb.cargo == "wild" end
    if ca.icons ~= cb.icons then return ca.icons > cb.icons end
    if (ca.map or false) ~= (cb.map or false) then return ca.map or false end
    return a < b
  end

  -- Most icons first.
  local function most_icons(cards, a, b) return cards[a].icons > cards[b].icons end

  -- Whether some choice among the cards `from` (of type `t`, and the wilds
  -- that may join) is a legal sale. rules.sale_value's verdict depends only
  -- on the icons a choice adds up to and on whether it holds a wild, a card
  -- of the type and a map card; so every such combination that some choice
  -- reaches is found, with one choice that reaches it, and that choice is
  -- checked. Exact whatever the gold table and the bank allow (with option
  -- bank_short = "no_sale", more cards may be a sale the bank cannot pay).
  local function some_sale(game, seat, t, from, nfrom, market)
    local cards = game.cards
    local wild_icons = market and 2 or (game.options.wild_in_sale and 1 or 0)
    local function key(s) return s.icons * 8 + (s.wild and 1 or 0) + (s.typed and 2 or 0) + (s.map and 4 or 0) end
    local empty = { icons = 0, wild = false, typed = false, map = false, cards = {} }
    local reached, list = { [key(empty)] = true }, { empty }
    for i = 1, nfrom do
      local id = from[i]
      local c = cards[id]
      local wild = c.cargo == "wild"
      for k = 1, #list do
        local s = list[k]
        local more = { icons = s.icons + (wild and wild_icons or c.icons), wild = s.wild or wild,
          typed = s.typed or not wild, map = s.map or (c.map or false), cards = copy_array(s.cards) }
        more.cards[#more.cards + 1] = id
        if not reached[key(more)] then
          reached[key(more)] = true
          list[#list + 1] = more
        end
      end
    end
    for k = 2, #list do
      if rules.sale_value(game, seat, t, list[k].cards, market) then return true end
    end
    return false
  end


  ---The options of the Sell island: for each cargo type (and, holding the
  ---Black Market, each way of selling wilds: rules.sale_wilds), one option
  ---asking for the cards to sell among the type's cards and the wilds that
  ---may join, offered when some sale of them is legal. Whole hands are never
  ---listed sale by sale: the seller names its cards (`sell 1 3 4`).
  function rules.sale_options(game, seat)
    local hand, cards = game:zone("hand", seat), game.cards
    local opts = {}
    for _, way in ipairs(rules.sale_wilds(game, seat)) do
      local wilds_join = way.icons > 0
      for _, t in ipairs(rules.CARGO_TYPES) do
        local from, wilds, maps, typed = {}, {}, {}, {}
        local nfrom, nwilds, nmaps, ntyped = 0, 0, 0, 0
        for i = 1, #hand do
          local id = hand[i]
          local c = cards[id]
          if c.cargo == "wild" and wilds_join then
            nfrom, nwilds = nfrom + 1, nwilds + 1
            from[nfrom], wilds[nwilds] = id, id
          elseif c.cargo == t then
            nfrom = nfrom + 1
            from[nfrom] = id
            if c.map then
              nmaps = nmaps + 1
              maps[nmaps] = id
            else
              ntyped = ntyped + 1
              typed[ntyped] = id
            end
          end
        end
        -- Some sale is legal if one of these is (checked in this order, up
        -- to the first legal one): a lone map card; the fewest wilds the way
        -- needs with the type's cards added most icons first, one set per
        -- card added; all of them.
        local offered = false
        if nfrom > 0 then
          util.sort_first(from, nfrom, hand_order, cards)
          util.sort_first(typed, ntyped, most_icons, cards)
          if nmaps > 0 then offered = rules.sale_value(game, seat, t, { maps[1] }, way.market) ~= nil end
          if not offered and (not way.market or nwilds > 0) then
            local set, n = {}, 0
            if way.market then
              set[1], n = wilds[1], 1
            end
            for k = 1, ntyped do
              n = n + 1
              set[n] = typed[k]
              if rules.sale_value(game, seat, t, set, way.market) then
                offered = true
                break
              end
            end
            if not offered then
              for k = 1, nmaps do set[n + k] = maps[k] end
              n = n + nmaps
              for k = (way.market and 2 or 1), nwilds do
                n = n + 1
                set[n] = wilds[k]
              end
              offered = rules.sale_value(game, seat, t, set, way.market) ~= nil
            end
          end
          -- Those sets miss a sale only when more cards may pay less (the
          -- bank's cap): then every kind of choice is looked at.
          if not offered then offered = some_sale(game, seat, t, from, nfrom, way.market) end
        end
        if offered then
          opts[#opts + 1] = { act = "sell", cargo = t, market = way.market or nil, seller = seat,
            text = "Sell " .. rules.CARGO_NAMES[t] .. (way.market and " with Black Market" or ""),
            choose = { from = from, min = 1, max = nfrom, check = "sale" } }
        end
      end
    end
    return opts
  end

  ---A sale in words, once its cards are chosen: "Sell Rum x2, Wild (4 icons:
  ---2 gold) with Black Market" (from the action alone: it also words sales
  ---of the past).
  function rules.sale_text(game, action)
    local cards = action.cards
    local wild_icons = action.market and 2 or (game.options.wild_in_sale and 1 or 0)
    local icons, all_wild = 0, #cards > 0
    for _, id in ipairs(cards) do
      local c = game.cards[id]
      if c.cargo == "wild" then icons = icons + wild_icons else icons, all_wild = icons + c.icons, false end
    end
    local gold = rules.sell_gold(game, icons)
    if action.seller and rules.has_captain(game, action.seller, "merchant")
        and icons >= rules.MERCHANT_MIN_ICONS then
      gold = gold + 1
    end
    -- What the bank can pay (option bank_short), as it stands now.
    local paid = math.min(gold, game.vars.bank or gold)
    return "Sell " .. util.names(game, cards) .. (all_wild and (" as " .. rules.CARGO_NAMES[action.cargo]) or "")
      .. " (" .. icons .. " icons: " .. gold .. " gold"
      .. (paid < gold and (", the bank has only " .. paid) or "") .. ")"
      .. (action.market and " with Black Market" or "")
  end

  ---Sell `cards` as cargo type `cargo`; `market`: spend the held Black
  ---Market, the wilds sold counting 2 icons each (rules.sale_wilds).
  function rules.sell(game, seat, cargo, cards, market)
    local v = game.vars
    local hand, discard = game:zone("hand", seat), game:zone("discard")
    local icons, maps = 0, 0
    local _, held = rules.held_action(game, seat)
    if market and held ~= "black_market" then error("you do not hold the Black Market", 0) end
    local wild_icons = market and 2 or (game.options.wild_in_sale and 1 or 0)
    for _, id in ipairs(cards) do
      local c = game.cards[id]
      if c.cargo == "wild" then
        if wild_icons == 0 then error("a wild is not sold without the Black Market (option wild_in_sale)", 0) end
        icons = icons + wild_icons
      elseif c.cargo ~= cargo then
        error(card_name(game, id) .. " is not " .. cargo, 0)
      else
        icons = icons + c.icons
      end
      if c.map then maps = maps + 1 end
    end
    for _, id in ipairs(cards) do game:move(id, hand, discard) end
    if market then
      local card = rules.held_action(game, seat)
      game:move(card, game:zone("action", seat), game:zone("action discard"))
    end
    local gold = rules.sell_gold(game, icons)
    if rules.has_captain(game, seat, "merchant") and icons >= rules.MERCHANT_MIN_ICONS then gold = gold + 1 end
    local paid = rules.pay_from_bank(game, seat, gold)
    util.count(game, "sales") -- metric: sales per round
    if game.logging then
      game:event("sold", { seat = seat, cargo = cargo, cards = copy_array(cards), icons = icons, gold = paid,
        text = who(seat) .. " sells " .. util.names(game, cards) .. " (" .. icons .. " icons"
          .. (market and ", Black Market" or "") .. ") for " .. paid .. " gold"
          .. (paid < gold and (" (the bank had only " .. paid .. ")") or "") })
    end
    if game.options.treasure_gain == "sell" and maps > 0 then
      v.treasure_draws = maps
      return rules.draw_treasures(game, seat)
    end
    rules.after_action(game, seat)
  end

  ---Draw the Treasure cards owed (vars.treasure_draws), one at a time (The
  ---Cartographer: draw 2, keep 1, the other to the bottom). Kept face down.
  function rules.draw_treasures(game, seat)
    local v = game.vars
    local tdeck = game:zone("treasures")
    while (v.treasure_draws or 0) > 0 do
      v.treasure_draws = v.treasure_draws - 1
      if #tdeck == 0 then break end
      if rules.has_captain(game, seat, "cartographer") and #tdeck >= 2 then
        local drawn = game:zone("drawn", seat)
        game:move_top(tdeck, drawn)
        game:move_top(tdeck, drawn)
        v.phase = "keep"
        v.keep = "cartographer"
        return
      end
      local c = game:move_top(tdeck, game:zone("treasure", seat))
      if game.logging then
        game:event("treasure_drawn", { seat = seat, text = who(seat) .. " draws a Treasure card" })
        game:event("treasure_drawn_privately", { to = seat, card = c,
          text = who(seat) .. " (privately) draws " .. card_name(game, c) })
      end
    end
    v.treasure_draws = nil
    rules.after_action(game, seat)
  end

  ---Keep a card looked at (secret choice): Quartermaster keeps two of three
  ---cargo cards (the chosen one goes to the bottom of the deck); Cartographer
  ---keeps one of two treasures; Action Card: keeps one of two action cards.
  function rules.keep_drawn(game, seat, card)
    local v = game.vars
    local drawn = game:zone("drawn", seat)
    local kind = v.keep
    v.keep = nil
    v.phase = "action"
    if kind == "quartermaster" then
      game:move(card, drawn, game:zone("deck"), "bottom")
      game:move_all(drawn, game:zone("hand", seat))
      return rules.after_action(game, seat)
    elseif kind == "cartographer" then
      game:move(card, drawn, game:zone("treasure", seat))
      local rest = drawn
      while #rest > 0 do game:move(rest[1], rest, game:zone("treasures"), "bottom") end
      if game.logging then
        game:event("treasure_drawn", { seat = seat, text = who(seat) .. " keeps one of two Treasure cards (Cartographer)" })
      end
      return rules.draw_treasures(game, seat)
    elseif kind == "action" then
      -- "If they already have an action card they must choose one of them to
      -- discard without using."
      local held = game:zone("action", seat)
      if held[1] ~= card then
        game:move(card, drawn, held)
        local old = held[1]
        game:move(old, held, game:zone("action discard"))
        if game.logging then
          game:event("action_discarded", { seat = seat, card = old,
            text = who(seat) .. " discards " .. card_name(game, old) })
        end
      else
        local other = drawn[1]
        game:move(other, drawn, game:zone("action discard"))
        if game.logging then
          game:event("action_discarded", { seat = seat, card = other,
            text = who(seat) .. " discards " .. card_name(game, other) })
        end
      end
      return rules.after_action(game, seat)
    end
    error("nothing to keep", 0)
  end

  ---Action Card island: draw an action card (hold at most one).
  function rules.action_card_action(game, seat)
    local v = game.vars
    local held = game:zone("action", seat)
    if #held == 0 then
      local c = rules.draw_action(game, held)
      if game.logging then
        game:event("action_drawn", { seat = seat, text = who(seat) .. " draws an action card" })
        if c then
          game:event("action_drawn_privately", { to = seat, card = c,
            text = who(seat) .. " (privately) draws " .. action_text(game, c) })
        end
      end
      return rules.after_action(game, seat)
    end
    local drawn = game:zone("drawn", seat)
    local c = rules.draw_action(game, drawn)
    if c == nil then return rules.after_action(game, seat) end
    if game.logging then
      game:event("action_drawn", { seat = seat, text = who(seat) .. " draws an action card and must discard one" })
    end
    v.phase = "keep"
    v.keep = "action"
  end

  ---Temple: the cards that qualify ("a card that has at least one icon that
  ---exactly matches the demand token ... Wild cards do not match"; The
  ---Smuggler: wilds match as 1 icon; Offering: any non-wild card), with the
  ---cubes each gives.
  function rules.temple_cards(game, seat)
    local v = game.vars
    local hand = game:zone("hand", seat)
    local _, held = rules.held_action(game, seat)
    local smuggler = rules.has_captain(game, seat, "smuggler")
    local out = {}
    -- "take a Temple Blessing cube for each icon on that card": with none
    -- left there is nothing to take, and no offer is listed.
    if v.cubes_left <= 0 then return out end
    for i = 1, #hand do
      local c = game.cards[hand[i]]
      if c.cargo == v.demand then
        out[#out + 1] = { card = hand[i], cubes = c.icons }
      elseif c.cargo == "wild" and smuggler then
        out[#out + 1] = { card = hand[i], cubes = 1 }
      elseif c.kind == "cargo" and c.cargo ~= "wild" and held == "offering" then
        out[#out + 1] = { card = hand[i], cubes = c.icons, offering = true }
      end
    end
    for _, o in ipairs(out) do o.cubes = rules.temple_cubes(game, seat, o.cubes) end
    table.sort(out, by_card)
    return out
  end

  ---The cubes a card of `icons` qualifying icons brings: one per icon, The
  ---Priest one more, no more than the cubes left ("for each icon on that card",
  ---from the 10 cubes).
  function rules.temple_cubes(game, seat, icons)
    local cubes = icons
    if rules.has_captain(game, seat, "priest") then cubes = cubes + 1 end
    return math.min(cubes, game.vars.cubes_left)
  end

  function rules.temple(game, seat, card, offering)
    local v = game.vars
    local c = game.cards[card]
    if offering then
      local a = rules.held_action(game, seat)
      game:move(a, game:zone("action", seat), game:zone("action discard"))
    end
    local cubes = rules.temple_cubes(game, seat, c.cargo == "wild" and 1 or c.icons)
    game:move(card, game:zone("hand", seat), game:zone("discard"))
    v.cubes_left = v.cubes_left - cubes
    v.cubes[seat] = v.cubes[seat] + cubes
    if game.logging then
      game:event("blessed", { seat = seat, card = card, cubes = cubes,
        text = who(seat) .. " offers " .. card_name(game, card) .. (offering and " (Offering)" or "") .. " at the Temple for "
          .. cubes .. " blessing cube" .. (cubes == 1 and "" or "s") })
    end
    if cubes > 0 and game.options.temple_token == "change" then
      local others = {}
      for _, t in ipairs(rules.DEMAND_TOKENS) do
        if t ~= v.demand then others[#others + 1] = t end
      end
      v.demand = others[game:random(1, #others)]
      if game.logging then
        game:event("demand_changed", { demand = v.demand, text = "The temple now demands " .. rules.CARGO_NAMES[v.demand] })
      end
    end
    rules.after_action(game, seat)
  end

  ---Whirlpool: pull an opponent's ship from another island and attack it for
  ---free ("without it counting as their attack for this turn").
  function rules.whirlpool_targets(game, seat)
    local v = game.vars
    local out = {}
    for k = 1, game.seats - 1 do
      local s = game:next_seat(seat, k)
      if v.ship[s] ~= v.ship[seat] then out[#out + 1] = s end
    end
    return out
  end

  ---"They may then attack that ship for free": the attack is the puller's
  ---choice (`no_attack`: pull only, and risk no retaliation).
  function rules.whirlpool(game, seat, target, no_attack)
    local v = game.vars
    local from = v.ship[target]
    v.ship[target] = v.ship[seat]
    if game.logging then
      game:event("pulled", { seat = seat, target = target, from = from,
        text = who(seat) .. " pulls " .. who(target) .. "'s ship into the Whirlpool" })
    end
    if no_attack then return rules.after_action(game, seat) end
    v.phase = "after"
    rules.begin_attack(game, seat, target, true)
  end

  ---After the space's action: the optional attack, then the end of the turn.
  function rules.after_action(game, seat)
    local v = game.vars
    v.phase = "after"
    v.asked = seat
    rules.check_immediate_end(game)
  end

  ---The options of the island the ship is on.
  function rules.space_options(game, seat, opts)
    local v = game.vars
    local kind = rules.island_kind(game, v.ship[seat])
    if kind == "port" then
      local p = rules.port_of(game, v.ship[seat])
      local up = game:zone("port " .. p)
      if rules.has_captain(game, seat, "quartermaster") then
        opts[#opts + 1] = { act = "port", how = "look3", text = "Look at three face-down cards, keep two" }
      else
        opts[#opts + 1] = { act = "port", how = "down2", text = "Take two face-down cards" }
      end
      if rules.has_captain(game, seat, "harbormaster") then
        opts[#opts + 1] = { act = "port", how = "down3", text = "Take three face-down cards" }
      end
      if #up > 0 then
        opts[#opts + 1] = { act = "port", how = "face_up", cards = copy_array(up),
          text = "Take one face-down card and " .. util.names(game, up) }
      end
      if game.options.treasure_gain == "port" and #rules.map_cards(game, seat) > 0 and #game:zone("treasures") > 0 then
        opts[#opts + 1] = { act = "port", how = "map", text = "Hand in a Treasure Map card for a Treasure card" }
      end
    elseif kind == "sell" then
      for _, o in ipairs(rules.sale_options(game, seat)) do opts[#opts + 1] = o end
    elseif kind == "action" then
      opts[#opts + 1] = { act = "draw_action", text = "Draw an action card" }
    elseif kind == "temple" then
      for _, t in ipairs(rules.temple_cards(game, seat)) do
        opts[#opts + 1] = { act = "temple", card = t.card, offering = t.offering or nil,
          text = "Offer " .. card_name(game, t.card) .. " for " .. t.cubes .. " cube" .. (t.cubes == 1 and "" or "s")
            .. (t.offering and " (play Offering)" or "") }
      end
    elseif kind == "whirlpool" then
      for _, s in ipairs(rules.whirlpool_targets(game, seat)) do
        opts[#opts + 1] = { act = "whirlpool", seat = s,
          text = "Pull " .. who(s) .. " from " .. rules.island_name(game, v.ship[s]) .. " and attack for free" }
      end
      for _, s in ipairs(rules.whirlpool_targets(game, seat)) do
        opts[#opts + 1] = { act = "whirlpool", seat = s, no_attack = true,
          text = "Pull " .. who(s) .. " from " .. rules.island_name(game, v.ship[s]) .. " without attacking" }
      end
    end
  end
end
