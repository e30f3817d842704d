--[[
SeaDogs: attacking and defending ("Attacking and Defending", "Attacking",
"Defending", "Gunpowder Tokens").

vars.attack, while an attack is in progress (public, no card ids):
  attacker, defender  seats; free: the Whirlpool's free attack
  back                the turn phase to return to afterwards
  stage               who decides what now:
                        "smoke"   defender, holding an action card: play Smoke
                                  Screen or let the attack go ahead
                        "choose"  attacker: demand a die, spend gunpowder to
                                  reroll, or play Loaded Dice
                        "respond" target: hand over, claim not to have it with
                                  a wager, or (not in retaliation) spend
                                  gunpowder to force a reroll
                        "call"    demander: call the claim by matching, or not
                        "chest"   target: which Treasure Map card to give
                        "parley"  attacker, holding an action card: play
                                  Parley against the retaliation, or not
  dice                the two faces; doubles: true when they match (and no
                      Loaded Dice result is showing)
  loaded              the die Loaded Dice turned (1 or 2), false once none
                      is or once that die is rerolled
  chosen              the die demanded by the attacker (the other one is the
                      retaliation's)
  demander, target, face   the demand being resolved
  retaliation         true during the retaliation
  wager, pot          the claim's wager, and the gold on the table (gold is
                      conserved: bank + players' gold + pot never changes
                      except for what the bank pays out); from_bank: the
                      wager came from the bank (the target had no gold)
]]

