//! What defines a game: the game, its variants in order (with the text of
//! its house-rule files), options, player count and seed. Same config +
//! same choices = same game, on every machine.

use crate::error::Result;
use crate::house_rule;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

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
    /// The text of each house-rule file among `variants` (by the path as
    /// given there), read when the game started. The rules are composed
    /// from this text, not from the file, so a save, a trace or a replay
    /// plays the rules the game was played with wherever it is opened and
    /// whatever became of the file. Variants of the game (plain names) are
    /// never here. A variant file without an entry is read from disk.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sources: BTreeMap<String, String>,
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
            sources: BTreeMap::new(),
        }
    }

    /// The variants that name house-rule files, in order.
    pub fn house_rules(&self) -> impl Iterator<Item = &String> {
        self.variants.iter().filter(|v| house_rule::is_file(v))
    }

    /// Read the house-rule files among the variants whose text the config
    /// does not hold yet (`again`: every one, the text held replaced), and
    /// keep their text. Only `.lua` regular files are read; on an error the
    /// config is unchanged.
    pub fn read_house_rules(&mut self, again: bool) -> Result<()> {
        let mut read = BTreeMap::new();
        for v in self.house_rules() {
            if again || !self.sources.contains_key(v) {
                read.insert(v.clone(), house_rule::read(Path::new(v))?);
            }
        }
        self.sources.extend(read);
        self.sources.retain(|k, _| self.variants.contains(k));
        Ok(())
    }

    /// Rename the house-rule paths among the variants (and their texts).
    pub fn map_house_rules(&mut self, f: impl Fn(&str) -> String) {
        let mut sources = BTreeMap::new();
        for v in self.variants.iter_mut() {
            if house_rule::is_file(v) {
                let new = f(v);
                if let Some(text) = self.sources.remove(v.as_str()) {
                    sources.insert(new.clone(), text);
                }
                *v = new;
            }
        }
        self.sources = sources;
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

/// Guess the type of an option value typed at a command line when the
/// option's declared type is not known: numbers, booleans, else a string.
/// `nan`, `inf` and numbers too large for a float stay text (they are no
/// number an option can take). Where the rules are known, read values
/// with [`crate::RulesInfo::option_from_text`], which goes by the option's
/// declared type.
pub fn parse_option_text(text: &str) -> Value {
    if let Ok(i) = text.parse::<i64>() {
        return Value::from(i);
    }
    if let Ok(f) = text.parse::<f64>() {
        if f.is_finite() {
            return Value::from(f);
        }
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
        for word in ["nan", "inf", "-infinity", "1e400"] {
            assert_eq!(parse_option_text(word), Value::from(word), "{word}");
        }
    }
}
