//! The game runner: the one loop that plays a game. Ask the pending
//! decision, let the seat's chooser pick, apply it, tell the observers,
//! repeat until the game ends, a seat without a chooser must choose (a
//! person at the REPL), or the step limit is reached.
//!
//! Everything that plays games goes through it (the REPL, `play`, `sim`,
//! `check`, `replay`, the benches, the tests), and attaches what it needs
//! as [`Observer`]s: the trace writer, statistics, the conformance checks,
//! the REPL's printing of moves and events.

use crate::cancel::Cancel;
use crate::choice::Choice;
use crate::config::GameConfig;
use crate::engine::Engine;
use crate::error::{CoreError, Result};
use crate::event::Event;
use crate::game::{Game, GameResult};
use crate::zone::Seat;

/// How many decisions a game may take when its rules declare no limit
/// (`max_steps` in the game script).
pub const DEFAULT_MAX_STEPS: usize = 200_000;

pub use crate::chooser::{Chooser, Choosing};

/// Something that watches games being played. Every method has a default
/// that does nothing; an error stops the game and is returned by the
/// runner (a failed check).
pub trait Observer {
    /// A game has started (after setup); `events` happened during setup.
    fn game_start(&mut self, game: &Game, events: &[Event]) -> Result<()> {
        let _ = (game, events);
        Ok(())
    }

    /// `seat` chose `choice` at the pending decision, which is still
    /// pending: `game.decision()` gives every option in words,
    /// `game.chosen_value(choice)` what the rules will apply.
    fn decision(&mut self, game: &Game, seat: Seat, choice: &Choice) -> Result<()> {
        let _ = (game, seat, choice);
        Ok(())
    }

    /// The decision was applied; `events` are what it did (card moves,
    /// shuffles, the rules' own events), in order. Empty when the game
    /// records no events.
    fn step(&mut self, game: &Game, seat: Seat, choice: &Choice, events: &[Event]) -> Result<()> {
        let _ = (game, seat, choice, events);
        Ok(())
    }

    /// The game is over.
    fn game_end(&mut self, game: &Game, result: &GameResult) -> Result<()> {
        let _ = (game, result);
        Ok(())
    }
}

/// An observer lent to a runner (`runner.observe(&mut stats)`), so that
/// the caller reads it afterwards.
impl<O: Observer + ?Sized> Observer for &mut O {
    fn game_start(&mut self, game: &Game, events: &[Event]) -> Result<()> {
        (**self).game_start(game, events)
    }
    fn decision(&mut self, game: &Game, seat: Seat, choice: &Choice) -> Result<()> {
        (**self).decision(game, seat, choice)
    }
    fn step(&mut self, game: &Game, seat: Seat, choice: &Choice, events: &[Event]) -> Result<()> {
        (**self).step(game, seat, choice, events)
    }
    fn game_end(&mut self, game: &Game, result: &GameResult) -> Result<()> {
        (**self).game_end(game, result)
    }
}

/// Why [`Runner::play`] stopped.
#[derive(Debug, Clone, PartialEq)]
pub enum Stop {
    /// The game is over.
    Over(GameResult),
    /// A seat with no chooser must choose (apply its choice with
    /// [`Runner::apply`], then play on).
    Waiting(Seat),
}

/// A step that failed: which one, for whom, and why.
#[derive(Debug)]
pub struct StepError {
    /// 1-based number of the step that failed.
    pub step: usize,
    pub seat: Seat,
    /// Whether the seat's chooser failed (a bot) rather than the rules.
    pub choosing: bool,
    pub error: CoreError,
}

impl std::fmt::Display for StepError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = if self.choosing { ", choosing" } else { "" };
        write!(
            f,
            "step {} (seat {}{what}): {}",
            self.step, self.seat, self.error
        )
    }
}

impl std::error::Error for StepError {}

/// Plays games: the seats' choosers, the observers and the step limit.
pub struct Runner<'a> {
    seats: Vec<Option<Box<dyn Chooser + 'a>>>,
    observers: Vec<Box<dyn Observer + 'a>>,
    max_steps: Option<usize>,
    cancel: Option<Cancel>,
}

impl<'a> Runner<'a> {
    /// A runner with a chooser for each seat, seat 1 first (`None`: the
    /// seat's choices are applied from outside, by [`Runner::apply`]).
    pub fn new(seats: Vec<Option<Box<dyn Chooser + 'a>>>) -> Self {
        Runner {
            seats,
            observers: Vec::new(),
            max_steps: None,
            cancel: None,
        }
    }

