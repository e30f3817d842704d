//! The fields of options and events that mean something to the core and
//! the front ends, read in one place. An option or an event is plain data
//! the rules make up; these fields are the convention:
//!
//! | field | on | meaning |
//! |---|---|---|
//! | `card` | option | the card the option plays (a number) |
//! | `cards` | option | the cards it plays, several at once (a list) |
//! | `secret` | option | only its chooser may learn which option it was: `true`, or the text the other seats are told |
//! | `choose` | option | it asks for a set of cards as well: `{ from = {ids}, min, max, check }` (see [`crate::choice`]) |
//! | `pass` | option | in a reaction window, the option that passes (`true`) |
//! | `window` | decision | it is a reaction window: the window's kind (a name front ends may auto-pass) |
//! | `reveal` | option, event | it shows cards on purpose (not a leak) |
//! | `to` | event | the one seat told of it (others are not) |
//! | `text` | event | the event in words, for logs |
//!
//! Card properties the core reads (`name`, `back`, `color`) are read in
//! [`crate::card`].

use crate::card::CardId;
use crate::choice::SubsetSpec;
use crate::zone::Seat;
use serde_json::Value as Json;

/// What an option's value says about itself.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OptionMeta {
    /// The card it plays (`card`).
    pub card: Option<CardId>,
    /// The cards it plays, several at once (`cards`), in order.
    pub cards: Option<Vec<CardId>>,
    /// For a secret option, what every seat but the chooser is told.
    pub secret: Option<String>,
    /// It shows cards on purpose.
    pub reveal: bool,
    /// It asks for a set of cards: the candidates and bounds of its
    /// `choose` field (`scored` is not known from the value: false).
    pub choose: Option<SubsetSpec>,
}

impl OptionMeta {
    /// Read the fields of an option's value.
    pub fn of(action: &Json) -> OptionMeta {
        let as_id = |v: &Json| v.as_u64().and_then(|n| CardId::try_from(n).ok());
        OptionMeta {
            card: action.get("card").and_then(as_id),
            cards: action
                .get("cards")
                .and_then(Json::as_array)
                .map(|a| a.iter().filter_map(as_id).collect()),
            secret: match action.get("secret") {
                Some(Json::String(s)) => Some(s.clone()),
                Some(Json::Bool(true)) => Some("makes a secret choice".to_string()),
                _ => None,
            },
            reveal: reveals(action),
            choose: action.get("choose").and_then(|c| {
                let from: Vec<CardId> = c
                    .get("from")?
                    .as_array()?
                    .iter()
                    .map(as_id)
                    .collect::<Option<_>>()?;
                let n = from.len();
                let bound = |k: &str| c.get(k).and_then(Json::as_u64).map(|v| v as usize);
                Some(SubsetSpec {
                    min: bound("min").unwrap_or(0),
                    max: bound("max").unwrap_or(n).min(n),
                    from,
                    scored: false,
                })
            }),
        }
    }

    /// The cards the option plays: its `card`, or else its `cards`.
    pub fn played(&self) -> Vec<CardId> {
        match (&self.card, &self.cards) {
            (Some(c), _) => vec![*c],
            (None, Some(cs)) => cs.clone(),
            (None, None) => Vec::new(),
        }
    }
}

/// What an event's data says about itself.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EventMeta {
    /// The one seat told of it.
    pub to: Option<Seat>,
    /// It shows cards on purpose.
    pub reveal: bool,
}

impl EventMeta {
    /// Read the fields of an event's data.
    pub fn of(data: &Json) -> EventMeta {
        EventMeta {
            to: data
                .get("to")
                .and_then(Json::as_u64)
                .and_then(|s| Seat::try_from(s).ok()),
            reveal: reveals(data),
        }
    }

    /// The event in words (`text`), if it has any.
    pub fn text(data: &Json) -> Option<&str> {
        data.get("text").and_then(Json::as_str)
    }
}

/// Whether plain data says it shows its cards on purpose (`reveal = true`).
pub fn reveals(v: &Json) -> bool {
    v.get("reveal") == Some(&Json::Bool(true))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn option_fields_are_read_once() {
        let m = OptionMeta::of(&json!({"card": 4, "secret": "keeps a card"}));
        assert_eq!(m.played(), vec![4]);
        assert_eq!(m.secret.as_deref(), Some("keeps a card"));
        let m = OptionMeta::of(&json!({"cards": [3, 1, -2], "secret": true, "reveal": true}));
        assert_eq!(m.played(), vec![3, 1]);
        assert_eq!(m.secret.as_deref(), Some("makes a secret choice"));
        assert!(m.reveal);
        assert_eq!(OptionMeta::of(&json!("pass")), OptionMeta::default());
        assert_eq!(OptionMeta::of(&json!({"secret": false})).secret, None);
        let m = OptionMeta::of(&json!({"choose": {"from": [5, 7, 9], "min": 1, "max": 8}}));
        let spec = m.choose.unwrap();
        assert_eq!((spec.from, spec.min, spec.max), (vec![5, 7, 9], 1, 3));
        assert_eq!(
            OptionMeta::of(&json!({"choose": {"from": "x"}})).choose,
            None
        );
    }

    #[test]
    fn event_fields_are_read_once() {
        let data = json!({"to": 2, "text": "you see it", "reveal": true});
        assert_eq!(
            EventMeta::of(&data),
            EventMeta {
                to: Some(2),
                reveal: true
            }
        );
        assert_eq!(EventMeta::text(&data), Some("you see it"));
        assert_eq!(EventMeta::of(&json!({"to": 1e20})).to, None);
    }
}
