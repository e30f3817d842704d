//! The information-set search (`ismcts`) and the hint built on it: it finds
//! a forced win, repeats itself for a seed and a playout count (the
//! two-thread hint too), never lets a hidden card it cannot see change its
//! choice, and plays a house rule as written.

use deckhand_bots::budget::Budget;
use deckhand_bots::{hint, ismcts, search};
use deckhand_engine::rng::GameRng;
use deckhand_engine::{DirSource, Engine, Game, GameConfig, MemorySource, ScriptLibrary};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Take 1 or 2 tokens from a pile; whoever takes the last one wins. With
/// 7 tokens the player to move wins only by taking 1 (leaving a multiple
/// of 3), and then by always leaving a multiple of 3.
const NIM: &str = r#"
local R = { id = "nim", title = "Nim", players = { min = 2, max = 2, default = 2 },
  options = { tokens = { default = 7, doc = "tokens in the pile" } } }
function R.setup(game)
  game.vars.left = game.options.tokens
  game.vars.turn = 1
end
function R.decision(game)
  if game.vars.left == 0 then return nil end
  local opts = {}
  for k = 1, math.min(2, game.vars.left) do opts[k] = { take = k, text = "take " .. k } end
  return { seat = game.vars.turn, prompt = "Take", options = opts }
end
function R.apply(game, seat, o)
  game.vars.left = game.vars.left - o.take
  if game.vars.left == 0 then game.vars.winner = seat end
  game.vars.turn = 3 - seat
end
"#;

/// Seat 1 holds the cards 1..6 (face up) and either sells any of them (one
/// choice of a set, scored by the sum) and wins when the sale is worth 18
/// or more, or waits, and a coin (the top card of a shuffled pair) decides.
/// Seat 2 never moves. Selling well is a sure win; a random sale rarely is.
pub(crate) const SALE: &str = r#"
local R = { id = "sale", title = "Sale", players = { min = 2, max = 2, default = 2 }, options = {} }
function R.setup(game)
  local hand = game:new_zone("hand", { owner = 1, visibility = "public" })
  for v = 1, 6 do game:place(game:new_card({ name = "Card " .. v, value = v }), hand) end
  local coin = game:new_zone("coin", { visibility = "hidden" })
  game:place(game:new_card({ name = "Heads", value = 1 }), coin)
  game:place(game:new_card({ name = "Tails", value = 2 }), coin)
  game:shuffle(coin)
  game:new_zone("sold", { visibility = "public" })
