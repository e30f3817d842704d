---@meta deckhand
-- LuaLS annotations of the deckhand script API.
-- Point your editor's Lua language server at this folder (see docs/scripting.md)
-- and it completes and checks game scripts, variants and house rules.
--
-- Conventions used everywhere:
--   * seats are numbered 1..game.seats;
--   * cards are integer ids (1..#game.cards); their properties are in game.cards[id];
--   * zones are tables whose array part lists the card ids in them, bottom first
--     (so zone[#zone] is the top); never edit that array yourself: move cards
--     with game:move and friends, so that the core can log, check and undo them;
--   * game.vars holds plain data only (numbers, strings, booleans and tables of
--     those) so that it can be saved, cloned and shown; never store functions there.

---@alias Seat integer
---@alias CardId integer
---@alias Visibility "public"|"owner"|"hidden"|"top"

---A card definition. `name` is what players see; every other field is a
---property chosen by the script (suit, value, points, color ...). The REPL
---colours a card by its `color` property when it is one of: blue, green, red,
---purple, yellow, orange, gray, white, black, pink, teal, darkred, darkblue,
---lightblue, lightgreen, lightgray (or lightgrey), lightorange.
---@class CardDef
---@field id CardId
---@field name string
---@field color? string
---@field back? string what the card shows face down, when a game has cards with different backs (the search's guesses keep each hidden card among cards of its back)
---@field [string] any

---A zone: an ordered list of cards with an owner and a visibility.
---  public: everybody sees every card; owner: the owner sees the cards, others
---  only the count; hidden: nobody sees the cards; top: everybody sees only the top card.
---@class Zone
---@field id integer
---@field name string
---@field owner Seat|nil
---@field visibility Visibility
---@field sorted true|nil  true while the cards are in card-id order after game:sort (until a card arrives or the zone is shuffled)
---@field [integer] CardId

---What a rule function asks of a seat: which seat chooses and among what.
---Each option is a plain value (number, string or table of those). An option
---that plays or moves a card should carry it in a `card` field (or a `cards`
---list): the trace then names the card. An option table with
---a `secret` field is known only to the seat that chooses it: `secret = "text"`
---is what the other seats are told instead (the REPL prints that), `secret =
---true` tells them only that a secret choice was made.
---`kind` names the kind of decision for traces ("play", "pass",
---"choose_leader" ...; default "choose"; lib/phases.lua gives the phase's name).
---@class Decision
---@field seat Seat
---@field kind? string
---@field prompt string
---@field options any[]

---@class Game
---@field seats integer               number of seats
---@field options table<string, any>  resolved options (reading an unknown key is an error)
---@field vars table<string, any>     public script variables (plain data)
---@field cards CardDef[]             card definitions by id
---@field teams Seat[][]|nil          teams when the game is played in teams
---@field team_of table<Seat, integer>|nil team index of each seat
---@field rules GameScript           the rules table (game script + variants)
---@field logging boolean            true when events are recorded (skip building event texts when false)
---@field words boolean              true when event texts are read (false in a trace: skip building them)
local Game = {}

---Define a card (during setup only). Returns its id. The table becomes the
---card's definition: pass a fresh table for each card and do not change it
---afterwards; its `id` field is set here (a table that already has one is
---refused).
---@param props table  at least `name`
---@return CardId
function Game:new_card(props) end

---Create a zone (during setup only).
---@param name string
---@param spec? {owner?: Seat, visibility?: Visibility}
---@return Zone
function Game:new_zone(name, spec) end

---Find a zone by name and owner (owner nil for a shared zone).
---@param name string
---@param owner? Seat
---@return Zone
function Game:zone(name, owner) end

---Put a newly defined card into a zone (setup only; every card must be
---placed exactly once before it can move).
---@param card CardId
---@param zone Zone
function Game:place(card, zone) end

---Move one card from a zone to another (on top, or at the bottom).
---Raises an error when the card is not in `from`.
---@param card CardId
---@param from Zone
---@param to Zone
---@param where? "top"|"bottom"
function Game:move(card, from, to, where) end

---Move the top card of `from` to `to`; returns it, or nil when `from` is empty.
---@param from Zone
---@param to Zone
---@return CardId|nil
function Game:move_top(from, to) end

---Move every card of `from` onto `to`, keeping their order.
---@param from Zone
---@param to Zone
function Game:move_all(from, to) end

---Shuffle a zone with the game's seeded random generator.
---@param zone Zone
function Game:shuffle(zone) end

---Put a zone's cards in card-id order (bottom = lowest id), as a player
---sorts a hand; sets `zone.sorted` (see Zone).
---@param zone Zone
function Game:sort(zone) end

---Deal `n` cards from the top of `from`, one at a time, round-robin over `to`.
---@param from Zone
---@param to Zone[]
---@param n integer cards per zone
function Game:deal(from, to, n) end

---A uniform random integer in [lo, hi] from the game's seeded generator.
---@param lo integer
---@param hi integer
---@return integer
function Game:random(lo, hi) end

---Record a script event in the log and the trace. `data.text`, when given,
---is what the REPL prints (traces leave it out: they record facts); `data.to`, when given, makes the event private to that seat.
---@param kind string  snake_case, e.g. "trick_won", "trump_changed", "round_scored"
---@param data? table  plain data
function Game:event(kind, data) end

---Play in teams (during setup only): `teams` lists the seats of each team,
---every seat in exactly one team. Afterwards game.teams and game.team_of
---(team index of each seat) are set.
---@param teams Seat[][]
function Game:set_teams(teams) end

---The seat `k` places after `seat` going clockwise (k defaults to 1).
---@param seat Seat
---@param k? integer
---@return Seat
function Game:next_seat(seat, k) end

---What a seat may see of the game: handed to bots and shown by the REPL.
---@class View
---@field seat Seat
---@field seats integer
---@field options table<string, any>
---@field vars table<string, any>
---@field cards CardDef[]
---@field teams Seat[][]|nil
---@field team_of table<Seat, integer>|nil
local View = {}

---The zone if this seat may see its cards; otherwise a table with only
---`count` (and, for a "top" zone, `top`).
---@param name string
---@param owner? Seat
---@return Zone|{count: integer, top: CardId|nil}
function View:zone(name, owner) end

---@class OptionSpec
---@field default any
---@field doc string
---@field choices? any[]
---@field min? number  least number allowed (also a number given as text)
---@field max? number  greatest number allowed

---A game script returns a table of this shape.
---@class GameScript
---@field id string                     snake_case id
---@field title string
---@field players {min: integer, max: integer, default?: integer}
---@field options table<string, OptionSpec>
---@field setup fun(game: Game)         define cards and zones, deal, start
---@field decision fun(game: Game): Decision|nil   nil when the game is over
---@field apply fun(game: Game, seat: Seat, action: any)
---@field describe fun(game: Game, action: any): string   an option in words
---@field result fun(game: Game): {scores: table<Seat, number>, winners: Seat[], rounds: integer}
---@field status? fun(view: View): string[]   extra lines the REPL prints under the table
---@field bots? table<string, fun(view: View, decision: Decision): integer>  option index
---@field playout_bot? string  a bot of `bots` the search bot plays its playouts with (default: random moves)
---@field may_hold? fun(game: Game, seat: Seat, card: CardId): boolean  false when play has shown the seat cannot hold the card; search bots deal hidden cards accordingly
---@field evaluate? fun(game: Game, seat: Seat): number  0 (sure loss) .. 1 (sure win); search bots stop playouts at the round's end and ask this
---@field rounds? fun(game: Game): integer  the `rounds` of `result`, without building a result (search bots ask it after every move of a playout)
---@field why_not? fun(game: Game, seat: Seat, card: CardId): string|nil  why `seat` may not play `card` now, a sentence for that seat only (the REPL says it when a person names a card that is not a legal move)
---@field summary? string  the rules in a few lines, printed by the REPL's `rules` command

---A variant or house rule returns a table of this shape. `modify` receives the
---rules table: the table the game script returned (loaded afresh for each
---game-and-variants combination, and shared by the games started with it),
---with the earlier variants already applied. It may replace or wrap any
---function or constant in it. Rule functions therefore call each other through
---that table (`R.card_points(game, card)`), never through local upvalues, so a
---wrapped function takes effect everywhere. The same table is `game.rules`.
---While `modify` runs, assigning a top-level name that the game (or an earlier
---variant) does not define, and that is not a name of the script protocol, is
---an error at that line, unless the variant lists it in `provides`
---(docs/house-rules.md, "Strict names"). Nested tables are not checked.
---@class VariantScript
---@field id string
---@field title string
---@field game string                   id of the game it changes
---@field players? {min: integer, max: integer}  narrows the player range
---@field options? table<string, OptionSpec>      adds options
---@field provides? string[]            the names `modify` adds to the rules table
---@field modify fun(rules: GameScript)
