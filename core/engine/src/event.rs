//! The event log: every card placed or moved, shuffle and script event, in order.

use crate::card::CardId;
use crate::zone::{Seat, ZoneId};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One thing that happened, stamped with the number of actions applied before it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// How many actions had been applied when it happened (0 = during setup).
    pub step: usize,
    pub kind: EventKind,
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventKind {
    /// A card was put into its first zone when it was made (setup).
    Place { card: CardId, to: ZoneId },
    /// A card moved between zones (onto the top of `to`, or under its
    /// bottom card when `bottom`).
    Move {
        card: CardId,
        from: ZoneId,
        to: ZoneId,
        /// What moved it: a plain move, a draw, a deal, a whole zone.
        #[serde(default)]
        how: MoveHow,
        #[serde(default)]
        bottom: bool,
    },
    /// A zone was shuffled; `order` is its new order, bottom first.
    Shuffle {
        zone: ZoneId,
        #[serde(default)]
        order: Vec<CardId>,
    },
    /// A zone's cards were put in card-id order (a player sorting a hand).
    Sort { zone: ZoneId },
    /// An event the rules recorded (trick won, trump changed ...). `to`
    /// makes it private to one seat.
    Script {
        name: String,
        data: Value,
        to: Option<Seat>,
    },
}

/// What made a card move: the primitive the rules called.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveHow {
    /// `game:move`: a card the rules named.
    #[default]
    Move,
    /// `game:move_top`: the top card of the zone (a draw).
    Draw,
    /// `game:deal`: one card of a deal, from the top of the zone.
    Deal,
    /// `game:move_all`: every card of the zone, bottom first.
    All,
}

impl MoveHow {
    /// The name the trace writes.
    pub fn name(self) -> &'static str {
        match self {
            MoveHow::Move => "move",
            MoveHow::Draw => "draw",
            MoveHow::Deal => "deal",
            MoveHow::All => "all",
        }
    }
}

impl Event {
    /// About how many bytes this event holds (what a script's events are
    /// charged against the step's memory limit).
    pub fn approx_size(&self) -> usize {
        let data = match &self.kind {
            EventKind::Script { name, data, .. } => name.len() + approx_json_size(data),
            // A shuffle keeps the zone's new order.
            EventKind::Shuffle { order, .. } => std::mem::size_of_val(order.as_slice()),
            _ => 0,
        };
        std::mem::size_of::<Event>() + data
    }

    /// The text a script attached to its event, if any.
    pub fn text(&self) -> Option<&str> {
        match &self.kind {
            EventKind::Script { data, .. } => crate::meta::EventMeta::text(data),
            _ => None,
        }
    }
}

/// About how many bytes a JSON value holds (iterative: event data can nest
/// as deep as the conversion from Lua allows).
pub fn approx_json_size(v: &Value) -> usize {
    let mut total = 0;
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        total += std::mem::size_of::<Value>();
        match v {
            Value::String(s) => total += s.len(),
            Value::Array(a) => stack.extend(a.iter()),
            Value::Object(m) => {
                for (k, x) in m {
                    total += k.len() + std::mem::size_of::<String>();
                    stack.push(x);
                }
            }
            _ => {}
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shuffle_is_charged_for_the_order_it_keeps() {
        let small = Event {
            step: 1,
            kind: EventKind::Shuffle {
                zone: 1,
                order: Vec::new(),
            },
        };
        let big = Event {
            step: 1,
            kind: EventKind::Shuffle {
                zone: 1,
                order: (1..=1000).collect(),
            },
        };
        assert!(big.approx_size() >= small.approx_size() + 4000);
    }
}
