//! SeaDogs: the rulebook's tables and rules through the public API: setup,
//! the Sell and Temple tables, the gold face, doubles, gunpowder, each
//! outcome of a bluff with the gold it moves, the Whirlpool's second attack,
//! the captains' secret choice, every action card and captain, the end of
//! the game, the final scoring with wilds and every tie-break.
//!
//! Positions are set with Lua (`arrange`): cards are moved by spec
//! (`"rum:2"` = a two-icon Rum card without a map, `"rum:1:map"`, `"wild"`,
//! or a card's name such as `"Spyglass"`), variables set directly; dice are
//! set by writing `vars.attack.dice` after the roll.

use crate::common;

use common::{choose, engine, has_option, script_events};
use deckhand_engine::{Choice, EventKind, Game, GameConfig};
use serde_json::{json, Value};

/// Lua helpers for arranging a position.
const HELPERS: &str = r#"
local v = game.vars
local deck = game:zone("deck")
local function where(id)
  for _, z in ipairs(game._zones) do
    for i = 1, #z do if z[i] == id then return z end end
  end
end
local function matches(id, spec)
  local c = game.cards[id]
  if c.name == spec then return true end
  if c.kind ~= "cargo" then return false end
  local t, n, m = string.match(spec, "^([^:]+):?(%d*):?(%a*)$")
  if t == nil or c.cargo ~= t then return false end
  if n ~= "" and c.icons ~= tonumber(n) then return false end
  return (m == "map") == c.map
end
-- Every cargo card back to the deck (hands, ports, discard).
local function clear()
  for s = 1, game.seats do game:move_all(game:zone("hand", s), deck) end
  for p = 1, 3 do game:move_all(game:zone("port " .. p), deck) end
  game:move_all(game:zone("discard"), deck)
end
-- Move the first card matching `spec` (searched in the decks and discard
-- piles first, then anywhere) into zone `z`.
local function take(spec, z)
  local sources = { deck, game:zone("actions"), game:zone("treasures"), game:zone("captains"),
    game:zone("captain discard"), game:zone("action discard") }
  for _, src in ipairs(sources) do
    for i = 1, #src do
      if matches(src[i], spec) then local id = src[i]; game:move(id, src, z); return id end
    end
  end
  for id = 1, #game.cards do
    if matches(id, spec) then local from = where(id); if from ~= z then game:move(id, from, z); return id end end
  end
  error("no card " .. spec)
end
local function hand(seat, specs) for _, s in ipairs(specs) do take(s, game:zone("hand", seat)) end end
local function action(seat, name) take(name, game:zone("action", seat)) end
local function captain(seat, name) take(name, game:zone("captain", seat)) end
local function treasure(seat, names) for _, n in ipairs(names) do take(n, game:zone("treasure", seat)) end end
-- It is `seat`'s turn, at `phase`, its ship on `island`.
local function turn(seat, phase, island)
  v.turn = seat; v.asked = seat; v.phase = phase or "start"; v.attacked = false; v.attack = nil
  v.fair_winds = false
  if island then v.ship[seat] = island end
end
local function gold(list) for s, g in ipairs(list) do v.gold[s] = g end end
"#;

fn cfg(players: u32) -> GameConfig {
    GameConfig::new("seadogs", players, 1).option("captains", false)
}

/// Start a game and run `lua` (with the helpers) to set a position.
fn scenario(cfg: GameConfig, lua: &str) -> Game {
    let e = Box::leak(Box::new(engine()));
    let mut g = e.new_game(cfg, true).expect("start");
    g.take_events();
    arrange(&mut g, lua);
    g
}

fn arrange(g: &mut Game, lua: &str) {
    g.arrange(&format!("do {HELPERS}\n{lua}\nend"))
        .expect("arrange");
    g.check_invariants()
        .expect("arranged position is consistent");
}

fn eval(g: &Game, code: &str) -> String {
    g.eval_lua(code).expect("eval").trim().to_string()
}

/// A JSON value returned by Lua as text (possibly quoted once more).
fn eval_json(out: &str) -> Value {
    let v: Value = serde_json::from_str(out).unwrap_or(Value::Null);
    match v {
        Value::String(s) => serde_json::from_str(&s).unwrap_or(Value::Null),
        other => other,
    }
}

fn eval_num(g: &Game, code: &str) -> i64 {
    let out = eval(g, code);
    out.parse()
        .unwrap_or_else(|_| panic!("not a number: {out} ({code})"))
}

/// A Sell option offered: its index, cargo type, whether it spends the
/// Black Market, and the cards it lets the seller choose among.
struct SellOption {
    index: usize,
    cargo: String,
    market: bool,
    from: Vec<u32>,
}

/// The Sell options of the pending decision (a sale is one choice of cards).
fn sell_options(g: &Game) -> Vec<SellOption> {
    g.decision()
        .expect("decision")
        .map(|d| d.options)
        .unwrap_or_default()
        .into_iter()
        .filter(|o| o.action["act"] == "sell")
        .map(|o| SellOption {
            index: o.index,
            cargo: o.action["cargo"].as_str().unwrap_or_default().to_string(),
            market: o.action["market"] == json!(true),
            from: deckhand_engine::OptionMeta::of(&o.action)
                .choose
                .expect("a sale asks for cards")
                .from,
        })
        .collect()
}

/// The sale of the cards named (a name given twice takes two cards) with
/// the option of type `cargo` (`market`: spending the Black Market); `None`
/// when no such option offers them all.
fn sale_as(g: &Game, cargo: &str, names: &[&str], market: bool) -> Option<Choice> {
    let o = sell_options(g)
        .into_iter()
        .find(|o| o.cargo == cargo && o.market == market)?;
    let mut picks = Vec::new();
    for name in names {
        let p = (1..=o.from.len())
            .find(|&p| !picks.contains(&p) && g.card(o.from[p - 1]).expect("card").name == *name)?;
        picks.push(p);
    }
    Some(Choice::subset(o.index, picks))
}

/// Whether the rules accept selling the cards named as `cargo`.
fn can_sell(g: &Game, cargo: &str, names: &[&str], market: bool) -> bool {
    sale_as(g, cargo, names, market).is_some_and(|c| g.check_choice(&c).is_ok())
}

/// The sale of every card the first Sell option offers.
fn sale_of_all(g: &Game) -> Choice {
    let o = sell_options(g).into_iter().next().expect("a Sell option");
    Choice::subset(o.index, (1..=o.from.len()).collect())
}

/// A choice in words, as the log shows it.
fn choice_text(g: &Game, c: &Choice) -> String {
    g.choice_text(c).expect("text").1
}

fn option_texts(g: &Game) -> Vec<String> {
    g.decision()
        .expect("decision")
        .map(|d| d.options.iter().map(|o| o.text.clone()).collect())
        .unwrap_or_default()
}

fn vars(g: &Game) -> Value {
    g.vars().expect("vars")
}

fn gold(g: &Game) -> Vec<i64> {
    vars(g)["gold"]
        .as_array()
        .expect("gold")
        .iter()
        .map(|x| x.as_i64().expect("n"))
        .collect()
}

fn hand_len(g: &Game, seat: u32) -> usize {
    g.with_table(|t| t.find_zone("hand", Some(seat)).map(|z| z.cards.len()))
        .expect("table")
        .expect("hand")
}

/// Gold on the table: bank + every player + the pot of an attack.
fn gold_total(g: &Game) -> i64 {
    let v = vars(g);
    let pot = v["attack"]["pot"].as_i64().unwrap_or(0);
    v["bank"].as_i64().expect("bank") + gold(g).iter().sum::<i64>() + pot
}

/// P1 attacks P2 (both at Port 1) and the dice show `d1`, `d2`.
fn attack_with(extra: &str, d1: &str, d2: &str) -> Game {
    let mut g = scenario(
        cfg(3),
        &format!(
            "clear(); turn(1, 'start', 2); v.ship[2] = 2; v.ship[3] = 5; v.bank = 30; gold({{3, 3, 3}}); {extra}"
        ),
    );
    choose(&mut g, 1, json!({"act": "attack", "seat": 2}));
    set_dice(&mut g, d1, d2);
    g
}

/// P1 demands die `die` and P2 hands over what it demands.
fn demand_handed_over(g: &mut Game, die: u32) {
    choose(g, 1, json!({"act": "demand", "die": die}));
    choose(g, 2, json!({"act": "hand_over"}));
}

fn set_dice(g: &mut Game, d1: &str, d2: &str) {
    arrange(
        g,
        &format!(
            "v.attack.dice = {{'{d1}', '{d2}'}}; v.attack.doubles = ('{d1}' == '{d2}') and not v.attack.loaded"
        ),
    );
}

// ---------------------------------------------------------------------------
// Components and setup
// ---------------------------------------------------------------------------

#[test]
fn the_components_are_those_of_the_rulebook_and_clarifications() {
    let g = engine().new_game(cfg(4), false).expect("start");
    let cards = g.cards().expect("cards");
    let kind = |k: &str| {
        cards
            .iter()
            .filter(|c| c.props.get("kind").and_then(Value::as_str) == Some(k))
            .count()
    };
    assert_eq!(kind("cargo"), 44);
    assert_eq!(kind("treasure"), 12);
    assert_eq!(kind("action"), 9);
    assert_eq!(kind("captain"), 13);
    let maps = cards
        .iter()
        .filter(|c| c.props.get("map").and_then(Value::as_bool) == Some(true))
        .count();
    assert_eq!(maps, 8);
    for t in ["rum", "spice", "silk", "tea"] {
        let icons: i64 = cards
            .iter()
            .filter(|c| c.props.get("cargo").and_then(Value::as_str) == Some(t))
            .map(|c| c.props["icons"].as_i64().expect("icons"))
            .sum();
        assert_eq!(icons, 16, "{t}");
    }
    let wilds = cards
        .iter()
        .filter(|c| c.props.get("cargo").and_then(Value::as_str) == Some("wild"))
        .count();
    assert_eq!(wilds, 4);
}

#[test]
fn setup_gives_cards_gold_gunpowder_and_a_bank_by_player_count() {
    for (players, bank) in [(2, 30), (3, 35), (4, 40), (5, 45), (6, 50)] {
        let g = engine()
            .new_game(GameConfig::new("seadogs", players, 7), false)
            .expect("start");
        let v = vars(&g);
        assert_eq!(v["bank"], json!(bank), "{players} players");
        for s in 1..=players {
            assert_eq!(hand_len(&g, s), 3);
            assert_eq!(v["gold"][s as usize - 1], json!(3));
            assert_eq!(v["powder"][s as usize - 1], json!(3));
            let ship = v["ship"][s as usize - 1].as_i64().expect("ship");
            assert!([2, 4, 6].contains(&ship), "ships start on a Port");
        }
        assert_eq!(v["cubes_left"], json!(10));
        assert_eq!(v["powder_supply"], json!(18 - 3 * players as i64));
        for p in 1..=3 {
            let n = g
                .with_table(|t| {
                    t.find_zone(&format!("port {p}"), None)
                        .map(|z| z.cards.len())
                })
                .expect("table")
                .expect("port");
            assert_eq!(n, 2, "two face-up cards at port {p}");
        }
        assert_eq!(v["phase"], json!("captain"));
    }
    // The 2-player bank is an option (PLACEHOLDER).
    let g = engine()
        .new_game(
            GameConfig::new("seadogs", 2, 1).option("bank_two_players", 24),
            false,
        )
        .expect("start");
    assert_eq!(vars(&g)["bank"], json!(24));
}

