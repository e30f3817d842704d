--[[
SeaDogs: the greedy bot. It decides from its seat's view only, and has no
random generator: where a player would mix its play (bluffing, calling) it
takes a rate from rules.GREEDY and a number worked out from the public
state (turns taken, seat), so that it bluffs and calls at about that rate
without being predictable from one turn to the next.

What it does:
  captains   keeps the captain of GREEDY.captain_order it likes best
  moving     values each island it can reach: Sell by the gold of its best
             sale (only big sales), Temple by the cubes it would take, a
             Port by the cards, Action Card if it holds none, the Whirlpool
             by the richest opponent it could pull; plus a bonus for
             ending beside a ship worth attacking
  actions    sells the sale worth the most gold, offers the card worth the
             most cubes, takes the face-up pair when it matches its hand
  attacks    attacks a ship beside it when the ship has cards or gold;
             demands the die worth more to it than the other is to the
             defender; rerolls when both dice are poor
  defending  claims to have none (wagering 2) when it has none; when it has
             the item it hands it over, unless it would lose much, then it
             bluffs at GREEDY.bluff_rate; forces a reroll with gunpowder
             when the demand would cost it 3 cards or more
  calling    calls when the chance the claim is a lie, guessed from the
             defender's hand size and the public gold, makes calling pay
]]

