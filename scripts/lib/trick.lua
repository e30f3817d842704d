--[[
lib/trick.lua: shared mechanics of trick-taking card games.

Nothing in here knows a particular game. A game script makes one "table
layout" with trick.new{...} (zone and variable names) and calls its methods;
what is particular to the game comes in as plain functions:

  * may_play(game, seat, card, ctx) -> boolean
        may `seat` play `card` now? (follow-suit rules, exceptions ...)
        `ctx` is whatever the game passes along (for instance something
        worked out once per decision instead of once per card).
  * rank(game, card, ctx) -> number | nil
        the strength of a card in the current trick; nil = cannot win.
        trick.highest_rank(rank) turns it into a resolver.
  * resolver(game, cards, players, ctx) -> index
        which play wins the trick (index into the trick, 1 = led card).
        Use it directly when the winner depends on the whole trick
        (e.g. "highest card of the suit with the most cards").

Where things are (names are the defaults; trick.new can rename them):

  zones   hand[seat]   owner-visible hand of each seat
          won[seat]    face-down pile of the cards each seat has won
          trick        public: the cards of the trick being played, in the
                       order they were played (bottom = led card)
          last_trick   public: the previous trick, which players may look at
                       (cards stay here until the next trick is collected,
                       then go to their winner's won pile; flush() empties it
                       at the end of a round)
  vars    trick_players       who played each card of `trick`, same order
          last_trick_players  who played each card of `last_trick`
          last_trick_winner   who won `last_trick` (nil when empty)
          leader / turn / dealer   (names configurable) seat numbers

A "player" here is normally a seat number, but a game may use other integers
(a game with a dummy or automatic opponent can use 0 for it) as long as it
gives trick.new a `won_zone` function that knows where that player's won
cards go.

Usage (a whole trick):
  local trick = require("lib.trick")
  local T = trick.new{}                      -- default names
  T:create_zones(game)                       -- in setup
  T:deal(game, deck, game:next_seat(dealer), 10)
  local opts = T:options(game, seat, may_play, ctx)   -- decision options
  T:play(game, seat, card)                   -- in apply
  if T:complete(game, game.seats) then
    local i, winner = T:resolve(game, trick.highest_rank(rank))
    local cards = T:collect(game, winner)
    T:set_leader(game, winner)               -- or whoever the winner picks
  end
  ... T:flush(game) at round end, T:gather(game, deck) before a new deal.

Helpers for common rules: T:holds_prop (follow the led suit),
T:trick_has / T:holds_trick_prop / T:may_follow_any (follow any suit
already in the trick), T:holder (who holds a card: "the player with the 0
leads"), trick.best_index (who would win if these cards were played: for
bots), trick.group_counts / trick.majority_index (the suit with the most
cards in the trick wins).
]]

local trick = {}

local Layout = {}
Layout.__index = Layout

local util = require("lib.util")

-- Orders of util.sort_first: card ids, and options by their card. A
-- search deals the hidden hands again for every guess, so its hands are not
-- kept sorted and every decision of its playouts sorts its options (with
-- table.sort a Seas of Strife search spent an eighth of its instructions
-- and about 6 % of its time there).
local function by_id(_, a, b) return a < b end
local function by_card(_, a, b) return a.card < b.card end

---------------------------------------------------------------------------
-- Zone lookups
---------------------------------------------------------------------------

-- A game's zones by name: game:zone is two table reads, cheaper than any
-- cache of them would be, and it works the same on a game and on a seat's
-- view (which masks the zones that seat may not see).
local function hand_zone(self, game, seat)
  return game:zone(self.hand, seat)
end

local function shared_zone(self, game, name)
  return game:zone(name)
end

local function trick_zone(self, game)
  return shared_zone(self, game, self.trick)
end

local function last_zone(self, game)
  return shared_zone(self, game, self.last)
end

---------------------------------------------------------------------------
-- Options
---------------------------------------------------------------------------

-- One option table per card id, made on first use and shared by every
-- decision, so that listing options allocates nothing per card. Never
-- modify them.
local OPTION = setmetatable({}, {
  __index = function(t, card)
    local o = { card = card }
    t[card] = o
    return o
  end,
})

