//! Sea Salt & Paper at the REPL, through a pseudo-terminal: a whole game
//! against greedy bots, checking that the table shows the discard tops, the
//! deck, what is in front of every player and the player's points, and that
//! nothing the person may not see is ever printed: the bots' hands, the card
//! a bot keeps or takes in secret, the bots' private events.

use crate::pty;

use pty::{assert_only_counted, Repl};

#[test]
fn a_whole_game_against_bots_never_shows_what_the_player_may_not_see() {
    let mut r = Repl::start();
    r.send("new sea_salt_paper players=3 seats=human,greedy,greedy target=12 seed=11");
    r.expect("New game of Sea Salt & Paper (3 players, seed 11)");
    r.expect("seat 1> ");
    r.send("show");
    r.expect("── Sea Salt & Paper");
    let table = r.expect("seat 1> ");
    for needle in [
        "deck ",
        "discard 1 ",
        "discard 2 ",
        "your hand",
        "Your points: ",
        "Scores: ",
    ] {
        assert!(
            table.contains(needle),
            "the table lacks {needle:?}:\n{table}"
        );
    }
    r.play_first_options_to_the_end(600);
    r.expect("deckhand> ");
    let all = r.seen.clone();

    // The bots' hands are only ever counted.
    assert_only_counted(&all, &[2, 3], &["hand"]);
    // The bots' secret choices read as what everyone is told, and their
    // private events are not printed; the person's own are.
    assert!(
        all.contains("(greedy): keeps one of the cards drawn"),
        "a bot's secret keep is announced without the card"
    );
    for bot in ["seat 2 (greedy): Keep ", "seat 3 (greedy): Keep "] {
        assert!(!all.contains(bot), "a bot's kept card is printed");
    }
    for private in [
        "P2 (privately)",
        "P3 (privately)",
        "(privately to P2)",
        "(privately to P3)",
    ] {
        assert!(
            !all.contains(private),
            "a bot's private event is printed: {private}"
        );
    }
    assert!(
        all.contains("P1 (privately) draws"),
        "the person sees their own draws"
    );
    // What is in front of the players, the discard tops and the end.
    assert!(all.contains(", top "), "the discard tops are shown");
    assert!(
        all.contains("duos (seat "),
        "the pairs in front of the bots are shown"
    );
    assert!(all.contains("Winner: seat"), "{all}");
    r.send("quit");
    r.expect("Bye.");
}

/// A card named that is not one of the moves gets the game's reason (what
/// the phase allows, from what the person may see); `rules` prints the
/// game's summary.
#[test]
fn a_card_that_is_not_a_move_gets_the_reason_of_the_phase() {
    let mut r = Repl::start();
    r.send("new sea_salt_paper players=2 seats=human,greedy seed=3");
    r.expect("New game of Sea Salt & Paper (2 players, seed 3)");
    r.expect("seat 1> ");
    // The tops are the two shells; a mermaid is nowhere the player may take it.
    r.type_expect(
        "mermaid (white)",
        "Mermaid (white) is not one of your moves now: you may draw two from the deck, or take \
         the top card of discard 1 (Shell (black)) or discard 2 (Shell (light blue)) \
         (only a pile's top card may be taken)",
        "seat 1> ",
    );
    r.type_expect("1", "seat 1 (you): Draw two from the deck", "seat 1> ");
    r.type_expect(
        "shell (black)",
        "Shell (black) is not one of your moves now: keep one of the cards you drew: ",
        "seat 1> ",
    );
    r.type_expect(
        "rules",
        "On your turn, draw two cards from the deck and keep one",
        "seat 1> ",
    );
    r.quit();
}
