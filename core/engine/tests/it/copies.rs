//! A search's copies of a game: the copy a search makes once and then makes
//! a copy of the same position again for every guess
//! (`Game::determinized_into`) must hold exactly what a fresh fork holds,
//! whatever the previous playout did to it, with tables of every shape.

use crate::toy;

use deckhand_engine::policy::random_choice;
use deckhand_engine::rng::GameRng;
use deckhand_engine::{Engine, Game, GameConfig};

/// A toy game whose state has the shapes a script may give it: a table
/// reached from two places, a table as a key, keys that are not names or
/// list positions, a metatable (the game's own, shared by every game of
/// the VM), a list with a hole. Every move changes these shapes: it adds
/// and removes keys, replaces a table with a new one, makes or breaks the
/// sharing, changes the metatable and adds a table as a key.
const SHAPES: &str = r#"
local R = { id = "shapes", title = "Shapes", players = { min = 2, max = 3, default = 2 } }
local DEFAULTS = { __index = function(_, k) return "default " .. tostring(k) end }
local OTHER = { __index = function() return "other" end }
function R.setup(game)
  local deck = game:new_zone("deck", { visibility = "hidden" })
  for v = 1, 12 do game:place(game:new_card({ name = "C" .. v, value = v }), deck) end
  game:new_zone("pile", { visibility = "public" })
  for s = 1, game.seats do game:new_zone("hand", { owner = s, visibility = "owner" }) end
  game:shuffle(deck)
  local hands = {}
  for s = 1, game.seats do hands[s] = game:zone("hand", s) end
  game:deal(deck, hands, 4)
  local v = game.vars
  v.turn, v.steps = 1, 0
  v.shared = { n = 0 }
  v.a = v.shared
  v.b = { inner = v.shared, deeper = { again = v.shared } }
  v.keyed = { [v.shared] = "the shared table as a key" }
  v.odd = { [1.5] = "half", [true] = "yes", [-3] = "negative", [0] = "zero", [2 ^ 40] = "big" }
  v.meta = setmetatable({ x = 1 }, DEFAULTS)
  v.list = { 1, 2, 3 }
  v.holes = { 1, nil, 3 }
end
function R.decision(game)
  local hand = game:zone("hand", game.vars.turn)
  if #hand == 0 then return nil end
  local opts = {}
  for i, c in ipairs(hand) do opts[i] = { card = c, text = "C" .. game.cards[c].value } end
  return { seat = game.vars.turn, prompt = "Play a card", options = opts }
