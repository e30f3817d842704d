--[[
Seas of Strife, "Happy Faces" (rulebook, "Other Variations"): "Each Face
card a player has won at the end of a hand cancels out one trick they have
taken. Recommended for 3- or 4-player games only" (a recommendation: every
player count is allowed).

  deckhand play seas_of_strife --variant happy_faces

A Face card counts for the player who took the trick it is in, whoever
played it. A round's penalty cannot go below 0 (the rulebook is silent; a
Face card "cancels out one trick", so by default it cancels only tricks taken):
option happy_floor; with happy_floor=false extra Face cards take points off
the player's total (which still cannot go below 0).
]]

return {
  id = "happy_faces",
  title = "Happy Faces (each Face card won cancels one trick)",
  game = "seas_of_strife",
  options = {
    happy_floor = {
      default = true,
      doc = "Happy Faces: a round's penalty never goes below 0 (the rulebook is silent; a Face card "
        .. "cancels a trick taken, so no more than the tricks taken). false: "
        .. "Face cards beyond the tricks taken remove points already scored (never below 0 in total).",
    },
  },
  modify = function(rules)
    -- For bots: each Face card in a trick cancels one trick of its taker.
    local cost = rules.trick_cost
    rules.trick_cost = function(game, cards)
      local faces = 0
      for i = 1, #cards do
        if rules.is_face(game, cards[i]) then faces = faces + 1 end
      end
      return cost(game, cards) - faces
    end
    local penalty = rules.round_penalty
    rules.round_penalty = function(game, seat, tricks)
      local p = penalty(game, seat, tricks) - rules.faces_won(game, seat) * rules.PENALTY_PER_TRICK
      if p < 0 then
        if game.options.happy_floor then return 0 end
        local total = game.vars.scores[seat]
        if total + p < 0 then return -total end
      end
      return p
    end
    -- Invariants (rules.invariants, which game.lua checks without this
    -- variant): no total goes below 0, and with option happy_floor the last
    -- round scored gave each seat its tricks less its Face cards, at least 0.
    local invariants = rules.invariants
    rules.invariants = function(game)
      local held = invariants(game)
      if held ~= nil and held ~= true then return held end
      local v = game.vars
      for s = 1, game.seats do
        if v.scores[s] < 0 then return "P" .. s .. " has " .. v.scores[s] .. " penalty points" end
      end
      local last = v.last_round
      if last ~= nil and game.options.happy_floor then
        for s = 1, game.seats do
          local want = math.max(0, (last.tricks[s] - last.faces[s]) * rules.PENALTY_PER_TRICK)
          if last.penalties[s] ~= want then
            return "P" .. s .. " took " .. last.tricks[s] .. " tricks and " .. last.faces[s] .. " Face cards in round "
              .. last.round .. " for " .. last.penalties[s] .. " penalty points"
          end
        end
      end
      return true
    end
  end,
}
