//! Every worked example of the Seas of Strife rulebook as a test, plus the
//! points the rulebook leaves open, read as docs/seas-of-strife.md says: set
//! the hands, play the cards by name, check legality, who takes the trick and
//! who leads next; passing directions; Happy Faces; the end of the game.
//!
//! Seats in the rulebook's examples: Anna 1, Beth 2, Connor 3, David 4, Eve 5.

use crate::common;

use common::*;
use deckhand_bots::{Bot, BotKind};
use deckhand_engine::{Choice, EventKind, Game, GameConfig, Runner};
use serde_json::{json, Value};

fn cfg(players: u32) -> GameConfig {
    GameConfig::new("seas_of_strife", players, 1)
}

fn strife(players: u32) -> GameConfig {
    cfg(players).variant("strife")
}

/// Hands (one Lua list of card names per seat), then a trick in the middle
/// of a round led by `leader`.
fn mid_round(hands: &[&str], leader: u32) -> String {
    let mut lua = String::from("clear()\n");
    for (i, h) in hands.iter().enumerate() {
        lua.push_str(&format!("give({}, {{{h}}})\n", i + 1));
    }
    lua.push_str(&format!(
        "local v = game.vars
         v.phase = 'play'; v.first_card = nil; v.chooser = nil
         v.leader = {leader}; v.turn = {leader}; v.trick_players = {{}}; v.trick_no = 2
         v.played = {{}}"
    ));
    lua
}

/// Hands, then the first trick of a round: the holder of the opening card
/// (the 0; 3 players: the 11) must lead it.
fn round_start(hands: &[&str]) -> String {
    let mut lua = String::from("clear()\n");
    for (i, h) in hands.iter().enumerate() {
        lua.push_str(&format!("give({}, {{{h}}})\n", i + 1));
    }
    lua.push_str("game.vars.trick_no = 1; game.rules.begin_play(game)");
    lua
}

fn legal(g: &Game) -> Vec<String> {
    g.decision()
        .expect("decision")
        .expect("not over")
        .options
        .iter()
        .map(|o| o.text.clone())
        .collect()
}

fn one_trick_won(g: &mut Game) -> Value {
    let won = script_events(&g.take_events(), "trick_won");
    assert_eq!(won.len(), 1, "one trick resolved: {won:?}");
    won[0].clone()
}

fn name_of(g: &Game, card: &Value) -> String {
    let id = card.as_u64().expect("card id") as u32;
    g.card(id).expect("card").name
}

#[test]
fn deck_has_eight_suits_and_sixty_cards_with_one_star_each() {
    let g = scenario(cfg(4), "");
    let cards = g.cards().expect("cards");
    assert_eq!(cards.len(), 60);
    let suits = [
        ("orange", 0, 10),
        ("red", 11, 20),
        ("gray", 21, 29),
        ("blue", 31, 38),
        ("green", 41, 47),
        ("purple", 51, 56),
        ("teal", 61, 65),
        ("darkred", 71, 74),
    ];
    let mut prev = -1;
    for c in &cards {
        let p = &c.props;
        let value = p["value"].as_i64().expect("value");
        assert!(value > prev, "card ids follow the values");
        prev = value;
        let suit = p["suit"].as_str().expect("suit");
        let (_, lo, hi) = suits
            .iter()
            .find(|s| s.0 == suit)
            .unwrap_or_else(|| panic!("unknown suit {suit}"));
        assert!((*lo..=*hi).contains(&value), "{} in {suit}", c.name);
        assert_eq!(p["face"], json!(value == *hi), "star of {}", c.name);
        assert_eq!(p["color"].as_str(), Some(suit));
    }
    assert_eq!(
        cards
            .iter()
            .filter(|c| c.props["face"] == json!(true))
            .count(),
        8
    );
}

#[test]
fn setup_by_player_count() {
    // (players, deck, hand, opening card, end score)
    for (players, deck, hand, first, end_at) in [
        (3, 45, 15, "Red 11", 15),
        (4, 60, 15, "Orange 0", 15),
        (5, 60, 12, "Orange 0", 12),
        (6, 60, 10, "Orange 0", 10),
    ] {
        let g = scenario(cfg(players), "");
        assert_eq!(g.cards().expect("cards").len(), deck, "{players} players");
        if players == 3 {
            assert!(g.cards().expect("cards").iter().all(|c| {
                let s = c.props["suit"].as_str().unwrap_or("");
                s != "orange" && s != "darkred"
            }));
        }
        let view = g.view(None).expect("view");
        for z in view.zones.iter().filter(|z| z.name == "hand") {
            assert_eq!(z.count, hand, "{players} players: hand size");
        }
        assert_eq!(var(&g, "end_at"), json!(end_at));
        // The holder of the opening card must lead it: it is the only option.
        let d = g.decision().expect("d").expect("pending");
        assert_eq!(d.options.len(), 1, "{players} players: {:?}", d.options);
        assert_eq!(d.options[0].text, first);
        let holder = view
            .zones
            .iter()
            .find(|z| {
                z.name == "hand"
                    && z.cards
                        .as_ref()
                        .is_some_and(|c| c.contains(&card_id(&g, first)))
            })
            .and_then(|z| z.owner)
            .expect("someone holds the opening card");
        assert_eq!(d.seat, holder);
    }
}