end
function R.apply(game, seat, action)
  local v = game.vars
  v.steps = v.steps + 1
  local s = v.steps
  game:move(action.card, game:zone("hand", seat), game:zone("pile"))
  v.shared.n = v.shared.n + game.cards[action.card].value
  if s % 2 == 0 then v.a = { n = s } else v.a = v.shared end
  v["added_" .. s] = s
  v["added_" .. (s - 1)] = nil
  v.odd[1.5] = nil
  v.odd[s + 0.25] = s
  if s % 3 == 0 then setmetatable(v.meta, OTHER) else setmetatable(v.meta, DEFAULTS) end
  v.meta["m" .. s] = true
  v.keyed[{ step = s }] = s
  v.holes[4 + s] = s
  v.list[#v.list + 1] = s * 10
  table.remove(v.list, 1)
  if s == 2 then v.b = nil elseif s == 3 then v.b = { inner = v.a } end
  v.turn = game:next_seat(seat)
end
function R.result(game)
  return { scores = { game.vars.steps, 0, 0 }, winners = { 1 }, rounds = 1 }
end
return R
"#;

/// Everything a game's Lua state holds (but the shared rules, cards and
/// options), in a fixed order: each table numbered where it is first met
/// and shown by its number after that, so that two states print alike
/// only if they share tables alike; a table with a metatable shows what a
/// key it lacks reads as.
const DUMP: &str = r##"
local seen, count, out = {}, 0, {}
local function key_text(k)
  if type(k) == "table" then
    local parts = {}
    for kk, vv in pairs(k) do parts[#parts + 1] = tostring(kk) .. "=" .. tostring(vv) end
    table.sort(parts)
    return "{" .. table.concat(parts, ",") .. "}"
  end
  return type(k) .. ":" .. tostring(k)
end
local function dump(t)
  if seen[t] then out[#out + 1] = "@" .. seen[t]; return end
  count = count + 1
  seen[t] = count
  out[#out + 1] = "#" .. count .. "{"
  if getmetatable(t) ~= nil then out[#out + 1] = "meta:" .. tostring(t.missing) end
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b) return key_text(a) < key_text(b) end)
  for _, k in ipairs(keys) do
    out[#out + 1] = key_text(k) .. "="
    local v = t[k]
    if type(v) == "table" then dump(v) else out[#out + 1] = type(v) .. ":" .. tostring(v) end
  end
  out[#out + 1] = "}"
end
local keys = {}
for k in pairs(game) do
  if k ~= "rules" and k ~= "cards" and k ~= "options" and k ~= "_core" then keys[#keys + 1] = k end
end
table.sort(keys)
for _, k in ipairs(keys) do
  out[#out + 1] = k .. "="
  local v = game[k]
  if type(v) == "table" then dump(v) else out[#out + 1] = type(v) .. ":" .. tostring(v) end
end
return table.concat(out, " ")
"##;

fn state(g: &Game) -> String {
    g.eval_lua(DUMP).expect("dump")
}

/// A 2-player game of SHAPES dealt from `seed`.
fn shapes_game(e: &Engine, seed: u64) -> Game {
    e.new_game(GameConfig::new("shapes", 2, seed), false)
        .expect("start")
}

fn random_steps(g: &mut Game, rng: &mut GameRng, n: usize) {
    for _ in 0..n {
        if g.pending().is_none() {
            return;
        }
        let choice = random_choice(g, rng).expect("choice");
        g.apply_choice(&choice).expect("step");
    }
}

#[test]
fn a_copy_made_again_holds_what_a_fresh_fork_holds() {
    for (which, e) in toy::both_engines(&[("shapes/game.lua", SHAPES)]) {
        for start in [0, 1, 3] {
            let mut g = shapes_game(&e, 7);
            random_steps(&mut g, &mut GameRng::from_seed(start), start as usize);
            let seat = g.pending().expect("to move").0;
            let guessing = g.guessing(seat).expect("guessing");
            let mut scratch = None;
            for guess in 0..5u64 {
                let fresh = g
                    .determinized_with(seat, &mut GameRng::from_seed(guess), &guessing)
                    .expect("fork");
                let again = g
                    .determinized_into(
                        seat,
                        &mut GameRng::from_seed(guess),
                        &guessing,
                        &mut scratch,
                    )
                    .expect("copy again");
                assert_eq!(
                    state(&fresh),
                    state(again),
                    "{which}: {start} steps in, guess {guess}"
                );
                again.check_invariants().expect("mirrors");
                // The playout changes every shape before the next guess.
                random_steps(
                    again,
                    &mut GameRng::from_seed(50 + guess),
                    1 + guess as usize,
                );
            }
            // The copies left the game itself as it was.
            let mut replayed = shapes_game(&e, 7);
            random_steps(
                &mut replayed,
                &mut GameRng::from_seed(start),
                start as usize,
            );
            assert_eq!(state(&g), state(&replayed), "{which}: the game itself");
        }
    }
}

#[test]
fn a_guessing_of_another_game_makes_fresh_forks() {
    for (which, e) in toy::both_engines(&[("shapes/game.lua", SHAPES)]) {
        let mut g = shapes_game(&e, 7);
        let other = shapes_game(&e, 8);
        random_steps(&mut g, &mut GameRng::from_seed(1), 2);
        let guessing = other.guessing(1).expect("guessing");
        let mut scratch = None;
        for guess in 0..3u64 {
            let fresh = g
                .determinized_with(1, &mut GameRng::from_seed(guess), &guessing)
                .expect("fork");
            let again = g
                .determinized_into(1, &mut GameRng::from_seed(guess), &guessing, &mut scratch)
                .expect("copy again");
            assert_eq!(state(&fresh), state(again), "{which}: guess {guess}");
            random_steps(again, &mut GameRng::from_seed(guess), 2);
        }
    }
}

#[test]
fn scripts_cannot_reach_the_copying_tools() {
    for (which, e) in toy::both_engines(&[]) {
        for code in ["return table.clear", "return table.new"] {
            let out = e.host().eval(code, None);
            assert!(
                out.as_ref().map_or(true, |s| s == "nil"),
                "{which}: `{code}` gave {out:?}"
            );
        }
    }
}

#[test]
fn searches_leave_no_copies_behind() {
    // Each search makes its own copy; once the search is over, the copy and
    // the tables its replays made must be free to collect (they were once
    // kept alive by a weak table whose entries referred to their own keys).
    for (which, e) in toy::both_engines(&[("shapes/game.lua", SHAPES)]) {
        let mut g = shapes_game(&e, 7);
        random_steps(&mut g, &mut GameRng::from_seed(1), 1);
        let seat = g.pending().expect("to move").0;
        let search = |n: u64| {
            for s in 0..n {
                let guessing = g.guessing(seat).expect("guessing");
                let mut scratch = None;
                for guess in 0..3 {
                    g.determinized_into(
                        seat,
                        &mut GameRng::from_seed(s * 3 + guess),
                        &guessing,
                        &mut scratch,
                    )
                    .expect("copy");
                }
            }
        };
        let lua = e.host().lua();
        search(50);
        lua.gc_collect().expect("collect");
        lua.gc_collect().expect("collect");
        let before = lua.used_memory();
        search(500);
        lua.gc_collect().expect("collect");
        lua.gc_collect().expect("collect");
        let after = lua.used_memory();
        assert!(
            after < before + 64 * 1024,
            "{which}: {before} bytes after 50 searches, {after} after 550"
        );
    }
}
