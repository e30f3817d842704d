//! A hint for a person: the information-set search ([`crate::ismcts`]) run
//! for the seat to move as independent searches on parallel threads (root
//! parallelism), their trees merged, and reported per option with a 95%
//! interval and the line of play the search expects after it.
//!
//! The searches are always the same [`SEARCHES`], each with its own stream
//! drawn from the game's seed, the step and the search's number, and an
//! equal share of the playouts: the same position, seed and playout count
//! give the same hint whether the searches ran side by side or one after
//! another (with a time budget, each search gets the whole time instead,
//! and the hint is not reproducible).

use crate::budget::Budget;
use crate::ismcts::{self, Tree};
use crate::recipe::Recipe;
use deckhand_engine::cancel::Cancel;
use deckhand_engine::error::{CoreError, Result};
use deckhand_engine::game::Game;
use deckhand_engine::rng::GameRng;
use deckhand_engine::zone::Seat;
use serde::{Deserialize, Serialize};

/// Independent searches a hint merges (one per core of a 2-core machine).
pub const SEARCHES: u32 = 2;

/// Moves of the expected line shown after each option.
const LINE_DEPTH: usize = 4;

/// What the search found about one option.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OptionHint {
    /// The option's 1-based index.
    pub index: usize,
    /// The option in words.
    pub text: String,
    /// Playouts through it, over every search.
    pub playouts: u32,
    /// Their mean value for the seat (share of wins, or the rules'
    /// evaluation at the end of the round).
    pub mean: f64,
    /// Half-width of the mean's 95% interval (normal approximation: 1.96
    /// standard errors); `None` with fewer than two playouts.
    pub half_width: Option<f64>,
    /// The moves the search expects next, each with the seat that makes it
    /// and its share of the playouts through the move before.
    pub line: Vec<(Seat, String, f64)>,
}

/// A hint: every option of the pending decision, best first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hint {
    pub seat: Seat,
    /// Playouts in all.
    pub playouts: u32,
    /// Whether the searches ran on parallel threads.
    pub parallel: bool,
    pub options: Vec<OptionHint>,
}

/// The stream of search number `k` of the hint at this position.
fn stream(game: &Game, seat: Seat, k: u32) -> GameRng {
    let step = game.history().len() as u64 + 1;
    GameRng::derived(
        game.config().seed ^ step.wrapping_mul(0x9E37_79B9_7F4A_7C15),
        3000 + u64::from(seat) + 1000 * u64::from(k),
    )
}

/// Search `k`'s share of `budget`.
fn share(budget: Budget, k: u32) -> Budget {
    match budget {
        Budget::Iterations(n) => {
            let base = n / SEARCHES;
            let extra = u32::from(k < n % SEARCHES);
            Budget::Iterations((base + extra).max(1))
        }
        time => time,
    }
}

/// The hint for the seat to move, within `budget` (over all searches);
/// every search stops with [`CoreError::Cancelled`] between two iterations
/// once `cancel` is set.
pub fn hint(game: &Game, budget: Budget, cancel: Option<&Cancel>) -> Result<Hint> {
    let (seat, _) = game
        .pending()
        .ok_or_else(|| CoreError::Rule("the game is over".into()))?;
    let decision = game
        .decision()?
        .ok_or_else(|| CoreError::Rule("the game is over".into()))?;
    let (trees, parallel) = searches(game, seat, budget, cancel)?;
    let mut merged = Tree::new(seat);
    for t in &trees {
        merged.merge(t);
    }
    let keys = game.option_keys(seat)?;
    let mut options: Vec<OptionHint> = decision
        .options
        .iter()
        .map(|o| {
            let key = keys.get(o.index - 1).map_or("", String::as_str);
            let node = merged.nodes[0]
                .children
                .iter()
                .copied()
                .find(|&c| merged.nodes[c].key == key);
            OptionHint {
                index: o.index,
                text: o.text.clone(),
                playouts: node.map_or(0, |c| merged.nodes[c].visits),
                mean: node.map_or(0.0, |c| merged.nodes[c].mean()),
                half_width: node.and_then(|c| merged.nodes[c].half_width()),
                line: node.map_or(Vec::new(), |c| merged.principal_line(c, LINE_DEPTH)),
            }
        })
        .collect();
    // Options with the same text are one move to the search: keep the first.
    let mut seen = Vec::new();
    options.retain(|o| {
        let fresh = !seen.contains(&o.text);
        seen.push(o.text.clone());
        fresh
    });
    options.sort_by(|a, b| {
        b.playouts
            .cmp(&a.playouts)
            .then(b.mean.total_cmp(&a.mean))
            .then(a.index.cmp(&b.index))
    });
    Ok(Hint {
        seat,
        playouts: merged.nodes[0].visits,
        parallel,
        options,
    })
}

/// Every search's tree, search 0 first, and whether they ran side by side:
/// search 0 on this thread, the others on threads of their own when the
/// machine has more than one core, each in its own VM with the game
/// rebuilt from its log; a search whose thread could not rebuild the
/// position runs here afterwards, with the same stream.
fn searches(
    game: &Game,
    seat: Seat,
    budget: Budget,
    cancel: Option<&Cancel>,
) -> Result<(Vec<Tree>, bool)> {
    let run_here = |k: u32| {
        let mut rng = stream(game, seat, k);
        ismcts::search(game, &mut rng, share(budget, k), None, cancel)
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if cores < 2 {
        let trees = (0..SEARCHES).map(run_here).collect::<Result<Vec<_>>>()?;
        return Ok((trees, false));
    }
    let recipe = Recipe::of(game)?;
    let rngs: Vec<GameRng> = (0..SEARCHES).map(|k| stream(game, seat, k)).collect();
    let (first, helped) = std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..SEARCHES)
            .map(|k| {
                let recipe = &recipe;
                let mut rng = rngs[k as usize].clone();
                let cancel = cancel.cloned();
                scope.spawn(move || -> Option<Result<Tree>> {
                    let g = recipe.rebuild()?;
                    Some(ismcts::search(
                        &g,
                        &mut rng,
                        share(budget, k),
                        None,
                        cancel.as_ref(),
                    ))
                })
            })
            .collect();
        let first = run_here(0);
        let helped: Vec<_> = helpers
            .into_iter()
            .map(|h| h.join().ok().flatten())
            .collect();
        (first, helped)
    });
    let mut trees = vec![first?];
    let mut parallel = true;
    for (k, tree) in (1..SEARCHES).zip(helped) {
        trees.push(match tree {
            Some(t) => t?,
            None => {
                parallel = false;
                run_here(k)?
            }
        });
    }
    Ok((trees, parallel))
}
