//! Reading a move that names a set of cards: the option (its number, or
//! the first word of its text), then the cards, by their numbers in the
//! option's list (`sell 1 3 4`) or by name, separated by commas
//! (`sell rum, rum, tea`). The rules check the set when it is played.

use super::choose;

/// An option that asks for cards, as the person sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct CardOption {
    /// The option's 1-based index.
    pub index: usize,
    /// Its text.
    pub text: String,
    /// The names of its candidate cards, in order (position 1 first).
    pub cards: Vec<String>,
}

/// Which option `typed` starts with among `options`, and the rest of the
/// line (the cards): its number, or the words of its text as far as they
/// are typed (`sell rum 1 2` for "Sell Rum"; the first word alone when
/// only one option starts with it; each word whole or a prefix). The
/// option that matches the most words wins; between several that match as
/// many, the one whose whole text was typed, or else the one whose cards
/// the rest of the line names. A word read as the option's that is needed
/// to name its cards is read as a card's (`sell rum`: the Rum card).
/// `None` when the first word names none of them; an error when it could
/// be several.
pub fn split<'t>(
    options: &[CardOption],
    typed: &'t str,
) -> Option<Result<(usize, &'t str), String>> {
    let typed = typed.trim();
    // The typed words, each with where it starts.
    let words: Vec<(usize, &str)> = typed
        .split_whitespace()
        .map(|w| (w.as_ptr() as usize - typed.as_ptr() as usize, w))
        .collect();
    let (_, first) = *words.first()?;
    let rest_from = |k: usize| words.get(k).map_or("", |&(at, _)| &typed[at..]);
    if let Ok(n) = first.parse::<usize>() {
        return options
            .iter()
            .find(|o| o.index == n)
            .map(|o| Ok((o.index, rest_from(1))));
    }
    // How many typed words each option's text begins with, and whether
    // that is its whole text.
    let matched: Vec<(&CardOption, usize, bool)> = options
        .iter()
        .map(|o| {
            let own: Vec<String> = o.text.split_whitespace().map(str::to_lowercase).collect();
            let k = words
                .iter()
                .zip(&own)
                .take_while(|((_, w), o)| o.starts_with(&w.to_lowercase()))
                .count();
            (o, k, k == own.len())
        })
        .filter(|(_, k, _)| *k > 0)
        .collect();
    let most = matched.iter().map(|(_, k, _)| *k).max()?;
    let best: Vec<(&CardOption, bool)> = matched
        .iter()
        .filter(|(_, k, _)| *k == most)
        .map(|(o, _, whole)| (*o, *whole))
        .collect();
    let whole: Vec<&CardOption> = best.iter().filter(|b| b.1).map(|b| b.0).collect();
    // Cards the rest of the line names among an option's.
    let names_cards =
        |o: &CardOption, rest: &str| picks(&o.cards, rest).is_ok_and(|p| !p.is_empty());
    let fitting: Vec<&CardOption> = best
        .iter()
        .map(|b| b.0)
        .filter(|o| names_cards(o, rest_from(most)))
        .collect();
    let one = match (best.as_slice(), whole.as_slice(), fitting.as_slice()) {
        ([(one, _)], _, _) | (_, [one], _) | (_, _, [one]) => *one,
        (many, _, _) => {
            let list: Vec<String> = many
                .iter()
                .map(|(o, _)| format!("{}) {}", o.index, o.text))
                .collect();
            let cards = match rest_from(most) {
                "" => String::new(),
                rest => format!(" {rest}"),
            };
            let o = many[0].0;
            let text = o.text.to_lowercase();
            let example: Vec<&str> = text.split_whitespace().take(most + 1).collect();
            let said: Vec<&str> = words.iter().take(most).map(|(_, w)| *w).collect();
            return Some(Err(format!(
                "'{}' could be several moves: {} — type more of its words (`{}{cards}`) or \
                 its number (`{}{cards}`)",
                said.join(" "),
                list.join(", "),
                example.join(" "),
                o.index
            )));
        }
    };
    // The words of the option as far as the rest still names its cards
    // (`sell rum x3, rum x2`: the cards are "Rum x3" and "Rum x2"; `sell
    // rum`: the Rum).
    let k = (1..=most)
        .rev()
        .find(|&k| names_cards(one, rest_from(k)))
        .or_else(|| (1..=most).rev().find(|&k| !rest_from(k).is_empty()))
        .unwrap_or(most);
    Some(Ok((one.index, rest_from(k))))
}