#[test]
fn strife_three_players_leaves_out_orange_red_gray_and_the_31_leads() {
    let g = scenario(strife(3), "");
    let cards = g.cards().expect("cards");
    assert_eq!(cards.len(), 30);
    assert!(cards.iter().all(|c| {
        let s = c.props["suit"].as_str().unwrap_or("");
        s != "orange" && s != "red" && s != "gray"
    }));
    let view = g.view(None).expect("view");
    for z in view.zones.iter().filter(|z| z.name == "hand") {
        assert_eq!(z.count, 10);
    }
    assert_eq!(var(&g, "end_at"), json!(15));
    let d = g.decision().expect("d").expect("pending");
    assert_eq!(d.options.len(), 1);
    assert_eq!(d.options[0].text, "Blue 31");
}

#[test]
fn example_trick_1_orange_majority() {
    // Anna opens the round with the 0; Beth must play orange (not her blue);
    // Connor 1, David 6; Eve has no orange and plays the green 42. Orange has
    // the most cards and its highest is the 6: David takes the trick.
    let mut g = scenario(
        cfg(5),
        &round_start(&[
            "'Orange 0', 'Blue 31'",
            "'Orange 2', 'Blue 33'",
            "'Orange 1', 'Green 41'",
            "'Orange 6', 'Orange 3', 'Green 43'",
            "'Green 42', 'Blue 32'",
        ]),
    );
    assert_eq!(legal(&g), vec!["Orange 0"], "the 0 opens the round");
    play(&mut g, 1, "Orange 0");
    assert!(!is_legal(&g, "Blue 33"), "Beth must play orange");
    play(&mut g, 2, "Orange 2");
    play(&mut g, 3, "Orange 1");
    assert!(is_legal(&g, "Orange 3") && !is_legal(&g, "Green 43"));
    play(&mut g, 4, "Orange 6");
    assert!(is_legal(&g, "Blue 32") && is_legal(&g, "Green 42"));
    play(&mut g, 5, "Green 42");
    let won = one_trick_won(&mut g);
    assert_eq!(won["winner"], json!(4));
    assert_eq!(name_of(&g, &won["card"]), "Orange 6");
    assert_eq!(won["suit"], json!("orange"));
    assert_eq!(won["count"], json!(4));
    assert_eq!(won["chooses"], json!(false));
    assert_eq!(won["players"], json!([1, 2, 3, 4, 5]));
    // David leads the next trick.
    assert_eq!(var(&g, "leader"), json!(4));
    assert_eq!(var(&g, "tricks"), json!([0, 0, 0, 1, 0]));
    assert_eq!(g.decision().expect("d").expect("pending").seat, 4);
}

#[test]
fn example_trick_2_tie_between_purple_and_red() {
    // David leads the purple 53; Eve has no purple and plays the red 11; Anna
    // may play purple or red (not blue) and plays the 13; Beth has neither
    // and plays the orange 8; Connor plays the purple 51. Purple and red tie
    // with 2 cards: the highest card of the tied suits, the 53, wins.
    let mut g = scenario(
        cfg(5),
        &mid_round(
            &[
                "'Red 13', 'Purple 52', 'Blue 35'",
                "'Orange 8', 'Blue 36'",
                "'Purple 51', 'Red 12', 'Green 45'",
                "'Purple 53', 'Blue 34'",
                "'Red 11', 'Green 44'",
            ],
            4,
        ),
    );
    play(&mut g, 4, "Purple 53");
    assert!(is_legal(&g, "Green 44"), "Eve has no purple: any card");
    play(&mut g, 5, "Red 11");
    assert!(is_legal(&g, "Red 13") && is_legal(&g, "Purple 52"));
    assert!(!is_legal(&g, "Blue 35"), "Anna must play purple or red");
    play(&mut g, 1, "Red 13");
    assert!(is_legal(&g, "Blue 36"), "Beth has neither: any card");
    play(&mut g, 2, "Orange 8");
    assert!(!is_legal(&g, "Green 45"));
    play(&mut g, 3, "Purple 51");
    let won = one_trick_won(&mut g);
    assert_eq!(won["winner"], json!(4));
    assert_eq!(name_of(&g, &won["card"]), "Purple 53");
    assert_eq!(won["count"], json!(2));
    assert_eq!(won["chooses"], json!(false), "the 53 is not purple's star");
    assert_eq!(var(&g, "leader"), json!(4));
}

