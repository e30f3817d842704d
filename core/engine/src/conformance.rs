//! The conformance suite: what every game must satisfy, whatever its rules.
//! It knows no particular game. Given an engine and a [`GameConfig`], it
//! plays a game with seeded bots through the [`Runner`] and checks:
//!
//! - **cards**: after setup and after every step, every card is in exactly
//!   one zone and the Lua zone mirrors equal the core's zones
//!   ([`Game::check_invariants`]);
//! - **the rules' own invariants**: `rules.invariants(game)`, when the
//!   rules define it, after setup and after every step;
//! - **secrecy**, for every seat: its view shows whole zones only where it
//!   may see them; the options offered to it name only cards it sees; an
//!   event (or trace record) it is told of, a chosen option's text it is
//!   shown and the public script variables name only cards it saw before
//!   the step, sees after it, or saw land during it; a secret option's text
//!   told to the other seats names none of the option's cards they may not
//!   see. An event or option may show cards on purpose by saying so with
//!   `reveal = true` (a hand shown to one seat, a pile looked through);
//! - **the result**: one score per seat (or none), winners among the seats;
//!   every metric of the rules (`rules.metrics`) gives a value;
//! - **guesses**: at regular steps, for every seat, the rules' `may_hold`
//!   is true of the real game, and [`Game::determinized`] keeps what the
//!   seat sees, every card's back at every place, the invariants, and what
//!   `may_hold` rules out;
//! - **determinism**: the same config and bots give the same game in a
//!   second engine (another VM), with events recorded and without;
//! - **replay**: replaying the action log gives the same game;
//! - **save / load, undo / redo**: mid-game, a game saved and loaded, a
//!   game with steps undone, and one with steps undone and redone all play
//!   on with the same bots to exactly the same end.
//!
//! The first failure is reported with the game, variants, players, seed
//! and step ([`Failure`]).

use crate::choice::Choice;
use crate::config::GameConfig;
use crate::engine::Engine;
use crate::error::{CoreError, Result};
use crate::event::{Event, EventKind};
use crate::game::{ActionRecord, Game, GameResult, SeatView, ZoneView};
use crate::policy::PlainBot;
use crate::rng::GameRng;
use crate::rules::PlayerRange;
use crate::runner::{Observer, Runner, StepError, Stop};
use crate::save::SaveFile;
use crate::trace::TraceWriter;
use crate::zone::{Seat, Visibility};
use serde_json::Value as Json;

/// What the suite does besides the checks after every step.
#[derive(Debug, Clone)]
pub struct Checks {
    /// The bots that play, seat 1 first, repeated round the table.
    pub bots: Vec<PlainBot>,
    /// Check the determinized guesses of a seat every this many steps,
    /// each seat in turn (0: never).
    pub guesses_every: usize,
    /// How many steps to undo (and redo) in the middle of the game.
    pub undo_steps: usize,
    /// Play the same game again in a second engine (and without events).
    pub determinism: bool,
    /// Replay the log, save and load, undo and redo mid-game.
    pub round_trips: bool,
}

impl Default for Checks {
    fn default() -> Self {
        Checks {
            bots: vec![PlainBot::Random],
            guesses_every: 5,
            undo_steps: 2,
            determinism: true,
            round_trips: true,
        }
    }
}

/// The first check a game failed: where, and why.
#[derive(Debug)]
pub struct Failure {
    pub config: GameConfig,
    /// The step (1-based) after which the check failed; `None` for a
    /// check of the whole game (determinism, round trips) or the setup.
    pub step: Option<usize>,
    pub message: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let c = &self.config;
        write!(
            f,
            "{} [{}] with {} players, seed {}",
            c.game,
            c.variants.join(", "),
            c.players,
            c.seed
        )?;
        match self.step {
            Some(step) => write!(f, ", step {step}: {}", self.message),
            None => write!(f, ": {}", self.message),
        }
    }
}

impl std::error::Error for Failure {}

/// What a game that passed looked like.
#[derive(Debug, Clone)]
pub struct Report {
    /// Decisions the game took.
    pub steps: usize,
    pub result: GameResult,
}