#[test]
fn ships_start_on_the_port_nearest_their_seat() {
    let g = engine()
        .new_game(GameConfig::new("seadogs", 6, 1), false)
        .expect("start");
    assert_eq!(vars(&g)["ship"], json!([2, 4, 4, 6, 6, 2]));
    let g = engine()
        .new_game(GameConfig::new("seadogs", 3, 1), false)
        .expect("start");
    assert_eq!(vars(&g)["ship"], json!([2, 4, 6]));
}

#[test]
fn the_islands_are_a_ring_around_sell_and_a_ship_must_move() {
    // P1 on Port 1 (island 2): neighbours Action Card (3), Whirlpool (7), and Sell (1).
    let g = scenario(cfg(3), "turn(1, 'start', 2); v.ship[2] = 4; v.ship[3] = 6");
    let mut moves: Vec<i64> = g
        .decision()
        .expect("d")
        .expect("d")
        .options
        .iter()
        .filter(|o| o.action["act"] == "move")
        .map(|o| o.action["island"].as_i64().expect("island"))
        .collect();
    moves.sort();
    assert_eq!(moves, vec![1, 3, 7]);
    // From Sell every ring island is adjacent.
    let g = scenario(cfg(3), "turn(1, 'start', 1)");
    let n = g
        .decision()
        .expect("d")
        .expect("d")
        .options
        .iter()
        .filter(|o| o.action["act"] == "move")
        .count();
    assert_eq!(n, 6);
}

// ---------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------

#[test]
fn the_sell_table_rounds_down_and_caps_at_18() {
    let g = engine().new_game(cfg(3), false).expect("start");
    let got: Vec<i64> = (0..=16)
        .map(|i| eval_num(&g, &format!("return game.rules.sell_gold(game, {i})")))
        .collect();
    assert_eq!(
        got,
        vec![0, 0, 1, 1, 3, 3, 5, 5, 8, 8, 11, 11, 15, 15, 18, 18, 18]
    );
    let g = engine()
        .new_game(cfg(3).option("sell_beyond_table", "extend"), false)
        .expect("start");
    assert_eq!(eval_num(&g, "return game.rules.sell_gold(game, 16)"), 21);
    assert_eq!(eval_num(&g, "return game.rules.sell_gold(game, 14)"), 18);
}

#[test]
fn the_temple_table_with_38_or_36_for_eight_cubes() {
    let g = engine().new_game(cfg(3), false).expect("start");
    let got: Vec<i64> = (0..=11)
        .map(|i| eval_num(&g, &format!("return game.rules.temple_bonus(game, {i})")))
        .collect();
    assert_eq!(got, vec![0, 1, 3, 6, 10, 15, 21, 28, 38, 45, 55, 66]);
    let g = engine()
        .new_game(cfg(3).option("temple_eight", 36), false)
        .expect("start");
    assert_eq!(eval_num(&g, "return game.rules.temple_bonus(game, 8)"), 36);
}

#[test]
fn selling_one_type_pays_by_the_table_from_the_bank_and_maps_draw_treasure() {
    let mut g = scenario(
        cfg(3).option("wild_in_sale", true),
        "clear(); hand(1, {'rum:3', 'rum:2:map', 'rum:2', 'tea:2', 'wild'}); turn(1, 'action', 1); v.bank = 30",
    );
    // The biggest rum sale: 3 + 2 + 2 + wild = 8 icons -> 8 gold.
    let best = sale_as(
        &g,
        "rum",
        &["Rum x3", "Rum x2 (map)", "Rum x2", "Wild"],
        false,
    )
    .expect("the Rum option offers every rum card and the wild");
    assert_eq!(
        choice_text(&g, &best),
        "Sell Rum x3, Rum x2 (map), Rum x2, Wild (8 icons: 8 gold)"
    );
    g.apply_choice(&best).expect("apply");
    let v = vars(&g);
    assert_eq!(v["gold"][0], json!(3 + 8));
    assert_eq!(v["bank"], json!(22));
    assert_eq!(hand_len(&g, 1), 1, "only the tea card is left");
    let tz = g
        .with_table(|t| t.find_zone("treasure", Some(1)).map(|z| z.cards.len()))
        .expect("t")
        .expect("z");
    assert_eq!(tz, 1, "one treasure card for the one map card sold");
}

#[test]
fn without_the_wild_option_wilds_do_not_sell() {
    let g = scenario(
        cfg(3).option("wild_in_sale", false),
        "clear(); hand(1, {'rum:2', 'wild'}); turn(1, 'action', 1)",
    );
    let options = sell_options(&g);
    assert_eq!(options.len(), 1);
    assert_eq!(options[0].from.len(), 1, "the rum card alone, not the wild");
}

#[test]
fn the_temple_takes_a_matching_card_for_one_cube_per_icon_and_not_wilds() {
    let mut g = scenario(
        cfg(3),
        "clear(); hand(1, {'tea:3', 'rum:2', 'wild'}); v.demand = 'tea'; turn(1, 'action', 5)",
    );
    let temple: Vec<Value> = g
        .decision()
        .expect("d")
        .expect("d")
        .options
        .iter()
        .filter(|o| o.action["act"] == "temple")
        .map(|o| o.action.clone())
        .collect();
    assert_eq!(temple.len(), 1, "only the tea card qualifies: {temple:?}");
    choose(&mut g, 1, json!({"act": "temple"}));
    let v = vars(&g);
    assert_eq!(v["cubes"][0], json!(3));
    assert_eq!(v["cubes_left"], json!(7));
    assert_ne!(v["demand"], json!("tea"), "the token changes");
    // A fixed token stays.
    let mut g = scenario(
        cfg(3).option("temple_token", "fixed"),
        "clear(); hand(1, {'tea:2'}); v.demand = 'tea'; turn(1, 'action', 5)",
    );
    choose(&mut g, 1, json!({"act": "temple"}));
    assert_eq!(vars(&g)["demand"], json!("tea"));
    // Cubes run out.
    let mut g = scenario(
        cfg(3),
        "clear(); hand(1, {'tea:3'}); v.demand = 'tea'; v.cubes_left = 2; turn(1, 'action', 5)",
    );
    choose(&mut g, 1, json!({"act": "temple"}));
    assert_eq!(vars(&g)["cubes"][0], json!(2));
    assert_eq!(vars(&g)["cubes_left"], json!(0));
}

#[test]
fn a_port_gives_two_face_down_or_one_and_the_face_up_pair_which_is_refilled() {
    let mut g = scenario(cfg(3), "clear(); turn(1, 'action', 2); game:move_top(deck, game:zone('port 1')); game:move_top(deck, game:zone('port 1'))");
    choose(&mut g, 1, json!({"act": "port", "how": "face_up"}));
    assert_eq!(hand_len(&g, 1), 3);
    let port = g
        .with_table(|t| t.find_zone("port 1", None).map(|z| z.cards.len()))
        .expect("t")
        .expect("z");
    assert_eq!(port, 2);
    let mut g = scenario(cfg(3), "clear(); turn(1, 'action', 2)");
    choose(&mut g, 1, json!({"act": "port", "how": "down2"}));
    assert_eq!(hand_len(&g, 1), 2);
}

#[test]
fn an_empty_deck_is_refilled_from_the_discard_pile() {
    let mut g = scenario(
        cfg(3),
        "clear(); game:move_all(deck, game:zone('discard')); turn(1, 'action', 2)",
    );
    choose(&mut g, 1, json!({"act": "port", "how": "down2"}));
    assert_eq!(hand_len(&g, 1), 2);
    assert!(!script_events(&g.take_events(), "reshuffled").is_empty());
}

#[test]
fn the_action_island_draws_one_and_a_second_card_means_discarding_one() {
    let mut g = scenario(cfg(3), "turn(1, 'action', 3); action(1, 'Spyglass')");
    choose(&mut g, 1, json!({"act": "draw_action"}));
    assert_eq!(vars(&g)["phase"], json!("keep"));
    let d = g.decision().expect("d").expect("d");
    assert_eq!(d.options.len(), 2);
    assert!(d.options.iter().all(|o| o.secret().is_some()));
    choose(&mut g, 1, json!({"act": "keep"}));
    let held = g
        .with_table(|t| t.find_zone("action", Some(1)).map(|z| z.cards.len()))
        .expect("t")
        .expect("z");
    assert_eq!(held, 1, "hold at most one action card");
}

// ---------------------------------------------------------------------------
// Attacks
// ---------------------------------------------------------------------------

#[test]
fn the_gold_face_takes_two_from_the_richest_player() {
    // P2 has the most gold: 2, and its option says so (gold is public).
    let mut g = attack_with("gold({3, 6, 2})", "gold", "rum");
    choose(&mut g, 1, json!({"act": "demand", "die": 1}));
    assert!(option_texts(&g).iter().any(|t| t == "Hand over 2 gold"));
    choose(&mut g, 2, json!({"act": "hand_over"}));
    assert_eq!(&gold(&g)[..2], &[5, 4]);
    // P2 does not have the most: 1.
    let mut g = attack_with("gold({5, 4, 2})", "gold", "rum");
    demand_handed_over(&mut g, 1);
    assert_eq!(&gold(&g)[..2], &[6, 3]);
    // Tied for the most: 1 by default ("strict"), 2 with "shared".
    let mut g = attack_with("gold({4, 4, 2})", "gold", "rum");
    demand_handed_over(&mut g, 1);
    assert_eq!(gold(&g)[1], 3);
    let mut g = scenario(
        cfg(3).option("gold_face_tie", "shared"),
        "clear(); turn(1, 'start', 2); v.ship[2] = 2; v.ship[3] = 5; gold({4, 4, 2})",
    );
    choose(&mut g, 1, json!({"act": "attack", "seat": 2}));
    set_dice(&mut g, "gold", "rum");
    demand_handed_over(&mut g, 1);
    assert_eq!(gold(&g)[1], 2);
}

#[test]
fn a_cargo_face_takes_every_card_with_that_icon_but_not_wilds() {
    let mut g = attack_with(
        "hand(2, {'rum:1', 'rum:2', 'tea:1', 'wild'})",
        "rum",
        "silk",
    );
    demand_handed_over(&mut g, 1);
    assert_eq!(hand_len(&g, 1), 2);
    assert_eq!(hand_len(&g, 2), 2, "the tea card and the wild stay");
}

#[test]
fn the_chest_face_takes_one_map_card_chosen_by_the_defender_in_secret() {
    let mut g = attack_with(
        "hand(2, {'rum:1:map', 'tea:2:map', 'silk:1'})",
        "chest",
        "silk",
    );
    demand_handed_over(&mut g, 1);
    let d = g.decision().expect("d").expect("d");
    assert_eq!(d.seat, 2);
    assert_eq!(d.options.len(), 2);
    assert!(d.options.iter().all(|o| o.secret().is_some()));
    g.apply(1).expect("give");
    assert_eq!(hand_len(&g, 1), 1);
    assert_eq!(hand_len(&g, 2), 2);
}

#[test]
fn doubles_succeed_automatically_with_no_bluff_and_no_retaliation() {
    let mut g = attack_with(
        "hand(2, {'rum:1', 'rum:2'}); hand(1, {'tea:2'})",
        "rum",
        "rum",
    );
    let d = g.decision().expect("d").expect("d");
    assert_eq!(
        d.options
            .iter()
            .filter(|o| o.action["act"] == "demand")
            .count(),
        1
    );
    choose(&mut g, 1, json!({"act": "demand", "die": 1}));
    // No decision of the defender: the cards moved, the attack is over.
    assert!(vars(&g)["attack"].is_null());
    assert_eq!(hand_len(&g, 1), 3);
    assert_eq!(hand_len(&g, 2), 0);
    let events = g.take_events();
    assert!(script_events(&events, "claimed").is_empty());
    assert_eq!(script_events(&events, "demand").len(), 1, "no retaliation");
}

