//! Every worked example of the Sea Change rulebooks (English and French) as a
//! test: set the hands and the trump, play the cards by name, check the
//! winner, the trump and the points.

use crate::common;

use common::*;
use deckhand_engine::GameConfig;
use serde_json::json;

fn cfg(players: u32, suits: &str) -> GameConfig {
    GameConfig::new("sea_change", players, 1).option("suits", suits)
}

/// Trump, leader and an empty trick, as at the start of a trick mid-round.
fn trick_start(trump: &str, leader: u32, players: usize) -> String {
    format!(
        "game.vars.trump = '{trump}'; game.vars.lead = nil; game.vars.leader = {leader}; game.vars.turn = {leader}
         game.vars.trick_players = {{}}; game.vars.last_trick_players = {{}}; game.vars.last_trick_winner = nil
         game.vars.trick_no = 2; game.vars.points = {{{}}}",
        vec!["0"; players].join(",")
    )
}

#[test]
fn sluffing_3p() {
    // Yellow trump. Daniel (1) leads Blue 5; Maureen (2), without Blue, plays
    // Purple 8; Ann (3) follows with Blue 4. Daniel wins and receives -4.
    let mut g = scenario(
        cfg(3, "blue,purple,yellow"),
        &format!(
            "clear(); give(1, {{'Blue 5', 'Yellow 9'}}); give(2, {{'Purple 8', 'Yellow 10'}}); give(3, {{'Blue 4', 'Purple 9'}})\n{}",
            trick_start("yellow", 1, 3)
        ),
    );
    play(&mut g, 1, "Blue 5");
    assert!(
        !is_legal(&g, "Yellow 10") || is_legal(&g, "Purple 8"),
        "Maureen may sluff"
    );
    play(&mut g, 2, "Purple 8");
    assert!(
        !is_legal(&g, "Purple 9"),
        "Ann holds Blue, so she must follow"
    );
    play(&mut g, 3, "Blue 4");
    let won = script_events(&g.take_events(), "trick_won");
    assert_eq!(won.len(), 1);
    assert_eq!(won[0]["winner"], json!(1));
    assert_eq!(won[0]["points"], json!(-4));
    assert_eq!(var(&g, "trump"), json!("yellow"));
}

#[test]
fn bad_idea_3p() {
    // Yellow trump. Daniel (1) leads Yellow 6; Maureen (2), out of Yellow,
    // plays Purple 8; Ann (3) throws Blue 8: a Sea Change (it matches the 8)
    // even though she holds Yellow. Blue becomes trump and Ann wins -8.
    let mut g = scenario(
        cfg(3, "blue,purple,yellow"),
        &format!(
            "clear(); give(1, {{'Yellow 6', 'Purple 4'}}); give(2, {{'Purple 8', 'Blue 5'}}); give(3, {{'Blue 8', 'Yellow 11'}})\n{}",
            trick_start("yellow", 1, 3)
        ),
    );
    play(&mut g, 1, "Yellow 6");
    play(&mut g, 2, "Purple 8");
    assert!(
        is_legal(&g, "Blue 8"),
        "a Sea Change is legal even when holding the lead suit"
    );
    play(&mut g, 3, "Blue 8");
    let events = g.take_events();
    let changes = script_events(&events, "trump_changed");
    assert_eq!(
        changes.last().map(|c| c["suit"].clone()),
        Some(json!("blue"))
    );
    let won = script_events(&events, "trick_won");
    assert_eq!(won[0]["winner"], json!(3));
    assert_eq!(won[0]["points"], json!(-8));
    assert_eq!(var(&g, "trump"), json!("blue"));
}

#[test]
fn round_walkthrough_fr() {
    // FR "Déroulement d'une manche": Anne (1) opens the round with Yellow 4:
    // Yellow is lead and trump. Daniel (2) plays Yellow 10. Martine (3) holds
    // only Yellow 9 in Yellow and plays Purple 10 instead: a Sea Change to
    // Purple; she wins 2 points (1 per 10). Purple stays trump.
    let mut g = scenario(
        cfg(3, "blue,purple,yellow"),
        &format!(
            "clear(); give(1, {{'Yellow 4', 'Blue 4'}}); give(2, {{'Yellow 10', 'Blue 5'}}); give(3, {{'Yellow 9', 'Purple 10'}})\n{}\ngame.vars.trump = nil",
            trick_start("yellow", 1, 3)
        ),
    );
    play(&mut g, 1, "Yellow 4");
    assert_eq!(
        var(&g, "trump"),
        json!("yellow"),
        "the first card of the round sets trump"
    );
    play(&mut g, 2, "Yellow 10");
    play(&mut g, 3, "Purple 10");
    let won = script_events(&g.take_events(), "trick_won");
    assert_eq!(won[0]["winner"], json!(3));
    assert_eq!(won[0]["points"], json!(2));
    assert_eq!(var(&g, "trump"), json!("purple"));
    assert_eq!(
        var(&g, "leader"),
        json!(3),
        "the winner leads the next trick"
    );
}

