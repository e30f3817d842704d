--[[
Sea Salt & Paper: the decisions, phase by phase (lib/phases.lua), each with
its prompt, its options, the words of each option and its moves.
]]

return function(rules, helpers)
  local util = require("lib.util")
  local phases = require("lib.phases")
  local card_name = util.card_name
  local who, pile_zone, duo_spec = helpers.who, helpers.pile_zone, helpers.duo_spec

  ---------------------------------------------------------------------------
  -- Decisions, phase by phase (lib/phases.lua): game.vars.phase names the
  -- entry of rules.phases; each lists its options and applies them by their
  -- `act`. "If a player places all 4 mermaids, they immediately win the game"
  local function pile_text(game, i)
    local z = pile_zone(game, i)
    if #z == 0 then return rules.PILES[i] .. ", empty" end
    return rules.PILES[i] .. ", on " .. card_name(game, z[#z])
  end

  -- (rules.check_mermaids): checked after every move of a turn, and before
  -- the seat ends its turn or the round.
  ---------------------------------------------------------------------------

  rules.phases = {}

  -- Every phase words its options in its `text(game, option)`, from the
  -- option's fields and the position of the decision; the options carry the
  -- text only when the game is logged (phases.worded): a simulation or a
  -- search's copy plays thousands of moves nobody reads, and rules.describe
  -- makes the text when someone does (lib/phases.lua, "Texts made when
  -- asked").
  local worded = phases.worded

  -- The options list of the previous decision, emptied to be filled again
  -- (phases.decision passes it: see rules.decision), or a new list.
  local function emptied(list)
    if list == nil then return {} end
    return util.cut(list, 0)
  end

  -- Shared options. An option is data that nothing changes once listed
  -- (lib/phases.lua: "make each table once and share it where you can"), so
  -- in a game that is not logged each distinct option is one table, made the
  -- first time it is listed and shared by every later decision, of every
  -- game: a search lists options thousands of times a second, and a table
  -- made per option per decision was a good part of what the collector had
  -- to do. A logged game's options carry their text (phases.worded), so they
  -- are made anew at each decision, as before. Never change a shared option.
  -- Each store below holds one phase's options by what tells them apart.
  local TAKE_OPTIONS = {}      -- ["draw"], or [pile][card] for act "pile"
  local KEEP_OPTIONS = {}      -- [card]
  local DISCARD_OPTIONS = {}   -- [pile][card]
  local PLAY_OPTIONS = {}      -- ["end"], ["stop"], ["last_chance"]
  local CRAB_PILE_OPTIONS = {} -- [pile]
  local CRAB_PICK_OPTIONS = {} -- [secret text][card]
  local STEAL_OPTIONS = {}     -- [seat]

  -- The list the play decision receives its duo pairs in, filled again at
  -- each play decision (read at once: each pair goes into an option).
  local PLAY_PAIRS = {}

  -- The list the discard decision receives the piles in, filled again at
  -- each call (read at once).
  local DISCARD_PILES = {}

  -- The table at `store[key]`, made empty on first use.
  local function shelf(store, key)
    local t = store[key]
    if t == nil then
      t = {}
      store[key] = t
    end
    return t
  end

  -- The shared option at `store[key]`: nil when there is none yet, and
  -- always in a logged game.
  local function shared(game, store, key)
    if game.logging then return nil end
    return store[key]
  end

  -- `option`, just made: worded (a logged game), else kept at `store[key]` to
  -- be shared from now on.
  local function made(game, store, key, words, option)
    if game.logging then return worded(game, words, option) end
    store[key] = option
    return option
  end

  -- "Game turn", 1: draw two cards from the deck (rules.draw), "OR they take
  -- the card on top of one of the two discard piles" (rules.take_pile).
  rules.phases.take = {
    prompt = "Take a card: draw two from the deck, or the top of a discard pile",
    options = function(game, seat, into)
      local phase = rules.phases.take
      local opts, n = emptied(into), 0
      if #game:zone("deck") > 0 then
        n = n + 1
        opts[n] = shared(game, TAKE_OPTIONS, "draw")
          or made(game, TAKE_OPTIONS, "draw", phase.text, { act = "draw" })
      end
      for i = 1, #rules.PILES do
        local z = pile_zone(game, i)
        local top = z[#z]
        if top ~= nil then
          local by_card = shelf(TAKE_OPTIONS, i)
          n = n + 1
          opts[n] = shared(game, by_card, top)
            or made(game, by_card, top, phase.text, { act = "pile", pile = i, card = top })
        end
      end
      return opts
    end,
    text = function(game, o)
      if o.act == "draw" then
        return #game:zone("deck") >= rules.DRAW_COUNT and "Draw two from the deck, keep one"
          or "Draw the last card of the deck"
      end
      return "Take " .. card_name(game, o.card) .. " from " .. rules.PILES[o.pile]
    end,
    moves = {
      draw = function(game, seat)
        rules.draw(game, seat)
        rules.check_mermaids(game, seat)
      end,
      pile = function(game, seat, action)
        rules.take_pile(game, seat, action.pile)
        rules.check_mermaids(game, seat)
      end,
    },
  }

  -- The seat keeps one of the cards drawn (secretly: the others are told only
  -- that a card was kept).
  rules.phases.keep = {
    prompt = "Keep one of the cards you drew (the other is discarded)",
    options = function(game, seat, into)
      local opts = emptied(into)
      local drawn = game:zone("drawn cards", seat)
      for i = 1, #drawn do
        local card = drawn[i]
        opts[i] = shared(game, KEEP_OPTIONS, card) or made(game, KEEP_OPTIONS, card, rules.phases.keep.text,
          { act = "keep", card = card, secret = "keeps one of the cards drawn" })
      end
      return opts
    end,
    text = function(game, o) return "Keep " .. card_name(game, o.card) end,
    moves = {
      keep = function(game, seat, action)
        rules.keep(game, seat, action.card)
        rules.check_mermaids(game, seat)
      end,
    },
  }

  -- The other drawn card goes onto a discard pile (rules.discard_piles).
  rules.phases.discard = {
    prompt = "Discard the other card onto a pile",
    options = function(game, seat, into)
      local opts = emptied(into)
      local drawn = game:zone("drawn cards", seat)
      local card = drawn[#drawn]
      local piles = rules.discard_piles(game, DISCARD_PILES)
      for k = 1, #piles do
        local i = piles[k]
        local by_card = shelf(DISCARD_OPTIONS, i)
        opts[k] = shared(game, by_card, card) or made(game, by_card, card, rules.phases.discard.text,
          { act = "discard", pile = i, card = card })
      end
      return opts
    end,
    text = function(game, o)
      return "Discard " .. card_name(game, o.card) .. " onto " .. pile_text(game, o.pile)
    end,
    moves = {
      discard = function(game, seat, action)
        rules.discard(game, seat, action.card, action.pile)
        rules.check_mermaids(game, seat)
      end,
    },
  }

  -- "Game turn", 2: play duo pairs (rules.duo_pairs), end the turn, or end
  -- the round with STOP or LAST CHANCE once rules.may_call allows it (not in
  -- a final turn after LAST CHANCE).
  rules.phases.play = {
    prompt = function(game)
      if game.vars.call ~= nil then return "Your final turn: play duo pairs or end it" end
      return "Play a duo pair, end your turn, or end the round"
    end,
    options = function(game, seat, into)
      local phase = rules.phases.play
      local opts = emptied(into)
      local duos = rules.duo_pairs(game, seat, PLAY_PAIRS)
      local n = #duos
      for k = 1, n do
        local p = duos[k]
        -- (Made at each decision: a pair's cards are a list of its own.)
        opts[k] = worded(game, phase.text, { act = "duo", duo = p.duo, cards = p.cards })
      end
      n = n + 1
      opts[n] = shared(game, PLAY_OPTIONS, "end") or made(game, PLAY_OPTIONS, "end", phase.text, { act = "end" })
      if game.vars.call == nil and rules.may_call(game, seat) then
        opts[n + 1] = shared(game, PLAY_OPTIONS, "stop")
          or made(game, PLAY_OPTIONS, "stop", phase.text, { act = "stop" })
        opts[n + 2] = shared(game, PLAY_OPTIONS, "last_chance")
          or made(game, PLAY_OPTIONS, "last_chance", phase.text, { act = "last_chance" })
      end
      return opts
    end,
    -- (The seat deciding is the seat to act, game.vars.turn.)
    text = function(game, o)
      local act = o.act
      if act == "duo" then
        local d = duo_spec(o.duo)
        return "Play " .. d.name .. " (" .. d.does .. ")"
      elseif act == "end" then
        return game.vars.call ~= nil and "End your final turn (reveal your hand)" or "End your turn"
      elseif act == "stop" then
        return "STOP (" .. rules.seat_points(game, game.vars.turn) .. " points: everyone scores now)"
      end
      return "LAST CHANCE (" .. rules.seat_points(game, game.vars.turn) .. " points: bet on having the most)"
    end,
    moves = {
      duo = function(game, seat, action)
        rules.play_duo(game, seat, action.duo, action.cards)
        rules.check_mermaids(game, seat)
      end,
      ["end"] = function(game, seat)
        if rules.check_mermaids(game, seat) then return end
        rules.end_turn(game, seat)
      end,
      stop = function(game, seat)
        if rules.check_mermaids(game, seat) then return end
        rules.call(game, seat, "stop")
      end,
      last_chance = function(game, seat)
        if rules.check_mermaids(game, seat) then return end
        rules.call(game, seat, "last_chance")
      end,
    },
  }

  -- Crabs, when both piles have cards: which pile to look through.
  rules.phases.crab_pile = {
    prompt = "Crabs: look through which discard pile?",
    options = function(game, seat, into)
      local opts = emptied(into)
      local piles = rules.crab_piles(game)
      for k = 1, #piles do
        local i = piles[k]
        opts[k] = shared(game, CRAB_PILE_OPTIONS, i)
          or made(game, CRAB_PILE_OPTIONS, i, rules.phases.crab_pile.text, { act = "crab_pile", pile = i })
      end
      return opts
    end,
    text = function(game, o)
      return "Look through " .. rules.PILES[o.pile] .. " (" .. #pile_zone(game, o.pile) .. " cards)"
    end,
    moves = {
      crab_pile = function(game, seat, action)
        rules.look_pile(game, seat, action.pile)
        rules.check_mermaids(game, seat)
      end,
    },
  }

  -- Crabs: the card taken from the pile ("They do not have to show it.").
  rules.phases.crab_pick = {
    prompt = "Crabs: take a card (the others do not see which)",
    options = function(game, seat, into)
      local v = game.vars
      local opts = emptied(into)
      local z = pile_zone(game, v.crab_pile)
      local secret = "takes a card from " .. rules.PILES[v.crab_pile]
      local by_card = shelf(CRAB_PICK_OPTIONS, secret)
      -- Top card first, as the pile is looked through; the pile is not reordered.
      -- reveal: the chooser sees the pile's cards (and only the chooser: secret).
      local n = #z
      for i = n, 1, -1 do
        local card = z[i]
        opts[n - i + 1] = shared(game, by_card, card) or made(game, by_card, card, rules.phases.crab_pick.text,
          { act = "crab_pick", card = card, secret = secret, reveal = true })
      end
      return opts
    end,
    text = function(game, o) return "Take " .. card_name(game, o.card) end,
    moves = {
      crab_pick = function(game, seat, action)
        rules.crab_take(game, seat, action.card)
        rules.check_mermaids(game, seat)
      end,
    },
  }

  -- Shark + swimmer, when several opponents may be stolen from: which one.
  rules.phases.steal = {
    prompt = "Shark + Swimmer: steal a random card from whom?",
    options = function(game, seat, into)
      local opts = emptied(into)
      local targets = rules.steal_targets(game, seat)
      for k = 1, #targets do
        local s = targets[k]
        opts[k] = shared(game, STEAL_OPTIONS, s)
          or made(game, STEAL_OPTIONS, s, rules.phases.steal.text, { act = "steal", seat = s })
      end
      return opts
    end,
    text = function(game, o)
      local hand = game:zone("hand", o.seat)
      return "Steal from " .. who(o.seat) .. " (" .. (hand.count or #hand) .. " cards in hand)"
    end,
    moves = {
      steal = function(game, seat, action)
        rules.steal(game, seat, action.seat)
        rules.check_mermaids(game, seat)
      end,
    },
  }
end