#[test]
fn the_retaliation_demands_the_other_die() {
    let mut g = attack_with(
        "hand(1, {'tea:2', 'rum:1'}); hand(2, {'rum:1'})",
        "rum",
        "tea",
    );
    demand_handed_over(&mut g, 1);
    let v = vars(&g);
    assert_eq!(v["attack"]["retaliation"], json!(true));
    assert_eq!(v["attack"]["face"], json!("tea"));
    assert_eq!(g.decision().expect("d").expect("d").seat, 1);
    choose(&mut g, 1, json!({"act": "hand_over"}));
    assert!(vars(&g)["attack"].is_null());
    assert_eq!(hand_len(&g, 2), 1, "P2 lost its rum and got P1's tea");
}

#[test]
fn gunpowder_rerolls_for_the_attacker_before_choosing_and_for_the_defender_after() {
    let mut g = attack_with("", "rum", "tea");
    assert!(has_option(&g, json!({"act": "reroll", "dice": 3})));
    assert!(has_option(&g, json!({"act": "reroll", "dice": 1})));
    choose(&mut g, 1, json!({"act": "reroll", "dice": 3}));
    assert_eq!(vars(&g)["powder"][0], json!(2));
    assert_eq!(vars(&g)["attack"]["stage"], json!("choose"));
    set_dice(&mut g, "rum", "tea");
    choose(&mut g, 1, json!({"act": "demand", "die": 1}));
    // The defender may force a reroll after the demand; the attacker chooses again.
    assert!(has_option(&g, json!({"act": "force", "dice": 2})));
    choose(&mut g, 2, json!({"act": "force", "dice": 3}));
    assert_eq!(vars(&g)["powder"][1], json!(2));
    assert_eq!(vars(&g)["attack"]["stage"], json!("choose"));
    assert_eq!(g.decision().expect("d").expect("d").seat, 1);
    set_dice(&mut g, "gold", "tea");
    choose(&mut g, 1, json!({"act": "demand", "die": 2}));
    choose(&mut g, 2, json!({"act": "hand_over"}));
    // In the retaliation nobody may spend gunpowder.
    assert_eq!(vars(&g)["attack"]["retaliation"], json!(true));
    assert!(!has_option(&g, json!({"act": "force"})));
    assert!(!has_option(&g, json!({"act": "reroll"})));
    // Gunpowder spent goes back to the supply.
    assert_eq!(vars(&g)["powder_supply"], json!(18 - 9 + 2));
}

#[test]
fn no_gunpowder_no_reroll() {
    let g = attack_with("v.powder[1] = 0", "rum", "tea");
    assert!(!has_option(&g, json!({"act": "reroll"})));
}

#[test]
fn a_claim_not_called_ends_the_exchange_and_the_defender_keeps_the_wager() {
    let mut g = attack_with("hand(2, {'rum:2'})", "rum", "tea");
    let total = gold_total(&g);
    choose(&mut g, 1, json!({"act": "demand", "die": 1}));
    choose(&mut g, 2, json!({"act": "claim", "wager": 2}));
    assert_eq!(gold(&g)[1], 1, "the wager is on the table");
    assert_eq!(gold_total(&g), total);
    choose(&mut g, 1, json!({"act": "pass"}));
    assert_eq!(&gold(&g)[..2], &[3, 3]);
    assert_eq!(hand_len(&g, 2), 1, "the bluff kept the rum card");
    assert_eq!(gold_total(&g), total);
}

#[test]
fn a_claim_called_and_true_shows_the_hand_to_the_demander_only_and_pays_the_defender() {
    let mut g = attack_with("hand(2, {'tea:2', 'silk:1'})", "rum", "gold");
    let total = gold_total(&g);
    choose(&mut g, 1, json!({"act": "demand", "die": 1}));
    choose(&mut g, 2, json!({"act": "claim", "wager": 3}));
    g.take_events();
    choose(&mut g, 1, json!({"act": "call"}));
    assert_eq!(&gold(&g)[..2], &[0, 6]);
    assert_eq!(gold_total(&g), total);
    let events = g.take_events();
    let shown: Vec<_> = events
        .iter()
        .filter(|e| matches!(&e.kind, EventKind::Script { name, .. } if name == "hand_shown"))
        .collect();
    assert_eq!(shown.len(), 1);
    assert!(g.event_visible_to(shown[0], 1));
    assert!(
        !g.event_visible_to(shown[0], 3),
        "only the demander sees the hand"
    );
    if let EventKind::Script { data, .. } = &shown[0].kind {
        assert_eq!(data["cards"].as_array().expect("cards").len(), 2);
    }
}

#[test]
fn a_claim_called_and_lying_resolves_the_demand_and_pays_the_demander() {
    let mut g = attack_with("hand(2, {'rum:2', 'rum:1', 'silk:1'})", "rum", "gold");
    let total = gold_total(&g);
    choose(&mut g, 1, json!({"act": "demand", "die": 1}));
    choose(&mut g, 2, json!({"act": "claim", "wager": 2}));
    choose(&mut g, 1, json!({"act": "call"}));
    assert_eq!(&gold(&g)[..2], &[5, 1]);
    assert_eq!(hand_len(&g, 2), 1, "both rum cards surrendered");
    assert_eq!(hand_len(&g, 1), 2);
    assert_eq!(gold_total(&g), total);
}

#[test]
fn a_defender_without_gold_wagers_one_from_the_bank() {
    let mut g = attack_with("gold({3, 0, 3})", "rum", "tea");
    choose(&mut g, 1, json!({"act": "demand", "die": 1}));
    let claims: Vec<String> = option_texts(&g)
        .into_iter()
        .filter(|t| t.starts_with("Claim"))
        .collect();
    assert_eq!(claims.len(), 1);
    // Worded so that it reads right in everyone's log of the moves.
    assert_eq!(
        claims[0],
        "Claim to have no Rum, wagering 1 gold from the bank"
    );
    choose(&mut g, 2, json!({"act": "claim", "wager": 1}));
    assert_eq!(vars(&g)["bank"], json!(29));
    choose(&mut g, 1, json!({"act": "pass"}));
    assert_eq!(gold(&g)[1], 1, "keeps the wager taken from the bank");
    // With an empty bank: no claim possible.
    let mut g = attack_with("gold({3, 0, 3}); v.bank = 0", "rum", "tea");
    choose(&mut g, 1, json!({"act": "demand", "die": 1}));
    assert!(!has_option(&g, json!({"act": "claim"})));
}

#[test]
fn a_call_needs_a_match_unless_the_option_says_otherwise() {
    let mut g = attack_with("gold({1, 5, 3})", "rum", "tea");
    choose(&mut g, 1, json!({"act": "demand", "die": 1}));
    choose(&mut g, 2, json!({"act": "claim", "wager": 3}));
    assert!(!has_option(&g, json!({"act": "call"})));
    let mut g = scenario(
        cfg(3).option("call_needs_match", false),
        "clear(); turn(1, 'start', 2); v.ship[2] = 2; gold({1, 5, 3})",
    );
    choose(&mut g, 1, json!({"act": "attack", "seat": 2}));
    set_dice(&mut g, "rum", "tea");
    choose(&mut g, 1, json!({"act": "demand", "die": 1}));
    choose(&mut g, 2, json!({"act": "claim", "wager": 3}));
    assert!(has_option(&g, json!({"act": "call"})));
}

#[test]
fn the_defenders_options_do_not_tell_whether_it_holds_the_item() {
    let texts = |extra: &str| {
        let mut g = attack_with(extra, "rum", "tea");
        choose(&mut g, 1, json!({"act": "demand", "die": 1}));
        g.take_events();
        (option_texts(&g), g)
    };
    let (with, _) = texts("hand(2, {'rum:2', 'tea:1'})");
    let (without, mut g) = texts("hand(2, {'silk:2', 'tea:1'})");
    assert_eq!(with, without);
    // The claim's events say nothing of the truth before the call.
    choose(&mut g, 2, json!({"act": "claim", "wager": 1}));
    for e in g.take_events() {
        if let EventKind::Script { name, .. } = &e.kind {
            assert!(!name.contains("true") && !name.contains("lie"), "{name}");
        }
    }
}

#[test]
fn with_claims_free_when_true_a_defender_without_the_item_simply_says_so() {
    let mut g = scenario(
        cfg(3).option("claim_needs_wager", false),
        "clear(); hand(2, {'silk:2'}); turn(1, 'start', 2); v.ship[2] = 2",
    );
    choose(&mut g, 1, json!({"act": "attack", "seat": 2}));
    set_dice(&mut g, "rum", "gold");
    choose(&mut g, 1, json!({"act": "demand", "die": 1}));
    assert!(!script_events(&g.take_events(), "has_none").is_empty());
    // The exchange ended: the retaliation is next, with P1 to answer.
    assert_eq!(vars(&g)["attack"]["retaliation"], json!(true));
}

#[test]
fn one_ordinary_attack_per_turn_and_the_whirlpool_gives_a_second_one() {
    let mut g = scenario(
        cfg(3),
        "clear(); turn(1, 'start', 2); v.ship[2] = 2; v.ship[3] = 4; hand(2, {'rum:1'}); hand(3, {'tea:1'})",
    );
    choose(&mut g, 1, json!({"act": "attack", "seat": 2}));
    set_dice(&mut g, "gold", "gold");
    choose(&mut g, 1, json!({"act": "demand", "die": 1}));
    assert!(
        !has_option(&g, json!({"act": "attack"})),
        "one attack before moving"
    );
    choose(&mut g, 1, json!({"act": "move", "island": 7}));
    choose(&mut g, 1, json!({"act": "whirlpool", "seat": 3}));
    assert_eq!(vars(&g)["ship"][2], json!(7), "P3's ship is pulled");
    assert_eq!(vars(&g)["attack"]["free"], json!(true));
    set_dice(&mut g, "tea", "tea");
    choose(&mut g, 1, json!({"act": "demand", "die": 1}));
    assert_eq!(hand_len(&g, 1), 1);
    assert_eq!(vars(&g)["phase"], json!("after"));
    assert!(!has_option(&g, json!({"act": "attack"})));
    let attacks = script_events(&g.take_events(), "attack");
    assert_eq!(attacks.len(), 2, "two attacks this turn");
    // Without an attack before moving, the ordinary attack is still there after the free one.
    let mut g = scenario(
        cfg(3),
        "clear(); turn(1, 'action', 7); v.ship[2] = 3; v.ship[3] = 4",
    );
    choose(&mut g, 1, json!({"act": "whirlpool", "seat": 3}));
    set_dice(&mut g, "gold", "gold");
    choose(&mut g, 1, json!({"act": "demand", "die": 1}));
    assert!(has_option(&g, json!({"act": "attack", "seat": 3})));
}

// ---------------------------------------------------------------------------
// Captains
// ---------------------------------------------------------------------------

#[test]
fn captains_are_chosen_in_secret_and_revealed_together() {
    let e = engine();
    let mut g = e
        .new_game(GameConfig::new("seadogs", 3, 4), true)
        .expect("start");
    g.take_events();
    for seat in 1..=3 {
        let d = g.decision().expect("d").expect("d");
        assert_eq!(d.seat, seat);
        assert_eq!(d.options.len(), 2);
        assert!(d.options.iter().all(|o| o.secret().is_some()));
        let kept = d.options[1].action["card"].as_u64().expect("card") as u32;
        g.apply(1).expect("apply");
        if seat < 3 {
            // Nobody else sees the choice yet, in views or in events.
            for other in 1..=3 {
                if other == seat {
                    continue;
                }
                let view = g.view(Some(other)).expect("view");
                for z in &view.zones {
                    if let Some(cards) = &z.cards {
                        assert!(!cards.contains(&kept), "seat {other} sees {}", z.name);
                    }
                }
            }
            for ev in g.take_events() {
                if let EventKind::Script { data, .. } = &ev.kind {
                    assert!(!data.to_string().contains("The "), "{data}");
                }
            }
        }
    }
    // Revealed: every seat sees every captain; the turn starts.
    assert!(!script_events(&g.take_events(), "captains_revealed").is_empty());
    let view = g.view(Some(2)).expect("view");
    let shown: usize = view
        .zones
        .iter()
        .filter(|z| z.name == "captain")
        .map(|z| z.cards.as_ref().map(|c| c.len()).unwrap_or(0))
        .sum();
    assert_eq!(shown, 3);
    assert_eq!(vars(&g)["phase"], json!("start"));
}