#[test]
fn sneaky_idea_4p() {
    // Purple trump. Maureen (1) leads Blue 9; Carter (2), without Blue, plays
    // Yellow 8; Ann (3) follows with Blue 4; Daniel (4) holds Blue but plays
    // Yellow 4, matching the 4: Yellow becomes trump and Carter's Yellow 8
    // wins the trick: -2 points for Carter.
    let mut g = scenario(
        cfg(4, "blue,green,purple,yellow"),
        &format!(
            "clear(); give(1, {{'Blue 9', 'Green 5'}}); give(2, {{'Yellow 8', 'Green 6'}}); give(3, {{'Blue 4', 'Green 7'}}); give(4, {{'Yellow 4', 'Blue 11'}})\n{}",
            trick_start("purple", 1, 4)
        ),
    );
    play(&mut g, 1, "Blue 9");
    play(&mut g, 2, "Yellow 8");
    play(&mut g, 3, "Blue 4");
    assert!(is_legal(&g, "Yellow 4"));
    assert!(!is_legal(&g, "Green 7") && is_legal(&g, "Blue 11"));
    play(&mut g, 4, "Yellow 4");
    let won = script_events(&g.take_events(), "trick_won");
    assert_eq!(won[0]["winner"], json!(2));
    assert_eq!(won[0]["points"], json!(-2));
    assert_eq!(var(&g, "trump"), json!("yellow"));
}

#[test]
fn big_finish_4p() {
    // Blue trump, one card each, last trick of the round. Carter (1) leads
    // Green 12, Ann (2) Blue 7, Daniel (3) Blue 0, Maureen (4) Red 0: a Sea
    // Change to Red. Maureen wins; at round end her Red 0 is the trump 0,
    // worth 5: 6 points in all. The Blue 0 is worthless.
    let mut g = big_finish(cfg(4, "blue,green,purple,red"));
    let events = g.take_events();
    let won = script_events(&events, "trick_won");
    assert_eq!(won[0]["winner"], json!(4));
    assert_eq!(
        won[0]["points"],
        json!(1),
        "printed points: 12 is +1, 7 and the 0s are 0"
    );
    let scored = script_events(&events, "round_scored");
    assert_eq!(scored.len(), 1, "the round ends with this trick");
    assert_eq!(scored[0]["trump"], json!("red"));
    assert_eq!(
        scored[0]["points"][3],
        json!(6),
        "Maureen: 1 + the Red 0 worth 5"
    );
    assert_eq!(scored[0]["zero_holder"], json!(4));
}

#[test]
fn vindictive_team_8p() {
    // Team example, 8 players (2-2-2-2). Greg (1) leads Red 4 (trump);
    // Janine (2) Red 2 (-1); Carter (3) Red 9 (+2); Maureen (4) Red 11;
    // Nicolas (5) Purple 11: a Sea Change to Purple; Hudson (6) Purple 15 (+3);
    // Ann (7) Red 8 (-4); Daniel (8), without Red, Green 0. Hudson's Purple 15
    // wins: 0 points, but a 0.
    let names = [
        ("Red 4", "Blue 4"),
        ("Red 2", "Blue 5"),
        ("Red 9", "Blue 6"),
        ("Red 11", "Blue 7"),
        ("Purple 11", "Blue 8"),
        ("Purple 15", "Blue 9"),
        ("Red 8", "Blue 10"),
        ("Green 0", "Blue 11"),
    ];
    let gives: String = names
        .iter()
        .enumerate()
        .map(|(i, (a, b))| format!("give({}, {{'{a}', '{b}'}}); ", i + 1))
        .collect();
    let mut g = scenario(
        GameConfig::new("sea_change", 8, 1).variant("team"),
        &format!("clear(); {gives}\n{}", trick_start("red", 1, 8)),
    );
    assert_eq!(
        g.with_table(|t| t.teams.clone()).expect("teams"),
        Some(vec![vec![1, 5], vec![2, 6], vec![3, 7], vec![4, 8]])
    );
    for (i, (card, _)) in names.iter().enumerate() {
        play(&mut g, i as u32 + 1, card);
    }
    let events = g.take_events();
    let won = script_events(&events, "trick_won");
    assert_eq!(won[0]["winner"], json!(6));
    assert_eq!(won[0]["points"], json!(0));
    assert_eq!(var(&g, "trump"), json!("purple"));
}

/// What play shows, for search bots (rules.may_hold): Maureen, out of
/// Yellow, sluffs and so shows she holds no Yellow; Ann's off-suit Blue 8 is
/// a Sea Change, which she may play holding Yellow, so it shows nothing.
#[test]
fn a_sluff_shows_a_void_a_sea_change_does_not() {
    let mut g = scenario(
        cfg(3, "blue,purple,yellow"),
        &format!(
            "clear(); give(1, {{'Yellow 6', 'Purple 4'}}); give(2, {{'Purple 8', 'Blue 5'}}); give(3, {{'Blue 8', 'Yellow 11'}})\n{}",
            trick_start("yellow", 1, 3)
        ),
    );
    play(&mut g, 1, "Yellow 6");
    play(&mut g, 2, "Purple 8");
    play(&mut g, 3, "Blue 8");
    let voids = var(&g, "voids");
    assert_eq!(voids[1]["yellow"], json!(true), "{voids}");
    assert!(voids[2].get("yellow").is_none(), "{voids}");
    let yellow_11 = card_id(&g, "Yellow 11");
    let ruled_out = g.ruled_out(1).expect("ruled out");
    assert!(
        ruled_out.iter().all(|&(seat, _)| seat == 2),
        "{ruled_out:?}"
    );
    // No unseen Yellow card is dealt into Maureen's hand in a guess.
    assert!(ruled_out.contains(&(2, card_id(&g, "Yellow 12"))));
    // Seat 1 cannot see Ann's Yellow 11, and nothing rules it out of her hand.
    assert!(!ruled_out.contains(&(3, yellow_11)));
}

