--[[
SeaDogs: the greedy bot, and two variants of it that bluff differently (to
measure the greedy bot's bluffing against). It decides from its seat's view
only; where a player mixes its play (the wager, whether to bluff, a call
that does not quite pay) it draws from its own random stream (view:random,
given by the core for each decision), so its wager tells nothing of the
truth.

What it does:
  captains   keeps the captain of GREEDY.captain_order it likes best
  moving     values each island it can reach by what its action would bring
             now: Sell by its best sale (gold, and a Treasure card per map
             card sold), the Temple by the end-game bonus the cubes add, a
             Port by the cards, Action Card by an action card when it holds
             none, the Whirlpool by the richest opponent it could pull; plus
             a bonus for ending beside a ship worth attacking
  actions    takes the action worth most: the best sale, the card worth the
             most temple bonus, the face-up pair when it matches its hand
  attacks    attacks a ship beside it when the ship has cards or gold enough
             to pay for the retaliation; demands the die worth more to it
             than the other is to the defender; rerolls when both are poor
  defending  claims to have none when it has none; when it has the item, it
             hands it over or bluffs, bluffing when the demander's record of
             calls (vars.calls) makes it pay; never about gold (public). The
             wager is drawn from GREEDY.wagers whatever the truth. Forces a
             reroll with gunpowder when the demand would cost it 3 cards
  calling    always calls a claim that is certainly a lie (no gold claimed
             with gold of its own), never one certainly true; otherwise calls
             when the chance of a lie makes it pay. That chance comes from
             the claimant's record (vars.claims): the share of its claims
             called that were lies, no more than the chance that its hand
             (by its size) holds the item
  greedy_always_claim  greedy, but answers every demand with a claim of
                       the largest wager it may place
  greedy_never_call    greedy, but never calls a claim
(Their names start with "greedy": `play` and the REPL seat the first bot in
name order by default, which must stay the greedy bot.)
]]

return function(rules)
  rules.GREEDY = {
    wagers = { 40, 35, 25 },   -- % of claims wagering 1, 2, 3 gold (true or not)
    bluff_rate = 85,           -- % of the time it bluffs when bluffing pays
    bluff_floor = 15,          -- % of the time it bluffs anyway (a big loss)
    call_rate = 10,            -- % of the time it calls a claim that does not quite pay
    sell_min_gold = 3,         -- smallest sale worth a trip to Sell (without maps)
    card_value = 1.2,          -- what a cargo card in hand is worth, in gold
    action_value = 3.0,        -- what holding an action card is worth, in gold
    cube_value = 2.5,          -- what a blessing cube is worth at least, in gold
    attack_bonus = 1.5,        -- ending beside a ship worth attacking
    attack_min = 1.5,          -- the least a ship must be worth (prey) to sail beside it
    attack_gain = 0.5,         -- the least an attack must bring on average (gold) to be made
    captain_order = { "merchant", "priest", "card_sharp", "harbormaster", "quartermaster", "navigator",
      "cartographer", "old_salt", "boarding_master", "gunner", "smuggler", "ironclad", "sea_witch" },
  }

  local G = rules.GREEDY

  ---True `pct` % of the time, from the bot's own random stream.
  local function chance(view, pct)
    return view:random(1, 100) <= pct
  end

  local function count(z) return z.count or #z end

  ---What a sale is worth to the bot: its gold, a Treasure card per map card
  ---sold (option treasure_gain = "sell"), less the cards it gives up.
  local function sale_value(view, sale)
    local maps = 0
    for _, c in ipairs(sale.cards) do
      if view.cards[c].map then maps = maps + 1 end
    end
    local treasure = view.options.treasure_gain == "sell" and maps * rules.TREASURE_AVERAGE or 0
    return math.min(sale.gold, view.vars.bank) + treasure - #sale.cards * 0.3, treasure
  end

  ---What the best sale of the bot's hand is worth, if worth a trip.
  local function best_sale(view)
    local best = 0
    for _, s in ipairs(rules.sales(view, view.seat)) do
      local val, treasure = sale_value(view, s)
      if (s.gold >= G.sell_min_gold or treasure > 0) and val > best then best = val end
    end
    return best
  end

  ---The end-game bonus `cubes` more blessing cubes add for the bot.
  local function cubes_worth(view, cubes)
    local have = view.vars.cubes[view.seat]
    return rules.temple_bonus(view, have + cubes) - rules.temple_bonus(view, have)
  end

  ---What `cubes` more blessing cubes are worth to the bot: the bonus they
  ---add now, or GREEDY.cube_value each when more (the bonus grows with every
  ---cube: the first ones pay through the later ones).
  local function cubes_value(view, cubes)
    return math.max(cubes_worth(view, cubes), cubes * G.cube_value)
  end

  ---What the bot's best temple offering is worth (the bonus, less the card).
  local function best_temple(view)
    local best = 0
    for _, t in ipairs(rules.temple_cards(view, view.seat)) do
      local val = cubes_value(view, t.cubes) - G.card_value
      if val > best then best = val end
    end
    return best
  end

  ---How much attacking seat `s` is worth: its cards and gold.
  local function prey(view, s)
    return count(view:zone("hand", s)) * 0.5 + math.min(view.vars.gold[s], 4) * 0.4
  end

  local attack_worth -- defined below, with what a demand is worth

  local function island_value(view, island)
    local v = view.vars
    local me = view.seat
    local kind = rules.island_kind(view, island)
    local val = 0
    if kind == "sell" then
      val = best_sale(view)
    elseif kind == "temple" then
      val = best_temple(view)
    elseif kind == "port" then
      val = 2 * G.card_value
    elseif kind == "action" then
      val = count(view:zone("action", me)) == 0 and G.action_value or 0.2
    elseif kind == "whirlpool" then
      local best = 0
      for s = 1, view.seats do
        if s ~= me and v.ship[s] ~= island then best = math.max(best, attack_worth(view, s)) end
      end
      val = best
    end
    for s = 1, view.seats do
      if s ~= me and v.ship[s] == island and prey(view, s) >= G.attack_min then val = val + G.attack_bonus; break end
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

  -- (island_value, above, values the Whirlpool by it)
  ---What attacking seat `s` brings the bot on average over the 36 rolls:
  ---for each roll the better demand (its value to the bot, less what the
  ---other die's retaliation would cost it), doubles having no retaliation.
  attack_worth = function(view, s)
    local faces = rules.DICE_FACES
    local gain, loss = {}, {}
    for i, f in ipairs(faces) do
      gain[i] = face_value(view, s, f)
      loss[i] = my_loss(view, f)
    end
    local total = 0
    for i = 1, #faces do
      for j = 1, #faces do
        if i == j then
          total = total + gain[i]
        else
          total = total + math.max(gain[i] - loss[j], gain[j] - loss[i])
        end
      end
    end
    return total / (#faces * #faces)
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
      if o.act == "attack" then
        local worth = attack_worth(view, o.seat)
        if worth >= G.attack_gain and worth > bv then bi, bv = i, worth end
      end
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
  ---Black Market): its value (sale_value), its cards, gold and treasure.
  local function best_sale_of(view, o)
    local best, cards, gold, treasure_of = nil, nil, 0, 0
    for _, s in ipairs(rules.sales(view, view.seat)) do
      if s.cargo == o.cargo and (s.market or false) == (o.market or false) then
        local val, treasure = sale_value(view, s)
        if best == nil or val > best then best, cards, gold, treasure_of = val, s.cards, s.gold, treasure end
      end
    end
    return best, cards, gold, treasure_of
  end

  local function choose_action(view, opts)
    local me = view.seat
    local bi, bv = index_of(opts, "skip"), 0
    local sale = {}
    for i, o in ipairs(opts) do
      local val = nil
      if o.act == "sell" then
        local gold, treasure
        val, sale[i], gold, treasure = best_sale_of(view, o)
        if val ~= nil then
          if o.market then val = val - G.action_value end
          if gold < G.sell_min_gold - 0.5 and treasure == 0 then val = nil end
        end
      elseif o.act == "temple" then
        local cubes = rules.temple_cubes(view, me, view.cards[o.card].icons)
        val = cubes_value(view, cubes) - G.card_value
        if o.offering then val = val - G.action_value end
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
        val = count(view:zone("action", me)) == 0 and G.action_value or 0.2
      elseif o.act == "whirlpool" and not o.no_attack then
        val = attack_worth(view, o.seat)
      elseif o.act == "play" and o.action == "powder_keg" then
        val = 100
      end
      if val ~= nil and val > bv then bi, bv = i, val end
    end
    bi = bi or 1
    return bi, sale[bi]
  end

  ---The claim to make, its wager drawn from GREEDY.wagers (the same
  ---whether the claim is true or not), no more than the bot may wager.
  local function claim_option(view, opts)
    local most = 0
    for _, o in ipairs(opts) do
      if o.act == "claim" and o.wager > most then most = o.wager end
    end
    if most == 0 then return nil end
    local roll, w = view:random(1, 100), #G.wagers
    local acc = 0
    for k, pct in ipairs(G.wagers) do
      acc = acc + pct
      if roll <= acc then w = k; break end
    end
    w = math.min(w, most)
    for i, o in ipairs(opts) do
      if o.act == "claim" and o.wager == w then return i end
    end
    return nil
  end

  ---A share from a public count, pulled towards `prior` by `weight`
  ---pseudo-observations (little is known early in a game).
  local function share(made, asked, prior, weight)
    return ((made or 0) + prior * weight) / ((asked or 0) + weight)
  end

  ---Whether to bluff, holding what `demander` demands (a loss of `loss`):
  ---it pays when the demander calls seldom enough, by its record of calls
  ---(vars.calls); even so the bot mixes (GREEDY.bluff_rate), and bluffs now
  ---and then when it does not pay but the loss is big (GREEDY.bluff_floor).
  local function should_bluff(view, demander, loss)
    local v = view.vars
    local calls = v.calls or { made = {}, asked = {} }
    local p_call = share(calls.made[demander], calls.asked[demander], 0.35, 4)
    local mean_wager = 0
    for k, pct in ipairs(G.wagers) do mean_wager = mean_wager + k * pct / 100 end
    if (1 - p_call) * loss > p_call * mean_wager then return chance(view, G.bluff_rate) end
    return loss >= 2 * G.card_value and chance(view, G.bluff_floor)
  end

  ---The chance that the claim being called (attack `a`) is a lie. Certain
  ---for gold (public: a lie unless the wager came from the bank); none for
  ---cargo or a map from an empty hand. Otherwise the claimant's record
  ---(vars.claims): the share of its claims called that were lies, which is
  ---at most the chance that its hand holds the item at all (from its size:
  ---a player who always claimed would lie that often).
  local function lie_chance(view, a)
    local t, face = a.target, a.face
    if face == "gold" then return a.from_bank and 0 or 1 end
    local cards = count(view:zone("hand", t))
    if cards == 0 then return 0 end
    local holds = 1 - (face == "chest" and 0.82 or 0.77) ^ cards
    local c = view.vars.claims or { shown = {}, caught = {} }
    local caught = c.caught[t] or 0
    local record = share(caught, caught + (c.shown[t] or 0), 0.3, 4)
    return math.min(record, holds)
  end

  ---What a lie caught brings besides the wager: the demand resolved.
  local function lie_value(view, a)
    if a.face == "chest" then return G.card_value + rules.TREASURE_AVERAGE / 2 end
    return 1.6 * G.card_value
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
      local claim = claim_option(view, opts)
      if claim == nil then return index_of(opts, "hand_over") or 1 end
      if not has then return claim end
      -- Gold is public: a claim of having none would be a certain lie.
      if face == "gold" then return index_of(opts, "hand_over") or 1 end
      if loss >= G.card_value and should_bluff(view, a.demander, loss) then return claim end
      return index_of(opts, "hand_over") or 1
    elseif a.stage == "call" then
      local ci = index_of(opts, "call")
      if ci == nil then return index_of(opts, "pass") or 1 end
      local p_lie = lie_chance(view, a)
      if p_lie >= 1 then return ci end
      if p_lie <= 0 then return index_of(opts, "pass") or 1 end
      local gain = p_lie * (a.wager + lie_value(view, a)) - (1 - p_lie) * a.wager
      if gain > 0 or (gain > -1 and chance(view, G.call_rate)) then return ci end
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

  ---The stage of the attack being decided, or nil.
  local function attack_stage(view)
    local a = view.vars.attack
    return view.vars.phase == "attack" and a and a.stage or nil
  end

  ---Greedy, but every demand it may answer with a claim is answered with
  ---the largest wager.
  local function greedy_always_claim(view, decision)
    if attack_stage(view) == "respond" then
      local bi, bw = nil, 0
      for i, o in ipairs(decision.options) do
        if o.act == "claim" and o.wager > bw then bi, bw = i, o.wager end
      end
      if bi then return bi end
    end
    return greedy_choice(view, decision)
  end

  ---Greedy, but it never calls a claim.
  local function greedy_never_call(view, decision)
    if attack_stage(view) == "call" then return index_of(decision.options, "pass") or 1 end
    return greedy_choice(view, decision)
  end

  local safe_bot = require("lib.util").safe_bot
  rules.greedy_choice = greedy_choice
  rules.playout_bot = "greedy"
  rules.bots = {
    greedy = safe_bot(greedy_choice),
    greedy_always_claim = safe_bot(greedy_always_claim),
    greedy_never_call = safe_bot(greedy_never_call),
  }
end