#[test]
fn the_merchant_earns_one_more_for_four_icons() {
    let sale_text = |extra: &str| {
        let g = scenario(
            cfg(3),
            &format!("clear(); {extra} hand(1, {{'rum:2', 'rum:2:map'}}); turn(1, 'action', 1); v.bank = 30"),
        );
        choice_text(&g, &sale_of_all(&g))
    };
    assert!(sale_text("captain(1, 'The Merchant');").contains("4 gold"));
    assert!(sale_text("").contains("3 gold"));
}

#[test]
fn the_quartermaster_looks_at_three_and_keeps_two() {
    let mut g = scenario(
        cfg(3),
        "clear(); captain(1, 'The Quartermaster'); turn(1, 'action', 2)",
    );
    assert!(!has_option(&g, json!({"act": "port", "how": "down2"})));
    choose(&mut g, 1, json!({"act": "port", "how": "look3"}));
    let d = g.decision().expect("d").expect("d");
    assert_eq!(d.options.len(), 3);
    assert!(d.options.iter().all(|o| o.secret().is_some()));
    let bottom = d.options[0].action["card"].as_u64().expect("card") as u32;
    g.apply(1).expect("apply");
    assert_eq!(hand_len(&g, 1), 2);
    let deck = g
        .with_table(|t| t.find_zone("deck", None).map(|z| z.cards.clone()))
        .expect("t")
        .expect("z");
    assert_eq!(deck[0], bottom, "the third card goes to the bottom");
}

#[test]
fn the_harbormaster_may_take_three_face_down() {
    let mut g = scenario(
        cfg(3),
        "clear(); captain(1, 'The Harbormaster'); turn(1, 'action', 2)",
    );
    choose(&mut g, 1, json!({"act": "port", "how": "down3"}));
    assert_eq!(hand_len(&g, 1), 3);
}

#[test]
fn the_navigator_and_fair_winds_move_two_spaces() {
    // From Port 1 (2), two spaces reach everything.
    let g = scenario(cfg(3), "captain(1, 'The Navigator'); turn(1, 'start', 2)");
    let n = option_texts(&g)
        .iter()
        .filter(|t| t.starts_with("Sail"))
        .count();
    assert_eq!(n, 6);
    let mut g = scenario(cfg(3), "action(1, 'Fair Winds'); turn(1, 'start', 2)");
    assert_eq!(
        option_texts(&g)
            .iter()
            .filter(|t| t.starts_with("Sail"))
            .count(),
        3
    );
    choose(&mut g, 1, json!({"act": "play", "action": "fair_winds"}));
    assert_eq!(
        option_texts(&g)
            .iter()
            .filter(|t| t.starts_with("Sail"))
            .count(),
        6
    );
    choose(&mut g, 1, json!({"act": "move", "island": 5}));
    assert_eq!(vars(&g)["ship"][0], json!(5));
}

#[test]
fn the_gunner_starts_with_five_gunpowder() {
    let e = engine();
    let mut g = e
        .new_game(GameConfig::new("seadogs", 2, 1), true)
        .expect("start");
    g.arrange(
        "local o1 = game:zone('captain offer', 1); game:move_all(o1, game:zone('captains'))
         for id, c in ipairs(game.cards) do if c.captain == 'gunner' then
           local z = game:zone('captains'); local from
           for _, zz in ipairs(game._zones) do for i = 1, #zz do if zz[i] == id then from = zz end end end
           game:move(id, from, o1) end end
         game:move_top(game:zone('captains'), o1)",
    )
    .expect("arrange");
    let d = g.decision().expect("d").expect("d");
    let i = d
        .options
        .iter()
        .find(|o| o.text.contains("Gunner"))
        .expect("gunner offered")
        .index;
    g.apply(i).expect("apply");
    g.apply(1).expect("apply");
    assert_eq!(vars(&g)["powder"][0], json!(5));
    assert_eq!(vars(&g)["powder_supply"], json!(18 - 6 - 2));
}

#[test]
fn the_priest_takes_one_more_cube_and_the_smuggler_offers_wilds() {
    let mut g = scenario(
        cfg(3),
        "clear(); captain(1, 'The Priest'); hand(1, {'tea:2'}); v.demand = 'tea'; turn(1, 'action', 5)",
    );
    choose(&mut g, 1, json!({"act": "temple"}));
    assert_eq!(vars(&g)["cubes"][0], json!(3));
    let g = scenario(
        cfg(3),
        "clear(); captain(1, 'The Smuggler'); hand(1, {'wild'}); v.demand = 'tea'; turn(1, 'action', 5)",
    );
    assert!(has_option(&g, json!({"act": "temple"})));
    let g = scenario(
        cfg(3),
        "clear(); hand(1, {'wild'}); v.demand = 'tea'; turn(1, 'action', 5)",
    );
    assert!(!has_option(&g, json!({"act": "temple"})));
}

#[test]
fn the_card_sharp_wagers_up_to_five() {
    let mut g = attack_with(
        "captain(2, 'The Card Sharp'); gold({3, 6, 3})",
        "rum",
        "tea",
    );
    choose(&mut g, 1, json!({"act": "demand", "die": 1}));
    assert!(has_option(&g, json!({"act": "claim", "wager": 5})));
    let mut g = attack_with("gold({3, 6, 3})", "rum", "tea");
    choose(&mut g, 1, json!({"act": "demand", "die": 1}));
    assert!(!has_option(&g, json!({"act": "claim", "wager": 4})));
    assert!(has_option(&g, json!({"act": "claim", "wager": 3})));
}

#[test]
fn the_cartographer_draws_two_treasures_and_keeps_one() {
    let mut g = scenario(
        cfg(3),
        "clear(); captain(1, 'The Cartographer'); hand(1, {'rum:1:map', 'rum:1'}); turn(1, 'action', 1)",
    );
    g.apply_choice(&sale_of_all(&g)).expect("sell");
    let d = g.decision().expect("d").expect("d");
    assert_eq!(d.options.len(), 2);
    g.apply(1).expect("keep");
    let t = |name: &str, owner: Option<u32>| {
        g.with_table(|t| t.find_zone(name, owner).map(|z| z.cards.len()))
            .expect("t")
            .expect("z")
    };
    assert_eq!(t("treasure", Some(1)), 1);
    assert_eq!(
        t("treasures", None),
        11,
        "the other goes back under the deck"
    );
}

#[test]
fn the_ironclad_never_pays_more_than_one_gold() {
    let mut g = attack_with("captain(2, 'The Ironclad'); gold({3, 9, 2})", "gold", "rum");
    demand_handed_over(&mut g, 1);
    assert_eq!(gold(&g)[1], 8);
}

#[test]
fn the_boarding_master_takes_a_gold_on_doubles() {
    let mut g = attack_with(
        "captain(1, 'The Boarding Master'); hand(2, {'rum:1'})",
        "rum",
        "rum",
    );
    choose(&mut g, 1, json!({"act": "demand", "die": 1}));
    assert_eq!(&gold(&g)[..2], &[4, 2]);
    assert_eq!(hand_len(&g, 1), 1);
}

#[test]
fn the_sea_witch_whirlpool_attack_has_no_retaliation() {
    let mut g = scenario(
        cfg(3),
        "clear(); captain(1, 'The Sea Witch'); turn(1, 'action', 7); v.ship[2] = 3; hand(2, {'rum:1'})",
    );
    choose(&mut g, 1, json!({"act": "whirlpool", "seat": 2}));
    set_dice(&mut g, "rum", "gold");
    demand_handed_over(&mut g, 1);
    assert!(vars(&g)["attack"].is_null(), "no retaliation");
    // Without the Sea Witch the free attack has its retaliation.
    let mut g = scenario(
        cfg(3),
        "clear(); turn(1, 'action', 7); v.ship[2] = 3; hand(2, {'rum:1'})",
    );
    choose(&mut g, 1, json!({"act": "whirlpool", "seat": 2}));
    set_dice(&mut g, "rum", "gold");
    demand_handed_over(&mut g, 1);
    assert_eq!(vars(&g)["attack"]["retaliation"], json!(true));
}

#[test]
fn the_old_salt_counts_wilds_as_two_icons_at_the_end() {
    let g = scenario(cfg(3), "clear(); hand(1, {'wild', 'rum:1'}); hand(2, {'wild', 'rum:1'}); captain(1, 'The Old Salt')");
    assert_eq!(
        eval_num(&g, "return game.rules.final_score(game, 1).cargo"),
        1
    );
    assert_eq!(
        eval_num(&g, "return game.rules.final_score(game, 2).cargo"),
        1
    );
    let g = scenario(cfg(3), "clear(); hand(1, {'wild', 'tea:2'}); hand(2, {'wild', 'tea:2'}); captain(1, 'The Old Salt')");
    assert_eq!(
        eval_num(&g, "return game.rules.final_score(game, 1).cargo"),
        2
    );
    assert_eq!(
        eval_num(&g, "return game.rules.final_score(game, 2).cargo"),
        1
    );
}

// ---------------------------------------------------------------------------
// Action cards
// ---------------------------------------------------------------------------

#[test]
fn smoke_screen_cancels_an_attack_which_still_counts() {
    let mut g = scenario(
        cfg(3),
        "clear(); turn(1, 'start', 2); v.ship[2] = 2; action(2, 'Smoke Screen')",
    );
    choose(&mut g, 1, json!({"act": "attack", "seat": 2}));
    assert_eq!(g.decision().expect("d").expect("d").seat, 2);
    choose(&mut g, 2, json!({"act": "smoke"}));
    assert!(vars(&g)["attack"].is_null());
    assert!(!has_option(&g, json!({"act": "attack"})));
    assert!(
        script_events(&g.take_events(), "rolled").is_empty(),
        "cancelled before the roll"
    );
}

#[test]
fn a_defender_with_another_action_card_is_asked_too_and_may_let_it_go() {
    let mut g = scenario(
        cfg(3),
        "clear(); turn(1, 'start', 2); v.ship[2] = 2; action(2, 'Offering')",
    );
    choose(&mut g, 1, json!({"act": "attack", "seat": 2}));
    assert!(!has_option(&g, json!({"act": "smoke"})));
    choose(&mut g, 2, json!({"act": "allow"}));
    assert_eq!(vars(&g)["attack"]["stage"], json!("choose"));
}

#[test]
fn loaded_dice_turns_a_die_and_never_makes_doubles() {
    let mut g = attack_with("action(1, 'Loaded Dice'); hand(2, {'rum:1'})", "rum", "tea");
    choose(&mut g, 1, json!({"act": "loaded", "die": 2, "face": "rum"}));
    let v = vars(&g);
    assert_eq!(v["attack"]["dice"], json!(["rum", "rum"]));
    assert_eq!(v["attack"]["doubles"], json!(false));
    choose(&mut g, 1, json!({"act": "demand", "die": 1}));
    assert_eq!(
        vars(&g)["attack"]["stage"],
        json!("respond"),
        "the defender may bluff"
    );
}