#[test]
fn tie_between_three_suits_goes_to_the_highest_of_the_tied() {
    // 6 players: gray, green and blue 2 cards each; the green 45 is the
    // highest of them.
    let mut g = scenario(
        cfg(6),
        &mid_round(
            &[
                "'Gray 22', 'Teal 64'",
                "'Green 45', 'Purple 51'",
                "'Blue 31', 'Purple 52'",
                "'Green 41', 'Teal 61'",
                "'Gray 28', 'Teal 62'",
                "'Blue 33', 'Teal 63'",
            ],
            1,
        ),
    );
    for (seat, card) in [
        (1, "Gray 22"),
        (2, "Green 45"),
        (3, "Blue 31"),
        (4, "Green 41"),
        (5, "Gray 28"),
        (6, "Blue 33"),
    ] {
        play(&mut g, seat, card);
    }
    let won = one_trick_won(&mut g);
    assert_eq!(won["winner"], json!(2));
    assert_eq!(name_of(&g, &won["card"]), "Green 45");
    assert_eq!(won["count"], json!(2));
}

#[test]
fn a_higher_card_of_a_suit_outside_the_tie_cannot_win() {
    // Gray 2, blue 2, green 1: the green 41 is the highest card but green is
    // not among the tied suits; the blue 33 wins.
    let mut g = scenario(
        cfg(5),
        &mid_round(
            &[
                "'Gray 22', 'Teal 64'",
                "'Blue 33', 'Purple 51'",
                "'Green 41', 'Purple 52'",
                "'Gray 23', 'Teal 61'",
                "'Blue 32', 'Teal 62'",
            ],
            1,
        ),
    );
    for (seat, card) in [
        (1, "Gray 22"),
        (2, "Blue 33"),
        (3, "Green 41"),
        (4, "Gray 23"),
        (5, "Blue 32"),
    ] {
        play(&mut g, seat, card);
    }
    let won = one_trick_won(&mut g);
    assert_eq!(won["winner"], json!(2));
    assert_eq!(name_of(&g, &won["card"]), "Blue 33");
}

fn strife_example_1(eve: &str) -> (Game, Value) {
    let mut g = scenario(
        strife(5),
        &mid_round(
            &[
                "'Red 11', 'Blue 31'",
                "'Red 15', 'Blue 32'",
                "'Red 13', 'Blue 33'",
                "'Red 20', 'Blue 34'",
                "'Orange 2', 'Orange 10', 'Blue 35'",
            ],
            1,
        ),
    );
    play(&mut g, 1, "Red 11");
    assert!(!is_legal(&g, "Blue 32"), "Beth must play red");
    play(&mut g, 2, "Red 15");
    play(&mut g, 3, "Red 13");
    play(&mut g, 4, "Red 20");
    // The option texts tell Eve what each card would do.
    let texts = legal(&g);
    assert!(
        texts.contains(&"Orange 2 (takes the trick so far)".to_string()),
        "{texts:?}"
    );
    assert!(
        texts.contains(&"Orange 10 ★".to_string()),
        "the 10 would hand the trick to David: {texts:?}"
    );
    play(&mut g, 5, eve);
    let won = one_trick_won(&mut g);
    (g, won)
}

#[test]
fn strife_example_1_the_face_card_zeroes_red() {
    // Anna red 11, Beth red 15, Connor red 13, David the red 20 (Face: red is
    // zeroed), Eve the orange 2: orange is the only suit counting; Eve takes it.
    let (g, won) = strife_example_1("Orange 2");
    assert_eq!(won["winner"], json!(5));
    assert_eq!(name_of(&g, &won["card"]), "Orange 2");
    assert_eq!(won["suit"], json!("orange"));
    assert_eq!(won["count"], json!(1));
    assert_eq!(var(&g, "leader"), json!(5));
}

#[test]
fn strife_example_1_if_eve_had_played_the_10() {
    // "If Eve had played the face card of orange (the 10), then all suits
    // would have been ignored, and David would take the trick because he
    // played the highest numbered card (20)". He took it with a Face card
    // but may not choose the next leader.
    let (g, won) = strife_example_1("Orange 10");
    assert_eq!(won["winner"], json!(4));
    assert_eq!(name_of(&g, &won["card"]), "Red 20");
    assert_eq!(won["count"], json!(0), "every suit zeroed");
    assert!(won.get("suit").is_none_or(Value::is_null));
    assert_eq!(won["chooses"], json!(false));
    assert_eq!(var(&g, "phase"), json!("play"));
    assert_eq!(var(&g, "leader"), json!(4));
    assert_eq!(g.decision().expect("d").expect("pending").seat, 4);
}

fn example_2_hands() -> String {
    mid_round(
        &[
            "'Red 13', 'Blue 33'",
            "'Orange 8', 'Blue 34'",
            "'Green 47', 'Blue 35'",
            "'Green 43', 'Blue 31'",
            "'Red 11', 'Blue 32'",
        ],
        4,
    )
}

fn play_strife_example_2(g: &mut Game) -> Value {
    play(g, 4, "Green 43");
    play(g, 5, "Red 11");
    assert!(!is_legal(g, "Blue 33"), "Anna must play green or red");
    play(g, 1, "Red 13");
    play(g, 2, "Orange 8");
    assert!(!is_legal(g, "Blue 35"), "Connor must play green");
    play(g, 3, "Green 47");
    one_trick_won(g)
}

