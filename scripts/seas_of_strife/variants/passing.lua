--[[
Seas of Strife, "Passing Cards" (rulebook, "Other Variations"): "After
dealing cards, each player chooses two cards from their hand and passes them
to the player on their left. In each subsequent hand, pass to one player
farther than before (two to the left on the second hand, three to the left
on the third, etc.) If this would mean passing to yourself, then do not pass
cards in that round."

  deckhand play seas_of_strife --variant passing

* "To the left" is the next seat in playing order (play goes clockwise,
  game:next_seat), so round r passes r seats on.
* With n players round n would pass to yourself: nobody passes. After that
  the rulebook is silent; by default the cycle starts again at 1 seat, so
  that passing goes on all game (as in Hearts): 4 players pass 1, 2, 3, -,
  1, 2, 3, -, ...
  Option pass_cycle=stop passes in the first n-1 rounds only.
* Passing is simultaneous at the table. Here each seat in turn, from P1,
  chooses its cards as one choice (a set of exactly pass_cards cards of its
  hand: one decision, `pass 3 7` at the REPL); the chosen cards go face
  down into the seat's own `pass` zone, which the other seats cannot see,
  so no one learns what is coming before choosing. When every seat has
  chosen, all passes move at once into the receivers' hands. The choice is
  secret: the other seats read "chooses cards to pass", and only the
  receiver is told (event cards_received) which cards it got. Then the
  holder of the opening card (the 0) leads it: who that is can change with
  the pass.
* Option pass_cards (default 2) sets how many cards each seat passes.
]]

local util = require("lib.util")

-- The pass is secret: the other seats are told only that cards were
-- chosen ("each player chooses two cards from their hand and passes them":
-- face down, so no one but the passer, and then the receiver, learns which).
local PASS_SECRET = "chooses cards to pass"

local PROMPTS = {}
local function prompt(target, n)
  local key = target .. ":" .. n
  local p = PROMPTS[key]
  if p == nil then
    p = "Choose " .. n .. " card" .. (n == 1 and "" or "s") .. " to pass to P" .. target
    PROMPTS[key] = p
  end
  return p
end