    /// A runner where `bots[i]` plays seat `i + 1`.
    pub fn with_bots<C: Chooser + 'a>(bots: Vec<C>) -> Self {
        Self::new(
            bots.into_iter()
                .map(|b| Some(Box::new(b) as Box<dyn Chooser + 'a>))
                .collect(),
        )
    }

    /// Random bots at every seat of a `players`-seat game, seeded by `seed`.
    pub fn random(players: u32, seed: u64) -> Self {
        Self::with_bots(
            (1..=players)
                .map(|s| crate::policy::PlainBot::Random.at(seed, s))
                .collect(),
        )
    }

    /// A runner where one chooser picks for every seat of a
    /// `players`-seat game (a test's script of moves, one bot for all).
    pub fn shared(players: u32, chooser: impl Chooser + 'a) -> Self {
        let shared = std::rc::Rc::new(std::cell::RefCell::new(chooser));
        Self::new(
            (0..players)
                .map(|_| {
                    let c = shared.clone();
                    Some(Box::new(Choosing(move |g: &Game| c.borrow_mut().choose(g)))
                        as Box<dyn Chooser + 'a>)
                })
                .collect(),
        )
    }

    /// Add an observer.
    pub fn observe(mut self, observer: impl Observer + 'a) -> Self {
        self.observers.push(Box::new(observer));
        self
    }

    /// Replace the chooser of `seat`.
    pub fn set_seat(&mut self, seat: Seat, chooser: Option<Box<dyn Chooser + 'a>>) {
        let i = seat as usize - 1;
        if self.seats.len() <= i {
            self.seats.resize_with(i + 1, || None);
        }
        self.seats[i] = chooser;
    }

    /// Override the step limit (default: what the rules declare, else
    /// [`DEFAULT_MAX_STEPS`]).
    pub fn max_steps(mut self, n: usize) -> Self {
        self.max_steps = Some(n);
        self
    }

    /// Stop [`Runner::play`] before the next step once `cancel` is set
    /// (a [`StepError`] with [`CoreError::Cancelled`], the game as it
    /// stood after the last step applied).
    pub fn cancel(mut self, cancel: Cancel) -> Self {
        self.cancel = Some(cancel);
        self
    }

    /// The step limit for `game`: the one set with [`Runner::max_steps`],
    /// else what the rules declare, else [`DEFAULT_MAX_STEPS`]. A
    /// [`StepError`] whose step is past it is the game not ending.
    pub fn step_limit(&self, game: &Game) -> usize {
        self.max_steps
            .or(game.rules_info().max_steps)
            .unwrap_or(DEFAULT_MAX_STEPS)
    }

    /// Start a game of `config` (`logging`: record events, needed by
    /// observers that read them) and tell the observers.
    pub fn start(&mut self, engine: &Engine, config: GameConfig, logging: bool) -> Result<Game> {
        let mut game = engine.new_game(config, logging)?;
        self.started(&mut game)?;
        Ok(game)
    }

    /// Tell the observers that `game` (started elsewhere: loaded, replayed)
    /// starts being played now.
    pub fn started(&mut self, game: &mut Game) -> Result<()> {
        let events = game.take_events();
        for o in &mut self.observers {
            o.game_start(game, &events)?;
        }
        Ok(())
    }

    /// Apply option `choice` of the pending decision and tell the
    /// observers (also at the game's end).
    /// When the game ends, its result (computed once, before the
    /// observers' `game_end`) is an error if the rules cannot report it:
    /// the move itself was applied then (`game.history()` has it).
    /// A choice the rules refuse (a set of cards that fails their check)
    /// is an error before any observer hears of it.
    pub fn apply(&mut self, game: &mut Game, choice: impl Into<Choice>) -> Result<()> {
        self.apply_step(game, &choice.into()).map(|_| ())
    }

    /// [`Runner::apply`], giving the result when the game ended.
    fn apply_step(&mut self, game: &mut Game, choice: &Choice) -> Result<Option<GameResult>> {
        let (seat, _) = game
            .pending()
            .ok_or_else(|| CoreError::Rule("the game is over".into()))?;
        if choice.picks.is_some() || game.has_subsets() {
            game.check_choice(choice)?;
        }
        for o in &mut self.observers {
            o.decision(game, seat, choice)?;
        }
        game.apply_choice(choice)?;
        let events = game.take_events();
        for o in &mut self.observers {
            o.step(game, seat, choice, &events)?;
        }
        if game.is_over() {
            let result = game.result()?;
            for o in &mut self.observers {
                o.game_end(game, &result)?;
            }
            return Ok(Some(result));
        }
        Ok(None)
    }

    /// Let the seats with a chooser move until the game ends or a seat
    /// without one must choose. Fails at the first failing step (the game
    /// is left as it was before it), or when the game takes more decisions
    /// than its limit.
    pub fn play(&mut self, game: &mut Game) -> std::result::Result<Stop, StepError> {
        let limit = self.step_limit(game);
        loop {
            let Some((seat, _)) = game.pending() else {
                let step = game.history().len();
                return game.result().map(Stop::Over).map_err(|error| StepError {
                    step,
                    seat: 0,
                    choosing: false,
                    error,
                });
            };
            let step = game.history().len() + 1;
            let fail = |choosing, error| StepError {
                step,
                seat,
                choosing,
                error,
            };
            let Some(Some(chooser)) = self.seats.get_mut(seat as usize - 1) else {
                return Ok(Stop::Waiting(seat));
            };
            if step > limit {
                return Err(fail(
                    false,
                    CoreError::Rule(format!(
                        "the game did not end within {limit} decisions (the rules may never end)"
                    )),
                ));
            }
            crate::cancel::check(self.cancel.as_ref()).map_err(|e| fail(true, e))?;
            let choice = chooser.choose(game).map_err(|e| fail(true, e))?;
            if let Some(result) = self.apply_step(game, &choice).map_err(|e| fail(false, e))? {
                return Ok(Stop::Over(result));
            }
        }
    }

    /// Play a whole game of `config` with these seats and observers.
    pub fn run(
        &mut self,
        engine: &Engine,
        config: GameConfig,
        logging: bool,
    ) -> std::result::Result<(Game, GameResult), StepError> {
        let mut game = self
            .start(engine, config, logging)
            .map_err(|error| StepError {
                step: 0,
                seat: 0,
                choosing: false,
                error,
            })?;
        match self.play(&mut game)? {
            Stop::Over(result) => Ok((game, result)),
            Stop::Waiting(seat) => Err(StepError {
                step: game.history().len() + 1,
                seat,
                choosing: true,
                error: CoreError::Invalid(format!("seat {seat} has no one to choose for it")),
            }),
        }
    }
}