#[test]
fn strife_example_2_red_becomes_the_dominant_suit() {
    // David green 43, Eve red 11, Anna red 13, Beth orange 8, Connor the
    // green 47 (Face: green zeroed). Red has the most cards: Anna's 13 wins.
    let mut g = scenario(strife(5), &example_2_hands());
    let won = play_strife_example_2(&mut g);
    assert_eq!(won["winner"], json!(1));
    assert_eq!(name_of(&g, &won["card"]), "Red 13");
    assert_eq!(won["suit"], json!("red"));
    assert_eq!(won["count"], json!(2));
}

#[test]
fn strife_example_2_under_the_main_rules_connor_takes_it_and_chooses() {
    // Without Strife green and red tie with 2 cards; the 47 is the highest
    // and green's star: Connor takes the trick and chooses the next leader.
    let mut g = scenario(cfg(5), &example_2_hands());
    let won = play_strife_example_2(&mut g);
    assert_eq!(won["winner"], json!(3));
    assert_eq!(won["chooses"], json!(true));
    let d = g.decision().expect("d").expect("pending");
    assert_eq!(d.seat, 3);
    assert_eq!(d.options.len(), 5, "any seat, himself included");
    assert_eq!(d.options[0].text, "P3 leads", "himself first");
}

#[test]
fn strife_all_suits_zeroed_the_highest_card_wins() {
    // Blue 38 and green 47 are both Face cards: every suit is zeroed and the
    // highest card (47) wins. Under the main rules blue has 3 cards and its
    // 38 wins.
    let hands = mid_round(
        &[
            "'Blue 38', 'Teal 61'",
            "'Blue 36', 'Teal 62'",
            "'Blue 35', 'Teal 63'",
            "'Green 47', 'Teal 64'",
        ],
        1,
    );
    for (config, winner, card, count) in [(strife(4), 4, "Green 47", 0), (cfg(4), 1, "Blue 38", 3)]
    {
        let mut g = scenario(config, &hands);
        for (seat, c) in [
            (1, "Blue 38"),
            (2, "Blue 36"),
            (3, "Blue 35"),
            (4, "Green 47"),
        ] {
            play(&mut g, seat, c);
        }
        let won = one_trick_won(&mut g);
        assert_eq!(won["winner"], json!(winner));
        assert_eq!(name_of(&g, &won["card"]), card);
        assert_eq!(won["count"], json!(count));
    }
}

#[test]
fn strife_tie_among_the_suits_still_counting() {
    // Red is zeroed by its 20; orange and gray tie with 2 cards each: the
    // highest of them, the gray 24, wins (the Strife rules do not mention
    // ties; the main rules' tie rule applies to the suits still counting).
    let mut g = scenario(
        strife(5),
        &mid_round(
            &[
                "'Red 20', 'Teal 61'",
                "'Orange 3', 'Teal 62'",
                "'Gray 22', 'Teal 63'",
                "'Orange 5', 'Teal 64'",
                "'Gray 24', 'Teal 65'",
            ],
            1,
        ),
    );
    for (seat, c) in [
        (1, "Red 20"),
        (2, "Orange 3"),
        (3, "Gray 22"),
        (4, "Orange 5"),
        (5, "Gray 24"),
    ] {
        play(&mut g, seat, c);
    }
    let won = one_trick_won(&mut g);
    assert_eq!(won["winner"], json!(5));
    assert_eq!(name_of(&g, &won["card"]), "Gray 24");
}

fn star_trick(config: GameConfig, star_wins: bool) -> Game {
    // P1 leads orange 3; P2 plays the orange 10 (star) or, out of orange,
    // the blue 38 (star); P3 orange 5, P4 orange 7.
    let p2 = if star_wins {
        "'Orange 10'"
    } else {
        "'Blue 38'"
    };
    let mut g = scenario(
        config,
        &mid_round(
            &[
                "'Orange 3', 'Teal 61'",
                &format!("{p2}, 'Teal 62'"),
                "'Orange 5', 'Teal 63'",
                "'Orange 7', 'Teal 64'",
            ],
            1,
        ),
    );
    play(&mut g, 1, "Orange 3");
    play(&mut g, 2, if star_wins { "Orange 10" } else { "Blue 38" });
    play(&mut g, 3, "Orange 5");
    play(&mut g, 4, "Orange 7");
    g
}

fn choose_leader(g: &mut Game, chooser: u32, seat: u32) {
    let d = g.decision().expect("d").expect("pending");
    assert_eq!(d.seat, chooser);
    assert_eq!(var(g, "phase"), json!("choose_leader"));
    let o = d
        .options
        .iter()
        .find(|o| o.action["seat"] == json!(seat))
        .expect("the seat is an option");
    assert_eq!(o.text, format!("P{seat} leads"));
    g.apply(o.index).expect("apply");
    let chosen = script_events(&g.take_events(), "leader_chosen");
    assert_eq!(
        chosen,
        vec![json!({"chooser": chooser, "seat": seat, "text": chosen[0]["text"]})]
    );
    assert_eq!(var(g, "leader"), json!(seat));
    assert_eq!(var(g, "phase"), json!("play"));
    assert_eq!(g.decision().expect("d").expect("pending").seat, seat);
}

