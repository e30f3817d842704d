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

/// Which option `typed` starts with (its number, or the first word of its
/// text, whole or a prefix) among `options`, and the rest of the line.
/// `None` when the first word names none of them; an error when it could
/// be several.
pub fn split<'t>(
    options: &[CardOption],
    typed: &'t str,
) -> Option<Result<(usize, &'t str), String>> {
    let typed = typed.trim();
    let (word, rest) = match typed.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (typed, ""),
    };
    if let Ok(n) = word.parse::<usize>() {
        return options
            .iter()
            .find(|o| o.index == n)
            .map(|o| Ok((o.index, rest)));
    }
    let w = word.to_lowercase();
    let hits: Vec<&CardOption> = options
        .iter()
        .filter(|o| {
            o.text
                .split_whitespace()
                .next()
                .is_some_and(|first| first.to_lowercase().starts_with(&w))
        })
        .collect();
    match hits.as_slice() {
        [] => None,
        [one] => Some(Ok((one.index, rest))),
        many => {
            let list: Vec<String> = many
                .iter()
                .map(|o| format!("{}) {}", o.index, o.text))
                .collect();
            Some(Err(format!(
                "'{word}' could be several moves: {} — type the number",
                list.join(", ")
            )))
        }
    }
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