return function(rules)
  rules.GREEDY = {
    bluff_rate = 35,        -- % of the time it bluffs when holding the item
    call_rate = 10,         -- % of the time it calls a claim that does not seem to pay
    sell_min_gold = 3,      -- smallest sale worth a trip to Sell
    card_value = 1.2,       -- what a cargo card in hand is worth, in gold
    cube_value = 2.0,       -- what a blessing cube is worth, in gold
    attack_bonus = 1.5,     -- ending beside a ship worth attacking
    captain_order = { "merchant", "priest", "card_sharp", "harbormaster", "quartermaster", "navigator",
      "cartographer", "old_salt", "boarding_master", "gunner", "smuggler", "ironclad", "sea_witch" },
  }

  local G = rules.GREEDY

  ---A pseudo-random number 0..99 from the public state (no generator in a view).
  local function mix(view, salt)
    local v = view.vars
    return (v.turns * 37 + view.seat * 11 + (v.bank or 0) * 7 + salt * 13) % 100
  end

  local function count(z) return z.count or #z end

  ---Gold the best sale of the bot's hand would bring.
  local function best_sale(view)
    local best, bi = 0, nil
    for i, s in ipairs(rules.sales(view, view.seat)) do
      if s.gold - #s.cards * 0.3 > best then best, bi = s.gold - #s.cards * 0.3, i end
    end
    return best, bi
  end

  local function best_temple(view)
    local best = 0
    for _, t in ipairs(rules.temple_cards(view, view.seat)) do
      if t.cubes > best then best = t.cubes end
    end
    return math.min(best, view.vars.cubes_left)
  end

  ---How much attacking seat `s` is worth: its cards and gold.
  local function prey(view, s)
    return count(view:zone("hand", s)) * 0.5 + math.min(view.vars.gold[s], 4) * 0.4
  end

  local function island_value(view, island)
    local v = view.vars
    local me = view.seat
    local kind = rules.island_kind(view, island)
    local val = 0
    if kind == "sell" then
      local g = best_sale(view)
      if g >= G.sell_min_gold then val = g end
    elseif kind == "temple" then
      val = best_temple(view) * G.cube_value
    elseif kind == "port" then
      val = 2 * G.card_value
    elseif kind == "action" then
      val = count(view:zone("action", me)) == 0 and 1.5 or 0.2
    elseif kind == "whirlpool" then
      local best = 0
      for s = 1, view.seats do
        if s ~= me and v.ship[s] ~= island and prey(view, s) > best then best = prey(view, s) end
      end
      val = best
    end
    for s = 1, view.seats do
      if s ~= me and v.ship[s] == island and prey(view, s) >= 1.5 then val = val + G.attack_bonus; break end
    end
    return val
  end

  local function index_of(opts, act)
    for i, o in ipairs(opts) do
      if o.act == act then return i end
    end
    return nil
  end

  ---What face `face` is worth to a demander against `target` (gold).
  local function face_value(view, target, face)
    local v = view.vars
    if face == "gold" then
      if v.gold[target] == 0 then return 0 end
      local n = rules.has_most_gold(view, target) and 2 or 1
      return math.min(n, v.gold[target])
    end
    local cards = count(view:zone("hand", target))
    if face == "chest" then return cards * 0.2 * 2 end
    -- The chance a hand of n cards holds a type is about 1 - (3/4)^n; a
    -- hit brings about 1.3 cards.
    return (1 - 0.75 ^ cards) * 1.3 * G.card_value
  end

  ---What the bot would lose to `face` (it knows its own hand).
  local function my_loss(view, face)
    local me = view.seat
    if face == "gold" then
      return math.min(view.vars.gold[me], rules.has_most_gold(view, me) and 2 or 1)
    end
    local hand = view:zone("hand", me)
    local loss = 0
    for i = 1, #hand do
      local c = view.cards[hand[i]]
      if face == "chest" then
        if c.map then return G.card_value + 1 end
      elseif c.cargo == face then
        loss = loss + G.card_value * c.icons
      end
    end
    return loss
  end

  local function choose_captain(view, opts)
    local best, bi = nil, 1
    for i, o in ipairs(opts) do
      local id = view.cards[o.card].captain
      for rank, c in ipairs(G.captain_order) do
        if c == id and (best == nil or rank < best) then best, bi = rank, i end
      end
    end
    return bi
  end

  local function choose_turn(view, opts)
    local v = view.vars
    -- Free plays first: gunpowder, a look at a hand.
    for i, o in ipairs(opts) do
      if o.act == "play" and (o.action == "powder_keg" or o.action == "press_gang") then return i end
    end
    local bi, bv = nil, -1
    for i, o in ipairs(opts) do
      if o.act == "attack" and prey(view, o.seat) >= 1 and prey(view, o.seat) > bv then bi, bv = i, prey(view, o.seat) end
    end
    if bi then return bi end
    if v.phase == "start" then
      local mi, mv = nil, nil
      for i, o in ipairs(opts) do
        if o.act == "move" then
          local val = island_value(view, o.island)
          if mv == nil or val > mv then mi, mv = i, val end
        end
      end
      return mi or 1
    end
    return index_of(opts, "end") or 1
  end

  ---The best sale a Sell option allows (its type, with or without the
  ---Black Market): its value (gold less 0.3 a card) and its cards.
  local function best_sale_of(view, o)
    local best, cards = nil, nil
    for _, s in ipairs(rules.sales(view, view.seat)) do
      if s.cargo == o.cargo and (s.market or false) == (o.market or false) then
        local val = s.gold - #s.cards * 0.3
        if best == nil or val > best then best, cards = val, s.cards end
      end
    end
    return best, cards
  end

  local function choose_action(view, opts)
    local me = view.seat
    local bi, bv = index_of(opts, "skip"), 0
    local sale = {}
    for i, o in ipairs(opts) do
      local val = nil
      if o.act == "sell" then
        val, sale[i] = best_sale_of(view, o)
        if val ~= nil and val < G.sell_min_gold - 0.5 then val = nil end
      elseif o.act == "temple" then
        val = math.min(view.cards[o.card].icons, view.vars.cubes_left) * G.cube_value - G.card_value
      elseif o.act == "port" then
        if o.how == "face_up" then
          val = G.card_value
          for _, c in ipairs(o.cards) do
            local t = view.cards[c].cargo
            val = val + view.cards[c].icons * 0.6
            if t == "wild" or rules.holds_type(view, me, t) then val = val + 0.5 end
          end
        elseif o.how == "down3" then
          val = 3 * G.card_value
        elseif o.how == "map" then
          val = rules.TREASURE_AVERAGE
        else
          val = 2 * G.card_value + 0.1
        end
      elseif o.act == "draw_action" then
        val = 1
      elseif o.act == "whirlpool" and not o.no_attack then
        val = prey(view, o.seat)
      elseif o.act == "play" and o.action == "powder_keg" then
        val = 100
      end
      if val ~= nil and val > bv then bi, bv = i, val end
    end
    bi = bi or 1
    return bi, sale[bi]
  end

  local function choose_attack(view, opts)
    local v = view.vars
    local a = v.attack
    local me = view.seat
    if a.stage == "smoke" then
      return index_of(opts, "smoke") or index_of(opts, "allow") or 1
    elseif a.stage == "parley" then
      return index_of(opts, "parley") or index_of(opts, "allow") or 1
    elseif a.stage == "choose" then
      local bi, bv = 1, nil
      for i, o in ipairs(opts) do
        if o.act == "demand" then
          local other = a.doubles and 0 or my_loss(view, a.dice[3 - o.die])
          local val = face_value(view, a.defender, a.dice[o.die]) - other
          if bv == nil or val > bv then bi, bv = i, val end
        end
      end
      if bv ~= nil and bv < 0 and v.powder[me] >= 2 then
        return index_of(opts, "reroll") and (index_of(opts, "reroll") + 2) or bi
      end
      return bi
    elseif a.stage == "respond" then
      local face = a.face
      local has = rules.holds(view, me, face)
      local loss = my_loss(view, face)
      for i, o in ipairs(opts) do
        if o.act == "play" and o.action == "powder_keg" then return i end
      end
      if has and loss >= 3 * G.card_value then
        for i, o in ipairs(opts) do
          if o.act == "force" and o.dice == 3 then return i end
        end
      end
      local most = 0
      for _, o in ipairs(opts) do
        if o.act == "claim" and o.wager > most then most = o.wager end
      end
      local function claim(w)
        w = math.min(w, most)
        for i, o in ipairs(opts) do
          if o.act == "claim" and o.wager == w then return i end
        end
        return nil
      end
      if not has then return claim(2) or index_of(opts, "hand_over") or 1 end
      -- Gold is public: a claim of having none would be called.
      if face ~= "gold" and loss >= 2 * G.card_value and mix(view, 1) < G.bluff_rate then
        return claim(1) or index_of(opts, "hand_over") or 1
      end
      return index_of(opts, "hand_over") or 1
    elseif a.stage == "call" then
      local ci = index_of(opts, "call")
      if ci == nil then return index_of(opts, "pass") or 1 end
      local t, face = a.target, a.face
      local p_lie
      if face == "gold" then
        -- Gold is public: the claim is a lie unless the wager came from
        -- the bank (the target had none).
        p_lie = a.from_bank and 0 or 1
      elseif face == "chest" then
        p_lie = 1 - 0.8 ^ count(view:zone("hand", t))
      else
        p_lie = 1 - 0.75 ^ count(view:zone("hand", t))
      end
      p_lie = p_lie * 0.35 -- a player who holds it often hands it over instead
      local gain = p_lie * (a.wager + face_value(view, t, face) * 1.5) - (1 - p_lie) * a.wager
      if gain > 0 or (gain > -1 and mix(view, 2) < G.call_rate) then return ci end
      return index_of(opts, "pass") or 1
    elseif a.stage == "chest" then
      return 1
    end
    return 1
  end

  local function choose_keep(view, opts)
    local v = view.vars
    local bi, bv = 1, nil
    for i, o in ipairs(opts) do
      local c = view.cards[o.card]
      local val
      if v.keep == "quartermaster" then
        val = -(c.icons or 0) -- put the poorest card at the bottom
      elseif v.keep == "cartographer" then
        val = c.bonus or 0
      else
        local order = { powder_keg = 6, press_gang = 5, smoke_screen = 4, black_market = 3, parley = 3, offering = 2,
          fair_winds = 2, spyglass = 1, loaded_dice = 1 }
        val = order[c.action] or 0
      end
      if bv == nil or val > bv then bi, bv = i, val end
    end
    return bi
  end

  local function greedy_choice(view, decision)
    local opts = decision.options
    if #opts <= 1 then return 1 end
    -- A reaction window: a Powder Keg is worth taking, the rest waits.
    if decision.window then
      for i, o in ipairs(opts) do
        if o.act == "play" and o.action == "powder_keg" then return i end
      end
      return 1
    end
    local phase = view.vars.phase
    if phase == "captain" then return choose_captain(view, opts) end
    if phase == "attack" then return choose_attack(view, opts) end
    if phase == "start" or phase == "after" then return choose_turn(view, opts) end
    if phase == "action" then return choose_action(view, opts) end
    if phase == "keep" then return choose_keep(view, opts) end
    if phase == "discard_down" then
      local bi, bv = 1, nil
      for i, o in ipairs(opts) do
        local icons = view.cards[o.card].icons
        if bv == nil or icons < bv then bi, bv = i, icons end
      end
      return bi
    end
    return 1
  end

  rules.greedy_choice = greedy_choice
  rules.playout_bot = "greedy"
  rules.bots = {
    greedy = require("lib.util").safe_bot(greedy_choice),
  }
end