/// The suite over one engine (and a second one of its own, for
/// determinism across VMs).
pub struct Suite<'e> {
    engine: &'e Engine,
    second: Engine,
    /// How the second engine runs the rules, for messages.
    second_runs: &'static str,
    checks: Checks,
}

/// The ids of `chosen` in their order, except that a variant comes after
/// the variants of the set it requires (`requires`).
fn required_first(chosen: &[&crate::rules::VariantInfo]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut left: Vec<&crate::rules::VariantInfo> = chosen.to_vec();
    while !left.is_empty() {
        let ready = left
            .iter()
            .position(|v| {
                v.requires
                    .iter()
                    .all(|r| out.contains(r) || !left.iter().any(|w| &w.id == r))
            })
            .unwrap_or(0);
        out.push(left.remove(ready).id.clone());
    }
    out
}

/// The variant sets of a game that its rules accept (every subset of its
/// variants, in the catalog's order with each after those it requires,
/// that composes), each with its player range.
pub fn variant_sets(engine: &Engine, game: &str) -> Result<Vec<(Vec<String>, PlayerRange)>> {
    let entry = engine
        .catalog()?
        .into_iter()
        .find(|e| e.info.id == game)
        .ok_or_else(|| CoreError::NotFound(format!("game '{game}'")))?;
    let names: Vec<String> = entry.variants.iter().map(|v| v.id.clone()).collect();
    if names.len() > 12 {
        return Err(CoreError::Invalid(format!(
            "{game} has {} variants: too many to try every set",
            names.len()
        )));
    }
    let mut out = Vec::new();
    for mask in 0u32..(1 << names.len()) {
        let chosen: Vec<&crate::rules::VariantInfo> = entry
            .variants
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, v)| v)
            .collect();
        let set = required_first(&chosen);
        if let Ok(rules) = engine.rules(game, &set) {
            let range = rules.info.players;
            if range.min <= range.max {
                out.push((set, range));
            }
        }
    }
    Ok(out)
}

impl<'e> Suite<'e> {
    /// The suite with the default checks.
    pub fn new(engine: &'e Engine) -> Result<Suite<'e>> {
        let host = engine.host();
        Ok(Suite {
            engine,
            second: Engine::with_limits(host.library().clone(), host.limits())?,
            second_runs: "a second engine",
            checks: Checks::default(),
        })
    }

    /// Play the determinism check's games on the other path of the Lua
    /// host: with the compiler (and the direct calls) when the engine
    /// counts instructions, in the counting interpreter when it compiles.
    /// Both paths must play every game alike. The compiled engine has no
    /// instruction budget and the suite no watchdog: use this for rules you
    /// trust (the project's own test of every shipped game does).
    pub fn on_both_paths(mut self) -> Result<Self> {
        let host = self.engine.host();
        let mut limits = host.limits();
        let compiled = limits.instructions.is_some();
        limits.instructions = if compiled {
            None
        } else {
            Some(
                crate::lua::Limits::default()
                    .instructions
                    .unwrap_or(u64::MAX),
            )
        };
        self.second = Engine::with_limits(host.library().clone(), limits)?;
        self.second_runs = if compiled {
            "a second engine, compiled"
        } else {
            "a second engine, counting instructions"
        };
        Ok(self)
    }

    /// The counts of calls into the scripts of the suite's engines (see
    /// [`Engine::activity`]): a watchdog sees from their sum whether a
    /// check is still running.
    pub fn activities(&self) -> Vec<std::sync::Arc<std::sync::atomic::AtomicU64>> {
        vec![self.engine.activity(), self.second.activity()]
    }

    /// Choose what is checked besides the checks after every step.
    pub fn with_checks(mut self, checks: Checks) -> Self {
        self.checks = checks;
        self
    }

    /// Who plays the games checked from now on: `bots[i]` at seat `i + 1`,
    /// repeated round the table (see [`Checks::bots`]).
    pub fn set_bots(&mut self, bots: Vec<PlainBot>) {
        self.checks.bots = bots;
    }

    fn runner(&self, config: &GameConfig) -> Runner<'static> {
        let kinds = if self.checks.bots.is_empty() {
            vec![PlainBot::Random]
        } else {
            self.checks.bots.clone()
        };
        Runner::with_bots(
            (1..=config.players)
                .map(|s| {
                    kinds[(s as usize - 1) % kinds.len()]
                        .clone()
                        .at(config.seed, s)
                })
                .collect(),
        )
    }