#[test]
fn taking_a_trick_with_the_star_lets_the_taker_choose_the_next_leader() {
    let mut g = star_trick(cfg(4), true);
    let won = one_trick_won(&mut g);
    assert_eq!(won["winner"], json!(2));
    assert_eq!(won["chooses"], json!(true));
    let d = g.decision().expect("d").expect("pending");
    let seats: Vec<Value> = d.options.iter().map(|o| o.action["seat"].clone()).collect();
    assert_eq!(seats, vec![json!(2), json!(3), json!(4), json!(1)]);
    choose_leader(&mut g, 2, 4);
}

#[test]
fn the_taker_may_choose_themselves() {
    let mut g = star_trick(cfg(4), true);
    g.take_events();
    choose_leader(&mut g, 2, 2);
}

#[test]
fn a_star_that_does_not_take_the_trick_gives_no_choice_by_default() {
    let mut g = star_trick(cfg(4), false);
    let won = one_trick_won(&mut g);
    assert_eq!(won["winner"], json!(4));
    assert_eq!(won["chooses"], json!(false));
    assert_eq!(var(&g, "phase"), json!("play"));
    assert_eq!(g.decision().expect("d").expect("pending").seat, 4);
}

#[test]
fn with_any_star_a_star_anywhere_in_the_trick_gives_the_choice() {
    let mut g = star_trick(cfg(4).option("leader_choice", "any_star"), false);
    let won = one_trick_won(&mut g);
    assert_eq!(won["winner"], json!(4));
    assert_eq!(won["chooses"], json!(true));
    choose_leader(&mut g, 4, 1);
    // And never: no choice even with the winning star.
    let mut g = star_trick(cfg(4).option("leader_choice", "never"), true);
    assert_eq!(one_trick_won(&mut g)["chooses"], json!(false));
    assert_eq!(g.decision().expect("d").expect("pending").seat, 2);
}

#[test]
fn strife_gives_no_choice_even_when_a_face_card_wins_the_trick() {
    // The blue 38 zeroes blue; orange has 3 cards and its 7 wins.
    let mut g = star_trick(strife(4), false);
    let won = one_trick_won(&mut g);
    assert_eq!(won["winner"], json!(4));
    assert_eq!(won["chooses"], json!(false));
    let mut g = scenario(
        strife(4),
        &mid_round(
            &[
                "'Orange 10', 'Teal 61'",
                "'Blue 31', 'Teal 62'",
                "'Green 41', 'Teal 63'",
                "'Purple 51', 'Teal 64'",
            ],
            1,
        ),
    );
    // The leader's orange 10 zeroes orange: blue, green and purple tie with
    // one card each and the 51 wins.
    for (seat, c) in [
        (1, "Orange 10"),
        (2, "Blue 31"),
        (3, "Green 41"),
        (4, "Purple 51"),
    ] {
        play(&mut g, seat, c);
    }
    let won = one_trick_won(&mut g);
    assert_eq!(won["winner"], json!(4), "blue, green, purple tie: the 51");
    // A Face card taking the trick when every suit is zeroed: no choice.
    let (g, won) = strife_example_1("Orange 10");
    assert_eq!(won["chooses"], json!(false));
    assert_eq!(var(&g, "phase"), json!("play"));
}

#[test]
fn no_choice_after_the_last_trick_of_a_round() {
    // Last trick of the round: the star's taker does not choose; the next
    // round is opened by the holder of the 0.
    let mut g = scenario(
        cfg(4),
        &mid_round(
            &["'Orange 3'", "'Orange 10'", "'Orange 5'", "'Orange 7'"],
            1,
        ),
    );
    for (seat, c) in [
        (1, "Orange 3"),
        (2, "Orange 10"),
        (3, "Orange 5"),
        (4, "Orange 7"),
    ] {
        play(&mut g, seat, c);
    }
    let events = g.take_events();
    let won = script_events(&events, "trick_won");
    assert_eq!(won[0]["chooses"], json!(false));
    assert_eq!(script_events(&events, "round_scored").len(), 1);
    assert_eq!(var(&g, "round"), json!(2));
    let d = g.decision().expect("d").expect("pending");
    assert_eq!(d.options.len(), 1);
    assert_eq!(d.options[0].text, "Orange 0");
}

