//! The random bot's policy, which the game's own playouts use too: an
//! option uniformly at random, in a reaction window the pass 9 times in 10,
//! and for an option that asks for cards a set built card by card (see
//! [`crate::policy`] for the whole story).

use super::Game;
use crate::choice::Choice;
use crate::error::{CoreError, Result};
use crate::rng::GameRng;

/// How often the random bot passes in a reaction window, in thousandths:
/// 9 times in 10. Otherwise it picks uniformly among all the options,
/// passing included.
pub const WINDOW_PASS_PER_MILLE: u64 = 900;

/// How many orders the bots try before giving up on finding a set.
const BUILD_TRIES: usize = 16;

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

/// [`random_choice`] among the options `allowed` (1-based, not empty): a
/// random bot barred from the others. A reaction window's pass, when
/// allowed, is taken as often as the unbarred bot takes it.
pub fn random_choice_among(game: &Game, rng: &mut GameRng, allowed: &[usize]) -> Result<Choice> {
    if allowed.is_empty() {
        return random_choice(game, rng);
    }
    if let Some(pass) = game.window_pass().filter(|p| allowed.contains(p)) {
        if rng.below(1000) < WINDOW_PASS_PER_MILLE {
            return Ok(Choice::option(pass));
        }
    }
    let index = allowed[rng.below(allowed.len() as u64) as usize];
    if game.has_subsets() && game.subset(index)?.is_some() {
        return Ok(Choice::subset(index, build_subset(game, index, rng)?));
    }
    Ok(Choice::option(index))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shuffles_are_orders_of_every_position() {
        let mut rng = GameRng::derived(5, 1);
        let mut o = shuffled(10, &mut rng);
        o.sort_unstable();
        assert_eq!(o, (1..=10).collect::<Vec<_>>());
        assert!(shuffled(0, &mut rng).is_empty());
    }
}