    /// Play one game of `config` and check it; the first failure stops.
    pub fn check(&self, config: &GameConfig) -> std::result::Result<Report, Box<Failure>> {
        let mut config = config.clone();
        let fail = |config: &GameConfig, step: Option<usize>, message: String| {
            Box::new(Failure {
                config: config.clone(),
                step,
                message,
            })
        };
        // The text of the house rules is read once: every run below plays it.
        config
            .read_house_rules(false)
            .map_err(|e| fail(&config, None, e.to_string()))?;
        let mut watch = Watch::new(&config, self.checks.guesses_every);
        let (game, result) = self
            .runner(&config)
            .observe(&mut watch)
            .run(self.engine, config.clone(), true)
            .map_err(|e| Box::new(step_failure(&config, e)))?;
        let history = game.history().to_vec();
        let end = Snapshot::of(&game).map_err(|e| fail(&config, None, e.to_string()))?;
        let whole = |what: String| fail(&config, None, what);
        if self.checks.determinism {
            self.determinism(&config, &history, &end).map_err(whole)?;
        }
        if self.checks.round_trips {
            self.round_trips(&config, &history, &end).map_err(whole)?;
        }
        Ok(Report {
            steps: history.len(),
            result,
        })
    }

    /// The same game in a second engine, with events and without.
    fn determinism(
        &self,
        config: &GameConfig,
        history: &[ActionRecord],
        end: &Snapshot,
    ) -> std::result::Result<(), String> {
        for logging in [true, false] {
            let what = if logging {
                format!("played again in {}", self.second_runs)
            } else {
                format!("played again in {} without events", self.second_runs)
            };
            let (game, _) = self
                .runner(config)
                .run(&self.second, config.clone(), logging)
                .map_err(|e| format!("determinism: {what}: {e}"))?;
            same_game(&game, history, end, logging).map_err(|e| {
                format!(
                    "determinism: {what}: {e} (rules that keep state from one game to the \
                     next, in a variable outside their functions or in a table of the rules \
                     written during play, play differently in another engine: keep what a \
                     game needs in game.vars)"
                )
            })?;
        }
        Ok(())
    }

    /// Replay, save and load, undo and redo.
    fn round_trips(
        &self,
        config: &GameConfig,
        history: &[ActionRecord],
        end: &Snapshot,
    ) -> std::result::Result<(), String> {
        let e = self.engine;
        let replay = |upto: usize| -> std::result::Result<Game, String> {
            e.replay(config.clone(), &history[..upto])
                .map_err(|stop| format!("replay of the log: {}", stop.error))
        };
        let game = replay(history.len())?;
        same_game(&game, history, end, true).map_err(|e| format!("replay of the log: {e}"))?;
        let mid = history.len() / 2;
        if mid == 0 {
            return Ok(());
        }
        let play_on = |mut game: Game, what: &str| -> std::result::Result<(), String> {
            match self.runner(config).play(&mut game) {
                Ok(Stop::Over(_)) => same_game(&game, history, end, true)
                    .map_err(|e| format!("{what} at step {mid}, then played on: {e}")),
                Ok(Stop::Waiting(seat)) => Err(format!("{what}: seat {seat} has no bot")),
                Err(err) => Err(format!("{what} at step {mid}, then played on: {err}")),
            }
        };

        // Saved and loaded.
        let game = replay(mid)?;
        let seats = vec!["random".to_string(); config.players as usize];
        let text = SaveFile::of(&game, seats)
            .and_then(|s| Ok(serde_json::to_string(&s)?))
            .map_err(|e| format!("saving at step {mid}: {e}"))?;
        let save = SaveFile::parse(&text).map_err(|e| format!("loading at step {mid}: {e}"))?;
        let loaded = e
            .replay(save.config, &save.actions)
            .map_err(|stop| format!("loading at step {mid}: {}", stop.error))?;
        same_table(&loaded, &game).map_err(|e| format!("save/load at step {mid}: {e}"))?;
        play_on(loaded, "saved and loaded")?;

        // Undone, then played on.
        let k = self.checks.undo_steps.min(mid);
        let mut game = replay(mid)?;
        let here = replay(mid - k)?;
        for _ in 0..k {
            game.undo()
                .map_err(|e| format!("undo at step {mid}: {e}"))?;
        }
        same_table(&game, &here).map_err(|e| format!("undo of {k} steps at step {mid}: {e}"))?;
        play_on(game, &format!("{k} steps undone"))?;

        // Undone and redone, then played on.
        let mut game = replay(mid)?;
        let before = Snapshot::of(&game).map_err(|e| e.to_string())?;
        for _ in 0..k {
            game.undo()
                .map_err(|e| format!("undo at step {mid}: {e}"))?;
        }
        for _ in 0..k {
            game.redo()
                .map_err(|e| format!("redo at step {mid}: {e}"))?;
        }
        let after = Snapshot::of(&game).map_err(|e| e.to_string())?;
        if after != before {
            return Err(format!(
                "undo then redo of {k} steps at step {mid} changed the game"
            ));
        }
        play_on(game, &format!("{k} steps undone and redone"))
    }
}