/// The positions (1-based, ascending) of the cards `typed` names among
/// `cards`: all numbers (`1 3 4`), or items separated by commas, each a
/// number or a card's name (whole, or a unique prefix). A name shared by
/// several cards takes the next one not yet named.
pub fn picks(cards: &[String], typed: &str) -> Result<Vec<usize>, String> {
    let typed = typed.trim();
    if typed.is_empty() {
        return Ok(Vec::new());
    }
    let words: Vec<&str> = typed.split_whitespace().collect();
    let items: Vec<&str> =
        if !typed.contains(',') && words.iter().all(|w| w.chars().all(|c| c.is_ascii_digit())) {
            words
        } else {
            typed
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .collect()
        };
    let mut taken = vec![false; cards.len()];
    for item in items {
        let p = position(cards, &taken, item)?;
        if taken[p] {
            return Err(format!("card {} is named twice", p + 1));
        }
        taken[p] = true;
    }
    Ok(taken
        .iter()
        .enumerate()
        .filter(|(_, t)| **t)
        .map(|(i, _)| i + 1)
        .collect())
}

/// The 0-based position `item` names.
fn position(cards: &[String], taken: &[bool], item: &str) -> Result<usize, String> {
    if let Ok(n) = item.parse::<usize>() {
        return if n >= 1 && n <= cards.len() {
            Ok(n - 1)
        } else {
            Err(format!(
                "there is no card {n} to choose (1 to {})",
                cards.len()
            ))
        };
    }
    let free = |i: &usize| !taken[*i];
    let exact: Vec<usize> = (0..cards.len())
        .filter(|&i| choose::same_name(item, &cards[i]))
        .collect();
    if let Some(i) = exact.iter().copied().find(free) {
        return Ok(i);
    }
    if let Some(&i) = exact.first() {
        return Ok(i); // every card of that name is taken: named twice
    }
    let lower = item.to_lowercase();
    let prefixed: Vec<usize> = (0..cards.len())
        .filter(|&i| cards[i].to_lowercase().starts_with(&lower))
        .collect();
    let mut names: Vec<&str> = prefixed.iter().map(|&i| cards[i].as_str()).collect();
    names.dedup();
    match names.as_slice() {
        [] => Err(format!("no card '{item}' among the cards to choose")),
        [_] => Ok(prefixed.iter().copied().find(free).unwrap_or(prefixed[0])),
        many => Err(format!(
            "'{item}' could be several cards: {} — type more of the name, or the number",
            many.join(", ")
        )),
    }
}

