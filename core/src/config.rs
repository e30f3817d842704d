//! What defines a game: the game, its variants in order, options, player
//! count and seed. Same config + same choices = same game, on every machine.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The definition of one game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameConfig {
    /// Game id, e.g. `sea_change`.
    pub game: String,
    /// Variants in the order they apply: names (`team`) or paths to house-rule files.
    #[serde(default)]
    pub variants: Vec<String>,
    /// Options set by the user (the others take their defaults).
    #[serde(default)]
    pub options: BTreeMap<String, Value>,
    pub players: u32,
    pub seed: u64,
}

impl GameConfig {
    /// A config with no variants and default options.
    pub fn new(game: &str, players: u32, seed: u64) -> Self {
        GameConfig {
            game: game.to_string(),
            variants: Vec::new(),
            options: BTreeMap::new(),
            players,
            seed,
        }
    }

    /// Add a variant (builder style).
    pub fn variant(mut self, v: &str) -> Self {
        self.variants.push(v.to_string());
        self
    }

    /// Set an option (builder style).
    pub fn option(mut self, k: &str, v: impl Into<Value>) -> Self {
        self.options.insert(k.to_string(), v.into());
        self
    }
}

/// Read an option value typed at a command line: numbers, booleans, else a string.
pub fn parse_option_text(text: &str) -> Value {
    if let Ok(i) = text.parse::<i64>() {
        return Value::from(i);
    }
    if let Ok(f) = text.parse::<f64>() {
        return Value::from(f);
    }
    match text {
        "true" | "on" | "yes" => Value::Bool(true),
        "false" | "off" | "no" => Value::Bool(false),
        _ => Value::String(text.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_text_is_typed() {
        assert_eq!(parse_option_text("5"), Value::from(5));
        assert_eq!(parse_option_text("off"), Value::Bool(false));
        assert_eq!(parse_option_text("2-2-1"), Value::from("2-2-1"));
    }
}