#[test]
fn penalties_and_the_end_of_the_game() {
    // Last trick of a round; P1 has 14 points and takes it: 15 ends the game
    // (4 players). P2 and P3 tie on the fewest points and share the win;
    // with final_tie=play_on another round is dealt.
    let setup = format!(
        "{}\ngame.vars.scores = {{14, 3, 3, 9}}; game.vars.tricks = {{0, 2, 1, 0}}",
        mid_round(&["'Orange 9'", "'Orange 3'", "'Orange 5'", "'Orange 7'"], 1)
    );
    let mut g = scenario(cfg(4), &setup);
    for (seat, c) in [
        (1, "Orange 9"),
        (2, "Orange 3"),
        (3, "Orange 5"),
        (4, "Orange 7"),
    ] {
        play(&mut g, seat, c);
    }
    let events = g.take_events();
    let scored = script_events(&events, "round_scored");
    assert_eq!(scored[0]["tricks"], json!([1, 2, 1, 0]));
    assert_eq!(scored[0]["penalties"], json!([1, 2, 1, 0]));
    assert_eq!(scored[0]["scores"], json!([15, 5, 4, 9]));
    assert!(g.is_over());
    let r = g.result().expect("result");
    assert_eq!(r.winners, vec![3]);
    assert_eq!(r.scores, vec![15.0, 5.0, 4.0, 9.0]);
    let over = script_events(&events, "game_over");
    assert_eq!(over[0]["winners"], json!([3]));

    let tie = setup.replace("{0, 2, 1, 0}", "{0, 1, 1, 0}");
    let mut g = scenario(cfg(4), &tie);
    for (seat, c) in [
        (1, "Orange 9"),
        (2, "Orange 3"),
        (3, "Orange 5"),
        (4, "Orange 7"),
    ] {
        play(&mut g, seat, c);
    }
    assert!(g.is_over());
    assert_eq!(
        g.result().expect("r").winners,
        vec![2, 3],
        "ties share the win"
    );

    let mut g = scenario(cfg(4).option("final_tie", "play_on"), &tie);
    for (seat, c) in [
        (1, "Orange 9"),
        (2, "Orange 3"),
        (3, "Orange 5"),
        (4, "Orange 7"),
    ] {
        play(&mut g, seat, c);
    }
    assert!(!g.is_over(), "play on until the tie breaks");
    assert_eq!(var(&g, "round"), json!(2));
    assert_eq!(var(&g, "scores"), json!([15, 4, 4, 9]));
}

fn happy_last_trick(config: GameConfig) -> Vec<Value> {
    // P1 has taken 2 tricks holding 1 Face card (teal 65); in the last trick
    // P4 takes four Face cards with the blue 38 (four suits of 1: the
    // highest card). P4: 1 trick - 4 faces; P1: 2 tricks - 1 face.
    let setup = format!(
        "{}\nto_zone(game:zone('won', 1), {{'Teal 65', 'Teal 61', 'Teal 62', 'Teal 63', 'Teal 64', 'Purple 51', 'Purple 52', 'Purple 53'}})
         game.vars.scores = {{5, 5, 5, 5}}; game.vars.tricks = {{2, 0, 0, 0}}",
        mid_round(
            &["'Orange 10'", "'Red 20'", "'Gray 29'", "'Blue 38'"],
            1
        )
    );
    let mut g = scenario(config, &setup);
    for (seat, c) in [
        (1, "Orange 10"),
        (2, "Red 20"),
        (3, "Gray 29"),
        (4, "Blue 38"),
    ] {
        play(&mut g, seat, c);
    }
    let events = g.take_events();
    assert_eq!(script_events(&events, "trick_won")[0]["winner"], json!(4));
    let scored = script_events(&events, "round_scored");
    assert_eq!(scored[0]["tricks"], json!([2, 0, 0, 1]));
    assert_eq!(scored[0]["faces"], json!([1, 0, 0, 4]));
    vec![scored[0]["penalties"].clone(), scored[0]["scores"].clone()]
}

#[test]
fn happy_faces_cancel_tricks_but_never_below_zero() {
    let r = happy_last_trick(cfg(4).variant("happy_faces"));
    assert_eq!(r[0], json!([1, 0, 0, 0]), "4 faces cancel only the 1 trick");
    assert_eq!(r[1], json!([6, 5, 5, 5]));
    // Without the floor the extra faces take points off the total.
    let r = happy_last_trick(cfg(4).variant("happy_faces").option("happy_floor", false));
    assert_eq!(r[0], json!([1, 0, 0, -3]));
    assert_eq!(r[1], json!([6, 5, 5, 2]));
    // Without the variant, every trick is a point.
    let r = happy_last_trick(cfg(4));
    assert_eq!(r[0], json!([2, 0, 0, 1]));
}

#[test]
fn under_happy_faces_the_greedy_bot_takes_a_trick_full_of_face_cards() {
    // P4 plays last. The orange 10 takes the trick with three Face cards
    // (red 20, gray 29 and itself); the gray 22 leaves it to the gray 29.
    let setup = mid_round(
        &[
            "'Orange 3', 'Teal 61'",
            "'Red 20', 'Teal 62'",
            "'Gray 29', 'Teal 63'",
            "'Orange 10', 'Gray 22'",
        ],
        1,
    );
    for (config, want) in [
        (cfg(4).variant("happy_faces"), "Orange 10"),
        (cfg(4), "Gray 22"),
    ] {
        let mut g = scenario(config, &setup);
        play(&mut g, 1, "Orange 3");
        play(&mut g, 2, "Red 20");
        play(&mut g, 3, "Gray 29");
        let i = Bot::new(BotKind::parse("greedy"), 1, 4)
            .choose(&g)
            .expect("bot")
            .index;
        let d = g.decision().expect("decision").expect("pending");
        assert_eq!(d.options.len(), 2, "both cards follow a suit of the trick");
        let chosen = &d.options[i - 1].text;
        assert!(chosen.starts_with(want), "chose {chosen}, wanted {want}");
    }
}

