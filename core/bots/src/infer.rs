//! Inference for `mc`: its guesses at the hidden cards weighed by how
//! likely the moves the other seats have made were under each guess.
//!
//! A plain guess deals the unseen cards at random where the rules allow
//! them. But the other seats chose their moves knowing their own hands:
//! a seat that led a low card probably holds no high one it wanted to
//! play. So, at each decision,
//!
//! 1. the game is replayed from its start, and the positions before the
//!    other seats' latest moves of this round (at most [`MOVES_READ`], each
//!    with more than one option) are kept;
//! 2. a number of candidate guesses are drawn as `mc` draws them;
//! 3. each candidate is read back into those positions (the cards it swaps
//!    today swapped there too: [`deckhand_engine::game::PastPosition`]),
//!    and the game's greedy bot is asked what that seat would have played
//!    there. The model of a player is a *softened* greedy bot: with
//!    probability 1 − s it plays what the greedy bot plays, else any legal
//!    option at random (s, the slack, is 0.5 unless given: `infer=0.3`).
//!    A candidate's weight is the product, over the moves read, of the
//!    chance that model gives the move that was made (0 ... 1 over the
//!    options; a move that is not legal in the candidate's position gets
//!    the chance of a random one, so that no rule the model missed can rule
//!    out every candidate);
//! 4. each playout's guess is drawn among the candidates by weight, and
//!    plays on with a random stream of its own.
//!
//! It knows no game: it needs the game's log, a bot of the rules to model
//! the players by, and how the seat tells options apart
//! ([`Game::option_keys`]). What it cannot know: a seat that does not play
//! like the greedy bot is read wrongly, and the slack says how little the
//! model is trusted. Cards that the rules keep outside the zones are not
//! read back. A log that does not replay under the rules as they are now
//! (rules edited at the REPL since) leaves the guesses unweighed.

use deckhand_engine::error::{CoreError, Result};
use deckhand_engine::game::{Game, Guessing, PastPosition};
use deckhand_engine::rng::GameRng;
use deckhand_engine::zone::Seat;

/// The most moves of other seats read back per decision (the latest).
pub const MOVES_READ: usize = 24;

/// The slack when none is given: how often the model of a player plays at
/// random rather than as the greedy bot.
pub const DEFAULT_SLACK_PERCENT: u32 = 50;

/// Candidate guesses for a search of `playouts` playouts (a time budget
/// counts as [`TIMED_CANDIDATES`]).
pub fn candidates_for(playouts: Option<u32>) -> usize {
    match playouts {
        Some(n) => (n as usize / 4).clamp(8, 32),
        None => TIMED_CANDIDATES,
    }
}

/// Candidate guesses of a search on a time budget.
pub const TIMED_CANDIDATES: usize = 24;

/// One move another seat made, and what the searching seat saw of it.
struct Observed {
    position: PastPosition,
    /// The chosen option's key from the searching seat's view.
    key: String,
}

/// The candidates of one decision with their weights.
pub struct Weighed {
    /// Seed of each candidate's guess.
    seeds: Vec<u64>,
    /// Running sum of the weights (the last is the total).
    cumulative: Vec<f64>,
}