return {
  id = "passing",
  title = "Passing Cards (pass 2 cards, one seat farther each round)",
  game = "seas_of_strife",
  -- The rule functions this variant adds. Its decision, the pass phase, is
  -- a new entry of the game's rules.phases (lib/phases.lua), which needs no
  -- declaring.
  provides = { "pass_distance", "pass_count", "resolve_pass" },
  options = {
    pass_cards = {
      default = 2,
      min = 1, max = 10,
      doc = "Passing: cards each seat passes (\"each player chooses two cards\").",
    },
    pass_cycle = {
      default = "restart",
      choices = { "restart", "stop" },
      doc = "Passing: after the round where the pass would reach yourself (no pass), \"restart\" the "
        .. "cycle at 1 seat to the left (the rulebook is silent; passing goes on all game, as in "
        .. "Hearts), or \"stop\" passing for the rest "
        .. "of the game.",
    },
  },
  modify = function(rules)
    local create_zones = rules.create_zones
    rules.create_zones = function(game)
      create_zones(game)
      for s = 1, game.seats do
        game:new_zone("pass", { owner = s, visibility = "owner" })
      end
    end

    ---How many seats to the left the cards go in round `round`, or nil when
    ---nobody passes.
    rules.pass_distance = function(game, round)
      local n = game.seats
      if game.options.pass_cycle == "stop" and round >= n then return nil end
      local k = (round - 1) % n + 1
      if k == n then return nil end -- "If this would mean passing to yourself"
      return k
    end

    ---Cards each seat passes (never more than a hand holds).
    rules.pass_count = function(game)
      local n = util.whole(game.options.pass_cards)
      if n == nil or n < 0 then
        error("option pass_cards: expected a whole number, not '" .. tostring(game.options.pass_cards) .. "'", 0)
      end
      local size = game.vars.hand_size
      if n > size then n = size end
      return n
    end

    local after_deal = rules.after_deal
    rules.after_deal = function(game)
      local v = game.vars
      local k = rules.pass_distance(game, v.round)
      local count = k and rules.pass_count(game) or 0
      if count == 0 then
        if game.logging then
          game:event("no_pass", { round = v.round, text = "No passing this round" })
        end
        return after_deal(game)
      end
      v.pass = { distance = k, seat = 1, count = count }
      v.phase = "pass"
      v.turn = 1
      if game.logging then
        game:event("pass_started", {
          round = v.round, distance = k, count = count,
          text = "Everyone passes " .. count .. " card" .. (count == 1 and "" or "s") .. " "
            .. k .. " seat" .. (k == 1 and "" or "s") .. " to the left",
        })
      end
    end

    -- The pass phase (game.vars.phase = "pass"): each seat in turn, from
    -- P1, chooses its cards: one option asking for exactly `count` cards
    -- of the hand (in card order), any of them.
    rules.phases.pass = {
      seat = function(game) return game.vars.pass.seat end,
      prompt = function(game, seat)
        local p = game.vars.pass
        return prompt(game:next_seat(seat, p.distance), p.count)
      end,
      options = function(game, seat)
        local hand = rules.trick:hand_of(game, seat)
        local ids = {}
        for i = 1, #hand do ids[i] = hand[i] end
        table.sort(ids)
        local n = game.vars.pass.count
        return { { act = "pass_cards", text = "Pass", secret = PASS_SECRET,
          choose = { from = ids, min = n, max = n } } }
      end,
      apply = function(game, seat, action)
        local v = game.vars
        local p = v.pass
        local cards = type(action) == "table" and action.act == "pass_cards" and action.cards or nil
        if type(cards) ~= "table" or #cards ~= p.count then
          error("expected a pass of " .. p.count .. " cards, got " .. tostring(action), 0)
        end
        local hand = rules.trick:hand_of(game, seat)
        for _, card in ipairs(cards) do
          if game.cards[card] == nil or not rules.trick:in_hand(game, seat, card) then
            error(tostring(game.cards[card] and game.cards[card].name or card)
              .. " is not in P" .. seat .. "'s hand", 0)
          end
          game:move(card, hand, game:zone("pass", seat))
        end
        if seat < game.seats then
          p.seat = seat + 1
          v.turn = p.seat
          return
        end
        rules.resolve_pass(game)
      end,
    }

    -- A pass in words: "Pass Orange 10 ★, Red 3" (the star of a Face
    -- card, as the game names cards); the option before its cards: "Pass".
    local describe = rules.describe
    rules.describe = function(game, action)
      if type(action) == "table" and action.act == "pass_cards" then
        if action.cards == nil then return "Pass" end
        local names = {}
        for i, id in ipairs(action.cards) do
          local c = game.cards[id]
          names[i] = c and (c.name .. (c.face and " ★" or "")) or tostring(id)
        end
        return "Pass " .. table.concat(names, ", ")
      end
      return describe(game, action)
    end

    ---Every seat's chosen cards go at once to the seat `distance` places to
    ---its left; then the round's first lead.
    rules.resolve_pass = function(game)
      local v = game.vars
      local k = v.pass.distance
      local moves = {}
      for s = 1, game.seats do
        local to = game:next_seat(s, k)
        local z = game:zone("pass", s)
        if game.logging then
          local cards, names = {}, {}
          for i = 1, #z do cards[i] = z[i]; names[i] = game.cards[z[i]].name end
          game:event("cards_received", {
            from = s, seat = to, cards = cards, to = to,
            text = "P" .. s .. " passes you " .. table.concat(names, ", "),
          })
        end
        moves[s] = { from = s, to = to, count = #z }
        game:move_all(z, rules.trick:hand_of(game, to))
      end
      if game.logging then
        game:event("cards_passed", {
          round = v.round, distance = k, passes = moves,
          text = "Cards passed " .. k .. " seat" .. (k == 1 and "" or "s") .. " to the left",
        })
      end
      v.pass = nil
      rules.begin_play(game)
    end
  end,
}
