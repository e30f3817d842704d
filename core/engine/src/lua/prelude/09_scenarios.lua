---------------------------------------------------------------------------
-- Scenarios: setting up a position by card names, then playing from it
---------------------------------------------------------------------------

-- `deckhand lua FILE` runs a file with `game` (a new game of the rules
-- chosen, full access) and `scenario`, the table this function makes: helpers
-- that set up a position by card names and play from it. Every helper moves
-- cards with game:move, so the core keeps each card in exactly one zone; a
-- helper never makes or removes a card. The rules may add helpers of their
-- own in `rules.scenario` (`function(game, ...)`, e.g. set_trump), which
-- appear here with `game` filled in.
local describe_option, rules_result = M.describe, M.result

function M.scenario(game)
  local S = {}
  local lower = string.lower

  -- Every zone of the game, in creation order.
  local function zones()
    local out = {}
    for id = 1, #game._zones do out[id] = game._zones[id] end
    return out
  end

  -- The zone that holds `card`, and its position there.
  local function where(card)
    for _, z in ipairs(zones()) do
      for i = 1, #z do
        if z[i] == card then return z, i end
      end
    end
    return nil
  end

  local function zone_label(z)
    return z.owner and (z.name .. " of seat " .. z.owner) or z.name
  end

  -- The cards whose name is `name` (case does not matter), by id.
  local function named(name, level)
    if type(name) ~= "string" then
      error("a card is named by a string, not a " .. type(name), level + 1)
    end
    local out, want = {}, lower(name)
    for id = 1, game._ncards do
      local c = game.cards[id]
      if c and type(c.name) == "string" and lower(c.name) == want then out[#out + 1] = id end
    end
    if #out == 0 then error("no card of this game is called '" .. name .. "'", level + 1) end
    return out
  end

  -- A zone given as a zone table, or as a name and an owner.
  local function zone_of(z, owner, level)
    if type(z) == "table" and z.id and game._zones[z.id] == z then return z end
    local by_owner = game._zindex[z]
    local found = by_owner and by_owner[owner or 0]
    if not found then
      error("no zone '" .. tostring(z) .. "'" .. (owner and (" for seat " .. tostring(owner)) or ""), level + 1)
    end
    return found
  end

  -- scenario.card(name): the id of the card called `name` (the first by
  -- id when several share it).
  function S.card(name)
    return named(name, 2)[1]
  end

  -- scenario.name(card): a card's name.
  function S.name(card)
    local c = game.cards[card]
    return c and c.name or tostring(card)
  end

  -- scenario.where(name or id): the zone holding the card ("hand of seat 2").
  function S.where(card)
    if type(card) == "string" then card = named(card, 2)[1] end
    local z = where(card)
    return z and zone_label(z) or nil
  end

  -- scenario.cards(zone, owner): the names of a zone's cards, bottom first.
  function S.cards(z, owner)
    z = zone_of(z, owner, 2)
    local out = {}
    for i = 1, #z do out[i] = S.name(z[i]) end
    return out
  end

  -- scenario.give(seat, names [, zone]): the cards named go to that seat's
  -- zone (default "hand"), each from wherever it is. Each one that
  -- arrives sends back a card of that zone that is not named to the zone
  -- it came from, so every zone keeps its size (a trade, not a gift); a
  -- name given twice means two cards of that name.
  function S.give(seat, names, zone)
    local to = zone_of(zone or "hand", seat, 2)
    if type(names) == "string" then names = { names } end
    -- One card per name: one already in `to` first, else the first by id.
    local wanted, order = {}, {}
    for _, name in ipairs(names) do
      local pick
      for _, id in ipairs(named(name, 2)) do
        if not wanted[id] then
          if where(id) == to then pick = id; break end
          pick = pick or id
        end
      end
      if not pick then error("not enough cards called '" .. name .. "'", 2) end
      wanted[pick] = true
      order[#order + 1] = pick
    end
    for _, id in ipairs(order) do
      local from = where(id)
      if from ~= to then
        game:move(id, from, to)
        -- The top-most card of `to` that is not wanted goes back.
        for i = #to, 1, -1 do
          if not wanted[to[i]] then
            game:move(to[i], to, from)
            break
          end
        end
      end
    end
  end

  -- scenario.on_top(name, zone [, owner]): the card goes on top of the
  -- zone; the card that was on top goes to where it came from (sizes kept).
  -- In the same zone, it only moves to the top.
  function S.on_top(name, z, owner)
    z = zone_of(z, owner, 2)
    local card = named(name, 2)[1]
    local from = where(card)
    if from == z then
      game:move(card, z, z)
      return
    end
    local old_top = z[#z]
    game:move(card, from, z)
    if old_top then
      -- The old top, now second from the top, goes back in its place.
      game:move(old_top, z, from)
    end
  end

  -- The pending decision, asked of the rules again: the position may have
  -- been changed since (cards given, vars set).
  local function decision()
    refresh(game)
    return game._decision
  end

  -- scenario.to_move(): the seat to move (nil when the game is over).
  function S.to_move()
    local d = decision()
    return d and d.seat or nil
  end

  -- scenario.moves(): the legal moves' texts, in option order.
  function S.moves()
    local d = decision()
    local out = {}
    if d == nil then return out end
    for i, o in ipairs(d.options) do out[i] = describe_option(game, o) end
    return out
  end

  -- scenario.play(move [, cards]): play a move given by its number, its
  -- text or the name of the card it plays (case does not matter); for a
  -- move that asks for a set of cards, `cards` names them (names or ids;
  -- the rules' check must accept them). Returns the move's text.
  function S.play(move, cards)
    local d = decision()
    if d == nil then error("the game is over: there is no move to play", 2) end
    local index
    if type(move) == "number" then
      if move >= 1 and move <= rawlen(d.options) and move % 1 == 0 then index = move end
    elseif type(move) == "string" then
      local want = lower(move)
      for i, o in ipairs(d.options) do
        local text = lower(describe_option(game, o))
        local card = type(o) == "table" and o.card and game.cards[o.card]
        if text == want or (card and lower(card.name) == want) then
          if index then
            error("'" .. move .. "' could be move " .. index .. " or move " .. i .. ": give the number", 2)
          end
          index = i
        end
      end
    end
    if not index then
      error("seat " .. d.seat .. " has no move '" .. tostring(move) .. "' (its moves: "
        .. tconcat(S.moves(), ", ") .. ")", 2)
    end
    local o, c = choose_of(game, index)
    local value = d.options[index]
    if o ~= nil then
      if type(cards) ~= "table" then
        error("move " .. index .. " asks for a set of cards: scenario.play(move, { cards... })", 2)
      end
      local picks, taken = {}, {}
      for _, want in ipairs(cards) do
        local found
        for p = 1, #c.from do
          local id = c.from[p]
          if not taken[p] and (id == want or (type(want) == "string"
              and lower(game.cards[id].name) == lower(want))) then
            found = p
            break
          end
        end
        if not found then error("move " .. index .. " offers no card '" .. tostring(want) .. "'", 2) end
        taken[found] = true
        picks[#picks + 1] = found
      end
      tsort(picks)
      local why = verdict(game, d.seat, o, c, cards_at(c, picks), false)
      if why then error("not these cards: " .. why, 2) end
      value = chosen(game, index, picks)
    end
    local text = describe_option(game, value)
    game.rules.apply(game, d.seat, value)
    refresh(game)
    return text
  end

  -- scenario.status(seat): the rules' status lines for that seat.
  function S.status(seat)
    local f = game.rules.status
    if not f then return {} end
    return f(M.view(game, seat or 1)) or {}
  end

  -- scenario.result(): the rules' result: { scores, winners, rounds }.
  function S.result()
    return rules_result(game)
  end

  -- The rules' own helpers, with `game` filled in.
  local own = game.rules.scenario
  if type(own) == "table" then
    for _, k in ipairs(sorted_keys(own)) do
      local f = own[k]
      if S[k] ~= nil then
        error("rules.scenario." .. tostring(k) .. " has the name of a built-in scenario helper", 0)
      end
      if type(f) == "function" then
        S[k] = function(...) return f(game, ...) end
      end
    end
  end
  return S
end

