//! Sea Salt & Paper: the rulebook's examples, every scoring table, each duo
//! effect (also when it cannot be carried out), STOP and LAST CHANCE, the
//! empty deck, four mermaids and the end of the game, through the public API.
//!
//! Positions are set with Lua (`arrange`): every card goes back to the deck,
//! then named cards are dealt where the example needs them. Cards are named
//! `kind` or `kind:colour` (`"crab:darkblue"`, `"mermaid"`).

use crate::common;

use common::{choose, engine, has_option, script_events};
use deckhand_engine::{EventKind, Game, GameConfig};
use serde_json::{json, Value};

/// Lua helpers for arranging a position.
const HELPERS: &str = r#"
local deck = game:zone("deck")
local function matches(id, spec)
  local c = game.cards[id]
  local kind, colour = string.match(spec, "^([^:]+):?(.*)$")
  return c.kind == kind and (colour == "" or c.color == colour)
end
local function clear()
  for _, z in ipairs(game._zones) do
    if z ~= deck then game:move_all(z, deck) end
  end
end
-- Move the first card matching `spec` still in the deck to zone `z`.
local function take(spec, z)
  for i = 1, #deck do
    if matches(deck[i], spec) then
      local id = deck[i]
      game:move(id, deck, z)
      return id
    end
  end
  error("no card " .. spec .. " left in the deck")
end
local function to(z, specs) for _, s in ipairs(specs) do take(s, z) end end
local function hand(seat, specs) to(game:zone("hand", seat), specs) end
local function duos(seat, specs) to(game:zone("duos", seat), specs) end
local function pile(i, specs) to(game:zone("discard " .. i), specs) end
-- Put these cards on top of the deck (the last one on top).
local function deck_top(specs)
  for _, s in ipairs(specs) do take(s, deck) end
end
-- Leave only `n` cards in the deck: the others go to the bottom of pile 2.
local function deck_left(n)
  local p2 = game:zone("discard 2")
  while #deck > n do game:move(deck[1], deck, p2, "bottom") end
end
-- It is `seat`'s turn, at `phase`, in round 1 started by `first`.
local function turn(seat, phase, first)
  local v = game.vars
  v.turn = seat; v.phase = phase; v.first = first or seat
  v.call = nil; v.final_turns = {}; v.boat_turns = 0; v.crab_pile = nil
  for s = 1, game.seats do v.revealed[s] = false end
end
"#;

fn cfg(players: u32) -> GameConfig {
    GameConfig::new("sea_salt_paper", players, 1)
}

/// Start a game and run `lua` (with the helpers) to set a position.
fn scenario(cfg: GameConfig, lua: &str) -> Game {
    let e = Box::leak(Box::new(engine()));
    let mut g = e.new_game(cfg, true).expect("start");
    g.take_events();
    g.arrange(&format!("do {HELPERS}\n{lua}\nend"))
        .expect("arrange");
    g.check_invariants()
        .expect("arranged position is consistent");
    g
}

/// Card points (or another rules function) of the named cards, without a position.
fn score_with(options: &[(&str, Value)], fun: &str, specs: &[&str]) -> i64 {
    let mut c = cfg(2);
    for (k, v) in options {
        c = c.option(k, v.clone());
    }
    score_in(c, fun, specs)
}

