--[[
House rule for Sea Change: at the start of every round the player who
leads names trump, before leading (trump is then no longer the suit of the
first card led; Sea Changes still change it).

  deckhand play sea_change --variant scripts/house_rules/leader_names_trump.lua

It adds a decision of a new kind to the game, as docs/house-rules.md
("Adding a decision to a game") explains:

  1. a new phase, rules.phases.name_trump: who names, the prompt, one
     option per suit, and what naming does;
  2. a variable that says the phase is on: game.vars.naming, set where the
     phase begins (a wrapped rules.start_round) and cleared by its apply;
  3. the game's entry points, rules.decision and rules.apply, which ask and
     apply only "play", wrapped to ask and apply the new phase while it is
     on; rules.describe, which words only cards, wrapped to word a suit;
  4. the game's greedy bot, wrapped to choose a suit (the suit it holds
     most of); the search bots need nothing.
]]

local phases = require("lib.phases")

return {
  id = "leader_names_trump",
  title = "The leader names trump",
  game = "sea_change",
  modify = function(rules)
    -- 2. The phase begins with every round, except in a solo game (the
    -- AI leads there).
    local start_round = rules.start_round
    rules.start_round = function(game)
      start_round(game)
      local v = game.vars
      if not v.solo then v.naming = v.leader end
    end

    -- 1. The phase: options are plain data, one per suit in play.
    local function suit_text(suit)
      return "Name " .. (rules.SUIT_NAMES[suit] or tostring(suit)) .. " trump"
    end
    rules.phases.name_trump = {
      seat = function(game) return game.vars.naming end,
      prompt = "Name trump for this round (you lead next)",
      options = function(game)
        local opts = {}
        for i, suit in ipairs(rules.suits_in_play(game)) do
          opts[i] = { suit = suit, text = suit_text(suit) }
        end
        return opts
      end,
      apply = function(game, seat, action)
        local v = game.vars
        v.trump = action.suit
        v.naming = nil
        if game.logging then
          game:event("trump_named", {
            suit = action.suit, seat = seat,
            text = game.words and ("Seat " .. seat .. " names "
              .. (rules.SUIT_NAMES[action.suit] or action.suit) .. " trump") or nil,
          })
        end
      end,
    }

    -- 3. The entry points: the new phase while it is on, else the game's.
    local decision, apply, describe = rules.decision, rules.apply, rules.describe
    rules.decision = function(game, into)
      local v = game.vars
      if not v.game_over and v.naming ~= nil then
        return phases.decision(rules, game, "name_trump", into or {})
      end
      return decision(game, into)
    end
    rules.apply = function(game, seat, action)
      local v = game.vars
      if v.naming ~= nil then
        if seat ~= v.naming then
          error("seat " .. v.naming .. " names trump now, not seat " .. seat, 0)
        end
        return phases.apply(rules, game, seat, action, "name_trump")
      end
      return apply(game, seat, action)
    end
    rules.describe = function(game, action)
      if type(action) == "table" and action.suit ~= nil then return suit_text(action.suit) end
      return describe(game, action)
    end

    -- 4. The greedy bot names the suit it holds most of.
    local greedy = rules.bots.greedy
    rules.bots.greedy = function(view, d)
      if d.kind ~= "name_trump" then return greedy(view, d) end
      local hand, cards = view:zone("hand", view.seat), view.cards
      local best, most = 1, -1
      for i, o in ipairs(d.options) do
        local n = 0
        for _, c in ipairs(hand) do
          if cards[c].suit == o.suit then n = n + 1 end
        end
        if n > most then best, most = i, n end
      end
      return best
    end
  end,
}
