--[[
Sea Salt & Paper: rounds. The target and who may do what ("The round can be
ended"), starting a round and a turn, the end of a turn, revealing a hand,
scoring a round ("End of the round"), the end of the game ("End of game")
and the four-mermaid win, then the calls that end a round: STOP and LAST
CHANCE.
]]

return function(rules, helpers)
  local util = require("lib.util")
  local names, copy_array, zeros = util.names, util.copy_array, util.zeros
  local who, points_text, pile_zone = helpers.who, helpers.points_text, helpers.pile_zone
  local COUNTED_ZONES = helpers.COUNTED_ZONES

  ---------------------------------------------------------------------------
  -- Targets and turn order
  ---------------------------------------------------------------------------

  function rules.target(game)
    local t = game.options.target
    if t == nil or t == "auto" then return rules.TARGETS[game.seats] end
    local n = tonumber(t)
    if n == nil or n <= 0 then error("option target: expected \"auto\" or a positive number, not " .. tostring(t), 0) end
    return n
  end

  ---May `seat` end the round now? Its own turn, no call made yet, and 7+ card
  ---points ("The round can be ended"; one call per round, since a call ends
  ---the round).
  function rules.may_call(game, seat)
    local v = game.vars
    return v.call == nil and rules.seat_points(game, seat) >= rules.CALL_MIN
  end

  ---Is the seat's hand protected from the shark (revealed after LAST CHANCE)?
  function rules.protected(game, seat)
    return game.vars.revealed[seat] == true
  end

  ---The opponents a shark + swimmer pair may steal from: not protected, with
  ---cards in hand (a hand revealed after LAST CHANCE "is now protected from
  ---attacks").
  function rules.steal_targets(game, seat)
    local out = {}
    for k = 1, game.seats - 1 do
      local s = game:next_seat(seat, k)
      if not rules.protected(game, s) and #game:zone("hand", s) > 0 then out[#out + 1] = s end
    end
    return out
  end

  ---Can anything be taken at the start of a turn (the deck or a discard pile)?
  function rules.can_take(game)
    if #game:zone("deck") > 0 then return true end
    for i = 1, #rules.PILES do
      if #pile_zone(game, i) > 0 then return true end
    end
    return false
  end

  ---------------------------------------------------------------------------
  -- Rounds
  ---------------------------------------------------------------------------

  -- The zones every seat has (a list made once: a round starts in every
  -- playout of a search).
  local SEAT_ZONES = { "hand", "duos", "open hand", "drawn cards" }

  ---Gather every card, shuffle, start the two discard piles face up
  ---("Game setup": "Reveal the first two cards ... to form two discard
  ---piles"), and give the first turn to `first`.
  function rules.start_round(game, first)
    local v = game.vars
    local deck = game:zone("deck")
    for _, name in ipairs(SEAT_ZONES) do
      for s = 1, game.seats do game:move_all(game:zone(name, s), deck) end
    end
    for i = 1, #rules.PILES do game:move_all(pile_zone(game, i), deck) end
    game:shuffle(deck)
    for i = 1, #rules.PILES do game:move_top(deck, pile_zone(game, i)) end
    v.round = v.round + 1
    v.first = first
    v.call = nil
    v.final_turns = {}
    v.revealed = {}
    for s = 1, game.seats do v.revealed[s] = false end
    if game.logging then
      local tops = {}
      for i = 1, #rules.PILES do tops[i] = pile_zone(game, i)[1] end
      game:event("round_started", {
        round = v.round, first = first, cards = tops,
        text = "Round " .. v.round .. ": " .. who(first) .. " starts; the discard piles show "
          .. names(game, tops),
      })
    end
    rules.start_turn(game, first)
  end

  ---A new turn for `seat`: take cards first ("Game turn", 1). With nothing to
  ---take (deck and piles empty, possible only in LAST CHANCE final turns) the
  ---turn goes straight to playing duos.
  function rules.start_turn(game, seat)
    local v = game.vars
    v.turn = seat
    v.boat_turns = 0
    v.phase = rules.can_take(game) and "take" or "play"
  end

  ---A seat's turn is over ("If not, it is the turn of the player to their
  ---left"). In LAST CHANCE final turns the seat reveals its hand; the empty
  ---deck ends the round without scoring (option last_chance_empty_deck after
  ---a call).
  function rules.end_turn(game, seat)
    local v = game.vars
    local deck_empty = #game:zone("deck") == 0
    if v.call ~= nil then
      rules.reveal(game, seat)
      table.remove(v.final_turns, 1)
      if deck_empty and game.options.last_chance_empty_deck == "no_score" then
        return rules.void_round(game, seat)
      end
      if #v.final_turns == 0 then return rules.score_round(game) end
      return rules.start_turn(game, v.final_turns[1])
    end
    -- "Special case: If the deck is empty at the end of a player's turn, the
    -- round ends immediately without scoring."
    if deck_empty then return rules.void_round(game, seat) end
    rules.start_turn(game, game:next_seat(seat))
  end

  ---Reveal a seat's hand: it moves to the seat's public `open hand` zone,
  ---where it still counts as its hand and cannot be stolen from.
  function rules.reveal(game, seat)
    local v = game.vars
    local hand, shown = game:zone("hand", seat), game:zone("open hand", seat)
    game:move_all(hand, shown)
    v.revealed[seat] = true
    if game.logging then
      game:event("hand_revealed", {
        seat = seat, cards = copy_array(shown),
        text = who(seat) .. " reveals " .. (#shown > 0 and names(game, shown) or "an empty hand")
          .. " (" .. rules.points_text(rules.seat_points(game, seat)) .. " with the cards in front)",
      })
    end
  end

  ---The round ends without scoring (empty deck); the player to the left of
  ---`seat` starts the next one (the rulebook's rule for the next round's first
  ---player, applied to the seat whose turn emptied the deck).
  function rules.void_round(game, seat)
    local v = game.vars
    v.last_round = { round = v.round, ending = "empty_deck", caller = seat, gained = zeros(game.seats) }
    util.count(game, "rounds") -- metric: rounds ended by LAST CHANCE (of all rounds)
    if game.logging then
      game:event("round_void", {
        round = v.round, seat = seat,
        text = "The deck is empty at the end of " .. who(seat) .. "'s turn: the round ends without scoring",
      })
    end
    rules.round_over(game, game:next_seat(seat))
  end

  ---Points each seat gains at the end of a scored round ("End of the round"):
  ---STOP: everyone their card points. LAST CHANCE: the caller wins the bet with
  ---card points >= every opponent's (ties go to the caller); bet won: caller
  ---card points + colour bonus, opponents their colour bonus only; bet lost:
  ---caller colour bonus only, opponents their card points.
  ---Returns gained, points, bonus (per seat) and bet_won (nil for STOP).
  function rules.round_points(game)
    local v = game.vars
    local n = game.seats
    local points, bonus = {}, {}
    for s = 1, n do
      local cards = rules.cards_of(game, s)
      points[s] = rules.card_points(game, cards)
      bonus[s] = rules.colour_bonus(game, cards)
    end
    local gained = {}
    if v.call.kind == "stop" then
      for s = 1, n do gained[s] = points[s] end
      return gained, points, bonus, nil
    end
    local caller = v.call.seat
    local won = true
    for s = 1, n do
      if s ~= caller and points[s] > points[caller] then won = false end
    end
    for s = 1, n do
      if s == caller then
        gained[s] = won and (points[s] + bonus[s]) or bonus[s]
      else
        gained[s] = won and bonus[s] or points[s]
      end
    end
    return gained, points, bonus, won
  end

  ---The most card points among the seats other than `seat`.
  function rules.most_of_others(points, seat)
    local most = 0
    for s, p in ipairs(points) do
      if s ~= seat and p > most then most = p end
    end
    return most
  end

  ---Score the round, then end the game or deal the next round.
  function rules.score_round(game)
    local v = game.vars
    local n = game.seats
    -- "All players reveal their hands" (hands revealed earlier stay revealed).
    for k = 0, n - 1 do
      local s = game:next_seat(v.call.seat, k)
      if not v.revealed[s] then rules.reveal(game, s) end
    end
    local gained, points, bonus, won = rules.round_points(game)
    -- Metrics (rules.metrics, in game.lua): rounds, LAST CHANCE calls, bets lost.
    util.count(game, "rounds")
    if v.call.kind == "last_chance" then
      util.count(game, "last_chances")
      if not won then util.count(game, "bets_lost") end
    end
    for s = 1, n do
      v.scores[s] = v.scores[s] + gained[s]
      -- What the rules awarded, for rules.invariants (in game.lua).
      util.count(game, "points awarded to P" .. s, gained[s])
    end
    v.last_round = {
      round = v.round, ending = v.call.kind, caller = v.call.seat, bet_won = won,
      points = points, bonus = bonus, gained = gained,
    }
    if game.logging then
      local parts = {}
      for s = 1, n do
        local g, p, b = gained[s], points[s], bonus[s]
        local why = ""
        if g ~= p then
          if g == p + b then
            why = " (" .. p .. " + colour bonus " .. b .. ")"
          elseif g == b then
            why = " (colour bonus; " .. points_text(p) .. " not scored)"
          else
            why = " (" .. points_text(p) .. ", colour bonus " .. b .. ")"
          end
        end
        parts[s] = who(s) .. " +" .. g .. why
      end
      local head
      if v.call.kind == "stop" then
        head = "STOP by " .. who(v.call.seat)
      else
        head = "LAST CHANCE by " .. who(v.call.seat) .. ": bet " .. (won and "won" or "lost") .. " ("
          .. points_text(points[v.call.seat]) .. ", best opponent " .. rules.most_of_others(points, v.call.seat) .. ")"
      end
      game:event("round_scored", {
        round = v.round, ending = v.call.kind, caller = v.call.seat, bet_won = won,
        points = copy_array(points), bonus = copy_array(bonus), gained = copy_array(gained),
        scores = copy_array(v.scores),
        text = head .. ". " .. table.concat(parts, ", ") .. ". Scores: " .. rules.scores_text(game),
      })
    end
    local winners, decided_by = rules.game_winners(game)
    if winners then return rules.end_game(game, winners, nil, "target", decided_by) end
    rules.round_over(game, game:next_seat(v.call.seat))
  end

  ---The round is over and the game goes on: the next round is dealt at once,
  ---started by `first` ("The player to the left of the one who ended the
  ---previous round starts"). There is deliberately no decision in between:
  ---nobody chooses anything there, and a pause would be a step of every
  ---simulated game (counted in `deckhand sim` statistics and traces, asked of
  ---one seat only). The revealed hands and the points are in the round's
  ---events ("hand_revealed", "round_scored" or "round_void"), which the REPL
  ---prints, and in `vars.last_round`, which the status lines show.
  function rules.round_over(game, first)
    rules.start_round(game, first)
  end

  -- The seats of `tied` that gained most in the last round (`gained`, by
  -- seat). A function of its own: a function that makes a function (here the
  -- value of each seat) is left to the interpreter by LuaJIT, and
  -- rules.game_winners runs at every round's end.
  local function most_gained(tied, gained)
    return util.best(tied, function(s) return gained[s] or 0 end)
  end

  ---The winners once someone has reached the target, else nil ("End of
  ---game"): most points; tied: option tie_break.
  function rules.game_winners(game)
    local v = game.vars
    local n = game.seats
    -- (The scores by seat as a table rather than a function: see most_gained.)
    local tied, best = util.best(util.range(n), v.scores)
    if best < v.target then return nil end
    -- The second value says what decided, for the game_over event.
    if #tied == 1 then return tied, "most_points" end
    if game.options.tie_break == "last_round_points" and v.last_round and v.last_round.gained then
      tied = most_gained(tied, v.last_round.gained)
      if #tied == 1 then return tied, "last_round_points" end
    end
    -- "In case of a tie, the one who went last in the last round wins": the
    -- latest in turn order from the round's first player.
    local last, pos = nil, -1
    for _, s in ipairs(tied) do
      local p = (s - v.first) % n
      if p > pos then last, pos = s, p end
    end
    return { last }, "last_in_turn_order"
  end

  ---End the game. `why`: words for the event's text; `ended_by`: why it
  ---ended ("target": a score reached the target, "mermaids": the four
  ---mermaids placed); `decided_by`: what decided between tied seats (see
  ---rules.game_winners). Both are recorded in the game_over event.
  function rules.end_game(game, winners, why, ended_by, decided_by)
    local v = game.vars
    v.winners = copy_array(winners)
    v.game_over = true
    v.phase = "game_over"
    v.turn = nil
    if game.logging then
      local w = {}
      for i, s in ipairs(winners) do w[i] = who(s) end
      game:event("game_over", {
        winners = copy_array(winners), scores = copy_array(v.scores),
        ended_by = ended_by, decided_by = decided_by,
        text = table.concat(w, " and ") .. " wins the game" .. (why and (" " .. why) or "")
          .. " (" .. rules.scores_text(game) .. ")",
      })
    end
  end

  ---"If a player places all 4 mermaids, they immediately win the game." When
  ---the seat to act holds them all (hand and in front), it places them at once
  ---and wins (the Board Game Arena adaptation checks at the end of the turn;
  ---placing them sooner changes nothing, as the game ends either way).
  function rules.check_mermaids(game, seat)
    local v = game.vars
    if v.game_over or seat == nil then return false end
    -- Counted first without making any table: this runs after every move.
    local held = 0
    for k = 1, #COUNTED_ZONES do
      local z = game:zone(COUNTED_ZONES[k], seat)
      for i = 1, #z do
        if game.cards[z[i]].kind == "mermaid" then held = held + 1 end
      end
    end
    if held < rules.MERMAIDS_TO_WIN then return false end
    local duos = game:zone("duos", seat)
    for _, name in ipairs({ "hand", "open hand" }) do
      local z = game:zone(name, seat)
      local mermaids = {}
      for i = 1, #z do
        if game.cards[z[i]].kind == "mermaid" then mermaids[#mermaids + 1] = z[i] end
      end
      for _, c in ipairs(mermaids) do game:move(c, z, duos) end
    end
    v.mermaid_win = seat
    rules.end_game(game, { seat }, "by placing the " .. rules.MERMAIDS_TO_WIN .. " mermaids", "mermaids")
    return true
  end

  ---------------------------------------------------------------------------
  -- Ending the round ("The round can be ended"; "End of the round")
  ---------------------------------------------------------------------------

  function rules.call(game, seat, kind)
    local v = game.vars
    if not rules.may_call(game, seat) then
      error(who(seat) .. " cannot end the round now (needs " .. rules.CALL_MIN .. " points and no call made)", 0)
    end
    local points = rules.seat_points(game, seat)
    v.call = { kind = kind, seat = seat, points = points }
    if game.logging then
      game:event("called", {
        seat = seat, kind = kind, points = points,
        text = who(seat) .. " calls " .. (kind == "stop" and "STOP" or "LAST CHANCE") .. " with " .. points_text(points),
      })
    end
    if kind == "stop" then
      -- "All players reveal their hands and immediately score."
      return rules.score_round(game)
    end
    -- "The other players each take a final turn ... which they complete by
    -- revealing their hand, which is now protected from attacks."
    rules.reveal(game, seat)
    v.final_turns = {}
    for k = 1, game.seats - 1 do v.final_turns[k] = game:next_seat(seat, k) end
    rules.start_turn(game, v.final_turns[1])
  end
end