end
R.choices = {
  any = {
    valid = function() return true end,
    score = function(game, seat, cards)
      local t = 0
      for _, c in ipairs(cards) do t = t + game.cards[c].value end
      return t
    end,
  },
}
function R.decision(game)
  if game.vars.winner then return nil end
  local hand = game:zone("hand", 1)
  local ids = {}
  for i = 1, #hand do ids[i] = hand[i] end
  table.sort(ids)
  return { seat = 1, prompt = "Sell or wait", options = {
    { act = "sell", text = "Sell", choose = { from = ids, min = 1, max = #ids, check = "any" } },
    { act = "wait", text = "Wait" } } }
end
function R.apply(game, seat, o)
  if o.act == "sell" then
    local t = 0
    for _, c in ipairs(o.cards) do
      t = t + game.cards[c].value
      game:move(c, game:zone("hand", 1), game:zone("sold"))
    end
    game.vars.winner = t >= 18 and 1 or 2
  else
    local coin = game:zone("coin")
    game.vars.winner = game.cards[coin[#coin]].value
  end
end
"#;

/// Seat 1 stays home (a coin decides the game) or sails to market, where it
/// must then pick the one right stall of ten to win. The game's bot
/// (`rules.playout_bot`) knows the right stall.
const MARKET: &str = r#"
local R = { id = "market", title = "Market", players = { min = 2, max = 2, default = 2 }, options = {} }
function R.setup(game)
  local coin = game:new_zone("coin", { visibility = "hidden" })
  game:place(game:new_card({ name = "Heads", value = 1 }), coin)
  game:place(game:new_card({ name = "Tails", value = 2 }), coin)
  game:shuffle(coin)
  game.vars.at = "home"
end
function R.decision(game)
  local v = game.vars
  if v.winner then return nil end
  if v.at == "home" then
    return { seat = 1, prompt = "Where?", options = {
      { go = "stay", text = "Stay home" }, { go = "market", text = "Sail to market" } } }
  end
  local opts = {}
  for i = 1, 10 do opts[i] = { stall = i, text = "Stall " .. i } end
  return { seat = 1, prompt = "Which stall?", options = opts }
end
function R.apply(game, seat, o)
  local v = game.vars
  if o.go == "stay" then
    local coin = game:zone("coin")
    v.winner = game.cards[coin[#coin]].value
  elseif o.go == "market" then
    v.at = "market"
  else
    v.winner = o.stall == 7 and 1 or 2
  end
end
R.bots = {
  knows = function(view, decision)
    for i, o in ipairs(decision.options) do
      if o.stall == 7 or o.go == "market" then return i end
    end
    return 1
  end,
}
R.playout_bot = "knows"
"#;

/// Seat 1 trusts seat 2 or tosses a coin. Trusted, seat 2 makes a secret
/// choice (seat 1 sees only "chooses a box"): a gift (seat 1 wins) or
/// poison (seat 2 wins). The game's bot, which plays the playouts, always
/// poisons.
const TRUST: &str = r#"
local R = { id = "trust", title = "Trust", players = { min = 2, max = 2, default = 2 }, options = {} }
function R.setup(game)
  local coin = game:new_zone("coin", { visibility = "hidden" })
  game:place(game:new_card({ name = "Heads", value = 1 }), coin)
  game:place(game:new_card({ name = "Tails", value = 2 }), coin)
  game:shuffle(coin)
  game.vars.stage = "start"
end
function R.decision(game)
  local v = game.vars
  if v.winner then return nil end
  if v.stage == "start" then
    return { seat = 1, prompt = "Trust?", options = {
      { act = "trust", text = "Trust seat 2" }, { act = "coin", text = "Toss a coin" } } }
  end
  return { seat = 2, prompt = "Which box?", options = {
    { act = "gift", text = "Gift", secret = "chooses a box" },
    { act = "poison", text = "Poison", secret = "chooses a box" } } }
end
function R.apply(game, seat, o)
  local v = game.vars
  if o.act == "trust" then
    v.stage = "box"
  elseif o.act == "coin" then
    local coin = game:zone("coin")
    v.winner = game.cards[coin[#coin]].value
  else
    v.winner = o.act == "gift" and 1 or 2
  end
end
R.bots = {
  poisoner = function(view, decision)
    for i, o in ipairs(decision.options) do
      if o.act == "poison" or o.act == "coin" then return i end
    end
    return 1
  end,
}
R.playout_bot = "poisoner"
"#;

/// Seat 1 waits (a card from a hidden pile of five decides: it wins with
/// two of them) or challenges seat 2, who holds one card dealt face down,
/// Red or Blue. Challenged, seat 2 gambles (it wins holding Red, loses
/// holding Blue) or folds (a coin decides). The game's bot, which plays the
/// playouts, gambles holding Red and folds holding Blue, so a challenge is
/// worth 1/4 to seat 1 and waiting 2/5. Each pile's cards have a back of
/// their own.
const GAMBLE: &str = r#"
local R = { id = "gamble", title = "Gamble", players = { min = 2, max = 2, default = 2 }, options = {} }
-- A hidden pile of `cards`, shuffled; its cards share one back, `name`
-- (a search's guess swaps a card only with an unseen card of its back).
local function pile(game, name, cards)
  local z = game:new_zone(name, { visibility = "hidden" })
  for _, c in ipairs(cards) do
    c.back = name
    game:place(game:new_card(c), z)
  end
  game:shuffle(z)
  return z
end
function R.setup(game)
  pile(game, "wait", { { name = "Win", value = 1 }, { name = "Win", value = 1 },
    { name = "Lose", value = 2 }, { name = "Lose", value = 2 }, { name = "Lose", value = 2 } })
  pile(game, "coin", { { name = "Heads", value = 1 }, { name = "Tails", value = 2 } })
  local deck = pile(game, "deck", { { name = "Red" }, { name = "Blue" } })
  local hand = game:new_zone("hand", { owner = 2, visibility = "owner" })
  game:move(deck[#deck], deck, hand)
  game.vars.stage = "start"
end
local function top(game, name)
  local z = game:zone(name)
  return game.cards[z[#z]]
end
function R.decision(game)
  local v = game.vars
  if v.winner then return nil end
  if v.stage == "start" then
    return { seat = 1, prompt = "Wait or challenge?", options = {
      { act = "wait", text = "Wait" }, { act = "challenge", text = "Challenge" } } }
  end
  return { seat = 2, prompt = "Gamble or fold?", options = {
    { act = "gamble", text = "Gamble" }, { act = "fold", text = "Fold" } } }
end
function R.apply(game, seat, o)
  local v = game.vars
  if o.act == "wait" then
    v.winner = top(game, "wait").value
  elseif o.act == "challenge" then
    v.stage = "challenged"
  elseif o.act == "gamble" then
    local hand = game:zone("hand", 2)
    v.winner = game.cards[hand[1]].name == "Red" and 2 or 1
  else
    v.winner = top(game, "coin").value
  end
end
R.bots = {
  -- Seat 2 gambles holding Red, else folds (seat 1 has no decision in a
  -- playout: its only one is the search's).
  reader = function(view, decision)
    local hand = view:zone("hand", 2)
    local want = (hand[1] and view.cards[hand[1]].name == "Red") and "gamble" or "fold"
    for i, o in ipairs(decision.options) do
      if o.act == want then return i end
    end
    return 1
  end,
}
R.playout_bot = "reader"
"#;

/// Seat 1 passes (a card from a hidden pile of four decides: it wins with
/// three of them) or draws a card, Red or Blue, from a hidden deck into its
/// hand and then bets on a colour: it wins when the bet names the card it
/// drew. Seeing the card, it always bets right, so drawing is a sure win.
/// The tickets and the colours have backs of their own.
/// Seat 2 never moves. Playouts are random moves.
const DRAW_AND_BET: &str = r#"
local R = { id = "draw_bet", title = "Draw and bet", players = { min = 2, max = 2, default = 2 }, options = {} }
function R.setup(game)
  local pass = game:new_zone("pass", { visibility = "hidden" })
  for v = 1, 4 do
    game:place(game:new_card({ name = "Ticket", back = "ticket", value = v == 4 and 2 or 1 }), pass)
  end
  game:shuffle(pass)
  local deck = game:new_zone("deck", { visibility = "hidden" })
  game:place(game:new_card({ name = "Red", back = "colour" }), deck)
  game:place(game:new_card({ name = "Blue", back = "colour" }), deck)
  game:shuffle(deck)
  game:new_zone("hand", { owner = 1, visibility = "owner" })
  game.vars.stage = "start"
end
function R.decision(game)
  local v = game.vars
  if v.winner then return nil end
  if v.stage == "start" then
    return { seat = 1, prompt = "Pass or draw?", options = {
      { act = "pass", text = "Pass" }, { act = "draw", text = "Draw" } } }
  end
  return { seat = 1, prompt = "Bet on?", options = {
    { act = "bet", colour = "Red", text = "Bet Red" }, { act = "bet", colour = "Blue", text = "Bet Blue" } } }
end
function R.apply(game, seat, o)
  local v = game.vars
  if o.act == "pass" then
    local z = game:zone("pass")
    v.winner = game.cards[z[#z]].value
  elseif o.act == "draw" then
    local deck = game:zone("deck")
    game:move(deck[#deck], deck, game:zone("hand", 1))
    v.stage = "bet"
  else
    local hand = game:zone("hand", 1)
    v.winner = game.cards[hand[1]].name == o.colour and 1 or 2
  end
end
"#;

/// Seat 1 takes one of six bonuses, listed out of order (3, 6, 1, 5, 2,
/// 4); then the top card of a hidden deck of twenty (values 1 to 20)
/// decides: seat 1 wins when the card's value plus its bonus is over 17.
/// A bonus of 6 wins whenever a smaller one would, and on a few deals
/// more: a difference of one bonus point is one deal in twenty.
pub(crate) const LUCK: &str = r#"
local R = { id = "luck", title = "Luck", players = { min = 2, max = 2, default = 2 }, options = {} }
local BONUSES = { 3, 6, 1, 5, 2, 4 }
function R.setup(game)
  local deck = game:new_zone("deck", { visibility = "hidden" })
  for v = 1, 20 do
    game:place(game:new_card({ name = "Card", value = v }), deck)
  end
  game:shuffle(deck)
end
function R.decision(game)
  if game.vars.winner then return nil end
  local options = {}
  for i, b in ipairs(BONUSES) do
    options[i] = { bonus = b, text = "Bonus " .. b }
  end
  return { seat = 1, prompt = "Which bonus?", options = options }
end
function R.apply(game, seat, o)
  local deck = game:zone("deck")
  game.vars.winner = game.cards[deck[#deck]].value + o.bonus > 17 and 1 or 2
end
"#;

/// The tree of a search of `g`'s pending decision within `budget` (a
/// number of iterations or a time), seeded by `seed`.
fn search_tree(g: &Game, seed: u64, budget: impl Into<Budget>) -> ismcts::Tree {
    ismcts::search(g, &mut GameRng::from_seed(seed), budget.into(), None, None).expect("search")
}

/// The choice of an `ismcts` search of `g`'s pending decision with
/// `iterations` iterations, seeded by `seed`.
fn search_choice(g: &Game, seed: u64, iterations: u32) -> deckhand_engine::Choice {
    ismcts::choose(
        g,
        &mut GameRng::from_seed(seed),
        Budget::Iterations(iterations),
        None,
        None,
    )
    .expect("choose")
}

/// A 2-player game of the toy `id` dealt from `seed`.
pub(crate) fn toy_game(e: &Engine, id: &str, seed: u64) -> Game {
    e.new_game(GameConfig::new(id, 2, seed), true)
        .expect("start")
}

/// The root's child keyed `key`.
fn root_child<'t>(tree: &'t ismcts::Tree, key: &str) -> &'t ismcts::Node {
    tree.nodes[0]
        .children
        .iter()
        .map(|&c| &tree.nodes[c])
        .find(|n| n.key == key)
        .unwrap_or_else(|| panic!("{key} tried"))
}

/// How every toy game here ends: one round, won by `game.vars.winner`.
/// [`toy_engine`] adds it after the game's own text.
const ONE_ROUND_END: &str = r#"
function R.result(game)
  return { scores = {}, winners = { game.vars.winner }, rounds = 1 }
end
return R
"#;

/// An engine with the toy game `text` (without its ending, [`ONE_ROUND_END`])
/// as `name`.
pub(crate) fn toy_engine(name: &str, text: &str) -> Engine {
    let mut files = BTreeMap::new();
    files.insert(format!("{name}/game.lua"), format!("{text}{ONE_ROUND_END}"));
    let mut lib = ScriptLibrary::new();
    lib.push(Arc::new(MemorySource::new("test", files)));
    Engine::new(Arc::new(lib)).expect("engine")
}

#[test]
fn the_tree_values_a_choice_of_cards_by_the_set_it_would_play() {
    // With sets built at random inside the tree, "Sell" was worth the
    // chance of a random sale reaching 18 and the search waited; valued by
    // the best-scored set it is a sure win.
    let e = toy_engine("sale", SALE);
    for seed in 0..5 {
        let g = toy_game(&e, "sale", seed);
        let tree = search_tree(&g, seed, 100);
        let sell = root_child(&tree, "Sell");
        assert!(
            sell.mean() > 0.99,
            "seed {seed}: sell worth {}",
            sell.mean()
        );
        let choice = search_choice(&g, seed, 100);
        assert_eq!(choice.index, 1, "seed {seed}");
        assert_eq!(choice.picks.map(|p| p.len()), Some(6), "seed {seed}");
    }
}

#[test]
fn below_the_root_the_tree_first_follows_the_playout_bot() {
    // 30 iterations: "Sail to market" is a sure win when followed by the
    // right stall, which the playout bot knows. Growing the tree from a
    // random stall first valued the trip at about the chance of guessing
    // it, and the search stayed home.
    let e = toy_engine("market", MARKET);
    for seed in 0..5 {
        let g = toy_game(&e, "market", seed);
        let tree = search_tree(&g, seed, 30);
        let market = root_child(&tree, "Sail to market");
        assert!(
            market.mean() > 0.7,
            "seed {seed}: market worth {}",
            market.mean()
        );
        let choice = search_choice(&g, seed, 30);
        assert_eq!(choice.index, 2, "seed {seed}");
    }
}

#[test]
fn below_the_root_the_tree_widens_slowly_at_small_budgets() {
    // At 30 iterations the trip to market is tried about 25 times. With
    // ⌈√visits⌉ moves below it, a random stall joined the tree at its 2nd,
    // 5th, 10th, 17th and 26th visit, each a loss, and UCB tried some of
    // them again: the trip was valued about 0.82 although the bot's move
    // after it always wins (and the same at the second decision of a turn
    // in the games shipped, where `ismcts` lost to `mc`). With
    // ⌈√visits / 2⌉ moves, at most three stalls are tried.
    let e = toy_engine("market", MARKET);
    for seed in 0..8 {
        let g = toy_game(&e, "market", seed);
        let tree = search_tree(&g, seed, 30);
        let market = root_child(&tree, "Sail to market");
        let stalls = market.children.len();
        assert!(stalls <= 3, "seed {seed}: {stalls} stalls tried");
        assert!(
            market.mean() > 0.9,
            "seed {seed}: market worth {}",
            market.mean()
        );
    }
}

#[test]
fn the_root_tries_its_moves_on_shared_deals_and_halves_them() {
    // Sequential halving over 60 iterations: six moves, then three, then
    // two, each round dealing the same cards to every move still in. On
    // shared deals a bigger bonus never scores less, so the search finds
    // the best bonus however close the next one is. With a fresh deal for
    // every iteration (as `mc` played until it took this root), the means
    // of bonuses 5 and 6 were each over about ten unrelated deals, and
    // which one looked better was mostly chance.
    let e = toy_engine("luck", LUCK);
    for seed in 0..20 {
        let g = toy_game(&e, "luck", seed);
        let tree = search_tree(&g, seed, 60);
        let moves: Vec<(u32, u32, f64)> = tree
            .root_options()
            .map(|n| {
                let bonus = n.key.trim_start_matches("Bonus ").parse().expect("bonus");
                (bonus, n.visits, n.mean())
            })
            .collect();
        assert_eq!(moves.len(), 6, "seed {seed}: every move tried");
        let total: u32 = moves.iter().map(|m| m.1).sum();
        assert!(
            (55..=60).contains(&total),
            "seed {seed}: {total} iterations"
        );
        let mut visits: Vec<u32> = moves.iter().map(|m| m.1).collect();
        visits.sort_unstable();
        visits.dedup();
        assert_eq!(visits.len(), 3, "seed {seed}: three rounds, {moves:?}");
        let most = visits[2];
        let finalists = moves.iter().filter(|m| m.1 == most).count();
        assert_eq!(finalists, 2, "seed {seed}: {moves:?}");
        // Moves that left in the same round (or are both still in) played
        // the same deals.
        for a in &moves {
            for b in &moves {
                if a.1 == b.1 && a.0 > b.0 {
                    assert!(a.2 >= b.2, "seed {seed}: bonus {a:?} below {b:?}");
                }
            }
        }
        let choice = search_choice(&g, seed, 60);
        assert_eq!(choice.index, 2, "seed {seed}: bonus 6 is the second option");
    }
}

#[test]
fn a_time_budget_halves_the_root_moves_too() {
    // With a time, the rounds' lengths are set from the rate of the
    // playouts so far: moves are dropped as with a number of playouts, and
    // a round cut short by the clock still ends on a whole deal, so the
    // best bonus, still in, has as many playouts as any move.
    let e = toy_engine("luck", LUCK);
    for seed in 0..3 {
        let g = toy_game(&e, "luck", seed);
        let tree = search_tree(&g, seed, Budget::Time(Duration::from_millis(200)));
        let moves: Vec<(&str, u32)> = tree
            .root_options()
            .map(|n| (n.key.as_str(), n.visits))
            .collect();
        assert_eq!(moves.len(), 6, "seed {seed}: every move tried");
        let most = moves.iter().map(|m| m.1).max().unwrap_or(0);
        let best = moves.iter().find(|m| m.0 == "Bonus 6").map_or(0, |m| m.1);
        assert_eq!(best, most, "seed {seed}: {moves:?}");
        assert!(
            moves.iter().any(|m| m.1 < most),
            "seed {seed}: some moves dropped, {moves:?}"
        );
    }
}

fn scripts() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts")
}

pub(crate) fn games_engine() -> Engine {
    let mut lib = ScriptLibrary::new();
    lib.push(Arc::new(DirSource::new(scripts())));
    Engine::new(Arc::new(lib)).expect("engine over scripts/")
}

fn nim_engine() -> Engine {
    toy_engine("nim", NIM)
}

/// Random moves with a generator of the test's own (as the random bot
/// makes them: a set of cards for an option that asks for one).
fn random_steps(g: &mut Game, rng: &mut GameRng, n: usize) {
    for _ in 0..n {
        if g.pending().is_none() {
            return;
        }
        let choice = deckhand_engine::policy::random_choice(g, rng).expect("choice");
        g.apply_choice(&choice).expect("step");
    }
}

/// A 4-player Sea Change game a few tricks into its first round.
pub(crate) fn sea_change_position(e: &Engine, seed: u64) -> Game {
    let mut g = e
        .new_game(GameConfig::new("sea_change", 4, seed), true)
        .expect("start");
    random_steps(&mut g, &mut GameRng::from_seed(seed), 9);
    g
}

#[test]
fn ismcts_takes_a_forced_win() {
    let e = nim_engine();
    for tokens in [4, 7, 8] {
        let g = e
            .new_game(GameConfig::new("nim", 2, 1).option("tokens", tokens), true)
            .expect("start");
        let winning = if tokens % 3 == 1 { 1 } else { 2 };
        for seed in 0..5 {
            let choice = search_choice(&g, seed, 300);
            assert_eq!(choice.index, winning, "{tokens} tokens, seed {seed}");
        }
    }
}

#[test]
fn a_barred_search_keeps_its_root_to_the_options_allowed() {
    // From 7 tokens taking 1 wins; barred from it, the search takes 2,
    // and its tree holds no other move at the root. Below the root the
    // tree still plays both moves (the bar is on the decision searched).
    let e = nim_engine();
    let g = e
        .new_game(GameConfig::new("nim", 2, 1).option("tokens", 7), true)
        .expect("start");
    let take_two = g.option_keys(1).expect("keys")[1].clone();
    for seed in 0..3 {
        let budget = Budget::Iterations(300);
        let rng = || GameRng::from_seed(seed);
        let tree =
            ismcts::search_among(&g, &mut rng(), budget, None, None, Some(&[2])).expect("search");
        let keys: Vec<&str> = tree.root_options().map(|n| n.key.as_str()).collect();
        assert_eq!(keys, [take_two.as_str()], "seed {seed}");
        assert!(tree.nodes.len() > 2, "nothing grown below the root");
        let choose = |allowed: &[usize]| {
            ismcts::choose_among(&g, &mut rng(), budget, None, None, Some(allowed))
                .expect("choose")
                .index
        };
        assert_eq!(choose(&[2]), 2, "seed {seed}");
        // With every option allowed, the same search takes the win.
        assert_eq!(choose(&[1, 2]), 1, "seed {seed}");
    }
}

#[test]
fn ismcts_sees_the_win_deeper_than_one_move() {
    // From 7 tokens the winning line is take 1, then answer every move so
    // as to leave 3: the tree's expected line after "take 1" is that reply.
    let e = nim_engine();
    let g = e
        .new_game(GameConfig::new("nim", 2, 1), true)
        .expect("start");
    let tree = ismcts::search(
        &g,
        &mut GameRng::from_seed(3),
        Budget::Iterations(2000),
        None,
        None,
    )
    .expect("search");
    let take1 = tree.nodes[0]
        .children
        .iter()
        .copied()
        .find(|&c| tree.nodes[c].key == "take 1")
        .expect("take 1 tried");
    assert!(
        tree.nodes[take1].mean() > 0.9,
        "{}",
        tree.nodes[take1].mean()
    );
    let line = tree.principal_line(take1, 2);
    assert_eq!(line.len(), 2, "{line:?}");
    // Whatever seat 2 takes, seat 1 leaves 3 tokens.
    let (their_seat, theirs, _) = &line[0];
    let (my_seat, mine, _) = &line[1];
    assert_eq!((*their_seat, *my_seat), (2, 1));
    let taken = |t: &str| {
        t.trim_start_matches("take ")
            .parse::<u32>()
            .expect("take N")
    };
    assert_eq!(taken(theirs) + taken(mine), 3, "{line:?}");
}

#[test]
fn the_same_seed_and_playouts_give_the_same_search() {
    let e = games_engine();
    let g = sea_change_position(&e, 11);
    let run = |seed| {
        ismcts::search(
            &g,
            &mut GameRng::from_seed(seed),
            Budget::Iterations(150),
            None,
            None,
        )
        .expect("search")
    };
    let a = run(5);
    assert_eq!(a, run(5), "same seed, same tree");
    assert_eq!(a.nodes[0].visits, 150);
    assert_ne!(a, run(6), "another seed, another tree");
}

#[test]
fn the_two_thread_hint_repeats_itself() {
    let e = games_engine();
    let g = sea_change_position(&e, 12);
    let a = hint::hint(&g, Budget::Iterations(120), None).expect("hint");
    let b = hint::hint(&g, Budget::Iterations(120), None).expect("hint");
    assert_eq!(a, b);
    assert_eq!(a.playouts, 120);
    assert_eq!(
        a.options.iter().map(|o| o.playouts).sum::<u32>(),
        120,
        "{a:?}"
    );
    if std::thread::available_parallelism().map_or(1, |n| n.get()) > 1 {
        assert!(a.parallel, "two cores: the searches ran side by side");
    }
    for o in &a.options {
        let h = o.half_width.expect("an interval");
        assert!(h > 0.0 && h < 0.5, "{o:?}");
    }
}

#[test]
fn a_hidden_card_the_seat_cannot_see_never_changes_its_choice() {
    let e = games_engine();
    for seed in [21, 22, 23] {
        let g = sea_change_position(&e, seed);
        let (seat, _) = g.pending().expect("to move");
        // The same position but for two cards swapped between the hands of
        // two other seats: the searching seat cannot tell the games apart.
        let (a, b) = [1, 2, 3, 4]
            .into_iter()
            .filter(|&s| s != seat)
            .fold((0, 0), |(a, b), s| {
                if a == 0 {
                    (s, b)
                } else if b == 0 {
                    (a, s)
                } else {
                    (a, b)
                }
            });
        let mut swapped = g.fork().expect("fork");
        swapped
            .arrange(&format!(
                "local ha, hb = game:zone('hand', {a}), game:zone('hand', {b})
                 local x, y = ha[1], hb[1]
                 game:move(x, ha, hb); game:move(y, hb, ha)"
            ))
            .expect("swap");
        let hand = |g: &Game, s: u32| {
            g.view(None)
                .expect("view")
                .zones
                .into_iter()
                .find(|z| z.name == "hand" && z.owner == Some(s))
                .and_then(|z| z.cards)
                .expect("hand")
        };
        assert_ne!(hand(&g, a), hand(&swapped, a), "the hidden hands differ");
        assert_eq!(hand(&g, seat), hand(&swapped, seat));
        let run = |game: &Game| {
            ismcts::search(
                game,
                &mut GameRng::from_seed(seed),
                Budget::Iterations(200),
                None,
                None,
            )
            .expect("search")
        };
        assert!(run(&g) == run(&swapped), "seed {seed}: the same tree");
        let choose = |game: &Game| {
            ismcts::choose(
                game,
                &mut GameRng::from_seed(seed),
                Budget::Iterations(200),
                None,
                None,
            )
            .expect("choose")
        };
        assert_eq!(choose(&g), choose(&swapped), "seed {seed}");
        let mc = |game: &Game| {
            search::choose(game, &mut GameRng::from_seed(seed), 200u32, None, None).expect("mc")
        };
        assert_eq!(mc(&g), mc(&swapped), "seed {seed}: mc too");
    }
}

/// The card values of a zone's cards, by zone name and owner.
fn zone_cards(g: &Game, name: &str, owner: Option<u32>) -> Vec<u32> {
    g.view(None)
        .expect("view")
        .zones
        .into_iter()
        .find(|z| z.name == name && z.owner == owner)
        .and_then(|z| z.cards)
        .unwrap_or_default()
}

fn value(g: &Game, card: u32) -> i64 {
    g.card(card)
        .expect("card")
        .props
        .get("value")
        .and_then(|v| v.as_i64())
        .unwrap_or(-1)
}

/// Whether playing option `i`, the last card of a trick, makes the seat to
/// move take the trick.
fn takes(g: &Game, i: usize) -> bool {
    let seat = g.pending().expect("to move").0;
    let mut f = g.fork().expect("fork");
    f.apply(i).expect("play");
    let vars = f.vars().expect("vars");
    vars["last_trick_winner"].as_u64() == Some(u64::from(seat))
}

/// Positions of 4-player Sea Change (seeds from `seeds`, random moves)
/// where the seat to move plays last to a trick holding an 8 and may
/// either take it or not: the number of random moves from the start.
fn eight_positions(e: &Engine, seeds: std::ops::Range<u64>, late: usize) -> Vec<(u64, usize)> {
    let mut out = Vec::new();
    for seed in seeds {
        let mut g = e
            .new_game(GameConfig::new("sea_change", 4, seed), false)
            .expect("start");
        let mut rng = GameRng::from_seed(seed);
        for step in 0..40 {
            let Some((_, n)) = g.pending() else { break };
            let trick = zone_cards(&g, "trick", None);
            if step >= late && trick.len() == 3 && n > 1 && trick.iter().any(|&c| value(&g, c) == 8)
            {
                let t: Vec<bool> = (1..=n).map(|i| takes(&g, i)).collect();
                if t.contains(&true) && t.contains(&false) {
                    out.push((seed, step));
                    break;
                }
            }
            random_steps(&mut g, &mut rng, 1);
        }
    }
    out
}

/// One-sided sign test: the chance of at least `b` of `b + c` discordant
/// positions going one way if either way were equally likely.
fn sign_test(b: u64, c: u64) -> f64 {
    let n = b + c;
    let choose = |n: u64, k: u64| (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64);
    (b..=n).map(|k| choose(n, k)).sum::<f64>() / 2f64.powi(n as i32)
}

/// With every 8 worth -5 instead of -4 (scripts/house_rules/
/// eights_minus_five.lua), the same search takes tricks holding an 8
/// less often, with no change to the bot. Over a fixed set of positions
/// (4-player Sea Change, seeds 1-599, random moves until the seat to move
/// plays last to a trick holding an 8 and may take it or not), each
/// searched with the same stream under both rules: the positions where the
/// two choices differ go one way far beyond what chance gives (sign test).
/// About 170 s in release: `cargo test -p deckhand-bots --release --test it
/// ismcts:: -- --ignored`.
#[test]
#[ignore = "long: about 170 s in release"]
fn the_search_plays_a_house_rule_as_written() {
    let e = games_engine();
    let rule = scripts().join("house_rules/eights_minus_five.lua");
    let positions = eight_positions(&e, 1..600, 0);
    assert!(positions.len() > 300, "{}", positions.len());
    // [plain rules, house rule]: how often the 8 was taken; positions where
    // only the plain rules' choice took it, and where only the house rule's.
    let mut taken = [0u64, 0];
    let (mut only_plain, mut only_house) = (0u64, 0u64);
    for (seed, steps) in &positions {
        let mut took = [false, false];
        for (k, config) in [
            GameConfig::new("sea_change", 4, *seed),
            GameConfig::new("sea_change", 4, *seed).variant(&rule.display().to_string()),
        ]
        .into_iter()
        .enumerate()
        {
            let mut g = e.new_game(config, false).expect("start");
            random_steps(&mut g, &mut GameRng::from_seed(*seed), *steps);
            let i = ismcts::choose(
                &g,
                &mut GameRng::from_seed(*seed),
                Budget::Iterations(600),
                None,
                None,
            )
            .expect("search");
            took[k] = takes(&g, i.index);
            taken[k] += u64::from(took[k]);
        }
        match took {
            [true, false] => only_plain += 1,
            [false, true] => only_house += 1,
            _ => {}
        }
    }
    let p = sign_test(only_plain, only_house);
    println!(
        "{} positions: 8 taken {} times under the plain rules, {} with every 8 worth -5; \
         differing choices {only_plain} against {only_house} (sign test p = {p:.4})",
        positions.len(),
        taken[0],
        taken[1]
    );
    assert!(taken[1] < taken[0], "{taken:?}");
    assert!(p < 0.01, "{only_plain} against {only_house}: p = {p}");
}

#[test]
fn the_sign_test_is_right() {
    assert!((sign_test(3, 0) - 0.125).abs() < 1e-12);
    assert!((sign_test(1, 1) - 0.75).abs() < 1e-12);
    assert!((sign_test(11, 1) - 13.0 / 4096.0).abs() < 1e-12);
}

/// A search makes one copy of the game and copies the game into it again
/// for every guess (`Game::determinized_into`): each guess must play
/// exactly as a fresh fork given the same guess does, move after move, in
/// games whose scripts keep state in tables of every shape.
#[test]
fn a_copy_made_again_plays_exactly_like_a_fresh_fork() {
    let e = games_engine();
    for (game, players) in [
        ("sea_change", 4),
        ("sea_salt_paper", 4),
        ("seadogs", 3),
        ("seas_of_strife", 4),
    ] {
        let mut g = e
            .new_game(GameConfig::new(game, players, 5), false)
            .expect("start");
        random_steps(&mut g, &mut GameRng::from_seed(5), 7);
        let seat = g.pending().expect("to move").0;
        let guessing = g.guessing(seat).expect("guessing");
        let mut scratch = None;
        for round in 0..6u64 {
            let mut fresh = g
                .determinized_with(seat, &mut GameRng::from_seed(round), &guessing)
                .expect("fork");
            let again = g
                .determinized_into(
                    seat,
                    &mut GameRng::from_seed(round),
                    &guessing,
                    &mut scratch,
                )
                .expect("copy again");
            let mut moves = GameRng::from_seed(100 + round);
            for step in 0..60 {
                assert_eq!(
                    fresh.pending(),
                    again.pending(),
                    "{game}: guess {round}, step {step}"
                );
                assert!(
                    fresh.view(None).expect("view") == again.view(None).expect("view"),
                    "{game}: guess {round}, step {step}"
                );
                again.check_invariants().expect("mirrors in step");
                if fresh.pending().is_none() {
                    break;
                }
                let choice =
                    deckhand_engine::policy::random_choice(&fresh, &mut moves).expect("choice");
                fresh.apply_choice(&choice).expect("step");
                again.apply_choice(&choice).expect("step");
            }
        }
    }
}

#[test]
fn another_seats_secret_choice_in_the_tree_is_the_playout_bots() {
    // Seat 2's two boxes look the same to seat 1: one move of the tree.
    // Which box is opened was drawn at random, so trusting seat 2 looked
    // like a coin toss; the playout bot, which sees the guess, poisons.
    let e = toy_engine("trust", TRUST);
    for seed in 0..5 {
        let g = toy_game(&e, "trust", seed);
        let tree = search_tree(&g, seed, 40);
        let trust = root_child(&tree, "Trust seat 2");
        assert!(
            trust.mean() < 0.05,
            "seed {seed}: trust worth {}",
            trust.mean()
        );
        let boxes: Vec<&str> = trust
            .children
            .iter()
            .map(|&c| tree.nodes[c].key.as_str())
            .collect();
        assert_eq!(
            boxes,
            ["chooses a box"],
            "seed {seed}: one move for both boxes"
        );
    }
}

#[test]
fn below_the_root_another_seat_plays_as_the_playout_bot_in_that_deal() {
    // Chosen by the tree's statistics, seat 2 gambled or folded whatever
    // its card (each is worth 1/2 to it over both cards), so a challenge
    // looked worth 1/2 to seat 1, more than waiting (2/5). Played as the
    // bot plays it with the card dealt, it is worth 1/4.
    let e = toy_engine("gamble", GAMBLE);
    for seed in 0..5 {
        let g = toy_game(&e, "gamble", seed);
        let tree = search_tree(&g, seed, 1000);
        let challenge = root_child(&tree, "Challenge");
        assert!(
            (challenge.mean() - 0.25).abs() < 0.12,
            "seed {seed}: challenge worth {}",
            challenge.mean()
        );
        assert_eq!(search_choice(&g, seed, 1000).index, 1, "seed {seed}: waits");
    }
}

#[test]
fn the_seat_tells_apart_its_own_decisions_by_what_it_sees() {
    // After a draw, "Bet Red" and "Bet Blue" read the same whichever card
    // was drawn. As one node for both draws each bet was worth 1/2, so
    // drawing looked worse than passing (3/4); told apart by the card in
    // the seat's hand, the bet is learnt for each card and drawing wins.
    let e = toy_engine("draw_bet", DRAW_AND_BET);
    for seed in 0..5 {
        let g = toy_game(&e, "draw_bet", seed);
        let tree = search_tree(&g, seed, 300);
        let draw = root_child(&tree, "Draw");
        assert!(
            draw.mean() > 0.8,
            "seed {seed}: drawing worth {}",
            draw.mean()
        );
        let mut views: Vec<u64> = draw.children.iter().map(|&c| tree.nodes[c].sight).collect();
        views.sort_unstable();
        views.dedup();
        assert_eq!(
            views.len(),
            2,
            "seed {seed}: the bets seen with each card drawn"
        );
        assert_eq!(search_choice(&g, seed, 300).index, 2, "seed {seed}: draws");
    }
}