---The shared options by card id: trick.OPTIONS[id] is the option {card = id}
---(a plain index, for loops that build option lists; do not modify).
trick.OPTIONS = OPTION

---The option that plays `card`: a shared table {card = card}.
---@param card CardId
---@return {card: CardId}
function trick.option(card)
  return OPTION[card]
end

---Turn a list of card ids into options (in place: each id becomes the
---shared {card = id} table of trick.option) and return it.
---@param cards CardId[]
---@return {card: CardId}[]
function trick.to_options(cards)
  for i = 1, #cards do cards[i] = OPTION[cards[i]] end
  return cards
end

---------------------------------------------------------------------------
-- Layout
---------------------------------------------------------------------------

---A table layout: names of zones and vars, and where won cards go.
---@param cfg? table  optional fields: hand, won, trick, last, players_var,
---  last_players_var, last_winner_var, leader_var, turn_var, dealer_var,
---  won_visibility ("hidden" by default: won cards lie face down),
---  keep_last (default true: keep the previous trick visible),
---  tricks_var (default nil: when set, vars[tricks_var][seat] counts the
---  tricks each seat took this round),
---  voids_var (default "voids": what players have shown they lack, see
---  Layout:note_void),
---  won_zone = function(game, player) -> Zone (default: won[player])
function trick.new(cfg)
  cfg = cfg or {}
  local t = setmetatable({}, Layout)
  t.hand = cfg.hand or "hand"
  t.won = cfg.won or "won"
  t.trick = cfg.trick or "trick"
  t.last = cfg.last or "last_trick"
  t.players_var = cfg.players_var or "trick_players"
  t.last_players_var = cfg.last_players_var or "last_trick_players"
  t.last_winner_var = cfg.last_winner_var or "last_trick_winner"
  t.leader_var = cfg.leader_var or "leader"
  t.turn_var = cfg.turn_var or "turn"
  t.dealer_var = cfg.dealer_var or "dealer"
  t.won_visibility = cfg.won_visibility or "hidden"
  t.keep_last = cfg.keep_last ~= false
  t.tricks_var = cfg.tricks_var
  t.voids_var = cfg.voids_var or "voids"
  t.won_zone_fn = cfg.won_zone
  return t
end

---Create hand and won zones for every seat, the trick zone and (unless
---keep_last is false) the last_trick zone; initialise the trick vars.
function Layout:create_zones(game)
  for s = 1, game.seats do
    game:new_zone(self.hand, { owner = s, visibility = "owner" })
    game:new_zone(self.won, { owner = s, visibility = self.won_visibility })
  end
  game:new_zone(self.trick, { visibility = "public" })
  if self.keep_last then
    game:new_zone(self.last, { visibility = "public" })
  end
  self:reset(game)
end

---Empty the trick bookkeeping in vars (zones are not touched).
function Layout:reset(game)
  local v = game.vars
  v[self.players_var] = {}
  v[self.last_players_var] = {}
  v[self.last_winner_var] = nil
  v[self.voids_var] = nil
  if self.tricks_var then
    local counts = {}
    for s = 1, game.seats do counts[s] = 0 end
    v[self.tricks_var] = counts
  end
end

function Layout:hand_of(game, seat)
  return hand_zone(self, game, seat)
end

---The zone where `player`'s won cards go.
function Layout:won_zone(game, player)
  if self.won_zone_fn then return self.won_zone_fn(game, player) end
  return game:zone(self.won, player)
end

---The trick zone (cards in play order).
function Layout:cards(game)
  return trick_zone(self, game)
end

---Who played each card of the trick, in order.
function Layout:players(game)
  return game.vars[self.players_var]
end

---Number of cards played to the current trick.
function Layout:count(game)
  return #game.vars[self.players_var]
end

---The last card played to the current trick, and who played it (nil when
---the trick is empty).
function Layout:last_play(game)
  local players = game.vars[self.players_var]
  local n = #players
  if n == 0 then return nil end
  local z = trick_zone(self, game)
  return z[n], players[n]
end

---The led card (nil when the trick is empty).
function Layout:led_card(game)
  return trick_zone(self, game)[1]
end

