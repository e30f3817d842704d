//! A search bot for any game: determinised Monte Carlo. At each decision it
//! repeatedly
//!
//! 1. deals the cards its seat cannot place at random, each among the unseen
//!    cards of its back and where the rules allow it (`rules.may_hold`;
//!    [`Game::determinized`], [`Game::guessing`]);
//! 2. tries its options still in on that deal, each on the same guess and
//!    the same random stream (common random numbers);
//! 3. plays on: with random moves, or with a bot of the game's script (the
//!    one named, `mc:N:greedy`; else the rules' `playout_bot`, for games
//!    where random play is a poor model; `mc:N:random` forces random moves);
//! 4. scores the playout: with the rules' `evaluate(game, seat)` (0..1) at
//!    the end of the round it started in when the rules give one (a round
//!    of play says more about one card than a whole game), else at the end
//!    of the game: 1 for a win, 1/k for a win shared by k seats, 0 otherwise.
//!
//! Which options are still in is decided by sequential halving, the root
//! `ismcts` has too (`halving.rs`): the budget is cut into ⌈log₂ k⌉
//! rounds for k options, and after each round the better half by mean
//! stays in. It plays the option tried most (of the last two, the better
//! mean; then the first). It knows no game: it needs only the pending
//! decision, forks, the round count, and the result or evaluation.
//!
//! An option that asks for a set of cards is searched without listing its
//! sets: it stands for a few candidate sets, each searched like an option
//! ([`SAMPLED_SETS`] built at random card by card, and the set the rules'
//! score builds greedily when they give a score; see [`deckhand_engine::choice`]),
//! each halved like an option. Playouts choose sets as the random bot does.

use crate::budget::Budget;
use crate::halving::{sequential_halving, Arm};
use deckhand_engine::cancel::{self, Cancel};
use deckhand_engine::choice::Choice;
use deckhand_engine::error::{CoreError, Result};
use deckhand_engine::game::Game;
use deckhand_engine::policy::{build_subset, greedy_subset};
use deckhand_engine::rng::GameRng;

/// Playouts per decision when the bot's name gives no number (`mc`).
pub const DEFAULT_ITERATIONS: u32 = 200;

/// A playout longer than this many steps counts as a draw (a game whose
/// random play may not end).
const MAX_PLAYOUT_STEPS: usize = 100_000;

/// Random sets searched for an option that asks for cards (besides the
/// greedy one, when the rules score sets); equal sets count once.
pub const SAMPLED_SETS: usize = 4;

/// What the search found about one option.
#[derive(Debug, Clone, PartialEq)]
pub struct OptionStats {
    /// The option's 1-based index.
    pub index: usize,
    /// For an option that asks for cards, the set searched (positions).
    pub picks: Option<Vec<usize>>,
    /// Playouts that tried it.
    pub playouts: u32,
    /// Their mean value: the share of wins (or the rules' evaluation).
    pub mean: f64,
}

/// Choose a 1-based option for the seat to move within `budget` (a number
/// of playouts or a time), each playout played by `policy` (a script bot's
/// name) or at random; stops with [`CoreError::Cancelled`] between two
/// playouts once `cancel` is set.
pub fn choose(
    game: &Game,
    rng: &mut GameRng,
    budget: impl Into<Budget>,
    policy: Option<&str>,
    cancel: Option<&Cancel>,
) -> Result<Choice> {
    choose_from(game, rng, budget, policy, cancel, Settings::default())
}

/// What the playouts of `mc` start from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Guesses {
    /// Guesses of the cards the searching seat cannot place: a player.
    #[default]
    OwnView,
    /// Every hand as it is; only the cards no seat knows (a deck's order)
    /// are guessed ([`Game::guessing_every_seat`]): `seeall`, a bot for
    /// measurement only (how much knowing the other hands is worth at
    /// most), never a player.
    EveryHand,
}