/// `rules.FUN(game, cards)` of the cards named by `specs` ("kind" or
/// "kind:colour"), in a game of `c`.
fn score_in(c: GameConfig, fun: &str, specs: &[&str]) -> i64 {
    let g = engine().new_game(c, false).expect("start");
    let list: Vec<String> = specs.iter().map(|s| format!("{s:?}")).collect();
    let code = format!(
        r#"local used, ids = {{}}, {{}}
        for _, spec in ipairs({{{}}}) do
          local kind, colour = string.match(spec, "^([^:]+):?(.*)$")
          local found
          for id, c in ipairs(game.cards) do
            if not used[id] and c.kind == kind and (colour == "" or c.color == colour) then found = id; break end
          end
          if not found then error("no more " .. spec) end
          used[found] = true; ids[#ids + 1] = found
        end
        return game.rules.{fun}(game, ids)"#,
        list.join(", ")
    );
    let out = g.eval_lua(&code).expect("eval");
    out.trim()
        .parse()
        .unwrap_or_else(|_| panic!("not a number: {out}"))
}

fn points(specs: &[&str]) -> i64 {
    score_with(&[], "card_points", specs)
}

fn vars(g: &Game) -> Value {
    g.vars().expect("vars")
}

fn zone_cards(g: &Game, name: &str, owner: Option<u32>) -> Vec<u32> {
    g.with_table(|t| t.find_zone(name, owner).map(|z| z.cards.clone()))
        .expect("table")
        .unwrap_or_else(|| panic!("no zone {name}"))
}

fn kind(g: &Game, id: u32) -> String {
    g.card(id).expect("card").props["kind"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

// ---------------------------------------------------------------------------
// The deck
// ---------------------------------------------------------------------------

#[test]
fn the_deck_has_58_cards_with_the_listed_kinds_and_colours() {
    let g = engine().new_game(cfg(2), false).expect("start");
    let cards = g.cards().expect("cards");
    assert_eq!(cards.len(), 58);
    let count = |key: &str, value: &str| {
        cards
            .iter()
            .filter(|c| c.props[key].as_str() == Some(value))
            .count()
    };
    for (k, n) in [
        ("crab", 9),
        ("boat", 8),
        ("fish", 7),
        ("swimmer", 5),
        ("shark", 5),
        ("shell", 6),
        ("octopus", 5),
        ("penguin", 3),
        ("sailor", 2),
        ("lighthouse", 1),
        ("shoal", 1),
        ("colony", 1),
        ("captain", 1),
        ("mermaid", 4),
    ] {
        assert_eq!(count("kind", k), n, "{k}");
    }
    // Colour totals of the card list in docs/sea-salt-paper.md ("The cards").
    for (c, n) in [
        ("darkblue", 9),
        ("lightblue", 9),
        ("black", 8),
        ("yellow", 8),
        ("lightgreen", 6),
        ("white", 4),
        ("purple", 4),
        ("lightgray", 4),
        ("lightorange", 3),
        ("pink", 2),
        ("orange", 1),
    ] {
        assert_eq!(count("color", c), n, "{c}");
    }
}

#[test]
fn setup_deck_face_down_two_piles_face_up_random_first_player() {
    let mut firsts = std::collections::BTreeSet::new();
    for seed in 0..12 {
        let g = engine()
            .new_game(GameConfig::new("sea_salt_paper", 3, seed), true)
            .expect("start");
        let view = g.view(Some(1)).expect("view");
        let z = |n: &str| view.zones.iter().find(|z| z.name == n).expect("zone");
        assert_eq!(z("deck").count, 56);
        assert!(z("deck").cards.is_none() && z("deck").top.is_none());
        for p in ["discard 1", "discard 2"] {
            assert_eq!(z(p).count, 1);
            assert!(z(p).top.is_some() && z(p).cards.is_none());
        }
        let v = vars(&g);
        assert_eq!(v["phase"], json!("take"));
        assert_eq!(v["turn"], v["first"]);
        firsts.insert(v["first"].as_u64().expect("first"));
    }
    assert_eq!(firsts.len(), 3, "every seat starts some game: {firsts:?}");
}

// ---------------------------------------------------------------------------
// Scoring tables
// ---------------------------------------------------------------------------

#[test]
fn collector_tables() {
    let shells = ["shell"; 6];
    for (n, want) in [0, 2, 4, 6, 8, 10].into_iter().enumerate() {
        assert_eq!(points(&shells[..=n]), want, "{} shells", n + 1);
    }
    let octopus = ["octopus"; 5];
    for (n, want) in [0, 3, 6, 9, 12].into_iter().enumerate() {
        assert_eq!(points(&octopus[..=n]), want, "{} octopus", n + 1);
    }
    let penguins = ["penguin"; 3];
    for (n, want) in [1, 3, 5].into_iter().enumerate() {
        assert_eq!(points(&penguins[..=n]), want, "{} penguins", n + 1);
    }
    assert_eq!(points(&["sailor"]), 0);
    assert_eq!(points(&["sailor", "sailor"]), 5);
}

#[test]
fn multiplier_tables_and_multipliers_are_not_their_kind() {
    // Lighthouse: 1 per boat (plus the boat pairs themselves).
    assert_eq!(points(&["lighthouse"]), 0);
    assert_eq!(
        points(&["lighthouse", "boat"]),
        1,
        "a lighthouse is no boat"
    );
    assert_eq!(points(&["lighthouse", "boat", "boat", "boat"]), 3 + 1);
    // Shoal of fish: 1 per fish.
    assert_eq!(points(&["shoal", "fish"]), 1, "a shoal is no fish");
    assert_eq!(points(&["shoal", "fish", "fish"]), 2 + 1);
    // Penguin colony: 2 per penguin.
    assert_eq!(points(&["colony"]), 0);
    assert_eq!(points(&["colony", "penguin"]), 2 + 1);
    assert_eq!(points(&["colony", "penguin", "penguin", "penguin"]), 6 + 5);
    // Captain: 3 per sailor.
    assert_eq!(points(&["captain", "sailor"]), 3, "a captain is no sailor");
    assert_eq!(points(&["captain", "sailor", "sailor"]), 6 + 5);
}

#[test]
fn duo_pairs_score_one_point_each() {
    assert_eq!(points(&["crab"]), 0);
    assert_eq!(points(&["crab", "crab"]), 1);
    assert_eq!(points(&["crab", "crab", "crab"]), 1);
    assert_eq!(points(&["crab", "crab", "crab", "crab"]), 2);
    assert_eq!(points(&["boat", "boat"]), 1);
    assert_eq!(points(&["fish", "fish"]), 1);
    assert_eq!(points(&["shark", "swimmer"]), 1);
    assert_eq!(points(&["shark", "shark"]), 0, "two sharks are not a pair");
    assert_eq!(
        points(&["swimmer", "swimmer"]),
        0,
        "two swimmers are not a pair"
    );
    assert_eq!(points(&["shark", "shark", "swimmer"]), 1);
    assert_eq!(
        points(&["crab", "crab", "boat", "boat", "fish", "fish", "shark", "swimmer"]),
        4
    );
}

#[test]
fn duo_pairs_count_in_hand_and_in_front() {
    let g = scenario(
        cfg(2),
        "clear(); hand(1, {'crab', 'fish', 'fish'}); duos(1, {'crab', 'crab', 'shark', 'swimmer'}); turn(1, 'play')",
    );
    let out = g.eval_lua("game.rules.seat_points(game, 1)").expect("eval");
    // In front: 1 crab pair + 1 shark/swimmer; in hand: 1 fish pair; the
    // third crab stays unpaired.
    assert_eq!(out.trim(), "3");
}

#[test]
fn two_mermaid_example_from_the_rulebook() {
    // "With their two mermaids, the player wins 6 pts: 4 pts for their
    // greatest color, light blue; 2 pts for their second greatest color, green."
    let cards = [
        "fish:lightblue",
        "shell:lightblue",
        "octopus:lightblue",
        "crab:lightblue",
        "shark:lightgreen",
        "colony:lightgreen",
        "mermaid",
        "mermaid",
    ];
    assert_eq!(points(&cards), 6);
    // The same with white left out of mermaid scoring: still 4 + 2.
    assert_eq!(
        score_with(&[("mermaid_white", json!(false))], "card_points", &cards),
        6
    );
}

#[test]
fn mermaids_score_one_colour_each_white_by_default() {
    // Three mermaids and two yellow cards (no points of their own).
    let cards = [
        "mermaid",
        "mermaid",
        "mermaid",
        "shell:yellow",
        "octopus:yellow",
    ];
    // White 3, then yellow 2, then no colour left: 5.
    assert_eq!(points(&cards), 5);
    // Option: white is not a colour for mermaids: yellow 2, then nothing.
    assert_eq!(
        score_with(&[("mermaid_white", json!(false))], "card_points", &cards),
        2
    );
    // One mermaid alone scores its own colour (1); without white, nothing.
    assert_eq!(points(&["mermaid"]), 1);
    assert_eq!(
        score_with(
            &[("mermaid_white", json!(false))],
            "card_points",
            &["mermaid"]
        ),
        0
    );
    // Each mermaid a different colour: 2 dark blue, 2 black, 1 purple.
    let spread = [
        "mermaid",
        "mermaid",
        "crab:darkblue",
        "shell:darkblue",
        "crab:black",
        "shell:black",
        "octopus:purple",
    ];
    // Crab pair 1, 2 shells 2, octopus 0; mermaids: dark blue 2 + black 2 (white 2 ties).
    assert_eq!(points(&spread), 1 + 2 + 2 + 2);
}

#[test]
fn colour_bonus_is_the_most_common_colour() {
    let bonus = |cards: &[&str]| score_with(&[], "colour_bonus", cards);
    assert_eq!(bonus(&[]), 0);
    assert_eq!(bonus(&["crab:yellow", "boat:yellow", "shell:black"]), 2);
    assert_eq!(
        bonus(&["mermaid", "mermaid", "mermaid", "shell:black"]),
        3,
        "white counts"
    );
    assert_eq!(
        score_with(
            &[("mermaid_white", json!(false))],
            "colour_bonus",
            &["mermaid", "mermaid", "shell:black"]
        ),
        2,
        "the mermaid option does not change the colour bonus"
    );
}

// ---------------------------------------------------------------------------
// STOP and LAST CHANCE: the rulebook's example and the bet
// ---------------------------------------------------------------------------

/// Player 1 = 7 points (most: yellow, 2 cards); player 2 = 4 points (most:
/// light blue, 2 cards). Player 1 is to play, then player 2 would take the
/// dark blue shell on discard 1 (worth nothing).
fn rulebook_example(p2_extra: &str) -> Game {
    scenario(
        cfg(2),
        &format!(
            "clear()
             hand(1, {{'sailor:pink', 'sailor:orange', 'boat:yellow', 'boat:yellow', 'penguin:purple'}})
             hand(2, {{'octopus:lightblue', 'octopus:purple', 'crab:lightblue', 'crab:black' {p2_extra}}})
             pile(1, {{'shell:darkblue'}}); pile(2, {{'fish:black'}})
             turn(1, 'play')"
        ),
    )
}

fn round_scored(g: &mut Game) -> Value {
    let ev = script_events(&g.take_events(), "round_scored");
    assert_eq!(ev.len(), 1, "one round scored");
    ev[0].clone()
}

#[test]
fn the_evaluation_counts_the_round_under_way_as_a_stop_would_score_it() {
    // Mid-round, P1 holds 7 card points and P2 4, with no score yet: the
    // evaluation (for the search bots) counts them as a STOP now would,
    // 0.5 plus the lead as a share of the target (40 at two players), and
    // is the same once the STOP has scored them and the next round is dealt.
    let mut g = rulebook_example("");
    let eval = |g: &Game, seat| g.evaluate(seat).expect("evaluate").expect("defined");
    let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
    assert!(close(eval(&g, 1), 0.5 + 3.0 / 40.0), "{}", eval(&g, 1));
    assert!(close(eval(&g, 2), 0.5 - 3.0 / 40.0), "{}", eval(&g, 2));
    choose(&mut g, 1, json!({"act": "stop"}));
    assert_eq!(vars(&g)["scores"], json!([7, 4]));
    assert!(close(eval(&g, 1), 0.5 + 3.0 / 40.0), "{}", eval(&g, 1));
    assert!(close(eval(&g, 2), 0.5 - 3.0 / 40.0), "{}", eval(&g, 2));
}

#[test]
fn rulebook_example_stop_both_score_their_points() {
    let mut g = rulebook_example("");
    choose(&mut g, 1, json!({"act": "stop"}));
    let ev = g.take_events();
    let r = &script_events(&ev, "round_scored")[0];
    assert_eq!(r["points"], json!([7, 4]));
    assert_eq!(r["gained"], json!([7, 4]));
    assert_eq!(vars(&g)["scores"], json!([7, 4]));
    // All hands are revealed, the caller's first, and told to everyone.
    let reveals = script_events(&ev, "hand_revealed");
    let sizes: Vec<(Value, usize)> = reveals
        .iter()
        .map(|e| (e["seat"].clone(), e["cards"].as_array().map_or(0, Vec::len)))
        .collect();
    assert_eq!(sizes, vec![(json!(1), 5), (json!(2), 4)]);
    assert_eq!(
        r["text"],
        json!("STOP by P1. P1 +7, P2 +4. Scores: P1 7, P2 4 of 40")
    );
    // The next round is dealt at once (no decision between rounds), and the
    // player to the left of the caller starts it.
    let v = vars(&g);
    assert_eq!(v["round"], json!(2));
    assert_eq!(v["first"], json!(2));
    assert_eq!(v["turn"], json!(2));
    assert_eq!(v["phase"], json!("take"));
    assert_eq!(v["last_round"]["ending"], json!("stop"));
    assert_eq!(zone_cards(&g, "deck", None).len(), 56);
    assert!(zone_cards(&g, "open hand", Some(2)).is_empty());
}

#[test]
fn rulebook_example_last_chance_bet_won() {
    let mut g = rulebook_example("");
    choose(&mut g, 1, json!({"act": "last_chance"}));
    // The caller's hand is revealed at once; player 2 takes a final turn.
    assert_eq!(zone_cards(&g, "open hand", Some(1)).len(), 5);
    assert_eq!(vars(&g)["turn"], json!(2));
    assert_eq!(vars(&g)["phase"], json!("take"));
    choose(&mut g, 2, json!({"act": "pile", "pile": 1}));
    assert!(
        !has_option(&g, json!({"act": "stop"})),
        "no new call once a call was made"
    );
    choose(&mut g, 2, json!({"act": "end"}));
    let r = round_scored(&mut g);
    assert_eq!(r["bet_won"], json!(true));
    assert_eq!(r["points"], json!([7, 4]));
    assert_eq!(r["bonus"], json!([2, 2]));
    // "player 1 scores their points + 2 additional pts for the color bonus
    // (yellow) = 9 pts ... Player 2 only scores their color bonus (light blue) = 2 pts."
    assert_eq!(r["gained"], json!([9, 2]));
    assert_eq!(vars(&g)["scores"], json!([9, 2]));
    assert_eq!(
        r["text"],
        json!(
            "LAST CHANCE by P1: bet won (7 points, best opponent 4). P1 +9 (7 + colour bonus 2), \
             P2 +2 (colour bonus; 4 points not scored). Scores: P1 9, P2 2 of 40"
        )
    );
}

#[test]
fn last_chance_bet_lost_caller_scores_only_the_colour_bonus() {
    // Player 2 also holds two shells and takes a third: 4 + 4 = 8 points, more than 7.
    let mut g = rulebook_example(", 'shell:yellow', 'shell:black'");
    choose(&mut g, 1, json!({"act": "last_chance"}));
    choose(&mut g, 2, json!({"act": "pile", "pile": 1}));
    choose(&mut g, 2, json!({"act": "end"}));
    let r = round_scored(&mut g);
    // Player 2: 4 + shells (3 shells: dark blue from the pile, yellow, black) = 4 + 4 = 8.
    assert_eq!(r["points"], json!([7, 8]));
    assert_eq!(r["bet_won"], json!(false));
    assert_eq!(
        r["gained"],
        json!([2, 8]),
        "caller: colour bonus; opponent: card points"
    );
}

#[test]
fn last_chance_tie_goes_to_the_caller() {
    // Player 2 ends on 7 points too: 4 + 2 shells (2) + a penguin (1).
    let mut g = rulebook_example(", 'shell:yellow', 'penguin:pink'");
    choose(&mut g, 1, json!({"act": "last_chance"}));
    // Taking the dark blue shell makes 2 shells: 4 + 2 + 1 = 7.
    choose(&mut g, 2, json!({"act": "pile", "pile": 1}));
    choose(&mut g, 2, json!({"act": "end"}));
    let r = round_scored(&mut g);
    assert_eq!(r["points"], json!([7, 7]));
    assert_eq!(r["bet_won"], json!(true), "ties go to the caller");
    assert_eq!(r["gained"], json!([9, 2]));
}

#[test]
fn last_chance_with_three_players_compares_with_every_opponent() {
    let mut g = scenario(
        cfg(3),
        "clear()
         hand(1, {'sailor', 'sailor', 'boat', 'boat', 'penguin'})
         hand(2, {'crab', 'crab'})
         hand(3, {'octopus', 'octopus', 'octopus'})
         pile(1, {'shell'}); pile(2, {'shell'})
         turn(1, 'play')",
    );
    choose(&mut g, 1, json!({"act": "last_chance"}));
    assert_eq!(vars(&g)["final_turns"], json!([2, 3]));
    choose(&mut g, 2, json!({"act": "pile", "pile": 1}));
    choose(&mut g, 2, json!({"act": "end"}));
    // Player 2's hand is now revealed and protected.
    assert_eq!(vars(&g)["revealed"], json!([true, true, false]));
    choose(&mut g, 3, json!({"act": "pile", "pile": 2}));
    choose(&mut g, 3, json!({"act": "end"}));
    let r = round_scored(&mut g);
    // Player 3 has 3 octopus = 6 < 7: the bet is won against both.
    assert_eq!(r["points"], json!([7, 1, 6]));
    assert_eq!(r["bet_won"], json!(true));
}

#[test]
fn a_call_needs_seven_points() {
    let g = scenario(
        cfg(2),
        "clear(); hand(1, {'sailor', 'sailor', 'crab'}); hand(2, {'crab'}); pile(1, {'shell'}); pile(2, {'shell'}); turn(1, 'play')",
    );
    assert!(!has_option(&g, json!({"act": "stop"})));
    assert!(!has_option(&g, json!({"act": "last_chance"})));
    assert!(has_option(&g, json!({"act": "end"})));
}

// ---------------------------------------------------------------------------
// Taking cards
// ---------------------------------------------------------------------------

#[test]
fn draw_two_keep_one_discard_the_other_where_the_player_chooses() {
    let mut g = scenario(
        cfg(2),
        "clear(); pile(1, {'shell:black'}); pile(2, {'shell:yellow'}); deck_top({'crab:black', 'octopus:purple'}); turn(1, 'take')",
    );
    choose(&mut g, 1, json!({"act": "draw"}));
    assert_eq!(vars(&g)["phase"], json!("keep"));
    let drawn = zone_cards(&g, "drawn cards", Some(1));
    assert_eq!(drawn.len(), 2);
    // Player 2 sees only that two cards were drawn.
    let v2 = g.view(Some(2)).expect("view");
    let d2 = v2
        .zones
        .iter()
        .find(|z| z.name == "drawn cards" && z.owner == Some(1))
        .expect("zone");
    assert!(d2.cards.is_none() && d2.count == 2);
    // Keeping is secret.
    let d = g.decision().expect("d").expect("d");
    assert!(d.options.iter().all(|o| o.secret().is_some()));
    let octopus = drawn
        .iter()
        .copied()
        .find(|&c| kind(&g, c) == "octopus")
        .expect("octopus");
    choose(&mut g, 1, json!({"act": "keep", "card": octopus}));
    assert_eq!(vars(&g)["phase"], json!("discard"));
    choose(&mut g, 1, json!({"act": "discard", "pile": 2}));
    assert_eq!(zone_cards(&g, "hand", Some(1)), vec![octopus]);
    let p2 = zone_cards(&g, "discard 2", None);
    assert_eq!(p2.len(), 2);
    assert_eq!(kind(&g, p2[1]), "crab");
    assert_eq!(vars(&g)["phase"], json!("play"));
}

#[test]
fn the_other_card_goes_onto_the_empty_pile() {
    let mut g = scenario(
        cfg(2),
        "clear(); pile(1, {'shell:black'}); deck_top({'crab:black', 'octopus:purple'}); turn(1, 'take')",
    );
    choose(&mut g, 1, json!({"act": "draw"}));
    let drawn = zone_cards(&g, "drawn cards", Some(1));
    choose(&mut g, 1, json!({"act": "keep", "card": drawn[0]}));
    // No choice: discard 2 is empty, so the card goes there at once.
    assert_eq!(vars(&g)["phase"], json!("play"));
    assert_eq!(zone_cards(&g, "discard 2", None), vec![drawn[1]]);
}

#[test]
fn with_one_card_in_the_deck_the_player_takes_it() {
    let mut g = scenario(
        cfg(2),
        "clear(); pile(1, {'shell:black'}); deck_top({'crab:black'}); deck_left(1); turn(1, 'take')",
    );
    choose(&mut g, 1, json!({"act": "draw"}));
    assert_eq!(vars(&g)["phase"], json!("play"));
    assert_eq!(zone_cards(&g, "hand", Some(1)).len(), 1);
    assert_eq!(zone_cards(&g, "deck", None).len(), 0);
}

#[test]
fn taking_a_discard_top_and_no_looking_through_the_piles() {
    let mut g = scenario(
        cfg(2),
        "clear(); pile(1, {'shell:black', 'crab:yellow'}); pile(2, {'fish:black'}); turn(1, 'take')",
    );
    let d = g.decision().expect("d").expect("d");
    // Draw, or one of the two tops: nothing below a top is offered.
    assert_eq!(d.options.len(), 3);
    choose(&mut g, 1, json!({"act": "pile", "pile": 1}));
    let hand = zone_cards(&g, "hand", Some(1));
    assert_eq!(kind(&g, hand[0]), "crab");
    assert_eq!(zone_cards(&g, "discard 1", None).len(), 1);
}

// ---------------------------------------------------------------------------
// Duo effects
// ---------------------------------------------------------------------------

#[test]
fn crabs_look_through_a_pile_and_take_any_card_secretly() {
    let mut g = scenario(
        cfg(2),
        "clear(); hand(1, {'crab', 'crab'}); hand(2, {'shell'})
         pile(1, {'octopus:purple', 'sailor:pink', 'boat:black'}); pile(2, {'fish:black'})
         turn(1, 'play')",
    );
    choose(&mut g, 1, json!({"act": "duo", "duo": "crab"}));
    assert_eq!(zone_cards(&g, "duos", Some(1)).len(), 2);
    assert_eq!(vars(&g)["phase"], json!("crab_pile"));
    choose(&mut g, 1, json!({"act": "crab_pile", "pile": 1}));
    // Every card of the pile is offered, top first, and the choice is secret.
    let d = g.decision().expect("d").expect("d");
    let offered: Vec<u32> = d
        .options
        .iter()
        .filter_map(|o| o.action["card"].as_u64().map(|c| c as u32))
        .collect();
    let mut pile = zone_cards(&g, "discard 1", None);
    pile.reverse();
    assert_eq!(offered, pile);
    assert!(d.options.iter().all(|o| o.secret().is_some()));
    g.take_events();
    // Take the sailor from the middle of the pile.
    let sailor = pile[1];
    choose(&mut g, 1, json!({"act": "crab_pick", "card": sailor}));
    assert!(zone_cards(&g, "hand", Some(1)).contains(&sailor));
    assert_eq!(
        zone_cards(&g, "discard 1", None).len(),
        2,
        "the pile keeps its order"
    );
    assert_eq!(vars(&g)["phase"], json!("play"));
    // Player 2 learns that a card was taken, not which.
    let mut seen = 0;
    for e in g.take_events() {
        let names_sailor = match &e.kind {
            EventKind::Move { card, .. } | EventKind::Place { card, .. } => *card == sailor,
            EventKind::Script { data, .. } => data.get("card") == Some(&json!(sailor)),
            EventKind::Shuffle { .. } | EventKind::Sort { .. } => false,
        };
        if names_sailor {
            seen += 1;
            assert!(g.event_visible_to(&e, 1), "the crab player knows");
            assert!(
                !g.event_visible_to(&e, 2),
                "player 2 must not learn the card: {e:?}"
            );
        }
    }
    assert_eq!(seen, 2, "the move and the private event");
}

#[test]
fn crabs_with_one_pile_go_straight_to_it() {
    let mut g = scenario(
        cfg(2),
        "clear(); hand(1, {'crab', 'crab'}); pile(2, {'octopus', 'sailor'}); turn(1, 'play')",
    );
    choose(&mut g, 1, json!({"act": "duo", "duo": "crab"}));
    assert_eq!(vars(&g)["phase"], json!("crab_pick"));
    assert_eq!(vars(&g)["crab_pile"], json!(2));
}

#[test]
fn crabs_with_both_piles_empty_score_but_have_no_effect() {
    let mut g = scenario(
        cfg(2),
        "clear(); hand(1, {'crab', 'crab', 'shell'}); turn(1, 'play')",
    );
    choose(&mut g, 1, json!({"act": "duo", "duo": "crab"}));
    assert_eq!(vars(&g)["phase"], json!("play"));
    assert_eq!(zone_cards(&g, "duos", Some(1)).len(), 2);
    assert_eq!(zone_cards(&g, "hand", Some(1)).len(), 1);
    assert_eq!(script_events(&g.take_events(), "effect_skipped").len(), 1);
    let out = g.eval_lua("game.rules.seat_points(game, 1)").expect("eval");
    assert_eq!(out.trim(), "1");
}

#[test]
fn boats_give_another_turn() {
    let mut g = scenario(
        cfg(2),
        "clear(); hand(1, {'boat', 'boat', 'boat', 'boat'}); pile(1, {'shell'}); turn(1, 'play')",
    );
    choose(&mut g, 1, json!({"act": "duo", "duo": "boat"}));
    assert_eq!(vars(&g)["turn"], json!(1));
    assert_eq!(vars(&g)["phase"], json!("take"));
    choose(&mut g, 1, json!({"act": "pile", "pile": 1}));
    // A second pair gives yet another turn (default "each").
    choose(&mut g, 1, json!({"act": "duo", "duo": "boat"}));
    assert_eq!(vars(&g)["phase"], json!("take"));
    assert_eq!(vars(&g)["turn"], json!(1));
}

#[test]
fn boats_only_once_per_turn_with_the_option() {
    let mut g = scenario(
        cfg(2).option("boat_extra_turns", "one"),
        "clear(); hand(1, {'boat', 'boat', 'boat', 'boat'}); pile(1, {'shell'}); turn(1, 'play')",
    );
    choose(&mut g, 1, json!({"act": "duo", "duo": "boat"}));
    choose(&mut g, 1, json!({"act": "pile", "pile": 1}));
    choose(&mut g, 1, json!({"act": "duo", "duo": "boat"}));
    assert_eq!(vars(&g)["phase"], json!("play"), "no second extra turn");
    assert_eq!(script_events(&g.take_events(), "effect_skipped").len(), 1);
}

#[test]
fn boats_with_nothing_to_take_have_no_effect() {
    // Every card but the boats and a shell is in front of player 2: deck and piles empty.
    let mut g = scenario(
        cfg(2),
        "clear(); hand(1, {'boat', 'boat', 'shell'}); game:move_all(deck, game:zone('duos', 2)); turn(1, 'play')",
    );
    choose(&mut g, 1, json!({"act": "duo", "duo": "boat"}));
    assert_eq!(vars(&g)["phase"], json!("play"));
    assert_eq!(script_events(&g.take_events(), "effect_skipped").len(), 1);
}

#[test]
fn fish_take_the_top_card_of_the_deck_secretly() {
    let mut g = scenario(
        cfg(2),
        "clear(); hand(1, {'fish', 'fish'}); pile(1, {'shell'}); deck_top({'mermaid'}); turn(1, 'play')",
    );
    let deck_before = zone_cards(&g, "deck", None).len();
    g.take_events();
    choose(&mut g, 1, json!({"act": "duo", "duo": "fish"}));
    let hand = zone_cards(&g, "hand", Some(1));
    assert_eq!(hand.len(), 1);
    assert_eq!(kind(&g, hand[0]), "mermaid");
    assert_eq!(zone_cards(&g, "deck", None).len(), deck_before - 1);
    let mut seen = false;
    for e in g.take_events() {
        if let EventKind::Move { card, .. } = e.kind {
            if card == hand[0] {
                seen = true;
                assert!(g.event_visible_to(&e, 1) && !g.event_visible_to(&e, 2));
            }
        }
    }
    assert!(seen);
}

#[test]
fn fish_with_an_empty_deck_have_no_effect() {
    let mut g = scenario(
        cfg(2),
        "clear(); hand(1, {'fish', 'fish'}); deck_left(0); turn(1, 'play')",
    );
    choose(&mut g, 1, json!({"act": "duo", "duo": "fish"}));
    assert_eq!(zone_cards(&g, "hand", Some(1)).len(), 0);
    assert_eq!(zone_cards(&g, "duos", Some(1)).len(), 2);
    assert_eq!(script_events(&g.take_events(), "effect_skipped").len(), 1);
}

#[test]
fn shark_and_swimmer_steal_a_random_card_from_the_chosen_opponent() {
    let mut g = scenario(
        cfg(3),
        "clear(); hand(1, {'shark', 'swimmer'}); hand(2, {'octopus'}); hand(3, {'sailor', 'penguin'})
         pile(1, {'shell'}); pile(2, {'shell'}); turn(1, 'play')",
    );
    choose(&mut g, 1, json!({"act": "duo", "duo": "shark"}));
    assert_eq!(vars(&g)["phase"], json!("steal"));
    let d = g.decision().expect("d").expect("d");
    let seats: Vec<Value> = d.options.iter().map(|o| o.action["seat"].clone()).collect();
    assert_eq!(seats, vec![json!(2), json!(3)], "a choice of opponent");
    let before3 = zone_cards(&g, "hand", Some(3));
    g.take_events();
    choose(&mut g, 1, json!({"act": "steal", "seat": 3}));
    let after3 = zone_cards(&g, "hand", Some(3));
    assert_eq!(after3.len(), 1);
    let stolen = before3
        .iter()
        .copied()
        .find(|c| !after3.contains(c))
        .expect("a card left");
    assert_eq!(zone_cards(&g, "hand", Some(1)), vec![stolen]);
    // The thief and the victim know the card; player 2 does not.
    let mut seen = false;
    for e in g.take_events() {
        let about = match &e.kind {
            EventKind::Move { card, .. } | EventKind::Place { card, .. } => *card == stolen,
            EventKind::Script { data, .. } => data.get("card") == Some(&json!(stolen)),
            EventKind::Shuffle { .. } | EventKind::Sort { .. } => false,
        };
        if about {
            seen = true;
            assert!(!g.event_visible_to(&e, 2), "{e:?}");
        }
        if let EventKind::Script { name, .. } = &e.kind {
            if name == "lost_card" {
                assert!(g.event_visible_to(&e, 3) && !g.event_visible_to(&e, 1));
            }
        }
    }
    assert!(seen);
}

#[test]
fn shark_and_swimmer_steal_is_random_not_a_fixed_card() {
    // The same position under different seeds: the card taken from a
    // three-card hand is drawn by the game's generator, so every card of the
    // hand is taken in some game (and the same seed always takes the same one).
    let position =
        "clear(); hand(1, {'shark', 'swimmer'}); hand(2, {'octopus', 'sailor', 'penguin'})
         pile(1, {'shell'}); pile(2, {'shell'}); turn(1, 'play')";
    let stolen_kind = |seed: u64| {
        let mut g = scenario(GameConfig::new("sea_salt_paper", 2, seed), position);
        choose(&mut g, 1, json!({"act": "duo", "duo": "shark"}));
        let hand = zone_cards(&g, "hand", Some(1));
        assert_eq!(hand.len(), 1, "one card stolen at once (one opponent)");
        assert_eq!(zone_cards(&g, "hand", Some(2)).len(), 2);
        kind(&g, hand[0])
    };
    let kinds: std::collections::BTreeSet<String> = (1..=24).map(stolen_kind).collect();
    assert_eq!(
        kinds.into_iter().collect::<Vec<_>>(),
        vec!["octopus", "penguin", "sailor"]
    );
    assert_eq!(stolen_kind(5), stolen_kind(5));
}

#[test]
fn shark_and_swimmer_cannot_steal_from_a_revealed_hand() {
    // Player 2 called LAST CHANCE (hand revealed); player 3 has no cards:
    // player 1, in its final turn, has nobody to steal from.
    let mut g = scenario(
        cfg(3),
        "clear(); hand(1, {'shark', 'swimmer'}); to(game:zone('open hand', 2), {'octopus', 'sailor'})
         pile(1, {'shell'}); pile(2, {'shell'})
         turn(1, 'play', 2)
         game.vars.call = {kind = 'last_chance', seat = 2, points = 7}
         game.vars.final_turns = {1}
         game.vars.revealed[2] = true",
    );
    choose(&mut g, 1, json!({"act": "duo", "duo": "shark"}));
    assert_eq!(vars(&g)["phase"], json!("play"));
    assert_eq!(script_events(&g.take_events(), "effect_skipped").len(), 1);
    assert_eq!(zone_cards(&g, "open hand", Some(2)).len(), 2);
}

#[test]
fn shark_and_swimmer_with_one_possible_opponent_steal_at_once() {
    let mut g = scenario(
        cfg(3),
        "clear(); hand(1, {'shark', 'swimmer'}); hand(3, {'octopus'})
         pile(1, {'shell'}); pile(2, {'shell'}); turn(1, 'play')",
    );
    choose(&mut g, 1, json!({"act": "duo", "duo": "shark"}));
    assert_eq!(vars(&g)["phase"], json!("play"));
    assert_eq!(zone_cards(&g, "hand", Some(3)).len(), 0);
    assert_eq!(zone_cards(&g, "hand", Some(1)).len(), 1);
}

// ---------------------------------------------------------------------------
// End of round and game
// ---------------------------------------------------------------------------

#[test]
fn an_empty_deck_at_the_end_of_a_turn_ends_the_round_without_scoring() {
    let mut g = scenario(
        cfg(2),
        "clear(); hand(1, {'sailor', 'sailor', 'crab', 'crab'}); hand(2, {'octopus', 'octopus'})
         pile(1, {'shell'}); deck_left(2); turn(1, 'take')
         game.vars.scores = {10, 12}",
    );
    choose(&mut g, 1, json!({"act": "draw"}));
    let drawn = zone_cards(&g, "drawn cards", Some(1));
    choose(&mut g, 1, json!({"act": "keep", "card": drawn[0]}));
    choose(&mut g, 1, json!({"act": "discard", "pile": 1}));
    assert_eq!(zone_cards(&g, "deck", None).len(), 0);
    choose(&mut g, 1, json!({"act": "end"}));
    let v = vars(&g);
    assert_eq!(v["scores"], json!([10, 12]), "no scoring");
    assert_eq!(v["last_round"]["ending"], json!("empty_deck"));
    assert!(script_events(&g.take_events(), "round_scored").is_empty());
    // The next round is dealt at once, started by the player after the one
    // whose turn emptied the deck.
    assert_eq!(v["round"], json!(2));
    assert_eq!(v["first"], json!(2));
    assert_eq!(v["turn"], json!(2));
    assert_eq!(v["phase"], json!("take"));
    assert_eq!(zone_cards(&g, "deck", None).len(), 56);
}

#[test]
fn an_empty_deck_can_still_be_called_and_last_chance_plays_on() {
    let mut g = scenario(
        cfg(2),
        "clear(); hand(1, {'sailor', 'sailor', 'boat', 'boat', 'penguin'}); hand(2, {'octopus'})
         pile(1, {'shell'}); deck_left(0); turn(1, 'play')",
    );
    choose(&mut g, 1, json!({"act": "last_chance"}));
    // Player 2's final turn: only the discard piles to take from.
    let d = g.decision().expect("d").expect("d");
    assert!(d.options.iter().all(|o| o.action["act"] == json!("pile")));
    choose(&mut g, 2, json!({"act": "pile", "pile": 1}));
    choose(&mut g, 2, json!({"act": "end"}));
    let r = round_scored(&mut g);
    assert_eq!(r["bet_won"], json!(true));
}

#[test]
fn an_empty_deck_after_last_chance_ends_the_round_with_the_option() {
    let mut g = scenario(
        cfg(2).option("last_chance_empty_deck", "no_score"),
        "clear(); hand(1, {'sailor', 'sailor', 'boat', 'boat', 'penguin'}); hand(2, {'octopus'})
         pile(1, {'shell'}); deck_left(0); turn(1, 'play')",
    );
    choose(&mut g, 1, json!({"act": "last_chance"}));
    choose(&mut g, 2, json!({"act": "pile", "pile": 1}));
    choose(&mut g, 2, json!({"act": "end"}));
    assert!(script_events(&g.take_events(), "round_scored").is_empty());
    assert_eq!(vars(&g)["last_round"]["ending"], json!("empty_deck"));
    assert_eq!(vars(&g)["scores"], json!([0, 0]));
}

#[test]
fn four_mermaids_win_at_once() {
    let mut g = scenario(
        cfg(3),
        "clear(); hand(1, {'mermaid', 'mermaid', 'shell'}); duos(1, {'crab', 'crab'}); hand(2, {'mermaid'})
         pile(1, {'mermaid'}); pile(2, {'shell'}); turn(1, 'take')
         game.vars.scores = {0, 20, 25}",
    );
    choose(&mut g, 1, json!({"act": "pile", "pile": 1}));
    // Three mermaids: not yet. Player 1 ends the turn; player 2 plays on.
    assert!(!g.is_over());
    choose(&mut g, 1, json!({"act": "end"}));
    // Now give the fourth mermaid to player 1 and let it take it.
    let mut g = scenario(
        cfg(3),
        "clear(); hand(1, {'mermaid', 'mermaid', 'mermaid', 'shell'}); pile(1, {'mermaid'}); pile(2, {'shell'})
         turn(1, 'take'); game.vars.scores = {0, 20, 25}",
    );
    choose(&mut g, 1, json!({"act": "pile", "pile": 1}));
    assert!(g.is_over());
    let r = g.result().expect("result");
    assert_eq!(r.winners, vec![1], "whatever the scores");
    // The mermaids are placed in front of the player, for all to see.
    let front = zone_cards(&g, "duos", Some(1));
    assert_eq!(
        front.iter().filter(|&&c| kind(&g, c) == "mermaid").count(),
        4
    );
}

#[test]
fn the_game_ends_at_the_target_40_35_30() {
    for (players, target) in [(2, 40), (3, 35), (4, 30)] {
        let g = engine()
            .new_game(GameConfig::new("sea_salt_paper", players, 1), false)
            .expect("start");
        assert_eq!(vars(&g)["target"], json!(target), "{players} players");
    }
    let g = engine()
        .new_game(cfg(2).option("target", 20), false)
        .expect("start");
    assert_eq!(vars(&g)["target"], json!(20));
    // Reaching it ends the game with the most points winning.
    let mut g = scenario(
        cfg(2),
        "clear(); hand(1, {'sailor', 'sailor', 'boat', 'boat', 'penguin'}); hand(2, {'octopus', 'octopus'})
         pile(1, {'shell'}); pile(2, {'shell'}); turn(1, 'play'); game.vars.scores = {33, 38}",
    );
    choose(&mut g, 1, json!({"act": "stop"}));
    // 33 + 7 = 40, 38 + 3 = 41: player 2 wins.
    assert!(g.is_over());
    let r = g.result().expect("result");
    assert_eq!(r.scores, vec![40.0, 41.0]);
    assert_eq!(r.winners, vec![2]);
}

/// Both players end on 42: player 1 scored 7 this round, player 2 scored 9;
/// player 2 started the round, so player 1 went last.
fn tied_finish(tie_break: &str) -> Game {
    let mut g = scenario(
        cfg(2).option("tie_break", tie_break),
        "clear(); hand(1, {'sailor', 'sailor', 'boat', 'boat', 'penguin'})
         hand(2, {'octopus', 'octopus', 'octopus', 'crab', 'crab', 'shell', 'shell'})
         pile(1, {'shell'}); pile(2, {'fish'}); turn(1, 'play', 2); game.vars.scores = {35, 33}",
    );
    choose(&mut g, 1, json!({"act": "stop"}));
    assert!(g.is_over());
    g
}

#[test]
fn tie_break_the_one_who_went_last_in_the_last_round() {
    let g = tied_finish("turn_order");
    let r = g.result().expect("result");
    assert_eq!(r.scores, vec![42.0, 42.0]);
    assert_eq!(r.winners, vec![1]);
}

#[test]
fn tie_break_by_last_round_points_as_an_option() {
    let g = tied_finish("last_round_points");
    let r = g.result().expect("result");
    assert_eq!(r.scores, vec![42.0, 42.0]);
    assert_eq!(r.winners, vec![2]);
}

#[test]
fn the_play_decision_reads_well() {
    let g = scenario(
        cfg(2),
        "clear(); hand(1, {'sailor', 'sailor', 'boat', 'boat', 'penguin', 'crab', 'crab'}); pile(1, {'shell'}); turn(1, 'play')",
    );
    let d = g.decision().expect("d").expect("d");
    let texts: Vec<&str> = d.options.iter().map(|o| o.text.as_str()).collect();
    assert_eq!(
        texts,
        vec![
            "Play 2 Crabs (look through a discard pile and take a card)",
            "Play 2 Boats (take another turn)",
            "End your turn",
            "STOP (8 points: everyone scores now)",
            "LAST CHANCE (8 points: bet on having the most)",
        ]
    );
    // The status line shows the seat's own points.
    let status = g.status_lines(1).expect("status");
    assert!(
        status.iter().any(|l| l.starts_with("Your points: 8")),
        "{status:?}"
    );
}

#[test]
fn the_status_lines_follow_the_round() {
    // During a LAST CHANCE: who called, the final turns left, who is protected.
    let mut g = rulebook_example("");
    choose(&mut g, 1, json!({"act": "last_chance"}));
    let status = g.status_lines(2).expect("status");
    assert!(
        status.contains(&"P1 called LAST CHANCE with 7 points; final turns: P2".to_string()),
        "{status:?}"
    );
    assert!(
        status.contains(&"Revealed, protected from the shark: P1".to_string()),
        "{status:?}"
    );
    // A STOP that ends the game: no LAST CHANCE line, the last round instead.
    let mut g = rulebook_example("");
    g.arrange("game.vars.scores = {35, 0}").expect("arrange");
    choose(&mut g, 1, json!({"act": "stop"}));
    assert_eq!(vars(&g)["game_over"], json!(true));
    let status = g.status_lines(1).expect("status");
    assert!(
        !status
            .iter()
            .any(|l| l.contains("LAST CHANCE") || l.contains("protected")),
        "{status:?}"
    );
    assert!(
        status.contains(&"Last round (STOP by P1): P1 +7, P2 +4".to_string()),
        "{status:?}"
    );
}

#[test]
fn house_rule_gentle_last_chance_scores_a_lost_bet() {
    let path = common::scripts_dir()
        .join("house_rules/gentle_last_chance.lua")
        .display()
        .to_string();
    let mut g = scenario(
        cfg(2).variant(&path),
        "clear()
         hand(1, {'sailor:pink', 'sailor:orange', 'boat:yellow', 'boat:yellow', 'penguin:purple'})
         hand(2, {'octopus:lightblue', 'octopus:purple', 'crab:lightblue', 'crab:black', 'shell:yellow', 'shell:black'})
         pile(1, {'shell:darkblue'}); pile(2, {'fish:black'})
         turn(1, 'play')",
    );
    choose(&mut g, 1, json!({"act": "last_chance"}));
    choose(&mut g, 2, json!({"act": "pile", "pile": 1}));
    choose(&mut g, 2, json!({"act": "end"}));
    let r = round_scored(&mut g);
    assert_eq!(r["bet_won"], json!(false));
    // Without the house rule the caller would score 2 (see
    // last_chance_bet_lost_caller_scores_only_the_colour_bonus).
    assert_eq!(r["gained"], json!([7, 8]));
}

/// A house rule written to a file of its own (removed when dropped).
struct HouseRule(std::path::PathBuf);

impl HouseRule {
    fn new(name: &str, text: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("deckhand-ssp-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let file = dir.join(format!("{name}.lua"));
        std::fs::write(&file, text).expect("write the house rule");
        HouseRule(dir)
    }

    fn config(&self, name: &str) -> GameConfig {
        cfg(2).variant(&self.0.join(format!("{name}.lua")).display().to_string())
    }
}

impl Drop for HouseRule {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Card points add up score_parts' parts without making its table, but only
/// while score_parts is the game's own: a house rule that replaces it is
/// what card_points (and so the calls, the bot, the end of a round) counts.
#[test]
fn card_points_follow_a_house_rule_that_replaces_score_parts() {
    let cards = ["crab", "crab", "shell", "shell"];
    assert_eq!(points(&cards), 3);
    let rule = HouseRule::new(
        "hundred_more",
        r#"return { id = "hundred_more", game = "sea_salt_paper", modify = function(rules)
          local score_parts = rules.score_parts
          rules.score_parts = function(game, cards)
            local p = score_parts(game, cards)
            p.total = p.total + 100
            return p
          end
        end }"#,
    );
    assert_eq!(
        score_in(rule.config("hundred_more"), "card_points", &cards),
        103
    );
}

/// A score counts into tables it fills again; a score asked while another
/// is computed (here a house rule's collector part that scores other cards)
/// counts into tables of its own, so the first score's later parts (the
/// mermaid's colours) still read its own counts.
#[test]
fn a_score_inside_a_score_leaves_the_outer_counts_alone() {
    // 2 Crabs (1) + 2 shells (2) + a mermaid: the most common colour, dark
    // blue, 3 cards.
    let cards = [
        "crab:darkblue",
        "crab:darkblue",
        "shell:darkblue",
        "shell:lightblue",
        "mermaid",
    ];
    assert_eq!(points(&cards), 6);
    let rule = HouseRule::new(
        "nested_score",
        r#"return { id = "nested_score", game = "sea_salt_paper", modify = function(rules)
          local collector_points = rules.collector_points
          local inside = false
          rules.collector_points = function(game, kinds)
            -- Scores other cards first (cards 1 to 5: crabs), once.
            if not inside then
              inside = true
              rules.card_points(game, { 1, 2, 3, 4, 5 })
              inside = false
            end
            return collector_points(game, kinds)
          end
        end }"#,
    );
    assert_eq!(
        score_in(rule.config("nested_score"), "card_points", &cards),
        6
    );
    // And again: the counts of the first score are back to 0.
    assert_eq!(
        score_in(rule.config("nested_score"), "card_points", &["mermaid"]),
        1
    );
}

/// The greedy bot's choice at the pending decision (its own stream).
fn greedy_choice(g: &Game) -> usize {
    g.script_bot_choice("greedy", deckhand_engine::rng::GameRng::derived(1, 0))
        .expect("greedy")
        .index
}

/// The greedy bot scores each card it could take from counts of its cards
/// made once a decision, while the scoring is the game's own; a house rule
/// that replaces `card_points` is what it values cards by instead.
#[test]
fn the_greedy_bot_values_cards_by_a_house_rules_score() {
    // Two shells in hand: the third shell on pile 1 is worth 2 points more
    // (shells: 0, 2, 4, 6 ...), the penguin on pile 2 one.
    let position = "clear(); hand(1, {'shell:black', 'shell:lightblue'}); \
                    pile(1, {'shell:yellow'}); pile(2, {'penguin:pink'}); turn(1, 'take')";
    let g = scenario(cfg(2), position);
    let pile = |g: &Game, i: u64| common::find_option(g, &json!({"act": "pile", "pile": i}));
    assert_eq!(Some(greedy_choice(&g)), pile(&g, 1));
    let rule = HouseRule::new(
        "penguins_ten",
        r#"return { id = "penguins_ten", game = "sea_salt_paper", modify = function(rules)
          local card_points = rules.card_points
          rules.card_points = function(game, cards)
            local extra = 0
            for i = 1, #cards do
              if game.cards[cards[i]].kind == "penguin" then extra = extra + 10 end
            end
            return card_points(game, cards) + extra
          end
        end }"#,
    );
    let g = scenario(rule.config("penguins_ten"), position);
    assert_eq!(Some(greedy_choice(&g)), pile(&g, 2));
}

/// The counts the greedy bot scores from give the same values as scoring
/// each card's list whole: with a house rule that only wraps `card_points`
/// (so the bot scores whole lists), greedy bots play the same games, move
/// for move, as without it; unlogged games, as the search plays them.
#[test]
fn the_greedy_bot_plays_the_same_games_scoring_by_counts_or_by_lists() {
    let rule = HouseRule::new(
        "same_points",
        r#"return { id = "same_points", game = "sea_salt_paper", modify = function(rules)
          local card_points = rules.card_points
          rules.card_points = function(game, cards) return card_points(game, cards) end
        end }"#,
    );
    let e = engine();
    let moves = |cfg: GameConfig| {
        let seed = cfg.seed;
        let mut g = e.new_game(cfg, false).expect("start");
        let mut runner = deckhand_engine::Runner::with_bots(common::bots_for(&["greedy"], seed, 4));
        common::play_to_end(&mut runner, &mut g);
        g.history().iter().map(|a| a.index).collect::<Vec<_>>()
    };
    for seed in 1..=6 {
        let by_counts = moves(GameConfig::new("sea_salt_paper", 4, seed));
        let by_lists = moves(
            GameConfig::new("sea_salt_paper", 4, seed)
                .variant(&rule.0.join("same_points.lua").display().to_string()),
        );
        assert!(by_counts.len() > 20, "seed {seed}: a whole game");
        assert_eq!(by_counts, by_lists, "seed {seed}");
    }
}