/// A failed step of the checked game, as a failure.
fn step_failure(config: &GameConfig, e: StepError) -> Failure {
    let who = if e.choosing {
        format!(" (seat {}'s bot)", e.seat)
    } else {
        String::new()
    };
    Failure {
        config: config.clone(),
        step: (e.step > 0).then_some(e.step),
        message: format!("{}{who}", e.error),
    }
}

/// The state of a game an observer sees, to compare two games.
#[derive(Debug, PartialEq)]
struct Snapshot {
    view: SeatView,
    over: bool,
    result: Option<GameResult>,
}

impl Snapshot {
    fn of(game: &Game) -> Result<Snapshot> {
        Ok(Snapshot {
            view: game.view(None)?,
            over: game.is_over(),
            result: if game.is_over() {
                Some(game.result()?)
            } else {
                None
            },
        })
    }
}

/// `game` took the same decisions as `history` and ended as `end`.
fn same_game(
    game: &Game,
    history: &[ActionRecord],
    end: &Snapshot,
    values: bool,
) -> std::result::Result<(), String> {
    let mine = game.history();
    let same = |a: &ActionRecord, b: &ActionRecord| {
        a.seat == b.seat
            && a.index == b.index
            && a.picks == b.picks
            && (!values || a.action == b.action)
    };
    if let Some(i) = (0..mine.len().min(history.len())).find(|&i| !same(&mine[i], &history[i])) {
        return Err(format!(
            "step {} differs: seat {} chose option {} ({}), first seat {} chose option {} ({})",
            i + 1,
            mine[i].seat,
            mine[i].index,
            mine[i].action,
            history[i].seat,
            history[i].index,
            history[i].action
        ));
    }
    if mine.len() != history.len() {
        return Err(format!(
            "{} decisions instead of {}",
            mine.len(),
            history.len()
        ));
    }
    let now = Snapshot::of(game).map_err(|e| e.to_string())?;
    if &now != end {
        return Err(first_difference(&now, end));
    }
    Ok(())
}

/// Two games show an observer the same table.
fn same_table(a: &Game, b: &Game) -> std::result::Result<(), String> {
    let (x, y) = (
        Snapshot::of(a).map_err(|e| e.to_string())?,
        Snapshot::of(b).map_err(|e| e.to_string())?,
    );
    if x != y {
        return Err(first_difference(&x, &y));
    }
    Ok(())
}

fn first_difference(a: &Snapshot, b: &Snapshot) -> String {
    for (x, y) in a.view.zones.iter().zip(&b.view.zones) {
        if x != y {
            return format!(
                "zone {} differs: {:?} against {:?}",
                x.name, x.cards, y.cards
            );
        }
    }
    if a.view.zones.len() != b.view.zones.len() {
        return "the games have different zones".into();
    }
    if a.view.vars != b.view.vars {
        return format!(
            "the script variables differ: {} against {}",
            a.view.vars, b.view.vars
        );
    }
    if a.result != b.result {
        return format!("the results differ: {:?} against {:?}", a.result, b.result);
    }
    "the games differ".into()
}