fn pass_distances(config: GameConfig, rounds: u32) -> Vec<Option<i64>> {
    let g = scenario(config, "");
    (1..=rounds)
        .map(|r| {
            g.eval_lua(&format!(
                "return tostring(game.rules.pass_distance(game, {r}))"
            ))
            .expect("eval")
            .trim_matches('"')
            .parse::<i64>()
            .ok()
        })
        .collect()
}

#[test]
fn passing_directions_per_round_with_the_skip() {
    let p = |players| cfg(players).variant("passing");
    assert_eq!(
        pass_distances(p(4), 9),
        vec![
            Some(1),
            Some(2),
            Some(3),
            None,
            Some(1),
            Some(2),
            Some(3),
            None,
            Some(1)
        ]
    );
    assert_eq!(
        pass_distances(p(3), 5),
        vec![Some(1), Some(2), None, Some(1), Some(2)]
    );
    assert_eq!(
        pass_distances(p(6), 7),
        vec![Some(1), Some(2), Some(3), Some(4), Some(5), None, Some(1)]
    );
    assert_eq!(
        pass_distances(p(4).option("pass_cycle", "stop"), 6),
        vec![Some(1), Some(2), Some(3), None, None, None]
    );
}

/// The cards of a zone as `seat` sees them (None: hidden from that seat).
fn zone_cards(g: &Game, seat: Option<u32>, name: &str, owner: u32) -> Option<Vec<u32>> {
    g.view(seat)
        .expect("view")
        .zones
        .into_iter()
        .find(|z| z.name == name && z.owner == Some(owner))
        .expect("zone")
        .cards
}

#[test]
fn passing_hides_the_cards_until_every_seat_has_chosen_then_moves_them_left() {
    let mut g = engine_game(cfg(4).variant("passing"));
    assert_eq!(var(&g, "phase"), json!("pass"));
    let before: Vec<Vec<u32>> = (1..=4)
        .map(|s| zone_cards(&g, None, "hand", s).expect("hand"))
        .collect();
    let mut passed: Vec<Vec<u32>> = vec![vec![]; 4];
    for seat in 1..=4u32 {
        // One decision: a set of exactly 2 of the hand's 15 cards.
        let d = g.decision().expect("d").expect("pending");
        assert_eq!(d.seat, seat, "seat {seat} passes");
        assert_eq!(d.options.len(), 1, "one choice of cards");
        let spec = g.subset(1).expect("subset").expect("asks for cards");
        assert_eq!((spec.from.len(), spec.min, spec.max), (15, 2, 2));
        let target = seat % 4 + 1;
        assert!(d.prompt.contains(&format!("P{target}")), "{}", d.prompt);
        assert_eq!(d.options[0].text, "Pass");
        // A secret choice: the other seats are told only that cards were
        // chosen, not which.
        assert_eq!(
            d.options[0].secret().as_deref(),
            Some("chooses cards to pass")
        );
        // A wrong count is refused with the rules' words.
        let err = g
            .apply_choice(&Choice::subset(1, vec![15]))
            .expect_err("one card");
        assert_eq!(err.to_string(), "choose exactly 2 cards");
        // The last two: high cards.
        passed[seat as usize - 1] = vec![spec.from[13], spec.from[14]];
        g.apply_choice(&Choice::subset(1, vec![14, 15]))
            .expect("apply");
        let rec = g.history().last().expect("recorded").clone();
        let text = g.describe(&rec.action).expect("text");
        assert!(text.starts_with("Pass ") && text.contains(", "), "{text}");
        // Seat's own pass zone is visible to it, not to the next seat.
        let mine = zone_cards(&g, Some(seat), "pass", seat);
        if seat < 4 {
            assert_eq!(
                mine.map(|mut v| {
                    v.sort();
                    v
                }),
                Some({
                    let mut p = passed[seat as usize - 1].clone();
                    p.sort();
                    p
                })
            );
            assert_eq!(zone_cards(&g, Some(seat % 4 + 1), "pass", seat), None);
        }
    }
    // Resolved: every seat received the cards of the seat to its right.
    assert_eq!(var(&g, "phase"), json!("play"));
    for seat in 1..=4u32 {
        let from = (seat + 2) % 4 + 1;
        let hand = zone_cards(&g, None, "hand", seat).expect("hand");
        assert_eq!(hand.len(), 15);
        for c in &passed[from as usize - 1] {
            assert!(
                hand.contains(c),
                "seat {seat} got card {c} from seat {from}"
            );
        }
        for c in &passed[seat as usize - 1] {
            assert!(!hand.contains(c));
        }
        let kept = before[seat as usize - 1]
            .iter()
            .filter(|c| hand.contains(c))
            .count();
        assert_eq!(kept, 13);
    }
    let events = g.take_events();
    let received = script_events(&events, "cards_received");
    assert_eq!(received.len(), 4);
    // Private: only the receiver is told which cards it got.
    let private = events
        .iter()
        .filter(|e| matches!(&e.kind, EventKind::Script { name, to: Some(_), .. } if name == "cards_received"))
        .count();
    assert_eq!(private, 4);
    // The holder of the 0, after the pass, opens the round.
    let d = g.decision().expect("d").expect("pending");
    assert_eq!(d.options.len(), 1);
    assert_eq!(d.options[0].text, "Orange 0");
}

