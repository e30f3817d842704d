--[[
lib/phases.lua: how a game asks a decision and applies the choice, one phase
at a time. Every game shipped follows this convention, so a new kind of
decision (a variant's pass, a card that asks a question) is written in one
place: one entry of `rules.phases`.

Phases. `game.vars.phase` names what the seat to act must decide now ("take",
"keep", "play" ...). `rules.phases` holds one table per phase name:

  rules.phases.keep = {
    -- Who decides (optional; default game.vars.turn).
    seat = function(game) return game.vars.turn end,
    -- The question, for people: a text, or function(game, seat, options).
    prompt = "Keep one of the cards you drew",
    -- The legal options of `seat` now: a list of plain tables (options
    -- are data: make each table once and share it where you can).
    options = function(game, seat) ... return opts end,
    -- Apply the option chosen (one of those listed), then everything
    -- automatic up to the next decision (optional, see Moves).
    apply = function(game, seat, action) ... end,
    -- The decision's kind, written in traces (optional; default: the
    -- phase's name, here "keep").
    kind = "keep",
  }

Moves. When options say what they do with an `act` field ({ act = "draw" },
{ act = "discard", pile = 2 }), a phase may leave out `apply` and give each
act its own function instead: the phase's `moves`, or, for an act offered in
several phases, the game's `rules.moves`:

  rules.phases.take = {
    prompt = "Take a card: draw two from the deck, or the top of a discard pile",
    options = function(game, seat) ... end,     -- { act = "draw" }, { act = "pile", pile = i }
    moves = {
      draw = function(game, seat, action) rules.draw(game, seat) end,
      pile = function(game, seat, action) rules.take_pile(game, seat, action.pile) end,
    },
  }
  rules.moves = { play = function(game, seat, action) rules.play_action(game, seat, action) end }

The phase's `apply` comes first, then its `moves`, then `rules.moves`.

The game's entry points call this module; they keep what is particular to
the game (whether the game is over, the checks of who may act, what follows
every move):

  local phases = require("lib.phases")
  function rules.decision(game)
    if game.vars.game_over then return nil end
    return phases.decision(rules, game)
  end
  function rules.apply(game, seat, action)
    if seat ~= game.vars.turn then error("not your turn", 0) end
    phases.apply(rules, game, seat, action)
  end
  function rules.describe(game, action) return phases.describe(game, action) end

A game with one kind of decision may keep no game.vars.phase and name its
phase in the entry points: phases.decision(rules, game, "play") and
phases.apply(rules, game, seat, action, "play") (Sea Change).

A variant or house rule adds a phase by setting a new key of `rules.phases`
(it is a table of the game, so the new key needs no `provides`), sets
`game.vars.phase` to its name where the phase begins (by wrapping the rule
function that runs then), and back when it ends. It changes a decision by
wrapping one field: `local options = rules.phases.play.options`, then
`rules.phases.play.options = function(game, seat) ... options(game, seat) ... end`.
Everything is looked up when it is used, so a replaced function takes effect.

Describing an option. `describe` is asked about the options of the decision
being asked and also about moves in the past (the REPL's history), whatever
the phase is then, so it works from the option alone: phases.describe gives
its `text`, else the name of its `card`. A game whose options are bare cards
(for speed) keeps a `rules.describe` of its own.

Texts made when asked. A text costs a string per option at every decision,
and most decisions are read by nobody: a simulation or a search plays
thousands of moves no one reads. A game may give the functions that word its
options instead, `text(game, option)`, from the option's fields and the
position of the decision, in either of two places:

  - a phase's `text`, for the options of that phase (Sea Salt & Paper):
      rules.phases.keep = {
        options = function(game, seat)
          ...
          opts[#opts + 1] = phases.worded(game, rules.phases.keep.text, { act = "keep", card = c })
        end,
        text = function(game, option) return "Keep " .. game.cards[option.card].name end,
        moves = { keep = ... },
      }
  - `rules.option_texts[act]`, for an act offered in several phases
    (SeaDogs: the attack's acts, playing an action card):
      rules.option_texts.attack = function(game, option) return "Attack P" .. option.seat end
      opts[#opts + 1] = phases.worded(game, rules.option_texts.attack, { act = "attack", seat = s })

and describe options with the rules: function rules.describe(game, action)
return phases.describe(game, action, rules) end.

phases.worded puts the text into the option at once when the game is
logged (`game.logging`: its moves are kept, saved or traced with their
values, and a move of the past must carry its words); otherwise the option
goes without, and phases.describe, given `rules`, makes the text when
someone reads it (a person at the decision, or a search that tells the
options apart by their words): from the current phase's `text` when its
`moves` have the option's `act`, else `rules.option_texts[act]`, else the
`text` of the first phase by name whose `moves` have the act. Either way
the text is the same: it is made at the same decision.
]]

local phases = {}

---The table of the phase `name` (default: game.vars.phase); an error naming
---the phase if the game has none by that name.
---@param rules table
---@param game Game|View
---@param name string?
---@return table
function phases.current(rules, game, name)
  name = name or game.vars.phase
  local phase = rules.phases[name]
  if phase == nil then error("no phase '" .. tostring(name) .. "' in rules.phases", 0) end
  return phase
end

---The decision of the current phase (or of the phase `name`):
---{ seat = ..., kind = ..., prompt = ..., options = ... }. `kind` is the
---phase's `kind`, else its name (traces record it: "play", "pass" ...). `into` (optional) is a table
---to fill and return instead of a new one, for a game that reuses one
---decision table to allocate less (Sea Change): the phase's options then
---receive the previous list, `into.options`, as a third argument, which
---they may refill and return.
---@param rules table
---@param game Game
---@param name string?
---@param into Decision?
---@return Decision
function phases.decision(rules, game, name, into)
  name = name or game.vars.phase
  local phase = phases.current(rules, game, name)
  local seat
  if phase.seat then seat = phase.seat(game) else seat = game.vars.turn end
  local options = phase.options(game, seat, into and into.options)
  local prompt = phase.prompt
  if type(prompt) == "function" then prompt = prompt(game, seat, options) end
  if into == nil then
    -- Made whole (a table filled key by key grows as it goes).
    return { seat = seat, prompt = prompt, options = options, kind = phase.kind or name }
  end
  into.seat, into.prompt, into.options = seat, prompt, options
  into.kind = phase.kind or name
  return into
end

---Apply the option `action` of `seat` in the current phase (or the phase
---`name`): the phase's `apply`, else the function of the option's `act` in
---the phase's `moves`, else in `rules.moves`; an error if there is none.
---@param rules table
---@param game Game
---@param seat integer
---@param action table
---@param name string?
function phases.apply(rules, game, seat, action, name)
  local phase = phases.current(rules, game, name)
  if phase.apply then return phase.apply(game, seat, action) end
  local act = type(action) == "table" and action.act or nil
  if type(act) ~= "string" then
    error("expected an option {act = ...}, got " .. tostring(action), 0)
  end
  local f = phase.moves and phase.moves[act]
  if f == nil and rules.moves then f = rules.moves[act] end
  if f == nil then error("unknown action '" .. act .. "'", 0) end
  return f(game, seat, action)
end

---`option`, with its `text` (`words(game, option)`) when the game is
---logged; without it otherwise (see "Texts made when asked").
---@param game Game
---@param words fun(game: Game, option: table): string
---@param option table
---@return table
function phases.worded(game, words, option)
  if game.logging then option.text = words(game, option) end
  return option
end

---The function that words an option whose act is `act` (nil when none
---does): the current phase's `text` when its `moves` have the act, else
---`rules.option_texts[act]`, else the `text` of the first phase by name
---whose `moves` have it (see "Texts made when asked").
---@param rules table
---@param game Game|View
---@param act any
---@return (fun(game: Game|View, option: table): string)?
function phases.words_of(rules, game, act)
  local all = rules.phases
  if act == nil then return nil end
  local current = type(all) == "table" and all[game.vars.phase] or nil
  if type(current) == "table" and current.text and current.moves and current.moves[act] then
    return current.text
  end
  local texts = rules.option_texts
  if type(texts) == "table" and texts[act] then return texts[act] end
  if type(all) ~= "table" then return nil end
  local names = {}
  for name, phase in pairs(all) do
    if type(name) == "string" and type(phase) == "table" and phase.text and phase.moves
        and phase.moves[act] then
      names[#names + 1] = name
    end
  end
  if #names == 0 then return nil end
  table.sort(names)
  return all[names[1]].text
end

---An option in words: its `text`; else (with `rules`) the text made when
---asked (phases.words_of); else the name of its `card`, else the value as
---text.
---@param game Game|View
---@param action any
---@param rules table?
---@return string
function phases.describe(game, action, rules)
  if type(action) == "table" then
    if action.text ~= nil then return tostring(action.text) end
    local words = rules and phases.words_of(rules, game, action.act)
    if words then return tostring(words(game, action)) end
    if action.card ~= nil and game.cards[action.card] then
      return game.cards[action.card].name
    end
  end
  return tostring(action)
end

return phases