/// Card ids named in plain data: any `card` number or `cards` list, at any
/// depth (how options and events name cards).
pub fn ids_in(v: &Json, out: &mut Vec<u32>) {
    match v {
        Json::Object(map) => {
            for (k, x) in map {
                match (k.as_str(), x) {
                    ("card", Json::Number(n)) => out.extend(n.as_u64().map(|c| c as u32)),
                    ("cards", Json::Array(a)) => {
                        out.extend(a.iter().filter_map(Json::as_u64).map(|c| c as u32))
                    }
                    _ => ids_in(x, out),
                }
            }
        }
        Json::Array(a) => a.iter().for_each(|x| ids_in(x, out)),
        _ => {}
    }
}

pub use crate::meta::reveals;

/// A set of card ids.
#[derive(Debug, Clone, Default)]
pub struct CardSet(Vec<u64>);

impl CardSet {
    pub fn insert(&mut self, card: u32) {
        let (i, bit) = (card as usize / 64, card % 64);
        if self.0.len() <= i {
            self.0.resize(i + 1, 0);
        }
        self.0[i] |= 1 << bit;
    }

    pub fn contains(&self, card: u32) -> bool {
        self.0
            .get(card as usize / 64)
            .is_some_and(|w| w & (1 << (card % 64)) != 0)
    }
}

/// The cards a seat's view of the zones shows (whole zones and tops); an
/// error when it shows a whole zone the seat may not see.
pub fn seen_by(zones: &[ZoneView], seat: Seat) -> Result<CardSet> {
    let mut out = CardSet::default();
    for z in zones {
        if let Some(cards) = &z.cards {
            let allowed = z.visibility == Visibility::Public
                || (z.visibility == Visibility::Owner && z.owner == Some(seat));
            if !allowed {
                return Err(secrecy(format!(
                    "seat {seat}'s view shows every card of {}{} ({:?})",
                    z.name,
                    z.owner.map(|o| format!(" (seat {o})")).unwrap_or_default(),
                    z.visibility
                )));
            }
            for &c in cards {
                out.insert(c);
            }
        }
        if let Some(top) = z.top {
            if z.visibility != Visibility::Top {
                return Err(secrecy(format!(
                    "seat {seat}'s view shows the top of {}, which is not a top-card pile",
                    z.name
                )));
            }
            out.insert(top);
        }
    }
    Ok(out)
}

fn secrecy(msg: String) -> CoreError {
    CoreError::Rule(format!("secrecy: {msg}"))
}

/// The checks after every step, as an observer of the checked game.
struct Watch {
    players: u32,
    guesses_every: usize,
    rng: GameRng,
    /// What each seat saw before the step (seat 1 first).
    before: Vec<CardSet>,
    /// The option being applied: its seat and value.
    chosen: Option<(Seat, Json)>,
}

/// What each seat may know of a step: the cards it saw before, sees after
/// or saw land during the step.
struct Known<'a> {
    before: &'a [CardSet],
    after: &'a [CardSet],
    landed: &'a [CardSet],
}

impl Known<'_> {
    fn knows(&self, seat: Seat, card: u32) -> bool {
        let i = seat as usize - 1;
        [self.before, self.after, self.landed]
            .iter()
            .any(|sets| sets.get(i).is_some_and(|s| s.contains(card)))
    }
}

fn card_label(game: &Game, id: u32) -> String {
    match game.card(id) {
        Ok(c) => format!("card {id} ({})", c.name),
        Err(_) => format!("card {id}"),
    }
}

impl Watch {
    fn new(config: &GameConfig, guesses_every: usize) -> Watch {
        Watch {
            players: config.players,
            guesses_every,
            rng: GameRng::derived(config.seed, 7_777),
            before: Vec::new(),
            chosen: None,
        }
    }