/// How `mc` searches besides its budget and playout bot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Settings<'a> {
    /// What they start from.
    pub guesses: Guesses,
    /// Cut each playout after this many moves past the searched one (or
    /// at the round's end, if sooner) and take the rules' `evaluate`
    /// (`mc:100ms:cut=8`); `None`: to the round's end (with `evaluate`)
    /// or the game's.
    pub cut: Option<u32>,
    /// The options it may choose (1-based; every option when `None`): a
    /// bot barred from a mechanic searches only what it may play.
    pub allowed: Option<&'a [usize]>,
    /// Weigh the guesses by the other seats' moves (`mc:200:infer`,
    /// [`crate::infer`]), with this slack in percent (how often the model
    /// of a player plays at random rather than as the greedy bot).
    pub infer: Option<u32>,
}

/// [`choose`] with `settings`.
pub fn choose_from(
    game: &Game,
    rng: &mut GameRng,
    budget: impl Into<Budget>,
    policy: Option<&str>,
    cancel: Option<&Cancel>,
    settings: Settings,
) -> Result<Choice> {
    let stats = analyse_from(
        game,
        rng,
        budget,
        playout_policy(game, policy),
        cancel,
        settings,
    )?;
    let best = stats
        .iter()
        .enumerate()
        .max_by(|(i, a), (j, b)| {
            a.playouts
                .cmp(&b.playouts)
                .then(a.mean.total_cmp(&b.mean))
                .then(j.cmp(i))
        })
        .map(|(_, s)| Choice {
            index: s.index,
            picks: s.picks.clone(),
        });
    best.ok_or_else(|| CoreError::Rule("nothing to choose".into()))
}

/// What the search tries at the pending decision: every ordinary option
/// (of those `allowed`, when given), and for an option that asks for cards
/// a few sets of it.
fn moves(game: &Game, rng: &mut GameRng, allowed: Option<&[usize]>) -> Result<Vec<Choice>> {
    let (_, n) = game
        .pending()
        .ok_or_else(|| CoreError::Rule("the game is over".into()))?;
    let mut out = Vec::with_capacity(n);
    for index in 1..=n {
        if allowed.is_some_and(|a| !a.contains(&index)) {
            continue;
        }
        if !game.has_subsets() || game.subset(index)?.is_none() {
            out.push(Choice::option(index));
            continue;
        }
        let mut sets: Vec<Vec<usize>> = Vec::new();
        if let Some(best) = greedy_subset(game, index, rng)? {
            sets.push(best);
        }
        for _ in 0..SAMPLED_SETS {
            let set = build_subset(game, index, rng)?;
            if !sets.contains(&set) {
                sets.push(set);
            }
        }
        out.extend(sets.into_iter().map(|p| Choice::subset(index, p)));
    }
    Ok(out)
}

/// The script bot that plays the playouts: the one asked for (`random`
/// for none), else the rules' `playout_bot`.
pub(crate) fn playout_policy<'a>(game: &'a Game, asked: Option<&'a str>) -> Option<&'a str> {
    match asked {
        Some("random") => None,
        Some(bot) => Some(bot),
        None => game.rules_info().playout_bot.as_deref(),
    }
}

/// The bot of the rules that models the other players for inference: the
/// game's `greedy` bot, else the bot playing the playouts.
fn inference_model<'a>(game: &'a Game, policy: Option<&'a str>) -> Result<&'a str> {
    if game.rules_info().bots.iter().any(|b| b == "greedy") {
        return Ok("greedy");
    }
    policy.ok_or_else(|| {
        CoreError::Rule(
            "inference (infer) models the other players by a bot of the rules: these rules \
             define no greedy bot and the playouts are random; name one (mc:200:BOT:infer)"
                .into(),
        )
    })
}

/// Run the search for the seat to move within `budget` and report every
/// move it tried (in option order; an option that asks for cards once for
/// each set tried), playouts played by `policy` (a script bot) or at
/// random. With a single move there is nothing to search: it gets no
/// playouts. Stops with [`CoreError::Cancelled`] between two playouts once
/// `cancel` is set.
pub fn analyse(
    game: &Game,
    rng: &mut GameRng,
    budget: impl Into<Budget>,
    policy: Option<&str>,
    cancel: Option<&Cancel>,
) -> Result<Vec<OptionStats>> {
    analyse_from(game, rng, budget, policy, cancel, Settings::default())
}