impl Weighed {
    /// Draw `count` candidate guesses of `game` for `seat` and weigh each by
    /// the other seats' moves under the softened `model` bot (`slack`, 0..1).
    /// `None` when no move of another seat is there to read, or the log
    /// does not replay (then every guess weighs the same).
    pub fn new(
        game: &Game,
        seat: Seat,
        guessing: &Guessing,
        model: &str,
        slack: f64,
        count: usize,
        rng: &mut GameRng,
    ) -> Result<Option<Weighed>> {
        let observed = match read_moves(game, seat) {
            Ok(observed) if !observed.is_empty() => observed,
            Err(CoreError::Cancelled) => return Err(CoreError::Cancelled),
            // Nothing to read, or a log that does not replay under these
            // rules (rules edited since the moves were made): the guesses
            // weigh the same, as plain `mc`'s.
            _ => return Ok(None),
        };
        let mut scratch = None;
        let mut past_scratch = None;
        let mut seeds = Vec::with_capacity(count);
        let mut logs = Vec::with_capacity(count);
        for _ in 0..count {
            let seed = rng.next_u64();
            let guess = game.determinized_into(
                seat,
                &mut GameRng::derived(seed, 0),
                guessing,
                &mut scratch,
            )?;
            let map = game.swapped_in(guess)?;
            let mut log = 0.0;
            for o in &observed {
                let chance = match chance_of(o, &map, seat, model, slack, seed, &mut past_scratch) {
                    Ok(chance) => chance,
                    // The rules cannot pose that decision with the guessed
                    // cards (a hand with no legal move): the guess does not
                    // fit the move made, like a move that is not legal.
                    Err(CoreError::Script(_) | CoreError::Rule(_)) => {
                        slack / o.position.game().pending().map_or(1, |(_, n)| n).max(1) as f64
                    }
                    Err(e) => return Err(e),
                };
                log += chance.max(f64::MIN_POSITIVE).ln();
            }
            seeds.push(seed);
            logs.push(log);
        }
        let top = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mut total = 0.0;
        let cumulative = logs
            .iter()
            .map(|l| {
                total += (l - top).exp();
                total
            })
            .collect();
        Ok(Some(Weighed { seeds, cumulative }))
    }

    /// The guess of one playout, drawn by weight with `deal` (the deal's
    /// generator: every move of a deal gets the same guess), made in
    /// `scratch`, its own generator reseeded from `deal`.
    pub fn guess<'s>(
        &self,
        game: &Game,
        seat: Seat,
        deal: &mut GameRng,
        guessing: &Guessing,
        scratch: &'s mut Option<Game>,
    ) -> Result<&'s mut Game> {
        let total = self.cumulative.last().copied().unwrap_or(0.0);
        let at = (deal.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
        let i = self
            .cumulative
            .partition_point(|&c| c <= at)
            .min(self.seeds.len() - 1);
        let g = game.determinized_into(
            seat,
            &mut GameRng::derived(self.seeds[i], 0),
            guessing,
            scratch,
        )?;
        g.reseed(deal.next_u64())?;
        Ok(g)
    }

    /// The effective number of candidates (Kish): how many equally weighed
    /// guesses the weights are worth.
    pub fn effective(&self) -> f64 {
        let mut prev = 0.0;
        let (mut sum, mut squares) = (0.0, 0.0);
        for &c in &self.cumulative {
            let w = c - prev;
            prev = c;
            sum += w;
            squares += w * w;
        }
        if squares > 0.0 {
            sum * sum / squares
        } else {
            0.0
        }
    }
}

/// The chance the softened `model` gives the move `o` was, with the
/// cards swapped as `map` says (a candidate guess read back).
fn chance_of(
    o: &Observed,
    map: &std::collections::BTreeMap<u32, u32>,
    seat: Seat,
    model: &str,
    slack: f64,
    seed: u64,
    scratch: &mut Option<Game>,
) -> Result<f64> {
    let past = o.position.relabelled(map, scratch)?;
    let n = past.pending().map_or(1, |(_, n)| n).max(1) as f64;
    let keys = past.option_keys(seat)?;
    if !keys.contains(&o.key) {
        return Ok(slack / n);
    }
    let stream = GameRng::derived(seed, 1 + o.position.step as u64);
    let modelled = past.script_bot_choice(model, stream)?;
    Ok(
        if keys.get(modelled.index.wrapping_sub(1)) == Some(&o.key) {
            (1.0 - slack) + slack / n
        } else {
            slack / n
        },
    )
}

/// The other seats' latest moves of this round that had a choice, with
/// the positions before them.
fn read_moves(game: &Game, seat: Seat) -> Result<Vec<Observed>> {
    let round = game.rounds()?;
    let from = game.history().len().saturating_sub(4 * MOVES_READ);
    let mut positions = game.past_positions(|past, step, record| {
        Ok(step >= from
            && record.seat != seat
            && past.pending().is_some_and(|(_, n)| n > 1)
            && past.rounds()? == round)
    })?;
    let skip = positions.len().saturating_sub(MOVES_READ);
    positions
        .drain(skip..)
        .map(|position| {
            let key = position
                .game()
                .option_key(seat, position.record.index)
                .map_err(|e| CoreError::Rule(format!("reading a past move: {e}")))?;
            Ok(Observed { position, key })
        })
        .collect()
}
