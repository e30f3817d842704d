//! Whether a variant or house rule changes anything: play the same random
//! games (same player counts, same seeds, the same random seats) with and
//! without it, and compare what happened. A rule that assigns a constant no
//! rule reads, or wraps a function and returns what it returned, plays
//! exactly like the game without it; `deckhand check` warns about such a
//! rule.

use crate::config::GameConfig;
use crate::engine::Engine;
use crate::error::Result;
use crate::event::Event;
use crate::game::{ActionRecord, Game, GameResult};
use crate::runner::{Observer, Runner};
use crate::zone::Seat;
use serde_json::Value as Json;

/// What the comparison found.
#[derive(Debug, Clone, PartialEq)]
pub struct VariantEffect {
    /// Games played both ways (up to and including the first that differs).
    pub games: u64,
    /// The first game that differs: its player count, its seed and what
    /// differed first. `None`: every game was the same with and without
    /// the variant.
    pub first_difference: Option<Difference>,
}

impl VariantEffect {
    /// Whether the variant changed nothing in any game played.
    pub fn changed_nothing(&self) -> bool {
        self.first_difference.is_none()
    }
}

/// A game that the variant changed.
#[derive(Debug, Clone, PartialEq)]
pub struct Difference {
    pub players: u32,
    pub seed: u64,
    /// "the moves", "the events", "the result", "the final variables" or
    /// "whether the game could be played".
    pub what: &'static str,
}

/// Everything one game did, as far as the comparison looks.
#[derive(PartialEq)]
struct Outcome {
    history: Vec<ActionRecord>,
    events: Vec<Event>,
    result: GameResult,
    vars: Json,
}

/// Keeps every event of a game, setup included.
#[derive(Default)]
struct Events(Vec<Event>);

impl Observer for Events {
    fn game_start(&mut self, _: &Game, events: &[Event]) -> Result<()> {
        self.0.extend_from_slice(events);
        Ok(())
    }
    fn step(
        &mut self,
        _: &Game,
        _: Seat,
        _: &crate::choice::Choice,
        events: &[Event],
    ) -> Result<()> {
        self.0.extend_from_slice(events);
        Ok(())
    }
}

/// Play one game of `config` with random bots (seeded by its seed) at
/// every seat; an error as its text.
fn play(engine: &Engine, config: GameConfig) -> std::result::Result<Outcome, String> {
    let mut events = Events::default();
    let (players, seed) = (config.players, config.seed);
    let (game, result) = Runner::random(players, seed)
        .observe(&mut events)
        .run(engine, config, true)
        .map_err(|e| e.to_string())?;
    let vars = game.vars().map_err(|e| e.to_string())?;
    Ok(Outcome {
        history: game.history().to_vec(),
        events: events.0,
        result,
        vars,
    })
}

/// Which part of two outcomes differs first.
fn first_change(
    without: &std::result::Result<Outcome, String>,
    with: &std::result::Result<Outcome, String>,
) -> Option<&'static str> {
    match (without, with) {
        (Ok(a), Ok(b)) => {
            if a.history != b.history {
                Some("the moves")
            } else if a.events != b.events {
                Some("the events")
            } else if a.result != b.result {
                Some("the result")
            } else if a.vars != b.vars {
                Some("the final variables")
            } else {
                None
            }
        }
        (Err(a), Err(b)) if a == b => None,
        _ => Some("whether the game could be played"),
    }
}

/// Play `games` random games at each player count of `players`, on seeds
/// `base.seed`, `base.seed + 1` ..., once as `base` says and once with
/// `variant` applied after `base.variants`, and compare the moves, the
/// events, the results and the final `game.vars`. Stops at the first game
/// that differs. A game that fails the same way both times counts as the
/// same; one that fails only one way is a difference. The house-rule
/// files' text comes from `base.sources` (or the file, when it has none).
pub fn compare(
    engine: &Engine,
    base: &GameConfig,
    variant: &str,
    players: &[u32],
    games: u64,
) -> VariantEffect {
    let mut played = 0;
    for &p in players {
        for g in 0..games {
            let mut without = base.clone();
            without.players = p;
            without.seed = base.seed.wrapping_add(g);
            let mut with = without.clone();
            with.variants.push(variant.to_string());
            let a = play(engine, without);
            let b = play(engine, with);
            played += 1;
            if let Some(what) = first_change(&a, &b) {
                return VariantEffect {
                    games: played,
                    first_difference: Some(Difference {
                        players: p,
                        seed: base.seed.wrapping_add(g),
                        what,
                    }),
                };
            }
        }
    }
    VariantEffect {
        games: played,
        first_difference: None,
    }
}