    fn views(&self, game: &Game) -> Result<Vec<CardSet>> {
        (1..=self.players)
            .map(|s| seen_by(&game.zone_views(Some(s))?, s))
            .collect()
    }

    /// The cards, the rules' invariants, and the secrecy of the step that
    /// produced `events` (setup: `before` is empty).
    fn after_step(&mut self, game: &Game, events: &[Event]) -> Result<()> {
        game.check_invariants()?;
        if let Some(why) = game.script_invariants()? {
            return Err(CoreError::Rule(format!("rules.invariants: {why}")));
        }
        let after = self.views(game)?;
        let mut landed = vec![CardSet::default(); self.players as usize];
        for ev in events {
            if let EventKind::Move { card, to, .. } | EventKind::Place { card, to } = &ev.kind {
                let (vis, owner) = game.with_table(|t| {
                    t.zone(*to)
                        .map(|z| (z.visibility, z.owner))
                        .unwrap_or((Visibility::Hidden, None))
                })?;
                for (i, seen) in landed.iter_mut().enumerate() {
                    let s = i as Seat + 1;
                    let sees = match vis {
                        Visibility::Public | Visibility::Top => true,
                        Visibility::Owner => owner == Some(s),
                        Visibility::Hidden => false,
                    };
                    if sees {
                        seen.insert(*card);
                    }
                }
            }
        }
        let before = if self.before.is_empty() {
            after.clone()
        } else {
            std::mem::take(&mut self.before)
        };
        let known = Known {
            before: &before,
            after: &after,
            landed: &landed,
        };
        self.check_events(game, events, &known)?;
        self.check_trace(game, events, &known)?;
        self.check_chosen(game, &known)?;
        // Script variables are shown to every seat.
        let mut ids = Vec::new();
        ids_in(&game.vars()?, &mut ids);
        for s in 1..=self.players {
            if let Some(id) = ids.iter().find(|&&id| !known.knows(s, id)) {
                return Err(secrecy(format!(
                    "the script variables (public) name {} that seat {s} may not see",
                    card_label(game, *id)
                )));
            }
        }
        self.before = after;
        Ok(())
    }

    fn check_events(&self, game: &Game, events: &[Event], known: &Known) -> Result<()> {
        for ev in events {
            let mut ids = Vec::new();
            match &ev.kind {
                EventKind::Move { card, .. } | EventKind::Place { card, .. } => ids.push(*card),
                EventKind::Script { data, .. } => {
                    if reveals(data) {
                        continue;
                    }
                    ids_in(data, &mut ids);
                }
                EventKind::Shuffle { .. } | EventKind::Sort { .. } => {}
            }
            for s in 1..=self.players {
                if !game.event_visible_to(ev, s) {
                    continue;
                }
                if let Some(id) = ids.iter().find(|&&id| !known.knows(s, id)) {
                    return Err(secrecy(format!(
                        "seat {s} is told of {} it may not see: {:?}",
                        card_label(game, *id),
                        ev.kind
                    )));
                }
            }
        }
        Ok(())
    }

    /// Each seat's trace of the step ([`TraceWriter::for_seat`]) names
    /// only cards that seat may know: the cards of its moves and shuffles,
    /// and those its events name (unless they show them on purpose).
    fn check_seat_traces(&self, game: &Game, events: &[Event], known: &Known) -> Result<()> {
        for seat in 1..=self.players {
            let mut trace = TraceWriter::new(Vec::new()).for_seat(seat);
            let effects = game.with_table(|t| trace.effects(t, events))??;
            for effect in effects.as_array().into_iter().flatten() {
                let at = |i: usize| effect.get(i).cloned().unwrap_or(Json::Null);
                let mut ids = Vec::new();
                let listed = |v: Json, ids: &mut Vec<u32>| {
                    ids.extend(
                        v.as_array()
                            .into_iter()
                            .flatten()
                            .filter_map(Json::as_u64)
                            .map(|c| c as u32),
                    )
                };
                match effect.get(0).and_then(Json::as_str) {
                    Some("place") | Some("shuffle") => listed(at(2), &mut ids),
                    Some("move") | Some("under") | Some("draw") | Some("deal") => {
                        listed(at(3), &mut ids)
                    }
                    Some("event") if !reveals(&at(2)) => ids_in(&at(2), &mut ids),
                    _ => {}
                }
                if let Some(id) = ids.iter().find(|&&id| id != 0 && !known.knows(seat, id)) {
                    return Err(secrecy(format!(
                        "seat {seat}'s trace names {} it may not see: {effect}",
                        card_label(game, *id)
                    )));
                }
            }
        }
        Ok(())
    }