---Is the trick complete with `size` cards?
function Layout:complete(game, size)
  return #game.vars[self.players_var] >= size
end

---------------------------------------------------------------------------
-- Dealing, seats
---------------------------------------------------------------------------

---Deal `n` cards to each of `count` hands (default: every seat), one at a
---time round-robin, starting with seat `first` and going clockwise.
function Layout:deal(game, from, first, n, count)
  count = count or game.seats
  local to, s = {}, first
  for i = 1, count do
    to[i] = hand_zone(self, game, s)
    s = game:next_seat(s)
  end
  game:deal(from, to, n)
end

---Sort every hand in card-id order (after a deal): a hand whose
---`sorted` flag is still set then lists its legal cards in order without
---sorting them (legal_cards).
function Layout:sort_hands(game)
  for s = 1, game.seats do game:sort(hand_zone(self, game, s)) end
end

---Move every card of every hand, won pile, the trick and the last trick
---into `deck` (then shuffle it yourself). `extra` lists other zones to empty.
function Layout:gather(game, deck, extra)
  for s = 1, game.seats do
    game:move_all(hand_zone(self, game, s), deck)
    game:move_all(game:zone(self.won, s), deck)
  end
  game:move_all(trick_zone(self, game), deck)
  if self.keep_last then game:move_all(last_zone(self, game), deck) end
  if extra then
    for _, z in ipairs(extra) do game:move_all(z, deck) end
  end
  self:reset(game)
end

---Set vars[var] (default: the dealer var) to the next seat clockwise (k
---seats on) and return it.
function Layout:rotate(game, var, k)
  var = var or self.dealer_var
  local s = game:next_seat(game.vars[var], k)
  game.vars[var] = s
  return s
end

---Make `who` the leader of the next trick (the trick winner by default;
---a game may let the winner choose someone else).
function Layout:set_leader(game, who)
  game.vars[self.leader_var] = who
end

---Who plays next in the trick: the leader when it is empty, else the seat
---after the last player; nil when the trick has `size` cards.
function Layout:next_player(game, size)
  local players = game.vars[self.players_var]
  local n = #players
  if n >= size then return nil end
  if n == 0 then return game.vars[self.leader_var] end
  return game:next_seat(players[n])
end

---------------------------------------------------------------------------
-- Legal plays
---------------------------------------------------------------------------

---Does `seat` hold a card for which pred(game, card, arg) is true?
function Layout:holds(game, seat, pred, arg)
  local hand = hand_zone(self, game, seat)
  for i = 1, #hand do
    if pred(game, hand[i], arg) then return true end
  end
  return false
end

---Does `seat` hold a card whose property `key` (default "suit") is `value`?
function Layout:holds_prop(game, seat, value, key)
  key = key or "suit"
  local hand, cards = hand_zone(self, game, seat), game.cards
  for i = 1, #hand do
    if cards[hand[i]][key] == value then return true end
  end
  return false
end

---Is there a card in the current trick whose property `key` (default
---"suit") is `value`? (For rules like "follow any suit already played".)
function Layout:trick_has(game, value, key)
  key = key or "suit"
  local z, cards = trick_zone(self, game), game.cards
  for i = 1, #z do
    if cards[z[i]][key] == value then return true end
  end
  return false
end

---Does `seat` hold a card whose property `key` (default "suit") appears in
---the current trick?
function Layout:holds_trick_prop(game, seat, key)
  key = key or "suit"
  local hand, cards = hand_zone(self, game, seat), game.cards
  for i = 1, #hand do
    if self:trick_has(game, cards[hand[i]][key], key) then return true end
  end
  return false
end

---May `seat` play `card` under "play a suit already in the trick if you
---can (any of them), else anything"? `holds` (optional) is
---holds_trick_prop(game, seat, key), worked out once per decision.
---Usable as a may_play function: T:options(game, seat, fn, holds) with
---fn = function(g, s, c, h) return T:may_follow_any(g, s, c, h) end.
function Layout:may_follow_any(game, seat, card, holds, key)
  key = key or "suit"
  if #trick_zone(self, game) == 0 then return true end
  if self:trick_has(game, game.cards[card][key], key) then return true end
  if holds == nil then holds = self:holds_trick_prop(game, seat, key) end
  return not holds