#[test]
fn spyglass_shows_a_hand_to_its_player_only() {
    let mut g = scenario(
        cfg(3),
        "clear(); hand(2, {'rum:1', 'tea:2'}); action(1, 'Spyglass'); turn(1, 'start', 2)",
    );
    choose(
        &mut g,
        1,
        json!({"act": "play", "action": "spyglass", "seat": 2}),
    );
    let events = g.take_events();
    let shown = events
        .iter()
        .find(|e| matches!(&e.kind, EventKind::Script { name, .. } if name == "hand_shown"))
        .expect("hand shown");
    assert!(g.event_visible_to(shown, 1));
    assert!(!g.event_visible_to(shown, 3));
    assert!(!g.event_visible_to(shown, 2));
}

#[test]
fn parley_cancels_the_retaliation() {
    let mut g = attack_with(
        "action(1, 'Parley'); hand(2, {'rum:1'}); hand(1, {'tea:1'})",
        "rum",
        "tea",
    );
    demand_handed_over(&mut g, 1);
    assert_eq!(vars(&g)["attack"]["stage"], json!("parley"));
    choose(&mut g, 1, json!({"act": "parley"}));
    assert!(vars(&g)["attack"].is_null());
    assert_eq!(hand_len(&g, 1), 2, "P1 keeps its tea");
}

#[test]
fn black_market_sells_wilds_as_two_icons() {
    let mut g = scenario(
        cfg(3),
        "clear(); action(1, 'Black Market'); hand(1, {'rum:2', 'wild', 'wild'}); turn(1, 'action', 1); v.bank = 30",
    );
    let sale = sale_as(&g, "rum", &["Rum x2", "Wild", "Wild"], true).expect("sale");
    let text = choice_text(&g, &sale);
    assert!(text.contains("6 icons"), "{text}");
    // Without the Black Market the wilds do not sell (by default).
    let plain = sale_as(&g, "rum", &["Rum x2"], false).expect("plain sale");
    assert!(g.check_choice(&plain).is_ok());
    assert!(sale_as(&g, "rum", &["Rum x2", "Wild"], false).is_none());
    g.apply_choice(&sale).expect("sell");
    assert_eq!(gold(&g)[0], 3 + 5);
}

#[test]
fn offering_lets_any_non_wild_card_count_at_the_temple() {
    let mut g = scenario(
        cfg(3),
        "clear(); action(1, 'Offering'); hand(1, {'rum:2', 'wild'}); v.demand = 'tea'; turn(1, 'action', 5)",
    );
    let n = g
        .decision()
        .expect("d")
        .expect("d")
        .options
        .iter()
        .filter(|o| o.action["act"] == "temple")
        .count();
    assert_eq!(n, 1, "the rum card, not the wild");
    choose(&mut g, 1, json!({"act": "temple"}));
    assert_eq!(vars(&g)["cubes"][0], json!(2));
}

#[test]
fn powder_keg_takes_two_gunpowder_even_when_defending() {
    let mut g = scenario(
        cfg(3),
        "clear(); turn(1, 'start', 2); v.ship[2] = 2; action(2, 'Powder Keg')",
    );
    choose(&mut g, 1, json!({"act": "attack", "seat": 2}));
    choose(&mut g, 2, json!({"act": "allow"}));
    set_dice(&mut g, "rum", "tea");
    choose(&mut g, 1, json!({"act": "demand", "die": 1}));
    choose(&mut g, 2, json!({"act": "play", "action": "powder_keg"}));
    assert_eq!(vars(&g)["powder"][1], json!(5));
    assert_eq!(vars(&g)["attack"]["stage"], json!("respond"));
}

#[test]
fn press_gang_takes_a_random_card_from_a_ship_alongside() {
    let mut g = scenario(
        cfg(3),
        "clear(); action(1, 'Press Gang'); hand(2, {'rum:1', 'tea:2'}); turn(1, 'start', 2); v.ship[2] = 2; v.ship[3] = 5",
    );
    assert!(!has_option(&g, json!({"act": "play", "seat": 3})));
    choose(
        &mut g,
        1,
        json!({"act": "play", "action": "press_gang", "seat": 2}),
    );
    assert_eq!(hand_len(&g, 1), 1);
    assert_eq!(hand_len(&g, 2), 1);
}

// ---------------------------------------------------------------------------
// End of the game, scoring and tie-breaks
// ---------------------------------------------------------------------------

#[test]
fn the_game_ends_at_the_end_of_the_turn_the_bank_empties() {
    let mut g = scenario(
        cfg(3),
        "clear(); hand(1, {'rum:3', 'rum:2', 'rum:2'}); turn(1, 'action', 1); v.bank = 2; v.ship[2] = 1",
    );
    g.apply_choice(&sale_of_all(&g)).expect("sell");
    assert_eq!(vars(&g)["bank"], json!(0));
    assert_eq!(gold(&g)[0], 5, "the bank pays what it has");
    assert!(
        !g.is_over(),
        "the turn goes on: the attack after the action"
    );
    assert!(has_option(&g, json!({"act": "attack", "seat": 2})));
    choose(&mut g, 1, json!({"act": "end"}));
    assert!(g.is_over());
    // Option game_end = immediately.
    let mut g = scenario(
        cfg(3).option("game_end", "immediately"),
        "clear(); hand(1, {'rum:3', 'rum:2'}); turn(1, 'action', 1); v.bank = 2",
    );
    g.apply_choice(&sale_of_all(&g)).expect("sell");
    assert!(g.is_over(), "the game ends at once");
}

#[test]
fn a_sale_the_bank_cannot_pay_is_refused_with_no_sale() {
    let g = scenario(
        cfg(3).option("bank_short", "no_sale"),
        "clear(); hand(1, {'rum:3', 'rum:2', 'rum:2'}); turn(1, 'action', 1); v.bank = 2",
    );
    // All three (6 icons, 5 gold) is more than the bank holds: refused
    // with the reason; two of them (5 icons, 3 gold) too; one (3 icons, 2
    // gold) is a sale.
    let all = sale_as(&g, "rum", &["Rum x3", "Rum x2", "Rum x2"], false).expect("offered");
    let err = g.check_choice(&all).expect_err("the bank cannot pay");
    assert_eq!(err.to_string(), "the bank has only 2 gold");
    assert!(!can_sell(&g, "rum", &["Rum x3", "Rum x2"], false));
    assert!(can_sell(&g, "rum", &["Rum x3"], false));
}

#[test]
fn the_game_ends_when_the_treasure_deck_is_empty() {
    let mut g = scenario(
        cfg(3),
        "clear(); hand(1, {'rum:1:map', 'rum:1'}); turn(1, 'action', 1);
         local t = game:zone('treasures'); while #t > 1 do game:move(t[1], t, game:zone('treasure', 2)) end",
    );
    g.apply_choice(&sale_of_all(&g)).expect("sell");
    assert!(!g.is_over());
    choose(&mut g, 1, json!({"act": "end"}));
    assert!(g.is_over());
    let r = g.result().expect("result");
    assert_eq!(r.winners.len(), 1);
}

#[test]
fn end_scoring_counts_gold_treasure_temple_and_pairs_with_wilds_chosen_best() {
    // P1: 10 gold, Gold Bars (4) + Jewelled Crown (7), 3 cubes (6),
    // hand rum 3 + tea 1 + wild: the wild makes tea 2 -> rum 1 pair + tea 1 pair = 2.
    let g = scenario(
        cfg(3),
        "clear(); gold({10, 0, 0}); v.cubes[1] = 3; treasure(1, {'Gold Bars', 'Jewelled Crown'});
         hand(1, {'rum:3', 'tea:1', 'wild'})",
    );
    let p: Value = eval_json(&eval(
        &g,
        "local p = game.rules.final_score(game, 1); return string.format('[%d,%d,%d,%d,%d]', p.gold, p.treasure, p.temple, p.cargo, p.total)",
    ));
    assert_eq!(p, json!([10, 11, 6, 2, 29]));
    // Two wilds alone make one pair.
    let g = scenario(cfg(3), "clear(); hand(1, {'wild', 'wild', 'silk:1'})");
    assert_eq!(
        eval_num(&g, "return game.rules.final_score(game, 1).cargo"),
        1
    );
    // The Ledger and the Relic.
    let g = scenario(
        cfg(3),
        "clear(); v.cubes[1] = 2; treasure(1, {'Merchant\\'s Ledger', 'Temple Relic'}); hand(1, {'rum:2', 'tea:1', 'tea:1', 'silk:1'})",
    );
    let p: Value = eval_json(&eval(
        &g,
        "local p = game.rules.final_score(game, 1); return string.format('[%d,%d]', p.treasure, p.temple)",
    ));
    assert_eq!(
        p,
        json!([2, 6]),
        "ledger: rum and tea have 2 icons; relic: 3 cubes"
    );
}

/// End the game now (P1 ends its turn with the bank empty) and return the winners.
fn winners_after(lua: &str) -> (Vec<u32>, Value) {
    let (w, by, _) = winners_and_text_after(lua);
    (w, by)
}

/// The same, with the text of the `game_over` event.
fn winners_and_text_after(lua: &str) -> (Vec<u32>, Value, String) {
    let mut g = scenario(
        cfg(3),
        &format!("clear(); turn(1, 'after', 2); v.bank = 0; v.cubes = {{0, 0, 0}}; {lua}"),
    );
    choose(&mut g, 1, json!({"act": "end"}));
    assert!(g.is_over());
    let r = g.result().expect("result");
    let events = g.take_events();
    let text = script_events(&events, "game_over")
        .first()
        .and_then(|e| e["text"].as_str().map(str::to_string))
        .unwrap_or_default();
    (r.winners.clone(), vars(&g)["tie_break"].clone(), text)
}

#[test]
fn ties_are_broken_by_treasure_cards_then_cubes_then_icons_then_shared() {
    // Most gold wins.
    let (w, _) = winners_after("gold({5, 9, 1})");
    assert_eq!(w, vec![2]);
    // Tied on total: more treasure cards wins (two Doubloons = 6 vs one Crown 7 - 1 gold).
    let (w, by) = winners_after(
        "gold({6, 5, 0}); treasure(1, {'Silver Doubloons', 'Silver Doubloons'}); treasure(2, {'Jewelled Crown'})",
    );
    // P1: 6 + 6 = 12; P2: 5 + 7 = 12.
    assert_eq!(w, vec![1]);
    assert_eq!(by, json!(1));
    // Tied on total and treasure cards: most cubes (P2 has 1 cube = 1 gold).
    let (w, by) = winners_after("gold({5, 4, 0}); v.cubes = {0, 1, 0}");
    assert_eq!(w, vec![2]);
    assert_eq!(by, json!(2));
    // Then most cargo icons in hand: P1 holds an unpaired 3-icon card (1 pair = +1) vs P2 a 2-icon (+1).
    let (w, by) = winners_after("gold({5, 5, 0}); hand(1, {'rum:3'}); hand(2, {'tea:2'})");
    assert_eq!(w, vec![1]);
    assert_eq!(by, json!(3));
    // Still tied: shared win, and the text does not name a tie-break that
    // decided nothing.
    let (w, by, text) = winners_and_text_after("gold({5, 5, 0})");
    assert_eq!(w, vec![1, 2]);
    assert_eq!(by, json!(3));
    assert!(
        text.ends_with("P1 and P2 share the win (still tied after every tie-break)"),
        "{text}"
    );
    let (_, _, text) =
        winners_and_text_after("gold({5, 5, 0}); hand(1, {'rum:3'}); hand(2, {'tea:2'})");
    assert!(
        text.ends_with("P1 wins (tie-break: most cargo icons in hand)"),
        "{text}"
    );
}

