//! What a seat chooses at a decision.
//!
//! Most options are chosen by their index alone. An option with a `choose`
//! field (see [`crate::meta`]) asks for a set of cards as well: the seat
//! picks cards among the option's candidates, the rules check the set
//! (`rules.choices`), and the choice is one decision, recorded as one
//! [`Choice`] with its picks. Nobody lists the sets: a set of 34 cards has
//! 2^34 parts.
//!
//! How bots build such sets, and how often the random bot passes in a
//! reaction window (a decision whose `window` field names its kind, with
//! one option marked `pass = true`), is in [`crate::policy`].

use serde::{Deserialize, Serialize};

/// One choice at a decision: the option (1-based) and, for an option that
/// asks for a set of cards, the positions (1-based, ascending) of the
/// chosen cards among its candidates.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Choice {
    pub index: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub picks: Option<Vec<usize>>,
}

impl Choice {
    /// Option `index`, without cards.
    pub fn option(index: usize) -> Choice {
        Choice { index, picks: None }
    }

    /// Option `index` with the cards at `picks` (sorted here; a position
    /// given twice is kept twice, and refused by the check).
    pub fn subset(index: usize, mut picks: Vec<usize>) -> Choice {
        picks.sort_unstable();
        Choice {
            index,
            picks: Some(picks),
        }
    }
}

impl From<usize> for Choice {
    fn from(index: usize) -> Choice {
        Choice::option(index)
    }
}

impl std::fmt::Display for Choice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.index)?;
        if let Some(p) = &self.picks {
            let list: Vec<String> = p.iter().map(usize::to_string).collect();
            write!(f, " [{}]", list.join(" "))?;
        }
        Ok(())
    }
}

/// What an option that asks for cards offers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubsetSpec {
    /// The candidate cards, in the order positions count them.
    pub from: Vec<u32>,
    /// The fewest and most cards of a choice.
    pub min: usize,
    pub max: usize,
    /// Whether the rules score sets (for [`crate::policy::greedy_subset`]).
    pub scored: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_read_old_records_and_write_picks_only_when_there_are_some() {
        let plain: Choice = serde_json::from_str(r#"{"index": 3}"#).unwrap();
        assert_eq!(plain, Choice::option(3));
        assert_eq!(serde_json::to_string(&plain).unwrap(), r#"{"index":3}"#);
        let set = Choice::subset(2, vec![4, 1]);
        assert_eq!(set.picks, Some(vec![1, 4]));
        assert_eq!(set.to_string(), "2 [1 4]");
        let back: Choice = serde_json::from_str(&serde_json::to_string(&set).unwrap()).unwrap();
        assert_eq!(back, set);
    }
}