end

---The seat whose hand holds `card`, or nil (seats the viewer may not see
---are skipped when `game` is a view).
function Layout:holder(game, card)
  for s = 1, game.seats do
    local hand = hand_zone(self, game, s)
    for i = 1, #hand do
      if hand[i] == card then return s end
    end
  end
  return nil
end

---The cards of `seat`'s hand that may_play allows, sorted by card id (so a
---game that defines its cards in suit/value order lists them sorted).
function Layout:legal_cards(game, seat, may_play, ctx)
  local hand, out = hand_zone(self, game, seat), {}
  for i = 1, #hand do
    local c = hand[i]
    if may_play(game, seat, c, ctx) then out[#out + 1] = c end
  end
  if not hand.sorted then util.sort_first(out, #out, by_id) end
  return out
end

---Options {card = id} (shared tables, see trick.option) for the cards of
---`seat`'s hand that may_play allows, sorted by card id. `into` (optional)
---is a list to fill and return instead of a new one (a game that reuses
---its decision's list allocates nothing per decision).
function Layout:options(game, seat, may_play, ctx, into)
  local hand, out, k = hand_zone(self, game, seat), into or {}, 0
  for i = 1, #hand do
    local c = hand[i]
    if may_play(game, seat, c, ctx) then
      k = k + 1
      out[k] = OPTION[c]
    end
  end
  util.cut(out, k)
  -- A sorted hand (Layout:sort_hands, game:sort) lists them in order.
  if not hand.sorted then util.sort_first(out, k, by_card) end
  return out
end

---Is `card` in `seat`'s hand?
function Layout:in_hand(game, seat, card)
  local hand = hand_zone(self, game, seat)
  for i = #hand, 1, -1 do
    if hand[i] == card then return true end
  end
  return false
end

---------------------------------------------------------------------------
-- What play has shown (for search bots: rules.may_hold)
---------------------------------------------------------------------------

-- A player who does not follow shows the whole table they hold no card of
-- that suit. vars[voids_var][seat] collects such values (all seats, public
-- data); gather / reset forgets them, a game whose players draw cards
-- during the round forgets a seat's with clear_voids.

---Record that `seat` has shown it holds no card whose property `key`
---(default "suit") is `value`.
function Layout:note_void(game, seat, value)
  local v = game.vars
  local voids = v[self.voids_var]
  if voids == nil then
    voids = {}
    for s = 1, game.seats do voids[s] = {} end
    v[self.voids_var] = voids
  end
  local mine = voids[seat]
  if mine then mine[value] = true end
end

---Forget what `seat` has shown (it drew cards since).
function Layout:clear_voids(game, seat)
  local voids = game.vars[self.voids_var]
  if voids and voids[seat] then voids[seat] = {} end
end

---May `seat` hold `card`, as far as play has shown? (false once the seat
---has shown it has none of the card's `key`, default "suit")
function Layout:may_hold(game, seat, card, key)
  local voids = game.vars[self.voids_var]
  local mine = voids and voids[seat]
  if not mine then return true end
  return not mine[game.cards[card][key or "suit"]]
end

---------------------------------------------------------------------------
-- Playing and resolving
---------------------------------------------------------------------------

---Play `card` from `from` (default: `player`'s hand) onto the trick and
---record who played it. Returns the card's position in the trick.
function Layout:play(game, player, card, from)
  from = from or hand_zone(self, game, player)
  game:move(card, from, trick_zone(self, game))
  local players = game.vars[self.players_var]
  players[#players + 1] = player
  return #players
end

---A resolver from a rank function: the highest rank wins; equal ranks go to
---the earlier card; cards whose rank is nil cannot win. If no card has a
---rank, the led card wins.
function trick.highest_rank(rank)
  return function(game, cards, _, ctx)
    return trick.best_index(game, cards, rank, ctx)
  end
end

---Index of the winning play among `cards` (a list of card ids, which need not
---be the trick zone: a bot can try "what if I played this"), by `rank`.
function trick.best_index(game, cards, rank, ctx)
  local best, best_rank = 1, nil
  for i = 1, #cards do
    local r = rank(game, cards[i], ctx)
    if r ~= nil and (best_rank == nil or r > best_rank) then
      best, best_rank = i, r
    end
  end
  return best
end

---How many of `cards` there are of each value of property `key` (default
---"suit"): a fresh table value -> count.
function trick.group_counts(game, cards, key)
  key = key or "suit"
  local defs, counts = game.cards, {}
  for i = 1, #cards do
    local g = defs[cards[i]][key]
    counts[g] = (counts[g] or 0) + 1
  end
  return counts
end

---Index of the winning play when the group (suit, by default) with the most
---cards wins: among the cards whose group has the largest count, the highest
---`rank` wins (so a tie between groups goes to the highest card of any of
---the tied groups); equal ranks go to the earlier card. `counts` (value ->
---count, default trick.group_counts) may be adjusted by the game: a group
---counted 0 cannot win. If no group counts more than 0, every card counts
---as one group and the highest rank of the whole trick wins. Returns the
---index and the winning count (0 in that last case).
function trick.majority_index(game, cards, rank, counts, key, ctx)
  key = key or "suit"
  counts = counts or trick.group_counts(game, cards, key)
  local defs = game.cards
  local most = 0
  for i = 1, #cards do
    local n = counts[defs[cards[i]][key]] or 0
    if n > most then most = n end
  end
  local best, best_rank = 1, nil
  for i = 1, #cards do
    local c = cards[i]
    if most == 0 or (counts[defs[c][key]] or 0) == most then
      local r = rank(game, c, ctx)
      if r ~= nil and (best_rank == nil or r > best_rank) then
        best, best_rank = i, r
      end
    end
  end
  return best, most
end

---Who wins the current trick: returns the winning index, the winning player
---and the winning card.
function Layout:resolve(game, resolver, ctx)
  local cards, players = trick_zone(self, game), game.vars[self.players_var]
  local i = resolver(game, cards, players, ctx)
  return i, players[i], cards[i]
end

---Collect the trick for `winner`. The cards go to the public last_trick zone
---(so everyone can look back at them) and the cards that were there go to
---their own winner's won pile. Returns a fresh list of the collected cards
---(unless `list` is false: then nothing).
function Layout:collect(game, winner, list)
  local v = game.vars
  local tz = trick_zone(self, game)
  local cards = nil
  if list ~= false then
    cards = {}
    for i = 1, #tz do cards[i] = tz[i] end
  end
  if self.tricks_var and type(winner) == "number" and winner >= 1 and winner <= game.seats then
    local counts = v[self.tricks_var]
    counts[winner] = counts[winner] + 1
  end
  local players = v[self.players_var]
  if self.keep_last then
    self:flush(game)
    game:move_all(tz, last_zone(self, game))
    -- The emptied list of the last trick's players becomes the next
    -- trick's (lists are reused: a trick allocates none).
    v[self.players_var] = v[self.last_players_var]
    v[self.last_players_var] = players
    v[self.last_winner_var] = winner
  else
    game:move_all(tz, self:won_zone(game, winner))
    util.cut(players, 0)
  end
  return cards
end

---Move the last trick (if any) to its winner's won pile. Call it at the end
---of a round, before counting won cards.
function Layout:flush(game)
  if not self.keep_last then return end
  local v = game.vars
  local last = last_zone(self, game)
  if #last > 0 then
    game:move_all(last, self:won_zone(game, v[self.last_winner_var]))
  end
  local players = v[self.last_players_var]
  util.cut(players, 0)
  v[self.last_winner_var] = nil
end

---How many cards `player` has won this round (won pile + the last trick if
---they won it).
function Layout:won_count(game, player)
  local n = #self:won_zone(game, player)
  local v = game.vars
  if self.keep_last and v[self.last_winner_var] == player then
    n = n + #last_zone(self, game)
  end
  return n
end

---Call f(card) for every card `player` has won this round (including the
---last trick if they won it).
function Layout:each_won(game, player, f)
  local z = self:won_zone(game, player)
  for i = 1, #z do f(z[i]) end
  if self.keep_last and game.vars[self.last_winner_var] == player then
    local last = last_zone(self, game)
    for i = 1, #last do f(last[i]) end
  end
end

return trick