#[test]
fn status_shows_what_a_seat_sees() {
    let g = scenario(cfg(3), "gold({3, 4, 5})");
    let lines = eval(&g, "return table.concat(game.rules.status(game), '\\n')");
    for needle in [
        "Islands: Sell",
        "Bank ",
        "temple demands",
        "P3: 5 gold, 3 gunpowder, 0 cubes",
    ] {
        assert!(lines.contains(needle), "{needle:?} not in {lines}");
    }
}

#[test]
fn status_counts_one_cube_left_in_the_singular() {
    let status = |cubes: u32| {
        let g = scenario(cfg(3), &format!("v.cubes_left = {cubes}"));
        eval(&g, "return table.concat(game.rules.status(game), '\\n')")
    };
    let one = status(1);
    assert!(one.contains(", 1 cube left; gunpowder"), "{one}");
    let two = status(2);
    assert!(two.contains(", 2 cubes left; gunpowder"), "{two}");
}

#[test]
fn with_treasure_gain_port_a_map_card_is_handed_in_at_a_port() {
    let mut g = scenario(
        cfg(3).option("treasure_gain", "port"),
        "clear(); hand(1, {'rum:1:map', 'tea:1'}); turn(1, 'action', 2)",
    );
    choose(&mut g, 1, json!({"act": "port", "how": "map"}));
    assert_eq!(hand_len(&g, 1), 1, "the map card is handed in");
    let tz = g
        .with_table(|t| t.find_zone("treasure", Some(1)).map(|z| z.cards.len()))
        .expect("t")
        .expect("z");
    assert_eq!(tz, 1);
    // A sale draws none with this option.
    let mut g = scenario(
        cfg(3).option("treasure_gain", "port"),
        "clear(); hand(1, {'rum:1:map', 'rum:1'}); turn(1, 'action', 1)",
    );
    g.apply_choice(&sale_of_all(&g)).expect("sell");
    let tz = g
        .with_table(|t| t.find_zone("treasure", Some(1)).map(|z| z.cards.len()))
        .expect("t")
        .expect("z");
    assert_eq!(tz, 0);
}

#[test]
fn a_hand_limit_makes_the_player_discard_at_the_end_of_the_turn() {
    let mut g = scenario(
        cfg(3).option("hand_limit", 2),
        "clear(); hand(1, {'rum:1', 'tea:1', 'silk:2', 'spice:3'}); turn(1, 'after', 2)",
    );
    choose(&mut g, 1, json!({"act": "end"}));
    assert_eq!(vars(&g)["phase"], json!("discard_down"));
    choose(&mut g, 1, json!({"act": "discard"}));
    choose(&mut g, 1, json!({"act": "discard"}));
    assert_eq!(hand_len(&g, 1), 2);
    assert_eq!(vars(&g)["turn"], json!(2), "then the next player");
}

// ---------------------------------------------------------------------------
// Review: choices the rulebook leaves to the player, and what the options say
// ---------------------------------------------------------------------------

#[test]
fn a_sale_may_keep_any_card_of_the_type_sold() {
    // "discard any number of cards of a single cargo type": the player may
    // sell the two one-icon cards and keep the three-icon card (for the
    // Temple, say), or sell the map card or keep it.
    let g = scenario(
        cfg(3),
        "clear(); hand(1, {'rum:3', 'rum:1', 'rum:1:map', 'tea:2'}); turn(1, 'action', 1)",
    );
    let has = |want: &[&str]| can_sell(&g, "rum", want, false);
    assert!(has(&["Rum x1", "Rum x1 (map)"]));
    assert!(has(&["Rum x3", "Rum x1"]), "keeping the map card");
    assert!(has(&["Rum x3", "Rum x1 (map)"]));
    // A card that adds no gold may be sold too: the choice is the seller's.
    assert!(has(&["Rum x3", "Rum x1", "Rum x1 (map)"]));
    // One choice per type: the Rum option offers the rum cards only.
    assert!(sale_as(&g, "rum", &["Rum x3", "Tea x2"], false).is_none());
    assert!(can_sell(&g, "tea", &["Tea x2"], false));
    // A sale must be worth something: a lone plain one-icon card is not.
    let lone = sale_as(&g, "rum", &["Rum x1"], false).expect("offered");
    let err = g.check_choice(&lone).expect_err("no gold");
    assert_eq!(err.to_string(), "these cards are worth no gold (1 icon)");
    // A wild joins no sale by default.
    let g2 = scenario(
        cfg(3),
        "clear(); hand(1, {'rum:2', 'wild'}); turn(1, 'action', 1)",
    );
    assert!(can_sell(&g2, "rum", &["Rum x2"], false));
    assert!(sale_as(&g2, "rum", &["Rum x2", "Wild"], false).is_none());
}

#[test]
fn the_temple_options_say_the_cubes_taken_and_none_when_none_are_left() {
    // The Priest's extra cube is in the option's text.
    let g = scenario(
        cfg(3),
        "clear(); captain(1, 'The Priest'); hand(1, {'tea:2'}); v.demand = 'tea'; turn(1, 'action', 5)",
    );
    let texts = option_texts(&g);
    assert!(
        texts.iter().any(|t| t == "Offer Tea x2 for 3 cubes"),
        "{texts:?}"
    );
    // Only the cubes left are taken, and the text says so.
    let g = scenario(
        cfg(3),
        "clear(); hand(1, {'tea:3'}); v.demand = 'tea'; v.cubes_left = 1; turn(1, 'action', 5)",
    );
    let texts = option_texts(&g);
    assert!(
        texts.iter().any(|t| t == "Offer Tea x3 for 1 cube"),
        "{texts:?}"
    );
    // No cube left: nothing to take, no offer.
    let g = scenario(
        cfg(3),
        "clear(); hand(1, {'tea:3'}); v.demand = 'tea'; v.cubes_left = 0; turn(1, 'action', 5)",
    );
    assert!(!has_option(&g, json!({"act": "temple"})));
    // And the sail option says so.
    let g = scenario(cfg(3), "clear(); v.cubes_left = 0; turn(1, 'start', 4)");
    let texts = option_texts(&g);
    assert!(
        texts
            .iter()
            .any(|t| t == "Sail to Temple (no blessing cubes left)"),
        "{texts:?}"
    );
}

#[test]
fn a_reroll_of_the_loaded_die_can_make_doubles_again() {
    // Loaded Dice on die 2; a reroll of die 1 keeps its result (never doubles).
    let mut g = attack_with("action(1, 'Loaded Dice'); hand(2, {'rum:1'})", "rum", "tea");
    choose(&mut g, 1, json!({"act": "loaded", "die": 2, "face": "rum"}));
    choose(&mut g, 1, json!({"act": "reroll", "dice": 1}));
    assert_eq!(vars(&g)["attack"]["loaded"], json!(2));
    set_dice(&mut g, "rum", "rum");
    assert_eq!(vars(&g)["attack"]["doubles"], json!(false));
    // Rerolling the loaded die itself: its result is gone, doubles count.
    choose(&mut g, 1, json!({"act": "reroll", "dice": 2}));
    assert_eq!(vars(&g)["attack"]["loaded"], json!(false));
    set_dice(&mut g, "rum", "rum");
    assert_eq!(vars(&g)["attack"]["doubles"], json!(true));
}

#[test]
fn the_table_tells_what_each_island_does_and_the_score_so_far() {
    let g = scenario(
        cfg(3),
        "clear(); hand(1, {'rum:2', 'rum:1', 'wild'}); v.demand = 'tea'; turn(1, 'start', 2); gold({5, 3, 3})",
    );
    let texts = option_texts(&g);
    assert!(
        texts
            .iter()
            .any(|t| t == "Sail to Sell (sell cards of one cargo type for gold)"),
        "{texts:?}"
    );
    let lines = g.status_lines(1).expect("status");
    assert!(
        lines
            .iter()
            .any(|l| l
                == "Your score if the game ended now: 7 (gold 5, treasure 0, temple 0, cargo 2)"),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("P2: 3 gold, 3 gunpowder, 0 cubes, 0 treasure cards")),
        "{lines:?}"
    );
}

#[test]
fn a_claim_of_no_gold_wagering_all_of_it_is_a_lie() {
    // P2 has 2 gold and claims to have none, wagering both: it had gold when
    // it claimed, so a call catches the lie ("the player making the demand
    // takes all gold wagered") and the demand is resolved.
    let mut g = attack_with("gold({3, 2, 1}); hand(1, {'tea:2'})", "gold", "tea");
    choose(&mut g, 1, json!({"act": "demand", "die": 1}));
    choose(&mut g, 2, json!({"act": "claim", "wager": 2}));
    assert_eq!(gold(&g)[1], 0);
    choose(&mut g, 1, json!({"act": "call"}));
    let events = g.take_events();
    assert_eq!(script_events(&events, "called_lie").len(), 1);
    assert!(script_events(&events, "called_true").is_empty());
    assert_eq!(
        gold(&g)[0],
        3 + 2,
        "P1 matched 2 and took the 4 on the table"
    );
    assert_eq!(gold(&g)[1], 0);
    // A target with no gold wagers from the bank: that claim is true.
    let mut g = attack_with("gold({3, 0, 1}); hand(1, {'tea:2'})", "gold", "tea");
    choose(&mut g, 1, json!({"act": "demand", "die": 1}));
    choose(&mut g, 2, json!({"act": "claim", "wager": 1}));
    choose(&mut g, 1, json!({"act": "call"}));
    let events = g.take_events();
    assert_eq!(script_events(&events, "called_true").len(), 1);
    assert_eq!(gold(&g)[0], 2);
    assert_eq!(gold(&g)[1], 2, "P2 takes its wager from the bank and P1's");
}

#[test]
fn with_the_option_a_defender_may_force_a_reroll_of_doubles_but_not_claim() {
    let mut g = {
        let mut g = scenario(
            cfg(3).option("doubles_gunpowder", true),
            "clear(); turn(1, 'start', 2); v.ship[2] = 2; v.ship[3] = 5; v.bank = 30; gold({3, 3, 3}); \
             hand(2, {'rum:1', 'rum:2'})",
        );
        choose(&mut g, 1, json!({"act": "attack", "seat": 2}));
        set_dice(&mut g, "rum", "rum");
        g
    };
    choose(&mut g, 1, json!({"act": "demand", "die": 1}));
    assert_eq!(g.decision().expect("d").expect("d").seat, 2);
    assert!(has_option(&g, json!({"act": "force", "dice": 3})));
    assert!(
        !has_option(&g, json!({"act": "claim"})),
        "no bluff on doubles"
    );
    choose(&mut g, 2, json!({"act": "force", "dice": 3}));
    assert_eq!(vars(&g)["attack"]["stage"], json!("choose"));
    // Doubles again, and handed over: no retaliation.
    set_dice(&mut g, "rum", "rum");
    choose(&mut g, 1, json!({"act": "demand", "die": 1}));
    choose(&mut g, 2, json!({"act": "hand_over"}));
    assert!(vars(&g)["attack"].is_null());
    assert_eq!(hand_len(&g, 2), 0);
    // By default doubles are resolved at once (the existing doubles test).
}

#[test]
fn a_sale_the_bank_cannot_pay_in_full_says_so() {
    let g = scenario(
        cfg(3),
        "clear(); hand(1, {'rum:3', 'rum:2', 'rum:1'}); turn(1, 'action', 1); v.bank = 2",
    );
    let sale = sale_of_all(&g);
    assert!(g.check_choice(&sale).is_ok());
    assert_eq!(
        choice_text(&g, &sale),
        "Sell Rum x3, Rum x2, Rum x1 (6 icons: 5 gold, the bank has only 2)"
    );
}