    /// The trace's events of the step that are meant for one seat (script
    /// events with `to`) name only cards that seat may see.
    fn check_trace(&self, game: &Game, events: &[Event], known: &Known) -> Result<()> {
        if events.is_empty() {
            return Ok(());
        }
        self.check_seat_traces(game, events, known)?;
        let mut trace = TraceWriter::new(Vec::new());
        let effects = game.with_table(|t| trace.effects(t, events))??;
        for effect in effects.as_array().into_iter().flatten() {
            // ["event", name, data, to]: a private event.
            if effect.get(0).and_then(Json::as_str) != Some("event") {
                continue;
            }
            let Some(to) = effect.get(3).and_then(Json::as_u64) else {
                continue;
            };
            let data = effect.get(2).cloned().unwrap_or(Json::Null);
            if reveals(&data) {
                continue;
            }
            let mut ids = Vec::new();
            ids_in(&data, &mut ids);
            if let Some(id) = ids.iter().find(|&&id| !known.knows(to as Seat, id)) {
                return Err(secrecy(format!(
                    "the trace's event for seat {to} names {} it may not see: {effect}",
                    card_label(game, *id)
                )));
            }
        }
        Ok(())
    }

    /// The text of the option just applied, as the other seats are told
    /// it: the option's own text names only cards they may know; a secret
    /// option's text for them names none of its cards they may not see.
    fn check_chosen(&mut self, game: &Game, known: &Known) -> Result<()> {
        let Some((seat, action)) = self.chosen.take() else {
            return Ok(());
        };
        let mut ids = Vec::new();
        ids_in(&action, &mut ids);
        if ids.is_empty() {
            return Ok(());
        }
        let secret = crate::game::secret_text(&action);
        for s in (1..=self.players).filter(|&s| s != seat) {
            for &id in ids.iter().filter(|&&id| !known.knows(s, id)) {
                match &secret {
                    None => {
                        return Err(secrecy(format!(
                            "seat {seat}'s choice, shown to seat {s}, names {} that seat {s} \
                             may not see (make the option secret): {action}",
                            card_label(game, id)
                        )))
                    }
                    Some(told) => {
                        let name = game.card(id)?.name;
                        if !name.is_empty() && told.contains(&name) {
                            return Err(secrecy(format!(
                                "the secret choice of seat {seat} tells seat {s} \"{told}\", which \
                                 names {}",
                                card_label(game, id)
                            )));
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// The determinized guesses of `seat`.
    fn check_guesses(&mut self, game: &Game, seat: Seat) -> Result<()> {
        let real = game.zone_views(None)?;
        let holds = |zones: &[ZoneView], owner: Seat, card: u32| {
            zones.iter().any(|z| {
                z.owner == Some(owner) && z.cards.as_ref().is_some_and(|c| c.contains(&card))
            })
        };
        let guesses = |msg: String| CoreError::Rule(format!("guesses: {msg}"));
        {
            let guessing = game.guessing(seat)?;
            if let Some((owner, card)) = guessing
                .ruled_out()
                .iter()
                .find(|(o, c)| holds(&real, *o, *c))
            {
                return Err(guesses(format!(
                    "rules.may_hold says seat {owner} cannot hold {}, which it holds",
                    card_label(game, *card)
                )));
            }
            let f = game.determinized_with(seat, &mut self.rng, &guessing)?;
            f.check_invariants()
                .map_err(|e| guesses(format!("a guess for seat {seat}: {e}")))?;
            let mine = game.zone_views(Some(seat))?;
            let theirs = f.zone_views(Some(seat))?;
            if let Some((a, _)) = mine.iter().zip(&theirs).find(|(a, b)| a != b) {
                return Err(guesses(format!(
                    "a guess for seat {seat} changes what it sees of {}",
                    a.name
                )));
            }
            let guess = f.zone_views(None)?;
            let backs = guessing.backs();
            let back = |c: &u32| backs.get(*c as usize).copied();
            for (a, b) in real.iter().zip(&guess) {
                let ba: Vec<_> = a.cards.iter().flatten().map(back).collect();
                let bb: Vec<_> = b.cards.iter().flatten().map(back).collect();
                if ba != bb {
                    return Err(guesses(format!(
                        "a guess for seat {seat} puts a card with another back in {}",
                        a.name
                    )));
                }
            }
            if let Some((owner, card)) = guessing
                .ruled_out()
                .iter()
                .find(|(o, c)| holds(&guess, *o, *c))
            {
                return Err(guesses(format!(
                    "a guess for seat {seat} gives seat {owner} {}, which rules.may_hold rules out",
                    card_label(game, *card)
                )));
            }
        }
        Ok(())
    }
}

impl Observer for Watch {
    fn game_start(&mut self, game: &Game, events: &[Event]) -> Result<()> {
        self.before.clear();
        self.after_step(game, events)
    }

    fn decision(&mut self, game: &Game, seat: Seat, choice: &Choice) -> Result<()> {
        let options = game.option_values()?;
        let may = self
            .before
            .get(seat as usize - 1)
            .ok_or_else(|| CoreError::Rule(format!("seat {seat} is not a seat")))?;
        for o in &options {
            if reveals(o) {
                continue;
            }
            let mut ids = Vec::new();
            ids_in(o, &mut ids);
            if let Some(id) = ids.iter().find(|&&id| !may.contains(id)) {
                return Err(secrecy(format!(
                    "option '{}' offered to seat {seat} names {} it may not see",
                    game.describe(o).unwrap_or_else(|_| o.to_string()),
                    card_label(game, *id)
                )));
            }
        }
        // What the rules apply: the option, or the option with its cards.
        self.chosen = Some((seat, game.chosen_value(choice)?));
        Ok(())
    }

    fn step(&mut self, game: &Game, _: Seat, _: &Choice, events: &[Event]) -> Result<()> {
        self.after_step(game, events)?;
        let step = game.history().len();
        if self.guesses_every > 0 && step.is_multiple_of(self.guesses_every) && !game.is_over() {
            // One seat each time, in turn.
            let seat = (step / self.guesses_every) as Seat % self.players + 1;
            self.check_guesses(game, seat)?;
        }
        Ok(())
    }

    fn game_end(&mut self, game: &Game, result: &GameResult) -> Result<()> {
        // Every metric of the rules (rules.metrics) gives a value for a
        // finished game: a broken one is found by `check`, not mid-run.
        game.metrics()?;
        let n = self.players;
        if !result.scores.is_empty() && result.scores.len() != n as usize {
            return Err(CoreError::Rule(format!(
                "result: {} scores for {n} players",
                result.scores.len()
            )));
        }
        if let Some(w) = result.winners.iter().find(|&&w| w == 0 || w > n) {
            return Err(CoreError::Rule(format!(
                "result: seat {w} is named a winner, but the seats are 1 to {n}"
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::required_first;
    use crate::rules::VariantInfo;

    fn variant(id: &str, requires: &[&str]) -> VariantInfo {
        VariantInfo {
            id: id.into(),
            title: String::new(),
            game: None,
            options: Default::default(),
            players: None,
            requires: requires.iter().map(|r| r.to_string()).collect(),
        }
    }

    #[test]
    fn a_set_puts_each_variant_after_those_it_requires() {
        let (kraken, passing, strife) = (
            variant("kraken", &["passing"]),
            variant("passing", &[]),
            variant("strife", &[]),
        );
        assert_eq!(
            required_first(&[&kraken, &passing, &strife]),
            ["passing", "kraken", "strife"]
        );
        // A requirement outside the set leaves the order (the rules then
        // refuse the set).
        assert_eq!(required_first(&[&kraken, &strife]), ["kraken", "strife"]);
    }
}