/// "Round end": the player with the highest score earns 1 VP. The last
/// trick of a round, Blue trump: Daniel's Blue 9 takes it (2 points); Ann
/// already won the other Blue cards, the Blue 0 among them (-2, and 5 for
/// the trump 0); Maureen won every Purple and Yellow card (0).
#[test]
fn the_highest_round_score_earns_the_vp() {
    let mut g = scenario(
        cfg(3, "blue,purple,yellow"),
        &format!(
            "clear(); give(1, {{'Blue 9'}}); give(2, {{'Blue 4'}}); give(3, {{'Blue 5'}})
             local deck = game:zone('deck')
             while #deck > 0 do
               local id = deck[#deck]
               game:move(id, deck, game:zone('won', game.cards[id].suit == 'blue' and 3 or 2))
             end
             {}",
            trick_start("blue", 1, 3)
        ),
    );
    play(&mut g, 1, "Blue 9");
    play(&mut g, 2, "Blue 4");
    play(&mut g, 3, "Blue 5");
    let events = g.take_events();
    let scored = script_events(&events, "round_scored");
    assert_eq!(scored[0]["points"], json!([2, 0, 3]));
    let vp = script_events(&events, "vp_awarded");
    assert_eq!(vp[0]["seats"], json!([3]));
    assert_eq!(vp[0]["vp"], json!([0, 0, 1]));
}

#[test]
fn with_two_players_the_card_drawn_is_told_to_its_drawer_only() {
    let mut g = scenario(GameConfig::new("sea_change", 2, 3), "");
    g.take_events();
    let d = g.decision().expect("decision").expect("a move");
    let seat = d.seat;
    g.apply(d.options[0].index).expect("apply");
    let events = g.take_events();
    let drawn: Vec<_> = events
        .iter()
        .filter_map(|e| match &e.kind {
            deckhand_engine::EventKind::Script { name, data, to } if name == "drew_card" => {
                Some((data.clone(), *to))
            }
            _ => None,
        })
        .collect();
    assert_eq!(drawn.len(), 1, "{events:?}");
    let (data, to) = &drawn[0];
    assert_eq!(*to, Some(seat));
    let id = data["card"].as_u64().expect("card") as u32;
    let name = g.cards().expect("cards")[id as usize - 1].name.clone();
    assert_eq!(data["text"], json!(format!("P{seat} draws {name}")));
    let other = 3 - seat;
    let e = events
        .iter()
        .find(|e| matches!(&e.kind, deckhand_engine::EventKind::Script { name, .. } if name == "drew_card"))
        .expect("event");
    assert!(g.event_visible_to(e, seat) && !g.event_visible_to(e, other));
}

#[test]
fn at_the_end_of_the_game_the_status_gives_the_round_points_with_the_trump_zero() {
    // As in the Big Finish: Maureen (4) takes the last trick with the Red 0,
    // the new trump: 1 point, and 5 for the trump 0. One VP ends the game.
    let g = big_finish(cfg(4, "blue,green,purple,red").option("target_vp", 1));
    assert!(g.pending().is_none(), "the game is over");
    let lines = g.status_lines(1).expect("status");
    assert!(lines[0].contains("Round 1, game over"), "{lines:?}");
    assert!(!lines[0].contains("trick"), "{lines:?}");
    assert!(
        lines[2].starts_with("Round points: ") && lines[2].ends_with(", P4 6"),
        "{lines:?}"
    );
}

/// The Big Finish's last trick of a round: Adam (1) leads Green 12, Ann (2)
/// Blue 7, Daniel (3) Blue 0, Maureen (4) Red 0, a Sea Change to Red.
fn big_finish(config: GameConfig) -> deckhand_engine::Game {
    let mut g = scenario(
        config,
        &format!(
            "clear(); give(1, {{'Green 12'}}); give(2, {{'Blue 7'}}); give(3, {{'Blue 0'}}); give(4, {{'Red 0'}})
             local deck = game:zone('deck'); game:move_all(deck, game:zone('won', 1))\n{}\ngame.vars.trick_no = 10",
            trick_start("blue", 1, 4)
        ),
    );
    play(&mut g, 1, "Green 12");
    play(&mut g, 2, "Blue 7");
    play(&mut g, 3, "Blue 0");
    play(&mut g, 4, "Red 0");
    g
}