return function(rules)
  local util = require("lib.util")
  local function who(s) return "P" .. tostring(s) end

  local function face_name(face) return rules.FACE_NAMES[face] or face end

  ---Add one to a seat's count in one of the public records of claims and
  ---calls (vars.claims, vars.calls).
  function rules.count(record, seat) record[seat] = (record[seat] or 0) + 1 end

  ---Does `seat` have what `face` demands? (Cargo: a card with that icon,
  ---wilds excluded; chest: a Treasure Map card; gold: any gold.)
  function rules.holds(game, seat, face)
    if face == "chest" then return #rules.map_cards(game, seat) > 0 end
    if face == "gold" then return game.vars.gold[seat] > 0 end
    return rules.holds_type(game, seat, face)
  end

  ---Gold a gold demand takes from `seat`: "one gold coin. If the defender
  ---has the most gold coins of all players they must give two" (The
  ---Ironclad: never more than 1).
  function rules.gold_demand(game, seat)
    if rules.has_most_gold(game, seat) and not rules.has_captain(game, seat, "ironclad") then return 2 end
    return 1
  end

  local function roll_die(game)
    return rules.DICE_FACES[game:random(1, #rules.DICE_FACES)]
  end

  local function set_doubles(a)
    a.doubles = (a.dice[1] == a.dice[2]) and not a.loaded
  end

  ---Roll the dice (all, or one die `which`).
  function rules.roll(game, which)
    local a = game.vars.attack
    local one = which == nil or which == 1 or which == 3
    local two = which == nil or which == 2 or which == 3
    if one then a.dice[1] = roll_die(game) end
    if two then a.dice[2] = roll_die(game) end
    -- Loaded Dice: "the result never counts as doubles". Once the die it
    -- turned is rolled again (gunpowder), that result is gone and a new
    -- roll may make doubles again.
    if a.loaded and ((a.loaded == 1 and one) or (a.loaded == 2 and two)) then a.loaded = false end
    set_doubles(a)
    if game.logging then
      game:event("rolled", { seat = a.attacker, dice = util.copy_array(a.dice), doubles = a.doubles,
        text = who(a.attacker) .. " rolls " .. face_name(a.dice[1]) .. " and " .. face_name(a.dice[2])
          .. (a.doubles and " (doubles: the attack succeeds automatically)" or "") })
    end
    a.stage = "choose"
    game.vars.asked = a.attacker
  end

  ---Start an attack of `attacker` on `defender` (free: the Whirlpool's).
  function rules.begin_attack(game, attacker, defender, free)
    local v = game.vars
    v.attack = {
      attacker = attacker, defender = defender, free = free or false, back = v.phase,
      dice = { "", "" }, doubles = false, loaded = false, retaliation = false,
      wager = 0, pot = 0, from_bank = false,
    }
    v.phase = "attack"
    util.count(game, "attacks") -- metric: attacks per round
    if game.logging then
      game:event("attack", { seat = attacker, target = defender, free = free or false,
        text = who(attacker) .. " attacks " .. who(defender) .. (free and " (Whirlpool, free)" or "") })
    end
    -- Smoke Screen: "when a ship attacks you, before the roll". Asked of a
    -- defender holding any action card (how many a seat holds is public), so
    -- the question does not tell which card it holds.
    if #game:zone("action", defender) > 0 then
      v.attack.stage = "smoke"
      v.asked = defender
      return
    end
    rules.roll(game)
  end

  ---The attack is over: back to the turn.
  function rules.end_attack(game)
    local v = game.vars
    local a = v.attack
    v.attack = nil
    v.phase = a.back
    v.asked = v.turn
    if v.phase == "action" then v.phase = "after" end
  end

  ---Start resolving a demand of `face` by `demander` on `target`.
  function rules.begin_demand(game, demander, target, face)
    local v = game.vars
    local a = v.attack
    a.demander, a.target, a.face = demander, target, face
    a.wager, a.pot, a.from_bank = 0, 0, false
    if game.logging then
      game:event("demand", { seat = demander, target = target, face = face, retaliation = a.retaliation,
        text = who(demander) .. (a.retaliation and " retaliates and demands " or " demands ") .. face_name(face)
          .. " from " .. who(target) })
    end
    -- Option claim_needs_wager = false: "If the targeted player does not
    -- have the demanded items they simply say they do not have that item
    -- type", with no wager; the exchange ends.
    if not game.options.claim_needs_wager and not rules.holds(game, target, face) then
      if game.logging then
        game:event("has_none", { seat = target, face = face,
          text = who(target) .. " has no " .. face_name(face) })
      end
      return rules.after_exchange(game)
    end
    a.stage = "respond"
    v.asked = target
  end

  ---Resolve the demand: the target gives what is demanded (all of it that
  ---it has; nothing if it has none).
  function rules.resolve_demand(game)
    local v = game.vars
    local a = v.attack
    local d, t, face = a.demander, a.target, a.face
    if face == "gold" then
      local paid = rules.pay(game, t, d, rules.gold_demand(game, t))
      if game.logging then
        game:event("surrendered", { seat = t, to = nil, target = d, face = face, gold = paid,
          text = who(t) .. " gives " .. who(d) .. " " .. paid .. " gold" })
      end
    elseif face == "chest" then
      -- "The defender must choose one of their Treasure Map cargo cards":
      -- asked whenever it gives one, even with a single map card, so that
      -- being asked tells nothing but what the gift itself shows (one card
      -- given), never how many map cards it holds.
      local maps = rules.map_cards(game, t)
      if #maps > 0 then
        a.stage = "chest"
        v.asked = t
        return
      end
      if game.logging then
        game:event("surrendered", { seat = t, target = d, face = face, count = 0,
          text = who(t) .. " has no Treasure Map card to give" })
      end
    else
      -- "the defender must surrender all cards from their hand with the
      -- matching symbol. Wild cards are not surrendered in this way."
      local hand, to = game:zone("hand", t), game:zone("hand", d)
      local give = {}
      for i = 1, #hand do
        if game.cards[hand[i]].cargo == face then give[#give + 1] = hand[i] end
      end
      for _, c in ipairs(give) do game:move(c, hand, to) end
      if game.logging then
        game:event("surrendered", { seat = t, target = d, face = face, count = #give,
          text = who(t) .. " surrenders " .. #give .. " " .. face_name(face) .. " card" .. (#give == 1 and "" or "s")
            .. " to " .. who(d) })
        if #give > 0 then
          game:event("surrendered_cards", { to = d, cards = give,
            text = who(d) .. " (privately) receives " .. util.names(game, give) })
        end
      end
    end
    rules.after_exchange(game)
  end

  function rules.give_map(game, card)
    local a = game.vars.attack
    game:move(card, game:zone("hand", a.target), game:zone("hand", a.demander))
    if game.logging then
      game:event("surrendered", { seat = a.target, target = a.demander, face = "chest", count = 1,
        text = who(a.target) .. " gives " .. who(a.demander) .. " a Treasure Map card" })
      game:event("surrendered_cards", { to = a.demander, cards = { card },
        text = who(a.demander) .. " (privately) receives " .. game.cards[card].name })
    end
    rules.after_exchange(game)
  end

  ---One exchange (a demand) is over: the retaliation follows the attack's
  ---demand, unless the dice were doubles ("the defender may not bluff or
  ---retaliate") or the Sea Witch pulled the ship with the Whirlpool.
  function rules.after_exchange(game)
    local v = game.vars
    local a = v.attack
    if a.retaliation or a.doubles or (a.free and rules.has_captain(game, a.attacker, "sea_witch")) then
      return rules.end_attack(game)
    end
    a.retaliation = true
    a.demander, a.target = a.defender, a.attacker
    a.face = a.dice[3 - a.chosen]
    -- Parley: "when a retaliation is declared against you". Asked of an
    -- attacker holding any action card.
    if #game:zone("action", a.attacker) > 0 then
      a.stage = "parley"
      v.asked = a.attacker
      return
    end
    rules.begin_demand(game, a.defender, a.attacker, a.face)
  end

  ---The wagers `seat` may place: 1 to 3 gold (The Card Sharp: 1 to 5), no
  ---more than it has; with no gold, 1 from the bank ("If the defender has no
  ---money in their supply they take 1 gold from the bank"); with no gold
  ---and an empty bank, none (the rulebook does not cover it: there is no
  ---gold to wager).
  function rules.wagers(game, seat)
    local v = game.vars
    local cap = rules.has_captain(game, seat, "card_sharp") and rules.CARD_SHARP_WAGER or rules.WAGER_MAX
    if v.gold[seat] == 0 then return v.bank > 0 and 1 or 0, true end
    return math.min(cap, v.gold[seat]), false
  end

  ---What the demander puts in to call a wager, or nil if it may not call
  ---(option call_needs_match).
  function rules.call_amount(game, seat, wager)
    local g = game.vars.gold[seat]
    if g >= wager then return wager end
    if not game.options.call_needs_match and g > 0 then return g end
    return nil
  end

  local function hand_over_text(game, a)
    if a.face == "gold" then
      -- Gold is public: the amount tells nothing secret.
      local n = math.min(rules.gold_demand(game, a.target), game.vars.gold[a.target])
      return "Hand over " .. n .. " gold"
    end
    if a.face == "chest" then return "Hand over a Treasure Map card" end
    return "Hand over every " .. face_name(a.face) .. " card"
  end

  local REROLL = { "die 1", "die 2", "both dice" }

  -- The attacker's rerolls: the same three options at every roll (shared:
  -- options are data).
  local REROLL_OPTIONS = {}
  for w = 1, 3 do
    REROLL_OPTIONS[w] = { act = "reroll", dice = w, text = "Spend a gunpowder: reroll " .. REROLL[w] }
  end

  ---`option` with its `text` from rules.option_texts when the game records
  ---events (rules.worded, set in game.lua once this file is loaded).
  local function worded(game, option) return rules.worded(game, option) end

  -- The seat an attack asks.
  local function asked(game) return game.vars.asked or game.vars.turn end

  -- The words of the options of an attack (rules.option_texts), from the
  -- option and the attack in progress.
  local texts = rules.option_texts
  function texts.demand(game, o)
    local a = game.vars.attack
    return "Demand " .. face_name(a.dice[o.die]) .. (a.doubles and " (doubles: no bluff, no retaliation)"
      or (", leaving " .. face_name(a.dice[3 - o.die]) .. " for the retaliation"))
  end
  function texts.loaded(game, o) return "Play Loaded Dice: turn die " .. o.die .. " to " .. face_name(o.face) end
  function texts.hand_over(game) return hand_over_text(game, game.vars.attack) end
  function texts.claim(game, o)
    local a = game.vars.attack
    local _, bank = rules.wagers(game, asked(game))
    return "Claim to have no " .. face_name(a.face) .. ", wagering " .. o.wager .. " gold"
      .. (bank and " from the bank" or "")
  end
  function texts.force(game, o)
    return "Spend a gunpowder: make " .. who(game.vars.attack.attacker) .. " reroll " .. REROLL[o.dice]
      .. " and choose again"
  end
  function texts.call(game)
    return "Call the bluff, matching with " .. rules.call_amount(game, asked(game), game.vars.attack.wager) .. " gold"
  end
  function texts.pass(game) return "Do not call (" .. who(game.vars.attack.target) .. " keeps the wager)" end

  -- The two stages where an action card can cancel: its option and the other.
  local CANCEL = {
    smoke = { card = "smoke_screen", play = { act = "smoke", text = "Play Smoke Screen (cancel this attack)" },
      allow = { act = "allow", text = "Let the attack go ahead" } },
    parley = { card = "parley", play = { act = "parley", text = "Play Parley (cancel the retaliation)" },
      allow = { act = "allow", text = "Let the retaliation go ahead" } },
  }

  ---The options of the seat an attack asks, by stage.
  local function attack_options(game, seat)
    local v = game.vars
    local a = v.attack
    local opts = {}
    local cancel = CANCEL[a.stage]
    if cancel then
      -- Smoke Screen or Parley, if held; letting it go ahead is always offered.
      local _, held = rules.held_action(game, seat)
      if held == cancel.card then opts[#opts + 1] = cancel.play end
      opts[#opts + 1] = cancel.allow
    elseif a.stage == "choose" then
      for i = 1, 2 do
        if i == 1 or a.dice[2] ~= a.dice[1] then
          opts[#opts + 1] = worded(game, { act = "demand", die = i })
        end
      end
      -- "If the attacker wishes to spend a Gunpowder token to re-roll the
      -- Attack dice, they must do so before selecting a die result."
      if v.powder[seat] > 0 then
        for w = 1, 3 do opts[#opts + 1] = REROLL_OPTIONS[w] end
      end
      local _, held = rules.held_action(game, seat)
      if held == "loaded_dice" then
        for i = 1, 2 do
          for _, f in ipairs(rules.DICE_FACES) do
            if f ~= a.dice[i] then
              opts[#opts + 1] = worded(game, { act = "loaded", die = i, face = f })
            end
          end
        end
      end
    elseif a.stage == "respond" then
      -- The same options whether or not the target holds what is demanded:
      -- the demander must not learn it from them.
      opts[#opts + 1] = worded(game, { act = "hand_over" })
      -- Doubles (option doubles_gunpowder): no claim, only the reroll.
      local most = rules.wagers(game, seat)
      if a.doubles then most = 0 end
      for k = 1, most do
        opts[#opts + 1] = worded(game, { act = "claim", wager = k })
      end
      -- "After a demand is selected, the defender may choose to spend a
      -- gunpowder to force the attacker to re-roll up to both of the Attack
      -- dice and select another option." Not in the retaliation.
      if not a.retaliation and v.powder[seat] > 0 then
        for w = 1, 3 do
          opts[#opts + 1] = worded(game, { act = "force", dice = w })
        end
      end
      for _, o in ipairs(rules.action_plays(game, seat, "respond")) do opts[#opts + 1] = o end
    elseif a.stage == "call" then
      if rules.call_amount(game, seat, a.wager) then
        opts[#opts + 1] = worded(game, { act = "call" })
      end
      opts[#opts + 1] = worded(game, { act = "pass" })
    elseif a.stage == "chest" then
      for _, c in ipairs(rules.map_cards(game, seat)) do
        opts[#opts + 1] = { act = "give", card = c, text = "Give " .. game.cards[c].name,
          secret = "gives a Treasure Map card" }
      end
    end
    -- "Any time" cards (Spyglass, Powder Keg) at every decision of an attack
    -- but the surrender of a map card: the attacker before choosing a die,
    -- the demander before calling, either side before a cancel.
    if a.stage ~= "respond" and a.stage ~= "chest" then
      for _, o in ipairs(rules.action_plays(game, seat, a.stage)) do opts[#opts + 1] = o end
    end
    return opts
  end

  -- The prompt of each stage of an attack.
  local STAGE_PROMPTS = {
    smoke = function(a) return who(a.attacker) .. " attacks you" end,
    parley = function(a) return who(a.defender) .. " will retaliate with " .. face_name(a.dice[3 - (a.chosen or 1)]) end,
    choose = function(a)
      return "You rolled " .. face_name(a.dice[1]) .. " and " .. face_name(a.dice[2]) .. ": choose a demand"
    end,
    respond = function(a)
      return who(a.demander) .. " demands " .. face_name(a.face or "") .. " from you"
        .. (a.doubles and " (doubles: no claim, no retaliation)" or "")
    end,
    call = function(a)
      return who(a.target) .. " claims to have no " .. face_name(a.face or "") .. ", wagering " .. a.wager .. " gold"
    end,
    chest = function() return "Choose the Treasure Map card to give" end,
  }

  -- The prompt is for people: a game that records no events shows none.
  local function attack_prompt(game)
    if not game.logging then return nil end
    local a = game.vars.attack
    local p = STAGE_PROMPTS[a.stage]
    return p and p(a) or a.stage
  end

  function rules.attack_status(view)
    local a = view.vars.attack
    -- Before the roll (a Parley or Smoke Screen may still stop the
    -- attack) the dice have no faces yet.
    local dice = (a.dice[1] == "" or a.dice[1] == nil) and "dice not rolled yet"
      or ("dice " .. face_name(a.dice[1]) .. " and " .. face_name(a.dice[2]))
    return "Attack: " .. who(a.attacker) .. " on " .. who(a.defender) .. ", " .. dice
      .. (a.retaliation and " (retaliation)" or "") .. (a.pot > 0 and (", " .. a.pot .. " gold wagered") or "")
  end

  ---A claim of not having the item: the wager goes on the table.
  function rules.claim(game, seat, wager)
    local v = game.vars
    local a = v.attack
    local most, bank = rules.wagers(game, seat)
    if wager < 1 or wager > most then error("cannot wager " .. tostring(wager) .. " gold", 0) end
    if bank then
      v.bank = v.bank - wager
    else
      v.gold[seat] = v.gold[seat] - wager
    end
    a.wager, a.pot, a.from_bank = wager, wager, bank
    a.stage = "call"
    v.asked = a.demander
    rules.count(v.claims.made, seat)
    if rules.call_amount(game, a.demander, wager) then rules.count(v.calls.asked, a.demander) end
    util.count(game, "claims") -- metric: claims called
    if game.logging then
      game:event("claimed", { seat = seat, face = a.face, wager = wager, from_bank = bank,
        text = who(seat) .. " claims to have no " .. face_name(a.face) .. " and wagers " .. wager .. " gold"
          .. (bank and " from the bank" or "") })
    end
  end

  ---A true claim called: "the defender secretly shows the player making the
  ---demand their hand of cards": the cargo cards and the held action card
  ---(event hand_shown, private to `to`).
  function rules.show_hand(game, seat, to)
    local cards = util.copy_array(game:zone("hand", seat))
    local held = rules.held_action(game, seat)
    local names = #cards > 0 and util.names(game, cards) or "no cargo"
    if held then
      cards[#cards + 1] = held
      names = names .. "; action card " .. game.cards[held].name
    end
    if game.logging then
      game:event("hand_shown", { to = to, seat = seat, cards = cards, reveal = true,
        text = who(to) .. " (privately) sees " .. who(seat) .. "'s hand: " .. names })
    end
  end

  ---Not called: "the exchange ends immediately and the defender keeps their
  ---wager". Called: the demander matches; true: "the defender secretly
  ---shows the player making the demand their hand of cards, and the defender
  ---takes all gold wagered"; lying: "the target player must resolve the
  ---attack and the player making the demand takes all gold wagered".
  function rules.answer_claim(game, seat, call)
    local v = game.vars
    local a = v.attack
    local t = a.target
    if not call then
      v.gold[t] = v.gold[t] + a.pot
      a.pot = 0
      -- Option bluff_not_called = "attack": "the exchange ends immediately"
      -- read as the whole attack, with no retaliation.
      local whole = game.options.bluff_not_called == "attack" and not a.retaliation
      if game.logging then
        game:event("not_called", { seat = seat, target = t, ends_attack = whole or nil,
          text = who(seat) .. " does not call; " .. who(t) .. " keeps the wager"
            .. (whole and " and the attack ends" or "") })
      end
      if whole then return rules.end_attack(game) end
      return rules.after_exchange(game)
    end
    local amount = rules.call_amount(game, seat, a.wager)
    if amount == nil then error("cannot match the wager", 0) end
    rules.count(v.calls.made, seat)
    util.count(game, "calls") -- metric: claims called
    v.gold[seat] = v.gold[seat] - amount
    a.pot = a.pot + amount
    -- The truth of the claim is that of the moment it was made: a claim of
    -- having no gold is false if the wager came from the target's own gold
    -- (it had some), even when the wager was all of it.
    local truthful
    if a.face == "gold" then
      truthful = a.from_bank == true
    else
      truthful = not rules.holds(game, t, a.face)
    end
    rules.count(truthful and v.claims.shown or v.claims.caught, t)
    if truthful then
      local won = a.pot
      v.gold[t] = v.gold[t] + won
      a.pot = 0
      if game.logging then
        game:event("called_true", { seat = seat, target = t, gold = won,
          text = who(seat) .. " calls; " .. who(t) .. " told the truth, shows its hand to " .. who(seat) .. " and takes "
            .. won .. " gold" })
        rules.show_hand(game, t, seat)
      end
      return rules.after_exchange(game)
    end
    local won = a.pot
    v.gold[seat] = v.gold[seat] + won
    a.pot = 0
    if game.logging then
      game:event("called_lie", { seat = seat, target = t, gold = won,
        text = who(seat) .. " calls; " .. who(t) .. " was bluffing: " .. who(seat) .. " takes " .. won
          .. " gold and the demand is resolved" })
    end
    rules.resolve_demand(game)
  end

  ---Doubles: the demand succeeds (The Boarding Master: and 1 gold more).
  function rules.resolve_doubles(game)
    local a = game.vars.attack
    if rules.has_captain(game, a.attacker, "boarding_master") then
      local paid = rules.pay(game, a.defender, a.attacker, 1)
      if game.logging then
        game:event("boarding", { seat = a.attacker, gold = paid,
          text = who(a.defender) .. " also gives " .. paid .. " gold (Boarding Master)" })
      end
    end
    return rules.resolve_demand(game)
  end

  -- The attack's decisions: one phase, "attack" (lib/phases.lua), whose
  -- stage (vars.attack.stage) says who is asked what; rules.begin_attack
  -- enters it and rules.end_attack goes back to the turn. Playing an action
  -- card (act "play") is rules.moves.play, as in the turn's phases.
  rules.phases.attack = {
    seat = asked,
    prompt = attack_prompt,
    options = attack_options,
    moves = {
      -- Smoke Screen: the attack is cancelled (it still counts as the
      -- attacker's attack).
      smoke = function(game, seat)
        rules.discard_action(game, seat)
        if game.logging then game:event("attack_cancelled", { text = "The attack is cancelled" }) end
        return rules.end_attack(game)
      end,
      -- Parley: cancel the retaliation.
      parley = function(game, seat)
        rules.discard_action(game, seat)
        if game.logging then game:event("retaliation_cancelled", { text = "The retaliation is cancelled" }) end
        return rules.end_attack(game)
      end,
      -- No Smoke Screen (the dice are rolled) or no Parley (the retaliation).
      allow = function(game)
        local a = game.vars.attack
        if a.stage == "smoke" then return rules.roll(game) end
        return rules.begin_demand(game, a.defender, a.attacker, a.face)
      end,
      reroll = function(game, seat, action)
        rules.spend_powder(game, seat)
        if game.logging then
          game:event("gunpowder", { seat = seat, text = who(seat) .. " spends a gunpowder to reroll" })
        end
        return rules.roll(game, action.dice)
      end,
      loaded = function(game, seat, action)
        local a = game.vars.attack
        rules.discard_action(game, seat)
        a.dice[action.die] = action.face
        a.loaded = action.die
        set_doubles(a)
        if game.logging then
          game:event("loaded_dice", { seat = seat, die = action.die, face = action.face,
            text = who(seat) .. " turns die " .. action.die .. " to " .. face_name(action.face) })
        end
      end,
      demand = function(game, seat, action)
        local v = game.vars
        local a = v.attack
        a.chosen = action.die
        if a.doubles then
          -- "If the attacker rolls doubles the attack automatically succeeds,
          -- and the defender may not bluff or retaliate."
          a.demander, a.target, a.face = a.attacker, a.defender, a.dice[a.chosen]
          if game.logging then
            game:event("demand", { seat = a.attacker, target = a.defender, face = a.face, doubles = true,
              text = who(a.attacker) .. " demands " .. face_name(a.face) .. " from " .. who(a.defender)
                .. " (doubles)" })
          end
          -- Option doubles_gunpowder: the defender may still force a reroll.
          if game.options.doubles_gunpowder and v.powder[a.defender] > 0 then
            a.stage = "respond"
            v.asked = a.defender
            return
          end
          return rules.resolve_doubles(game)
        end
        return rules.begin_demand(game, a.attacker, a.defender, a.dice[a.chosen])
      end,
      hand_over = function(game)
        local a = game.vars.attack
        if a.doubles and not a.retaliation then return rules.resolve_doubles(game) end
        return rules.resolve_demand(game)
      end,
      claim = function(game, seat, action) return rules.claim(game, seat, action.wager) end,
      force = function(game, seat, action)
        local a = game.vars.attack
        rules.spend_powder(game, seat)
        if game.logging then
          game:event("gunpowder", { seat = seat,
            text = who(seat) .. " spends a gunpowder: " .. who(a.attacker) .. " must reroll" })
        end
        a.chosen = nil
        return rules.roll(game, action.dice)
      end,
      call = function(game, seat) return rules.answer_claim(game, seat, true) end,
      pass = function(game, seat) return rules.answer_claim(game, seat, false) end,
      give = function(game, seat, action) return rules.give_map(game, action.card) end,
    },
  }
end