#[test]
fn the_keep_prompts_say_what_is_kept() {
    let g = scenario(
        cfg(3),
        "clear(); captain(1, 'The Quartermaster'); turn(1, 'action', 2)",
    );
    let mut g = g;
    choose(&mut g, 1, json!({"act": "port", "how": "look3"}));
    let d = g.decision().expect("d").expect("d");
    assert!(
        d.prompt.starts_with("Keep two of the three cargo cards"),
        "{}",
        d.prompt
    );
}

#[test]
fn the_whirlpool_may_pull_a_ship_without_attacking_it() {
    // "They may then attack that ship for free": the attack is a choice.
    let mut g = scenario(
        cfg(3),
        "clear(); turn(1, 'action', 7); v.ship[2] = 2; v.ship[3] = 5; hand(2, {'rum:1'})",
    );
    choose(
        &mut g,
        1,
        json!({"act": "whirlpool", "seat": 3, "no_attack": true}),
    );
    let v = vars(&g);
    assert_eq!(v["ship"][2], json!(7), "P3 is pulled");
    assert!(v["attack"].is_null(), "no attack");
    assert_eq!(v["phase"], json!("after"));
    // The ordinary attack is still open.
    assert!(has_option(&g, json!({"act": "attack", "seat": 3})));
}

#[test]
fn spyglass_may_be_played_before_choosing_a_die_and_before_calling() {
    // "Any time": the attacker may look before it chooses, the demander
    // before it calls.
    let mut g = attack_with(
        "action(1, 'Spyglass'); hand(2, {'rum:1'}); hand(1, {'tea:2'})",
        "rum",
        "tea",
    );
    assert!(has_option(
        &g,
        json!({"act": "play", "action": "spyglass", "seat": 2})
    ));
    choose(&mut g, 1, json!({"act": "demand", "die": 1}));
    choose(&mut g, 2, json!({"act": "claim", "wager": 1}));
    assert!(has_option(
        &g,
        json!({"act": "play", "action": "spyglass", "seat": 2})
    ));
    choose(
        &mut g,
        1,
        json!({"act": "play", "action": "spyglass", "seat": 2}),
    );
    let events = g.take_events();
    let shown = script_events(&events, "hand_shown");
    assert_eq!(shown.len(), 1);
    assert_eq!(vars(&g)["attack"]["stage"], json!("call"), "still to call");
    assert_eq!(g.decision().expect("d").expect("d").seat, 1);
}

#[test]
fn action_cards_and_captains_are_shown_with_what_they_do() {
    let mut g = scenario(cfg(3), "turn(1, 'action', 3); action(1, 'Spyglass')");
    choose(&mut g, 1, json!({"act": "draw_action"}));
    let texts = option_texts(&g);
    assert!(
        texts
            .iter()
            .any(|t| t
                == "Keep Spyglass (any time: look at another player's hand) (discard the other)"),
        "{texts:?}"
    );
    // The captains are revealed with their abilities.
    let e = engine();
    let mut g = e
        .new_game(GameConfig::new("seadogs", 2, 1), true)
        .expect("start");
    g.take_events();
    for seat in [1, 2] {
        choose(&mut g, seat, json!({"act": "captain"}));
    }
    let events = g.take_events();
    let shown = script_events(&events, "captains_revealed");
    let text = shown[0]["text"].as_str().expect("text").to_string();
    assert!(text.starts_with("Captains: P1 The "), "{text}");
    assert!(text.contains(" ("), "abilities shown: {text}");
}

#[test]
fn the_turn_prompt_names_only_what_can_be_done() {
    let g = scenario(
        cfg(3),
        "clear(); turn(1, 'start', 2); v.ship[2] = 4; v.ship[3] = 6",
    );
    let d = g.decision().expect("d").expect("d");
    assert_eq!(d.prompt, "Sail to an island");
    let g = scenario(
        cfg(3),
        "clear(); turn(1, 'after', 2); v.ship[2] = 2; v.ship[3] = 6; action(1, 'Powder Keg')",
    );
    let d = g.decision().expect("d").expect("d");
    assert_eq!(
        d.prompt,
        "Attack a ship here, play an action card, or end your turn"
    );
}

#[test]
fn a_lone_map_card_sells_for_no_gold_and_brings_a_treasure_card() {
    // Rum x1 (map), Spice x1, Tea x1 at Sell: no sale pays gold, but selling
    // the map card is how it becomes a Treasure card (treasure_gain=sell).
    let mut g = scenario(
        cfg(2),
        "clear(); hand(1, {'rum:1:map', 'spice:1', 'tea:1'}); turn(1, 'action', 1); v.bank = 20",
    );
    let options = sell_options(&g);
    assert_eq!(options.len(), 1, "{:?}", option_texts(&g));
    assert_eq!(options[0].cargo, "rum");
    assert!(!can_sell(&g, "spice", &["Spice x1"], false));
    let sale = sale_as(&g, "rum", &["Rum x1 (map)"], false).expect("the map card");
    let text = choice_text(&g, &sale);
    assert!(text.contains("1 icons: 0 gold"), "{text}");
    g.apply_choice(&sale).expect("sell");
    assert_eq!(gold(&g)[0], 3, "no gold");
    let treasures = g
        .with_table(|t| t.find_zone("treasure", Some(1)).map(|z| z.cards.len()))
        .expect("t")
        .expect("z");
    assert_eq!(treasures, 1, "the map card brought a Treasure card");
    // Where a map is handed in at a Port instead, a sale for nothing is not
    // offered.
    let g = scenario(
        cfg(2).option("treasure_gain", "port"),
        "clear(); hand(1, {'rum:1:map', 'spice:1', 'tea:1'}); turn(1, 'action', 1); v.bank = 20",
    );
    assert!(sell_options(&g).is_empty(), "{:?}", option_texts(&g));
}

#[test]
fn wilds_are_not_sold_unless_the_option_allows_it() {
    let lua = "clear(); hand(1, {'rum:3', 'rum:1', 'wild'}); turn(1, 'action', 1)";
    // Default: a Sale is of a single cargo type, and a wild is of none.
    let g = scenario(cfg(3), lua);
    assert_eq!(
        eval_json(&eval(&g, "return game.options.wild_in_sale")),
        json!(false)
    );
    for o in sell_options(&g) {
        for id in o.from {
            assert_ne!(g.card(id).expect("card").name, "Wild");
        }
    }
    // wild_in_sale=true: the wild is one more Rum icon (Rum x3 and the
    // Wild: 4 icons, 3 gold).
    let g = scenario(cfg(3).option("wild_in_sale", true), lua);
    let sale = sale_as(&g, "rum", &["Rum x3", "Wild"], false).expect("offered");
    assert!(g.check_choice(&sale).is_ok());
    assert_eq!(
        choice_text(&g, &sale),
        "Sell Rum x3, Wild (4 icons: 3 gold)"
    );
}

#[test]
fn the_defender_chooses_the_map_card_even_with_one_so_the_asking_tells_nothing() {
    // One map card or two: the defender is asked the same way (a secret
    // choice); only the gift itself, one card, is seen by all.
    for maps in ["'rum:1:map'", "'rum:1:map', 'tea:2:map'"] {
        let mut g = attack_with(&format!("hand(2, {{{maps}, 'silk:1'}})"), "chest", "silk");
        demand_handed_over(&mut g, 1);
        let d = g.decision().expect("d").expect("d");
        assert_eq!(d.seat, 2, "{maps}");
        assert_eq!(vars(&g)["attack"]["stage"], json!("chest"), "{maps}");
        assert!(d.options.iter().all(|o| o.secret().is_some()), "{maps}");
        let public: Vec<_> = d.options.iter().map(|o| o.secret()).collect();
        assert!(public.windows(2).all(|w| w[0] == w[1]), "{public:?}");
        g.apply(1).expect("give");
        assert_eq!(hand_len(&g, 1), 1, "{maps}: one map card given");
    }
    // No map card: nothing to choose, nothing given, as everybody sees.
    let mut g = attack_with("hand(2, {'silk:1'})", "chest", "silk");
    demand_handed_over(&mut g, 1);
    assert_ne!(vars(&g)["attack"]["stage"], json!("chest"));
}

#[test]
fn a_true_claim_called_shows_the_whole_hand_with_the_action_card() {
    let mut g = attack_with(
        "hand(2, {'tea:2', 'silk:1'}); action(2, 'Spyglass')",
        "rum",
        "gold",
    );
    // P2 holds an action card: it is first asked about a Smoke Screen.
    choose(&mut g, 2, json!({"act": "allow"}));
    set_dice(&mut g, "rum", "gold");
    choose(&mut g, 1, json!({"act": "demand", "die": 1}));
    choose(&mut g, 2, json!({"act": "claim", "wager": 1}));
    g.take_events();
    choose(&mut g, 1, json!({"act": "call"}));
    let events = g.take_events();
    let shown = script_events(&events, "hand_shown");
    assert_eq!(shown.len(), 1);
    let cards = shown[0]["cards"].as_array().expect("cards").clone();
    assert_eq!(cards.len(), 3, "two cargo cards and the action card");
    let spyglass = eval_num(&g, "return game:zone('action', 2)[1]");
    assert!(cards.contains(&json!(spyglass)), "{cards:?}");
    assert!(
        shown[0]["text"]
            .as_str()
            .expect("text")
            .contains("action card Spyglass"),
        "{}",
        shown[0]["text"]
    );
}

#[test]
fn an_uncalled_claim_ends_the_exchange_or_with_the_option_the_attack() {
    // P2 claims to have no Rum and P1 does not call.
    let play = |cfg: GameConfig| {
        let mut g = scenario(
            cfg,
            "clear(); turn(1, 'start', 2); v.ship[2] = 2; v.ship[3] = 5; gold({3, 3, 3}); hand(2, {'rum:2'}); hand(1, {'tea:1'})",
        );
        choose(&mut g, 1, json!({"act": "attack", "seat": 2}));
        set_dice(&mut g, "rum", "tea");
        choose(&mut g, 1, json!({"act": "demand", "die": 1}));
        choose(&mut g, 2, json!({"act": "claim", "wager": 1}));
        g.take_events();
        choose(&mut g, 1, json!({"act": "pass"}));
        g
    };
    // Default: the exchange (this demand) ends; the retaliation follows.
    let g = play(cfg(3));
    assert_eq!(vars(&g)["attack"]["retaliation"], json!(true));
    assert_eq!(g.decision().expect("d").expect("d").seat, 1);
    // bluff_not_called=attack: the whole attack ends, no retaliation.
    let mut g = play(cfg(3).option("bluff_not_called", "attack"));
    assert!(vars(&g)["attack"].is_null());
    assert_eq!(vars(&g)["phase"], json!("start"), "back to the turn");
    assert_eq!(hand_len(&g, 1), 1, "P1 keeps its tea");
    assert_eq!(&gold(&g)[..2], &[3, 3], "P2 kept its wager");
    let events = g.take_events();
    assert!(
        script_events(&events, "demand").is_empty(),
        "no retaliation"
    );
    assert_eq!(
        script_events(&events, "not_called")[0]["ends_attack"],
        json!(true)
    );
}