/// How the cards of an option are listed under it: `1 Rum, 2 Tea, ...`.
pub fn listing(o: &CardOption, min: usize, max: usize) -> String {
    let items: Vec<String> = o
        .cards
        .iter()
        .enumerate()
        .map(|(i, n)| format!("{} {n}", i + 1))
        .collect();
    let how_many = if min == max {
        format!("{min}")
    } else {
        format!("{min} to {max}")
    };
    format!(
        "choose {how_many} of: {} (type {} then the numbers or names of the cards, \
         e.g. `{} {}`)",
        items.join(", "),
        o.index,
        o.index,
        (1..=min.max(1))
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand() -> Vec<String> {
        ["Rum", "Rum", "Tea", "Blue 1", "Blue 12"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    fn opts() -> Vec<CardOption> {
        vec![
            CardOption {
                index: 2,
                text: "Sell cards of one type".into(),
                cards: hand(),
            },
            CardOption {
                index: 3,
                text: "Discard".into(),
                cards: hand(),
            },
        ]
    }

    #[test]
    fn the_option_is_its_number_or_first_word() {
        assert_eq!(split(&opts(), "sell 1 3"), Some(Ok((2, "1 3"))));
        assert_eq!(split(&opts(), "2 1 3"), Some(Ok((2, "1 3"))));
        assert_eq!(split(&opts(), "DIS rum"), Some(Ok((3, "rum"))));
        assert_eq!(split(&opts(), "1 2"), None);
        assert_eq!(split(&opts(), "draw"), None);
    }

    /// The sale options of a hand of two cargo types.
    fn sales() -> Vec<CardOption> {
        let cards = |names: &[&str]| names.iter().map(|s| s.to_string()).collect();
        vec![
            CardOption {
                index: 1,
                text: "Sell Rum".into(),
                cards: cards(&["Rum x3", "Rum x2", "Wild"]),
            },
            CardOption {
                index: 2,
                text: "Sell Spice".into(),
                cards: cards(&["Spice x1", "Wild"]),
            },
            CardOption {
                index: 3,
                text: "Sell Rum with Black Market".into(),
                cards: cards(&["Rum x3", "Rum x2", "Wild"]),
            },
        ]
    }

    #[test]
    fn the_option_may_be_named_by_its_words_before_the_cards() {
        assert_eq!(split(&sales(), "sell rum 1 3"), Some(Ok((1, "1 3"))));
        assert_eq!(split(&sales(), "Sell Spice 2"), Some(Ok((2, "2"))));
        assert_eq!(split(&sales(), "sell sp 1"), Some(Ok((2, "1"))));
        assert_eq!(
            split(&sales(), "sell rum with black market 1 3"),
            Some(Ok((3, "1 3")))
        );
        assert_eq!(split(&sales(), "sell rum with 2"), Some(Ok((3, "2"))));
        // The words that name the cards stay the cards'.
        assert_eq!(
            split(&sales(), "sell rum x3, rum x2"),
            Some(Ok((1, "rum x3, rum x2")))
        );
        assert_eq!(split(&sales(), "sell rum"), Some(Ok((1, "rum"))));
        assert_eq!(
            split(&sales(), "sell spice, wild"),
            Some(Ok((2, "spice, wild")))
        );
        assert_eq!(split(&sales(), "3 1"), Some(Ok((3, "1"))));
        // Several sales and only numbers: say how to name one.
        let e = split(&sales(), "sell 1 2").and_then(Result::err);
        assert_eq!(
            e.as_deref(),
            Some(
                "'sell' could be several moves: 1) Sell Rum, 2) Sell Spice, 3) Sell Rum with \
                 Black Market — type more of its words (`sell rum 1 2`) or its number (`1 1 2`)"
            )
        );
        assert!(split(&sales(), "buy 1").is_none());
    }

    #[test]
    fn cards_are_numbers_or_names() {
        assert_eq!(picks(&hand(), "3 1"), Ok(vec![1, 3]));
        assert_eq!(picks(&hand(), "rum, rum, tea"), Ok(vec![1, 2, 3]));
        assert_eq!(picks(&hand(), "Blue 1, 5"), Ok(vec![4, 5]));
        assert_eq!(picks(&hand(), "te"), Ok(vec![3]));
        assert_eq!(picks(&hand(), ""), Ok(vec![]));
        assert!(picks(&hand(), "1 1").unwrap_err().contains("named twice"));
        assert!(picks(&hand(), "rum, rum, rum")
            .unwrap_err()
            .contains("named twice"));
        assert!(picks(&hand(), "9").unwrap_err().contains("no card 9"));
        assert!(picks(&hand(), "blue")
            .unwrap_err()
            .contains("several cards"));
        assert!(picks(&hand(), "spice")
            .unwrap_err()
            .contains("no card 'spice'"));
    }
}
