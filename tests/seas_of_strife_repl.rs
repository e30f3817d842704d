//! Seas of Strife at the REPL, through a pseudo-terminal, with the passing
//! variant: the person is asked which cards to pass and to whom, sees their
//! hand sorted, and never learns which cards the bots pass (only the cards
//! passed to them).

use crate::pty;

use pty::Repl;

/// The values of the cards on the "your hand" line of a table.
fn hand_values(table: &str) -> Vec<u32> {
    let line = table
        .lines()
        .map(str::trim_start)
        .find(|l| l.starts_with("your hand"))
        .unwrap_or_else(|| panic!("no hand in the table:\n{table}"));
    line["your hand".len()..]
        .split("  ")
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|card| {
            card.rsplit(' ')
                .next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("not a card: {card:?} in {line:?}"))
        })
        .collect()
}

#[test]
fn passing_asks_the_person_shows_a_sorted_hand_and_keeps_the_bots_passes_secret() {
    let mut r = Repl::start();
    r.send("new seas_of_strife players=4 seats=human,greedy,greedy,greedy variant=passing seed=3");
    r.expect("New game of Seas of Strife (4 players, variants passing, seed 3)");
    // Round 1: the person passes first, 1 seat to the left, both cards in
    // one choice.
    r.expect("Choose 2 cards to pass to P2");
    r.expect("seat 1> ");
    r.send("show");
    r.expect("── Seas of Strife");
    let table = r.expect("seat 1> ");
    assert!(
        table.contains("Passing 2 cards 1 seat to the left"),
        "{table}"
    );
    let hand = hand_values(&table);
    assert_eq!(hand.len(), 15, "{table}");
    let mut sorted = hand.clone();
    sorted.sort_unstable();
    assert_eq!(hand, sorted, "the hand is shown sorted:\n{table}");
    r.send("1 1 1");
    r.expect("card 1 is named twice");
    r.expect("seat 1> ");
    r.send("pass 1");
    r.expect("not these cards: choose exactly 2 cards");
    r.expect("seat 1> ");
    r.send("pass 1 2");
    r.expect("seat 1 (you): Pass ");
    // The bots' choices are announced without their cards; the person is
    // told what P4 passed to them.
    for bot in 2..=4 {
        r.expect(&format!("seat {bot} (greedy): chooses cards to pass"));
    }
    r.expect("P4 passes you ");
    r.expect("Cards passed 1 seat to the left");
    // Play the round out (option 1 every time) until round 2's pass, which
    // goes 2 seats to the left.
    let mut moves = 0;
    loop {
        r.expect("seat 1> ");
        if r.seen.contains("Choose 2 cards to pass to P3") {
            break;
        }
        r.send("1");
        moves += 1;
        assert!(moves < 40, "round 2 never came:\n{}", r.seen);
        r.expect("seat 1 (you): ");
    }
    r.send("show");
    let table = r.expect("seat 1> ");
    let hand = hand_values(&table);
    let mut sorted = hand.clone();
    sorted.sort_unstable();
    assert_eq!(hand, sorted, "the hand is shown sorted:\n{table}");
    r.send("quit");

    let all = r.seen.clone();
    for bot in 2..=4 {
        assert!(
            !all.contains(&format!("seat {bot} (greedy): Pass ")),
            "a bot's passed card is printed:\n{all}"
        );
    }
    for other in ["P1 passes you", "P2 passes you", "P3 passes you"] {
        assert!(
            !all.contains(other),
            "cards passed to another seat are printed: {other}"
        );
    }
    assert_eq!(all.matches("passes you").count(), 1, "{all}");
}

/// The cards of a pass, listed under the move, wrap between two cards at a
/// narrow terminal, never between a card's number and its name.
#[test]
fn a_pass_list_wraps_between_cards_not_inside_one() {
    let home = tempfile::tempdir().expect("temp home");
    let mut r = pty::Repl::spawn_env(&pty::scripts_dir(), home, &[("COLUMNS", "44")]);
    r.send("new seas_of_strife players=3 seats=human,random,random variants=passing seed=1");
    r.expect("Choose 2 cards to pass");
    let shown = r.expect("seat 1> ");
    let list = shown
        .split("choose 2 of:")
        .nth(1)
        .and_then(|rest| rest.split("(type").next())
        .unwrap_or_else(|| panic!("no list of cards: {shown}"));
    assert!(list.lines().count() >= 3, "{list}");
    for line in list.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if let Some(last) = words.last() {
            let cut = last.chars().all(|c| c.is_ascii_digit())
                && words
                    .len()
                    .checked_sub(2)
                    .is_none_or(|i| words[i].ends_with([',', ':']));
            assert!(!cut, "a card's number ends the line: {line:?}\n{list}");
        }
    }
    r.quit();
}

/// The lines under the table read as they mean: "In the trick: 1 Gray"
/// counts the cards of a suit (not a card's value), and the table of a
/// finished game says every trick was played, never "trick 16 of 15".
#[test]
fn the_status_counts_suits_in_words_and_the_end_has_no_trick_past_the_last() {
    let mut r = Repl::start();
    let from = r.seen.len();
    r.send("new seas_of_strife players=3 seats=random,human,random seed=1");
    // Seat 1 (a bot) leads before seat 2 is asked.
    let shown = r.expect("seat 2> ");
    let line = shown
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("In the trick: "))
        .unwrap_or_else(|| panic!("no trick line: {shown}"));
    let first = &line["In the trick: ".len()..];
    let (count, suit) = first.split_once(' ').expect("a count and a suit");
    assert_eq!(count, "1", "{line}");
    assert!(suit.starts_with(|c: char| c.is_ascii_uppercase()), "{line}");
    // To the end: every "trick T of N" has T <= N.
    let mut moves = 0;
    loop {
        r.send("1");
        let (before, found) =
            r.p.exp_any(vec![
                rexpect::ReadUntil::String("seat 2> ".into()),
                rexpect::ReadUntil::String("Game over".into()),
            ])
            .expect("a prompt or the end");
        r.seen.push_str(&pty::from_bytes(&before));
        r.seen.push_str(&found);
        moves += 1;
        assert!(moves < 400, "the game did not end");
        if found.contains("Game over") {
            break;
        }
    }
    r.expect("deckhand> ");
    r.send("show");
    let table = r.expect("deckhand> ");
    assert!(table.contains(" tricks played"), "{table}");
    for part in r.seen[from..].split(", trick ").skip(1) {
        let mut it = part.split_whitespace();
        let t: u32 = it.next().and_then(|x| x.parse().ok()).unwrap_or(0);
        assert_eq!(it.next(), Some("of"), "{part}");
        let n: u32 = it.next().and_then(|x| x.parse().ok()).unwrap_or(0);
        assert!(t <= n, "trick {t} of {n}");
    }
    r.quit();
}
