-- Random 4-player Sea Change written by hand in plain Lua: the yardstick for
-- how close the engine comes to the same rules in the same VM (see
-- cli/benches/reference.rs, which runs this file and the engine in turn).
--
-- No engine, no sandbox, no knowledge of who holds what, no events, no
-- views: cards are numbers, zones are arrays. The rules are deckhand's
-- default reading of Sea Change for 4 players, as scripts/sea_change plays
-- them between random seats:
--   * 40 cards: 4 suits of the values 0, 4 .. 12; 10 cards to each seat;
--   * the seat after the dealer leads; the first card led sets trump;
--   * follow the lead suit when you can, except that a card matching the
--     value of the card played just before is always allowed (a Sea Change:
--     its suit becomes trump at once);
--   * the highest trump wins the trick, else the highest card of the suit
--     led; the winner leads the next trick;
--   * round points: 8 is -4, 9 is +2, 10 and 12 are +1, the 0 of the final
--     trump suit +5; the best round total (ties included) gains 1 VP, and
--     the first seat to 3 VP ends the game; the deal passes to the left.
-- Each random choice is one draw from a Park-Miller generator, uniform over
-- the legal cards in the order of the hand.
--
-- `play(games, seed)` plays `games` games and returns the number of plays
-- (decisions), of rounds, and a checksum of the round points.

local SEATS, HAND, SUITS = 4, 10, 4
local VALUES = { 0, 4, 5, 6, 7, 8, 9, 10, 11, 12 }
local POINTS = { [0] = 0, 0, 0, 0, 0, 0, 0, 0, -4, 2, 1, 0, 1 }
local TRUMP_ZERO = 5
local TARGET = 3

-- Card c (1..40): its suit and value.
local suit_of, value_of = {}, {}
do
  local c = 0
  for s = 1, SUITS do
    for _, v in ipairs(VALUES) do
      c = c + 1
      suit_of[c], value_of[c] = s, v
    end
  end
end
local NCARDS = #suit_of

local state = 1
local function draw(n) -- uniform in 1..n
  state = state * 16807 % 2147483647
  return state % n + 1
end

local deck, hands, won, won_n = {}, {}, {}, {}
local trick, legal, points = {}, {}, {}
for s = 1, SEATS do hands[s], won[s] = {}, {} end

-- Deal, play the ten tricks of a round dealt by `dealer`, and leave each
-- seat's round points in `points`.
local function play_round(dealer)
  for i = 1, NCARDS do deck[i] = i end
  for i = NCARDS, 2, -1 do
    local j = draw(i)
    deck[i], deck[j] = deck[j], deck[i]
  end
  for s = 1, SEATS do
    local h = hands[s]
    for k = 1, HAND do h[k] = deck[(s - 1) * HAND + k] end
    table.sort(h) -- a hand in card order, as a person holds it
    won_n[s] = 0
  end
  local trump, leader = nil, dealer % SEATS + 1
  for left = HAND, 1, -1 do
    local lead, previous = nil, nil
    local seat = leader
    for i = 1, SEATS do
      local h = hands[seat]
      local n = 0
      if lead ~= nil then
        local follows = false
        for k = 1, left do
          if suit_of[h[k]] == lead then follows = true; break end
        end
        if follows then
          for k = 1, left do
            local c = h[k]
            if suit_of[c] == lead or value_of[c] == previous then
              n = n + 1
              legal[n] = k
            end
          end
        end
      end
      local k = n == 0 and draw(left) or legal[draw(n)]
      local card = h[k]
      for m = k, left - 1 do h[m] = h[m + 1] end -- the hand keeps its order
      h[left] = nil
      if lead == nil then
        lead = suit_of[card]
        if trump == nil then trump = lead end
      elseif value_of[card] == previous then
        trump = suit_of[card] -- a Sea Change
      end
      previous = value_of[card]
      trick[i] = card
      seat = seat % SEATS + 1
    end
    -- The winner under the trump the trick ended with.
    local best, best_value, best_trump = 1, -1, false
    for i = 1, SEATS do
      local c = trick[i]
      local s, v = suit_of[c], value_of[c]
      if s == trump then
        if not best_trump or v > best_value then best, best_value, best_trump = i, v, true end
      elseif s == lead and not best_trump and v > best_value then
        best, best_value = i, v
      end
    end
    local winner = (leader - 1 + best - 1) % SEATS + 1
    local pile, m = won[winner], won_n[winner]
    for i = 1, SEATS do pile[m + i] = trick[i] end
    won_n[winner] = m + SEATS
    leader = winner
  end
  for s = 1, SEATS do
    local total, pile = 0, won[s]
    for k = 1, won_n[s] do
      local c = pile[k]
      local v = value_of[c]
      if v == 0 and suit_of[c] == trump then
        total = total + TRUMP_ZERO
      else
        total = total + POINTS[v]
      end
    end
    points[s] = total
  end
end

function play(games, seed)
  state = seed % 2147483646 + 1
  local plays, rounds, checksum = 0, 0, 0
  local vp = {}
  for _ = 1, games do
    for s = 1, SEATS do vp[s] = 0 end
    local dealer, over = 1, false
    while not over do
      play_round(dealer)
      rounds = rounds + 1
      plays = plays + SEATS * HAND
      local best = points[1]
      for s = 2, SEATS do
        if points[s] > best then best = points[s] end
      end
      for s = 1, SEATS do
        checksum = (checksum * 31 + points[s] + 50) % 2147483647
        if points[s] == best then
          vp[s] = vp[s] + 1
          if vp[s] >= TARGET then over = true end
        end
      end
      dealer = dealer % SEATS + 1
    end
  end
  return plays, rounds, checksum
end
