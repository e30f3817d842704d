//! What a seat chooses at a decision, and how the built-in bots choose.
//!
//! Most options are chosen by their index alone. An option with a `choose`
//! field (see [`crate::meta`]) asks for a set of cards as well: the seat
//! picks cards among the option's candidates, the rules check the set
//! (`rules.choices`), and the choice is one decision, recorded as one
//! [`Choice`] with its picks. Nobody lists the sets: a set of 34 cards has
//! 2^34 parts.
//!
//! The bots build sets card by card ([`build_subset`]): the cards in a
//! random order, each kept when the set with it still passes the rules'
//! check, up to a size drawn uniformly between the option's bounds. So the
//! rules' check must accept the parts of the sets it accepts (bounds
//! aside): "cards of one cargo type", "cards of one suit" do; a check that
//! does not is tried again with other orders, and a bot that finds no set
//! reports it. With a score (`rules.choices[..].score`), [`greedy_subset`]
//! adds at each step the card that scores best, while it improves.
//!
//! Reaction windows are decisions too: a decision whose `window` field
//! names its kind, with one option marked `pass = true`. The random bot
//! passes there with probability [`WINDOW_PASS_PER_MILLE`], so that random
//! simulations are not flooded with responses.

use crate::error::{CoreError, Result};
use crate::game::Game;
use crate::rng::GameRng;
use serde::{Deserialize, Serialize};

/// How often the random bot passes in a reaction window, in thousandths:
/// 9 times in 10. Otherwise it picks uniformly among all the options,
/// passing included.
pub const WINDOW_PASS_PER_MILLE: u64 = 900;

/// How many orders the bots try before giving up on finding a set.
const BUILD_TRIES: usize = 16;

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
    /// Whether the rules score sets (for [`greedy_subset`]).
    pub scored: bool,
}

/// A random order of the positions 1..=n.
fn shuffled(n: usize, rng: &mut GameRng) -> Vec<usize> {
    let mut order: Vec<usize> = (1..=n).collect();
    rng.shuffle(&mut order);
    order
}

/// Build a valid set for option `index` card by card (see the module
/// notes): a target size uniform in the option's bounds, the cards in a
/// random order, each kept while the set passes the check. Tries several
/// orders; an error when none gives a valid set.
pub fn build_subset(game: &Game, index: usize, rng: &mut GameRng) -> Result<Vec<usize>> {
    let spec = game
        .subset(index)?
        .ok_or_else(|| CoreError::Rule(format!("option {index} does not ask for cards")))?;
    if spec.min > spec.max {
        return Err(CoreError::Rule(format!(
            "option {index} asks for at least {} of {} cards",
            spec.min,
            spec.from.len()
        )));
    }
    for _ in 0..BUILD_TRIES {
        let target = spec.min + rng.below((spec.max - spec.min) as u64 + 1) as usize;
        let order = shuffled(spec.from.len(), rng);
        if let Some(picks) = game.build_subset(index, &order, target, false)? {
            return Ok(picks);
        }
    }
    Err(CoreError::Rule(format!(
        "found no valid set of cards for option {index} in {BUILD_TRIES} tries (the check \
         should accept the parts of the sets it accepts)"
    )))
}

/// The set the rules' score likes best, built greedily (see the module
/// notes), ties broken by a random order; `None` when the rules give no
/// score or the set is not valid.
pub fn greedy_subset(game: &Game, index: usize, rng: &mut GameRng) -> Result<Option<Vec<usize>>> {
    let Some(spec) = game.subset(index)? else {
        return Ok(None);
    };
    if !spec.scored {
        return Ok(None);
    }
    let order = shuffled(spec.from.len(), rng);
    game.build_subset(index, &order, spec.max, true)
}

/// The random bot's choice: an option uniformly at random (in a reaction
/// window, the pass with probability [`WINDOW_PASS_PER_MILLE`]), and for an
/// option that asks for cards a set built by [`build_subset`].
pub fn random_choice(game: &Game, rng: &mut GameRng) -> Result<Choice> {
    let (_, n) = game
        .pending()
        .ok_or_else(|| CoreError::Rule("the game is over".into()))?;
    if let Some(pass) = game.window_pass() {
        if rng.below(1000) < WINDOW_PASS_PER_MILLE {
            return Ok(Choice::option(pass));
        }
    }
    let index = rng.below(n as u64) as usize + 1;
    if game.has_subsets() && game.subset(index)?.is_some() {
        return Ok(Choice::subset(index, build_subset(game, index, rng)?));
    }
    Ok(Choice::option(index))
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

    #[test]
    fn shuffles_are_orders_of_every_position() {
        let mut rng = GameRng::derived(5, 1);
        let mut o = shuffled(10, &mut rng);
        o.sort_unstable();
        assert_eq!(o, (1..=10).collect::<Vec<_>>());
        assert!(shuffled(0, &mut rng).is_empty());
    }
}
