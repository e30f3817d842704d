//! SeaDogs at the REPL, through a pseudo-terminal: a whole game against
//! greedy bots, checking that the table shows the islands with the ships,
//! gold, gunpowder, cubes, bank and temple demand, and that nothing the
//! person may not see is ever printed: the bots' hands, the captains the
//! bots keep before the reveal, the bots' private events (hands shown to
//! them, cards they receive, treasures they draw).

use crate::pty;

use pty::{assert_only_counted, Repl};

#[test]
fn a_whole_game_against_bots_never_shows_what_the_player_may_not_see() {
    let mut r = Repl::start();
    r.send("new seadogs players=3 seats=human,greedy,greedy seed=5");
    r.expect("New game of SeaDogs (3 players, seed 5)");
    r.expect("Keep one of your two captains");
    r.expect("seat 1> ");
    r.send("show");
    r.expect("── SeaDogs");
    let table = r.expect("seat 1> ");
    for needle in [
        "Islands: Sell",
        "Port 1 [P1]",
        "Bank 35 gold; temple demands ",
        "P1: 3 gold, 3 gunpowder, 0 cubes",
        "your hand",
    ] {
        assert!(
            table.contains(needle),
            "the table lacks {needle:?}:\n{table}"
        );
    }
    r.play_first_options_to_the_end(1500);
    r.expect("deckhand> ");
    let all = r.seen.clone();

    // The bots' hands are only ever counted.
    assert_only_counted(&all, &[2, 3], &["hand", "treasure", "action"]);
    // The captains kept are secret until all are revealed together.
    assert!(all.contains("(greedy): keeps a captain"), "{all}");
    for bot in ["seat 2 (greedy): Keep The", "seat 3 (greedy): Keep The"] {
        assert!(
            !all.contains(bot),
            "a bot's captain is printed before the reveal"
        );
    }
    assert!(
        all.contains("Captains: P1 The "),
        "the captains are revealed together"
    );
    // The bots' private events are never printed.
    for private in ["P2 (privately)", "P3 (privately)"] {
        assert!(
            !all.contains(private),
            "a bot's private event is printed: {private}"
        );
    }
    assert!(all.contains(" sails to "), "moves are told");
    assert!(all.contains("Winner"), "{all}");
    r.send("quit");
    r.expect("Bye.");
}

/// A card named that is not one of the moves gets the game's reason; the
/// reason names only what the person may see. `rules` prints the summary.
#[test]
fn a_card_that_is_not_a_move_gets_the_reason_of_the_phase() {
    let mut r = Repl::start();
    r.send("new seadogs players=2 seats=human,greedy seed=1");
    r.expect("New game of SeaDogs (2 players, seed 1)");
    r.expect("seat 1> ");
    r.type_expect(
        "tea x3",
        "Tea x3 is not one of your moves now: first keep one of your two captains: The Gunner and The Old Salt",
        "seat 1> ",
    );
    r.type_expect("1", "seat 1 (you): Keep The Old Salt", "seat 1> ");
    r.type_expect(
        "tea x3",
        "Tea x3 is not one of your moves now: cargo is sold at Sell, offered at the Temple or traded at a Port: sail there first",
        "seat 1> ",
    );
    r.type_expect(
        "rules",
        "Sail your ship between seven islands and end the game with the most gold.",
        "seat 1> ",
    );
    r.quit();
}

/// With two cargo types to sell, a sale is typed with the option's words
/// before its cards (`sell rum 1`); `sell 1` alone says how.
#[test]
fn a_sale_is_named_by_its_words_when_two_cargo_types_can_be_sold() {
    let mut r = Repl::start();
    r.send("new seadogs players=2 seats=human,random seed=4");
    r.expect("New game of SeaDogs (2 players, seed 4)");
    r.expect("seat 1> ");
    r.type_expect("1", "seat 1 (you): Keep", "seat 1> ");
    let moves = r.type_expect("sail to sell", "Take no action here", "seat 1> ");
    assert!(moves.contains("1) Sell Rum"), "{moves}");
    assert!(moves.contains("2) Sell Spice"), "{moves}");
    r.type_expect(
        "sell 1",
        "'sell' could be several moves: 1) Sell Rum, 2) Sell Spice — type more of its words \
         (`sell rum 1`) or its number (`1 1`)",
        "seat 1> ",
    );
    r.type_expect(
        "sell spice 1",
        "seat 1 (you): Sell Spice x2 (2 icons: 1 gold)",
        "seat 1> ",
    );
    r.quit();
}
