//! Card definitions: immutable, their properties chosen by the script.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A card's identity within one game: 1-based, dense.
pub type CardId = u32;

/// An immutable card definition: a name and the script's properties.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CardDef {
    pub id: CardId,
    pub name: String,
    /// Every property the script gave the card (suit, value, points, color ...),
    /// `name` included, in sorted key order.
    pub props: Map<String, Value>,
}

impl CardDef {
    /// The `color` property, used by front ends to colour the card.
    pub fn color(&self) -> Option<&str> {
        self.props.get("color").and_then(Value::as_str)
    }
}