/// A new game with logging, its setup events kept.
fn engine_game(config: GameConfig) -> Game {
    let e = Box::leak(Box::new(engine()));
    e.new_game(config, true).expect("start")
}

#[test]
fn passing_rounds_follow_the_cycle_in_a_whole_game() {
    let mut g = engine_game(cfg(4).variant("passing").option("end_at", 40));
    let bots = (1..=4)
        .map(|s| Bot::new(BotKind::parse("greedy"), 5, s))
        .collect();
    let mut events = Collect::default();
    let mut runner = Runner::with_bots(bots).observe(&mut events);
    runner.started(&mut g).expect("start");
    play_to_end(&mut runner, &mut g);
    drop(runner);
    let events = events.0;
    let rounds = var(&g, "round").as_u64().expect("round");
    assert!(rounds >= 6, "a long game: {rounds} rounds");
    let mut per_round: Vec<Option<u64>> = vec![];
    for e in &events {
        if let EventKind::Script { name, data, .. } = &e.kind {
            match name.as_str() {
                "pass_started" => per_round.push(data["distance"].as_u64()),
                "no_pass" => per_round.push(None),
                "cards_received" => {
                    let k = per_round.last().copied().flatten().expect("passing");
                    let from = data["from"].as_u64().expect("from");
                    let to = data["seat"].as_u64().expect("seat");
                    assert_eq!(to, (from - 1 + k) % 4 + 1, "passed {k} to the left");
                    assert_eq!(data["cards"].as_array().map(Vec::len), Some(2));
                }
                _ => {}
            }
        }
    }
    assert_eq!(per_round.len() as u64, rounds);
    for (r, d) in per_round.iter().enumerate() {
        let expect = match r % 4 {
            3 => None,
            k => Some(k as u64 + 1),
        };
        assert_eq!(*d, expect, "round {}", r + 1);
    }
}

/// What play shows, for search bots (rules.may_hold): a player who plays a
/// suit not yet in the trick holds none of the suits that are.
#[test]
fn not_following_shows_a_void_in_every_suit_of_the_trick() {
    let mut g = scenario(
        cfg(4),
        &mid_round(
            &[
                "'Gray 22', 'Teal 64'",
                "'Blue 33', 'Purple 51'",
                "'Green 41', 'Gray 23'",
                "'Teal 61', 'Purple 52'",
            ],
            1,
        ),
    );
    play(&mut g, 1, "Gray 22");
    play(&mut g, 2, "Blue 33");
    play(&mut g, 3, "Gray 23");
    play(&mut g, 4, "Teal 61");
    let voids = var(&g, "voids");
    assert_eq!(voids[1]["gray"], json!(true), "{voids}");
    assert!(voids[2].get("gray").is_none(), "seat 3 followed: {voids}");
    // Seat 4 faced gray and blue and played neither.
    assert_eq!(voids[3]["gray"], json!(true), "{voids}");
    assert_eq!(voids[3]["blue"], json!(true), "{voids}");
    let ruled_out = g.ruled_out(3).expect("ruled out");
    assert!(ruled_out.contains(&(2, card_id(&g, "Gray 24"))));
}

#[test]
fn whole_number_options_take_numbers_and_numeric_text_and_refuse_the_rest() {
    // Options typed at a command line arrive as numbers or text; a whole
    // number either way is accepted, anything else names the option.
    let e = engine();
    for v in [json!(40), json!("40")] {
        let g = e
            .new_game(cfg(4).option("end_at", v), false)
            .expect("start");
        assert_eq!(var(&g, "end_at"), json!(40));
    }
    for v in [json!(2.5), json!("2.5"), json!("forty"), json!(0)] {
        let err = match e.new_game(cfg(4).option("end_at", v.clone()), false) {
            Ok(_) => panic!("end_at = {v} was accepted"),
            Err(err) => err.to_string(),
        };
        assert!(err.contains("option end_at"), "{v}: {err}");
    }
    let err = match e.new_game(cfg(4).variant("passing").option("pass_cards", "two"), false) {
        Ok(mut g) => {
            // pass_cards is read when the first pass is set up.
            match g.apply(1) {
                Ok(_) => panic!("pass_cards = two was accepted"),
                Err(err) => err.to_string(),
            }
        }
        Err(err) => err.to_string(),
    };
    assert!(err.contains("option pass_cards"), "{err}");
}
