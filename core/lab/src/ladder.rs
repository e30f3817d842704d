//! A ladder: bots rated at mixed tables. Every set of bots that fills a
//! table plays in every order of its seats, every table on the same
//! deals (game `i` of every table starts from seed `first + i`), and the
//! bots' ratings are fitted from the finishing places of every game
//! ([`crate::ratings`]). A ladder is a run of the lab whose arms are its
//! tables, so it is sharded and merged as any run is.

use crate::identity::Identity;
use crate::ratings::{self, Ratings, RatingsError};
use crate::run::Tally;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The most tables (sets of bots in each order of their seats) one
/// ladder plays: six bots at six players.
pub const MAX_TABLES: u128 = 720;

/// What a ladder rates: its bots as given, its tables (per table, the
/// bot at each seat, as a place in `bots`) and the bot fixed at 0.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LadderSpec {
    pub bots: Vec<String>,
    pub tables: Vec<Vec<usize>>,
    pub anchor: usize,
}

/// Why a ladder cannot be made or reported.
#[derive(Debug, Error, PartialEq)]
pub enum LadderError {
    #[error("a ladder rates two bots or more (got {0}): give --bot twice or more")]
    TooFewBots(usize),
    #[error(
        "{bots} bots at {players} players make {tables} tables (every set of {players} bots \
         in every order of their seats): at most {MAX_TABLES}; rate fewer bots at once"
    )]
    TooManyTables {
        bots: usize,
        players: u32,
        tables: u128,
    },
    #[error("the run is not a ladder (its shards were made by `deckhand {0}`)")]
    NotLadder(String),
    #[error("the ladder's places of {found} games, of {expected}")]
    Missing { found: usize, expected: u64 },
    #[error("{0}")]
    Ratings(#[from] RatingsError),
}

impl LadderSpec {
    /// The ladder of `bots` at `players` seats: its tables
    /// ([`ratings::tables`]) and its anchor, `random` when it is one of
    /// the bots, else the first bot.
    pub fn new(bots: Vec<String>, players: u32) -> Result<LadderSpec, LadderError> {
        if bots.len() < 2 {
            return Err(LadderError::TooFewBots(bots.len()));
        }
        let count = ratings::table_count(bots.len(), players as usize);
        if count > MAX_TABLES {
            return Err(LadderError::TooManyTables {
                bots: bots.len(),
                players,
                tables: count,
            });
        }
        let tables = ratings::tables(bots.len(), players as usize);
        let anchor = bots.iter().position(|b| b == "random").unwrap_or(0);
        Ok(LadderSpec {
            bots,
            tables,
            anchor,
        })
    }

    /// The bots' names made unique (` #2` for a name given again).
    pub fn names(&self) -> Vec<String> {
        ratings::unique_names(&self.bots)
    }

    /// The seats of each table by the bots' names.
    pub fn table_names(&self) -> Vec<Vec<String>> {
        let names = self.names();
        self.tables
            .iter()
            .map(|t| t.iter().map(|&b| names[b].clone()).collect())
            .collect()
    }
}

/// A ladder's report.
#[derive(Debug, Clone, Serialize)]
pub struct LadderReport {
    pub game: String,
    pub title: String,
    pub players: u32,
    /// The bots as given.
    pub bots: Vec<String>,
    /// Each table's seats, seat 1 first, by the bots' names.
    pub tables: Vec<Vec<String>>,
    /// Deals (seeds `first_seed` on), each played at every table.
    pub deals: u64,
    /// Games in all: deals times tables.
    pub games: u64,
    pub first_seed: u64,
    pub ratings: Ratings,
    pub elapsed_s: f64,
    pub games_per_s: f64,
    pub threads: usize,
}

/// The report of a ladder's run (or of its shards merged): `identity`
/// says what it was, `tally` holds the places of every game.
pub fn report(
    identity: &Identity,
    tally: &Tally,
    elapsed_s: f64,
    threads: usize,
) -> Result<LadderReport, LadderError> {
    let spec: LadderSpec = identity
        .ladder
        .clone()
        .filter(|_| identity.command == "ladder")
        .and_then(|v| serde_json::from_value(v).ok())
        .ok_or_else(|| LadderError::NotLadder(identity.command.clone()))?;
    if tally.placings.len() as u64 != identity.games {
        return Err(LadderError::Missing {
            found: tally.placings.len(),
            expected: identity.games,
        });
    }
    let fit = ratings::fit(&spec.tables, &tally.placings, spec.bots.len(), spec.anchor)?;
    let games = identity.games * spec.tables.len() as u64;
    Ok(LadderReport {
        game: identity.game.clone(),
        title: identity.title.clone(),
        players: identity.arms.first().map_or(0, |a| a.config.players),
        bots: spec.bots.clone(),
        tables: spec.table_names(),
        deals: identity.games,
        games,
        first_seed: identity.first_seed,
        ratings: Ratings::of(&fit, &spec.bots),
        elapsed_s,
        games_per_s: games as f64 / elapsed_s.max(1e-9),
        threads,
    })
}