/// [`analyse`] with `settings`.
pub fn analyse_from(
    game: &Game,
    rng: &mut GameRng,
    budget: impl Into<Budget>,
    policy: Option<&str>,
    cancel: Option<&Cancel>,
    settings: Settings,
) -> Result<Vec<OptionStats>> {
    let moves = moves(game, rng, settings.allowed)?;
    let (seat, _) = game
        .pending()
        .ok_or_else(|| CoreError::Rule("the game is over".into()))?;
    let n = moves.len();
    let mut arms = vec![Arm::default(); n];
    if n > 1 {
        // Playouts stop at the end of this round when the rules can evaluate.
        let horizon = match game.evaluate(seat)? {
            Some(_) => Some(game.rounds()?),
            None => None,
        };
        if settings.cut.is_some() && horizon.is_none() {
            return Err(CoreError::Rule(
                "a search that cuts its playouts (cut=K) scores them by the rules' \
                 evaluate(game, seat), which these rules do not define"
                    .into(),
            ));
        }
        let cut = settings.cut.map(|c| c as usize);
        let guessing = match settings.guesses {
            Guesses::OwnView => game.guessing(seat)?,
            Guesses::EveryHand => game.guessing_every_seat()?,
        };
        let budget = budget.into();
        let weighed = match settings.infer {
            Some(slack) if settings.guesses == Guesses::OwnView => {
                let model = inference_model(game, policy)?;
                let count = crate::infer::candidates_for(match budget {
                    Budget::Iterations(n) => Some(n),
                    Budget::Time(_) => None,
                });
                let slack = f64::from(slack) / 100.0;
                crate::infer::Weighed::new(game, seat, &guessing, model, slack, count, rng)?
            }
            _ => None,
        };
        // One copy of the game, made again for every guess.
        let mut scratch = None;
        arms = sequential_halving(n, budget, rng, |m, deal| {
            cancel::check(cancel)?;
            let g = match &weighed {
                Some(w) => w.guess(game, seat, deal, &guessing, &mut scratch)?,
                None => game.determinized_into(seat, deal, &guessing, &mut scratch)?,
            };
            g.apply_choice(&moves[m])?;
            playout(g, seat, policy, horizon, cut)
        })?;
    }
    Ok(moves
        .into_iter()
        .zip(arms)
        .map(|(m, arm)| OptionStats {
            index: m.index,
            picks: m.picks,
            playouts: arm.playouts,
            mean: arm.mean(),
        })
        .collect())
}

/// The search's view of the pending decision for the seat to move, for a
/// person who asks for a hint: `iterations` random playouts from what that
/// seat has seen, with a stream drawn from the game's seed and step (the
/// same position gets the same hint). `cancel` stops it between playouts.
pub fn hint(game: &Game, iterations: u32, cancel: Option<&Cancel>) -> Result<Vec<OptionStats>> {
    let (seat, _) = game
        .pending()
        .ok_or_else(|| CoreError::Rule("the game is over".into()))?;
    let step = game.history().len() as u64 + 1;
    let mut rng = GameRng::derived(
        game.config().seed ^ step.wrapping_mul(0x9E37_79B9_7F4A_7C15),
        3000 + u64::from(seat),
    );
    analyse(
        game,
        &mut rng,
        iterations,
        playout_policy(game, None),
        cancel,
    )
}

/// Play `g` to the end, or past round `horizon` when given, or for `cut`
/// moves when given; the value of where it stopped for `seat`.
///
/// This is the search bot's own rollout inside one decision, not a game
/// being played: it stops at a round's end, counts a game that runs too
/// long as a draw, and is the hot path of `mc`. So it runs inside one call
/// into the rules ([`Game::playout`]) rather than going through the
/// [`Runner`](crate::Runner), which plays every game.
fn playout(
    g: &mut Game,
    seat: u32,
    policy: Option<&str>,
    horizon: Option<u32>,
    cut: Option<usize>,
) -> Result<f64> {
    Ok(match g.playout(horizon, policy, MAX_PLAYOUT_STEPS, cut)? {
        Some(values) => (seat as usize)
            .checked_sub(1)
            .and_then(|i| values.get(i))
            .copied()
            .unwrap_or(0.0),
        None => 0.5,
    })
}