#[test]
fn the_island_order_is_an_option_and_random_draws_one_per_game() {
    let ring = |g: &Game| -> Vec<String> {
        vars(g)["islands"]
            .as_array()
            .expect("islands")
            .iter()
            .map(|i| i["name"].as_str().expect("name").to_string())
            .collect()
    };
    let g = engine().new_game(cfg(3), false).expect("start");
    assert_eq!(
        ring(&g),
        [
            "Sell",
            "Port 1",
            "Action Card",
            "Port 2",
            "Temple",
            "Port 3",
            "Whirlpool"
        ]
    );
    // Port 1 beside the Temple: the Temple after Port 3.
    let g = engine()
        .new_game(
            cfg(3).option("island_order", "action-whirlpool-temple"),
            false,
        )
        .expect("start");
    assert_eq!(
        ring(&g),
        [
            "Sell",
            "Port 1",
            "Action Card",
            "Port 2",
            "Whirlpool",
            "Port 3",
            "Temple"
        ]
    );
    assert_eq!(
        eval(&g, "return game.rules.island_kind(game, 7)"),
        "\"temple\""
    );
    // A ship at Port 1 may sail to the Temple, which the island does.
    let g = scenario(
        cfg(3).option("island_order", "action-whirlpool-temple"),
        "turn(1, 'start', 2)",
    );
    assert!(
        option_texts(&g)
            .iter()
            .any(|t| t.starts_with("Sail to Temple (offer a")),
        "{:?}",
        option_texts(&g)
    );
    // random: one of the six orders for each game, from the game's seed.
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let c = GameConfig::new("seadogs", 3, seed)
            .option("captains", false)
            .option("island_order", "random");
        let a = ring(&engine().new_game(c.clone(), false).expect("start"));
        let b = ring(&engine().new_game(c, false).expect("start"));
        assert_eq!(a, b, "the same seed, the same islands");
        assert_eq!(
            [&a[1], &a[3], &a[5]],
            ["Port 1", "Port 2", "Port 3"],
            "the Ports stay"
        );
        seen.insert(a);
    }
    assert_eq!(seen.len(), 6, "{seen:?}");
}

#[test]
fn holding_the_black_market_a_sale_may_keep_the_card() {
    // Tea x1 and a Wild (option wild_in_sale): the sale of both is offered
    // as a plain sale (2 icons, the card kept) and with the Black Market (3
    // icons, the card spent).
    let mut g = scenario(
        cfg(3).option("wild_in_sale", true),
        "clear(); action(1, 'Black Market'); hand(1, {'tea:1', 'wild'}); turn(1, 'action', 1); v.bank = 30",
    );
    let keep = sale_as(&g, "tea", &["Tea x1", "Wild"], false).expect("keeping the card");
    assert!(g.check_choice(&keep).is_ok());
    assert_eq!(
        choice_text(&g, &keep),
        "Sell Tea x1, Wild (2 icons: 1 gold)"
    );
    // With the card: the Wild alone is 2 icons.
    let spend = sale_as(&g, "tea", &["Wild"], true).expect("with the card");
    assert!(g.check_choice(&spend).is_ok());
    assert_eq!(
        choice_text(&g, &spend),
        "Sell Wild as Tea (2 icons: 1 gold) with Black Market"
    );
    g.apply_choice(&keep).expect("sell");
    assert_eq!(gold(&g)[0], 4);
    assert_eq!(
        eval_num(&g, "return #game:zone('action', 1)"),
        1,
        "the Black Market is kept"
    );
    // By default wilds sell only with the Black Market: Tea x2 alone keeps
    // the card, Tea x2 and the Wild spends it.
    let g = scenario(
        cfg(3),
        "clear(); action(1, 'Black Market'); hand(1, {'tea:2', 'wild'}); turn(1, 'action', 1); v.bank = 30",
    );
    let plain = sale_as(&g, "tea", &["Tea x2"], false).expect("plain");
    assert_eq!(choice_text(&g, &plain), "Sell Tea x2 (2 icons: 1 gold)");
    assert!(sale_as(&g, "tea", &["Tea x2", "Wild"], false).is_none());
    let spend = sale_as(&g, "tea", &["Tea x2", "Wild"], true).expect("spending");
    assert!(g.check_choice(&spend).is_ok());
    assert_eq!(
        choice_text(&g, &spend),
        "Sell Tea x2, Wild (4 icons: 3 gold) with Black Market"
    );
    // With the Black Market, a sale sells a wild (else it would spend the
    // card for nothing).
    let none = sale_as(&g, "tea", &["Tea x2"], true).expect("offered");
    let err = g.check_choice(&none).expect_err("no wild");
    assert_eq!(err.to_string(), "a sale with the Black Market sells a wild");
}

#[test]
fn any_time_cards_are_played_in_a_window_at_the_end_of_every_turn() {
    // P2 holds the Spyglass, P3 Fair Winds, P4 no action card. When P1 ends
    // its turn, P2 then P3 are asked (holding an action card is public);
    // P4 is passed without a question.
    let lua = "clear(); action(2, 'Spyglass'); action(3, 'Fair Winds'); hand(1, {'rum:2'}); \
               turn(1, 'after', 2)";
    let mut g = scenario(cfg(4), lua);
    choose(&mut g, 1, json!({"act": "end"}));
    let d = g.decision().expect("d").expect("pending");
    assert_eq!(d.seat, 2);
    assert_eq!(d.window.as_deref(), Some("turn_end"));
    assert_eq!(g.window_pass(), Some(1));
    assert_eq!(d.prompt, "End of P1's turn: play an action card, or pass");
    assert!(has_option(
        &g,
        json!({"act": "play", "action": "spyglass", "seat": 1})
    ));
    g.take_events();
    choose(
        &mut g,
        2,
        json!({"act": "play", "action": "spyglass", "seat": 1}),
    );
    let events = g.take_events();
    let shown = events
        .iter()
        .find(|e| matches!(&e.kind, EventKind::Script { name, .. } if name == "hand_shown"))
        .expect("hand shown");
    assert!(g.event_visible_to(shown, 2));
    assert!(!g.event_visible_to(shown, 3));
    // P3 holds a card it cannot play now: asked all the same, it can only pass.
    let d = g.decision().expect("d").expect("pending");
    assert_eq!(d.seat, 3);
    assert_eq!(d.options.len(), 1);
    assert_eq!(d.window.as_deref(), Some("turn_end"));
    choose(&mut g, 3, json!({"pass": true}));
    // Everyone else passed without a question: P2's turn begins.
    assert_eq!(vars(&g)["turn"], json!(2));
    assert!(g.window_pass().is_none());
    assert!(vars(&g)["windows"].is_null());
    // Option any_time=own: no window, the next turn at once.
    let mut g = scenario(cfg(4).option("any_time", "own"), lua);
    choose(&mut g, 1, json!({"act": "end"}));
    assert_eq!(vars(&g)["turn"], json!(2));
    assert!(g.window_pass().is_none());
}

/// The option the greedy bot picks for the seat to move, with the bot's
/// random stream of game seed `seed` (the position stays the same).
fn greedy_pick(g: &Game, seed: u64) -> Value {
    let seat = g.pending().expect("pending").0;
    let i = deckhand_bots::Bot::new(deckhand_bots::BotKind::parse("greedy"), seed, seat)
        .choose(g)
        .expect("choice")
        .index;
    g.decision().expect("d").expect("d").options[i - 1]
        .action
        .clone()
}

/// How often the greedy bot wagers 1, 2 and 3 gold when it claims, over
/// 300 bot streams.
fn wager_shares(g: &Game) -> [f64; 3] {
    let mut n = [0usize; 3];
    for seed in 0..300 {
        let a = greedy_pick(g, seed);
        if a["act"] == "claim" {
            n[a["wager"].as_u64().expect("wager") as usize - 1] += 1;
        }
    }
    let claims: usize = n.iter().sum();
    assert!(claims >= 30, "claims: {n:?}");
    n.map(|k| k as f64 / claims as f64)
}

#[test]
fn the_greedy_bots_wager_says_nothing_of_the_truth() {
    // P1 demands Rum of P2 (3 gold each); P1 has never called a claim.
    let at_demand = |hand: &str| {
        let mut g = attack_with(
            &format!("hand(2, {{{hand}}}); v.calls.asked[1] = 6; v.powder[2] = 0"),
            "rum",
            "tea",
        );
        choose(&mut g, 1, json!({"act": "demand", "die": 1}));
        g
    };
    // Truly without Rum, and holding three Rum cards (a bluff then pays;
    // no gunpowder to force a reroll instead).
    let truth = wager_shares(&at_demand("'silk:1', 'tea:2'"));
    let bluff = wager_shares(&at_demand("'rum:2', 'rum:3', 'rum:1', 'tea:2'"));
    for w in 0..3 {
        assert!(truth[w] > 0.1 && bluff[w] > 0.1, "{truth:?} {bluff:?}");
        assert!(
            (truth[w] - bluff[w]).abs() < 0.15,
            "wager {}: {truth:?} against {bluff:?}",
            w + 1
        );
    }
}

#[test]
fn the_greedy_bot_always_calls_a_certain_lie_and_never_a_certain_truth() {
    // P2 claims to have no gold, wagering its own: certainly a lie.
    let mut g = attack_with("hand(2, {'silk:1'})", "gold", "tea");
    choose(&mut g, 1, json!({"act": "demand", "die": 1}));
    choose(&mut g, 2, json!({"act": "claim", "wager": 2}));
    for seed in 0..60 {
        assert_eq!(greedy_pick(&g, seed)["act"], json!("call"), "seed {seed}");
    }
    // P2 claims to have no Rum with an empty hand: certainly true.
    let mut g = attack_with("", "rum", "tea");
    choose(&mut g, 1, json!({"act": "demand", "die": 1}));
    choose(&mut g, 2, json!({"act": "claim", "wager": 1}));
    for seed in 0..60 {
        assert_eq!(greedy_pick(&g, seed)["act"], json!("pass"), "seed {seed}");
    }
}

#[test]
fn the_greedy_bot_sails_for_an_action_card_when_nothing_pays_more() {
    // P1 at Port 1 without an action card, two poor cards and nothing to
    // sell; the others are on far islands with little in hand.
    let g = scenario(
        cfg(3),
        "clear(); hand(1, {'rum:1', 'tea:1'}); hand(2, {'silk:1'}); hand(3, {'spice:1'}); \
         turn(1, 'start', 2); v.ship[2] = 4; v.ship[3] = 6",
    );
    for seed in 0..5 {
        assert_eq!(
            greedy_pick(&g, seed),
            json!({"act": "move", "island": 3, "text": "Sail to Action Card (draw an action card)"})
        );
    }
}

/// While the defender is asked about a Smoke Screen (before the roll), the
/// status says the dice are not rolled yet, not "dice  and ".
#[test]
fn status_before_the_roll_says_the_dice_are_not_rolled() {
    let mut g = scenario(
        cfg(3),
        "clear(); turn(1, 'start', 2); v.ship[2] = 2; action(2, 'Smoke Screen')",
    );
    choose(&mut g, 1, json!({"act": "attack", "seat": 2}));
    let status = eval(&g, "return table.concat(game.rules.status(game), '\\n')");
    assert!(
        status.contains("Attack: P1 on P2, dice not rolled yet"),
        "{status}"
    );
    assert!(!status.contains("dice  and"), "{status}");
}

#[test]
fn why_not_answers_for_every_card_on_every_island() {
    // A Port's cargo seen from another island is named with the island it
    // lies at; every card gets an answer (or none) without an error, at
    // the start of a turn and in the island's action, wherever the ship is.
    let mut g = scenario(cfg(3), "");
    let islands = eval_num(&g, "return #game.rules.islands(game)");
    let cards = eval_num(&g, "return #game.cards") as u32;
    let mut lies_at = 0;
    for island in 1..=islands {
        for phase in ["start", "action"] {
            arrange(
                &mut g,
                &format!("{HELPERS}\nturn(1, \"{phase}\", {island})\nclear()\nhand(1, {{ \"rum\" }})\ntake(\"tea\", game:zone(\"port 1\"))"),
            );
            for card in 1..=cards {
                let why = g
                    .why_not(1, card)
                    .unwrap_or_else(|e| panic!("island {island}, {phase}, card {card}: {e}"));
                lies_at += usize::from(why.is_some_and(|w| w.contains(" lies at ")));
            }
        }
    }
    assert!(lies_at > 0, "no Port's cargo was named with its island");
}
