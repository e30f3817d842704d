//! Finding the legal move a person means from what they typed: the option's
//! text or the name of the card it plays, case-insensitive, whole or as a
//! unique prefix, or as a unique run of whole words inside the text. A
//! number is matched whole: `green 1` is not a prefix of `Green 11`.

use deckhand_engine::OptionView;
use serde_json::Value;

/// A legal move with every name it can be called by.
#[derive(Debug, Clone, PartialEq)]
pub struct Named {
    /// The 1-based option index.
    pub index: usize,
    /// The option text first, then the names of the cards it plays.
    pub names: Vec<String>,
    /// The name of the one card it plays, if it plays one.
    pub card: Option<String>,
}

/// The names of each option: its text, and the card names of its `card`
/// field or `cards` list (found with `card_name`).
pub fn named_options(
    options: &[OptionView],
    card_name: impl Fn(u32) -> Option<String>,
) -> Vec<Named> {
    options
        .iter()
        .map(|o| {
            let mut names = vec![o.text.clone()];
            let ids = card_ids(&o.action);
            let mut card = None;
            if ids.len() == 1 {
                card = ids.first().and_then(|&id| card_name(id));
                names.extend(card.clone());
            } else if ids.len() > 1 {
                let all: Vec<String> = ids.iter().filter_map(|&id| card_name(id)).collect();
                if all.len() == ids.len() {
                    names.push(all.join(", "));
                }
            }
            names.dedup();
            Named {
                index: o.index,
                names,
                card,
            }
        })
        .collect()
}

fn card_ids(action: &Value) -> Vec<u32> {
    deckhand_engine::OptionMeta::of(action).played()
}

/// Lower case with single spaces, for comparing.
fn norm(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Whether `needle` occurs in `hay` starting and ending at word boundaries.
fn has_words(hay: &str, needle: &str) -> bool {
    let mut start = 0;
    while let Some(i) = hay[start..].find(needle) {
        let pos = start + i;
        let end = pos + needle.len();
        let before = hay[..pos]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric());
        let after = hay[end..]
            .chars()
            .next()
            .is_none_or(|c| !c.is_alphanumeric());
        if before && after {
            return true;
        }
        start = pos + hay[pos..].chars().next().map_or(1, char::len_utf8);
    }
    false
}

/// Whether `hay` starts with `prefix` without cutting a number in two.
fn has_prefix(hay: &str, prefix: &str) -> bool {
    if !hay.starts_with(prefix) {
        return false;
    }
    let last_digit = prefix
        .chars()
        .next_back()
        .is_some_and(|c| c.is_ascii_digit());
    let next_digit = hay[prefix.len()..]
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_digit());
    !(last_digit && next_digit)
}

/// Whether `typed` is exactly `name` (case and spacing aside).
pub fn same_name(typed: &str, name: &str) -> bool {
    let t = norm(typed);
    !t.is_empty() && t == norm(name)
}

/// Whether the first word of `typed` is a whole word of `name` (`green 1`
/// and `Green 11`): the text was meant as a card.
pub fn shares_first_word(typed: &str, name: &str) -> bool {
    let t = norm(typed);
    match t.split(' ').next() {
        Some(w) if !w.is_empty() => has_words(&norm(name), w),
        _ => false,
    }
}

/// Why typed text does not pick exactly one move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoPick {
    /// Nothing matches.
    None,
    /// Several moves match: their indexes and texts.
    Ambiguous(Vec<(usize, String)>),
}

/// The option index that `typed` names: an exact name first, then a unique
/// prefix (that does not end inside a number), then a unique run of whole
/// words.
pub fn pick(options: &[Named], typed: &str) -> Result<usize, NoPick> {
    let t = norm(typed);
    if t.is_empty() {
        return Err(NoPick::None);
    }
    let tests: [&dyn Fn(&str) -> bool; 3] =
        [&|n| n == t, &|n| has_prefix(n, &t), &|n| has_words(n, &t)];
    for test in tests {
        let hits: Vec<&Named> = options
            .iter()
            .filter(|o| o.names.iter().any(|n| test(&norm(n))))
            .collect();
        match hits.as_slice() {
            [] => continue,
            [one] => return Ok(one.index),
            many => {
                return Err(NoPick::Ambiguous(
                    many.iter().map(|o| (o.index, o.names[0].clone())).collect(),
                ))
            }
        }
    }
    Err(NoPick::None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn opts(list: &[(&str, Value)]) -> Vec<OptionView> {
        list.iter()
            .enumerate()
            .map(|(i, (t, a))| OptionView {
                index: i + 1,
                action: a.clone(),
                text: t.to_string(),
            })
            .collect()
    }

    fn names(id: u32) -> Option<String> {
        Some(
            match id {
                1 => "Blue 1",
                2 => "Blue 12",
                3 => "Red 5",
                _ => return None,
            }
            .to_string(),
        )
    }

    fn sample() -> Vec<Named> {
        named_options(
            &opts(&[
                ("play Blue 1", json!({"card": 1})),
                ("play Blue 12", json!({"card": 2})),
                ("play Red 5 and change trump", json!({"card": 3})),
                ("pass", json!("pass")),
            ]),
            names,
        )
    }

    #[test]
    fn names_include_card_names() {
        let s = sample();
        assert_eq!(s[0].names, vec!["play Blue 1", "Blue 1"]);
        assert_eq!(s[3].names, vec!["pass"]);
    }

    #[test]
    fn exact_names_win_over_prefixes() {
        assert_eq!(pick(&sample(), "blue 1"), Ok(1));
        assert_eq!(pick(&sample(), "BLUE   12"), Ok(2));
        assert_eq!(pick(&sample(), "play blue 1"), Ok(1));
    }

    #[test]
    fn unique_prefixes_and_words_pick() {
        assert_eq!(pick(&sample(), "red"), Ok(3));
        assert_eq!(pick(&sample(), "pa"), Ok(4));
        assert_eq!(pick(&sample(), "change trump"), Ok(3));
    }

    #[test]
    fn ambiguity_and_misses_are_reported() {
        match pick(&sample(), "blu") {
            Err(NoPick::Ambiguous(v)) => {
                assert_eq!(v.iter().map(|x| x.0).collect::<Vec<_>>(), vec![1, 2])
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(pick(&sample(), "green 3"), Err(NoPick::None));
        assert_eq!(pick(&sample(), "   "), Err(NoPick::None));
        // Words must be whole: "lue" is inside "Blue" but not a word.
        assert_eq!(pick(&sample(), "lue 1"), Err(NoPick::None));
    }

    #[test]
    fn numbers_are_matched_whole() {
        // Only Blue 12 is legal: "blue 1" names another card, not a prefix of it.
        let only12 = named_options(&opts(&[("play Blue 12", json!({"card": 2}))]), names);
        assert_eq!(pick(&only12, "blue 1"), Err(NoPick::None));
        assert_eq!(pick(&only12, "play blue 1"), Err(NoPick::None));
        assert_eq!(pick(&only12, "blue 12"), Ok(1));
        assert_eq!(pick(&only12, "blue"), Ok(1));
        assert!(same_name(" red  5", "Red 5"));
        assert!(!same_name("red", "Red 5"));
    }

    #[test]
    fn several_cards_are_named_together() {
        let o = named_options(&opts(&[("discard two", json!({"cards": [1, 3]}))]), names);
        assert_eq!(o[0].names, vec!["discard two", "Blue 1, Red 5"]);
    }
}
