//! A live game: the Rust table, the Lua game object, the pending decision
//! and the action log. Every step goes through [`Game::apply`], which checks
//! the choice, runs the rules in one Lua call, and on a script error restores
//! the game exactly as it was before the step.
//!
//! `Game`'s methods are cut by who uses them: this file holds the game's
//! life (starting, stepping, restoring, undo and redo) and its state;
//! `decisions` the pending decision for whoever shows or takes it;
//! `search` what the search bots need (copies, playouts, guesses);
//! `views` what each seat sees and what a game came to; `debug` the
//! checks and the Lua prompt; [`random`] the random bot's policy.

mod debug;
mod decisions;
mod past;
pub mod random;
mod search;
mod views;

use crate::card::CardDef;
pub use crate::choice::{Choice, SubsetSpec};
use crate::config::GameConfig;
use crate::error::{CoreError, Result};
use crate::event::{Event, EventKind};
use crate::lua::{Entered, Host, PromptEnv, Token};
use crate::rules::Rules;
use crate::table::Table;
use crate::zone::{Seat, Sight, Visibility};
use mlua::serde::SerializeOptions;
use mlua::{LuaSerdeExt, Table as LuaTable, Value};
pub use past::PastPosition;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use std::cell::{Ref, RefCell};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// What a seat's guesses at the hidden cards of a game must respect (see
/// [`Game::guessing`]), and that game's Lua state written down once for
/// all the copies a search makes of it ([`Game::determinized_into`]).
/// It borrows the game, which therefore cannot change while it is used.
#[derive(Clone)]
pub struct Guessing<'g> {
    ruled_out: BTreeSet<(Seat, u32)>,
    backs: Vec<u32>,
    /// Whether the guesses keep what any seat knows
    /// ([`Game::guessing_every_seat`]) rather than what the searching seat
    /// knows.
    every_seat: bool,
    game: &'g Game,
    /// The prelude's tape of the game (`tape` in prelude.lua), written
    /// at the first copy made again.
    tape: std::cell::OnceCell<LuaTable>,
}

impl Guessing<'_> {
    /// The pairs (owner, card) that `rules.may_hold` rules out.
    pub fn ruled_out(&self) -> &BTreeSet<(Seat, u32)> {
        &self.ruled_out
    }

    /// The back class of every card, by card id (see [`Game::card_backs`]).
    pub fn backs(&self) -> &[u32] {
        &self.backs
    }
}

/// One applied action: who chose, which option (1-based), for an option
/// that asks for cards the positions of the chosen ones (`picks`, absent
/// otherwise: a record with a plain index is an ordinary option) and, when
/// recorded, the value the rules applied (used to replay under edited
/// rules).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ActionRecord {
    pub seat: Seat,
    pub index: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub picks: Option<Vec<usize>>,
    #[serde(default)]
    pub action: Json,
}

impl ActionRecord {
    /// The choice this record made.
    pub fn choice(&self) -> Choice {
        Choice {
            index: self.index,
            picks: self.picks.clone(),
        }
    }
}

/// One legal option of the pending decision.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OptionView {
    /// 1-based index, as a controller chooses it.
    pub index: usize,
    /// The option's value as the rules gave it.
    pub action: Json,
    /// The option in words.
    pub text: String,
}

impl OptionView {
    /// What seats other than the chooser are told of this option once
    /// chosen, when it is secret (see [`secret_text`]).
    pub fn secret(&self) -> Option<String> {
        secret_text(&self.action)
    }
}

/// Whether a chosen option is secret, and what the other seats are told.
///
/// An option (the value the rules offered) is secret when it has a `secret`
/// field: only the seat that chose it may learn which option it was (a card
/// kept in secret, a card picked from a pile nobody else may look through).
/// `secret = "text"` is what every other seat is told instead of the option
/// text; `secret = true` tells them only that a secret choice was made.
/// Returns `None` for an ordinary option. Front ends that show moves to
/// people (the REPL, its `log`) use this; traces, written for an observer who
/// sees everything, keep the whole option.
pub fn secret_text(action: &Json) -> Option<String> {
    crate::meta::OptionMeta::of(action).secret
}

/// The kind of a decision whose rules name none.
pub const DEFAULT_KIND: &str = "choose";

/// The pending decision: which seat chooses, and among what.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DecisionView {
    pub seat: Seat,
    pub prompt: String,
    pub options: Vec<OptionView>,
    /// In a reaction window, its kind (the decision's `window` field).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window: Option<String>,
}

/// What one zone shows to a viewer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ZoneView {
    pub name: String,
    pub owner: Option<Seat>,
    pub visibility: Visibility,
    pub count: usize,
    /// The cards, bottom first, when the viewer may see them all.
    pub cards: Option<Vec<u32>>,
    /// The top card, when the viewer may see only that.
    pub top: Option<u32>,
}

/// What one seat may see of the game (or everything, for an observer).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeatView {
    pub seat: Option<Seat>,
    pub zones: Vec<ZoneView>,
    pub vars: Json,
    pub teams: Option<Vec<Vec<Seat>>>,
    pub to_move: Option<Seat>,
}

/// The outcome the rules report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    /// Final score of each seat, seat 1 first.
    #[serde(default)]
    pub scores: Vec<f64>,
    /// Winning seats (several on a shared win; none when nobody won).
    #[serde(default)]
    pub winners: Vec<Seat>,
    #[serde(default)]
    pub rounds: u32,
}

/// A game in progress.
pub struct Game {
    host: Rc<Host>,
    rules: Rc<Rules>,
    config: GameConfig,
    options: BTreeMap<String, Json>,
    state: LuaTable,
    /// The Rust half of the state; the primitives reach it through the
    /// host while this game is in play (see [`Game::enter`]).
    table: Rc<RefCell<Table>>,
    /// What the Lua game object (`game._core`) names this game by.
    token: Token,
    pending: Option<(Seat, usize)>,
    /// What else the step protocol told of the pending decision.
    shape: Shape,
    /// The number of the pending decision's kind (see
    /// [`Game::decision_kind`]).
    pending_kind: i64,
    history: Vec<ActionRecord>,
    redo: Vec<ActionRecord>,
    /// For a search's copy: the tables its last replay of a tape made
    /// (see [`Game::refork`]), kept here rather than in a Lua table of
    /// all copies, so that they go with the copy.
    replayed: Option<LuaTable>,
    logging: bool,
    /// Whether the events carry their words (`text`; see
    /// [`crate::Engine::new_traced_game`]).
    words: bool,
    /// Whether the history keeps the value of each chosen option (when
    /// logging; see [`Game::keep_action_values`]).
    action_values: bool,
    /// Set when a step failed and the game could not be put back as it was
    /// (the Lua state may be half-changed): why. Only the log is usable.
    broken: Option<String>,
    /// The error of a description of an option of the pending decision
    /// that ran past its budget: further descriptions at this position
    /// fail at once with it (a runaway in `describe` is paid once per
    /// decision, not once per option). Cleared when the game moves.
    describe_runaway: RefCell<Option<String>>,
    /// See [`FreshReplay`].
    fresh_replay: FreshReplay,
}

/// What the step protocol tells of a decision besides its seat and size:
/// whether an option asks for cards, and in a reaction window, which
/// option passes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Shape {
    subsets: bool,
    pass: Option<usize>,
}

/// The answer of the prelude's `refresh` and `step`: seat, option count,
/// the number of the decision's kind, whether an option asks for cards,
/// the pass option of a window (0: none).
type Stepped = (Option<Seat>, usize, i64, bool, usize);

/// What a step reported through the host's buffer (see
/// [`Host::decided`]), as the values it would have returned.
fn reported(d: [f64; 5]) -> Stepped {
    let seat = (d[0] >= 1.0).then_some(d[0] as Seat);
    (seat, d[1] as usize, d[2] as i64, d[3] != 0.0, d[4] as usize)
}

fn shape_of(s: &Stepped) -> (Option<(Seat, usize)>, i64, Shape) {
    (
        s.0.map(|seat| (seat, s.1)),
        s.2,
        Shape {
            subsets: s.3,
            pass: (s.4 > 0).then_some(s.4),
        },
    )
}

fn lua_opts() -> SerializeOptions {
    SerializeOptions::new()
        .serialize_none_to_null(false)
        .serialize_unit_to_null(false)
        .set_array_metatable(false)
}

/// How a game whose VM failed is put back together elsewhere: its config
/// and actions replayed in a fresh VM with the rules loaded again, under
/// the same search path and limits (the engine provides it, see
/// `Game::restore`).
pub(crate) type FreshReplay = fn(
    &std::sync::Arc<crate::library::ScriptLibrary>,
    crate::lua::Limits,
    GameConfig,
    &[ActionRecord],
) -> Result<Game>;

impl Game {
    pub(crate) fn start(
        host: Rc<Host>,
        rules: Rc<Rules>,
        config: GameConfig,
        logging: bool,
        words: bool,
        fresh_replay: FreshReplay,
    ) -> Result<Game> {
        let range = rules.info.players;
        if config.players < range.min || config.players > range.max {
            return Err(CoreError::Invalid(format!(
                "{} is for {}-{} players, not {}",
                rules.info.title, range.min, range.max, config.players
            )));
        }
        let options = rules.info.resolve_options(&config.options)?;
        let lua = host.lua();
        let table = Rc::new(RefCell::new(Table::new(
            config.players,
            config.seed,
            logging,
        )));
        let token = host.new_token();
        let opts = host.options_table(&options, || lua.to_value_with(&options, lua_opts()))?;
        let (state, stepped) = {
            let _in_play = host.enter(token, &table);
            host.arm();
            let state: LuaTable = host.entry.new_game.call((
                rules.table.clone(),
                token,
                config.players,
                opts,
                logging,
                words && logging,
            ))?;
            host.arm();
            let stepped: Stepped = host.entry.refresh.call(state.clone())?;
            (state, stepped)
        };
        let (pending, pending_kind, shape) = shape_of(&stepped);
        Ok(Game {
            host,
            rules,
            config,
            options,
            state,
            table,
            token,
            pending,
            pending_kind,
            shape,
            history: Vec::new(),
            redo: Vec::new(),
            replayed: None,
            logging,
            words: words && logging,
            action_values: logging,
            broken: None,
            describe_runaway: RefCell::new(None),
            fresh_replay,
        })
    }

    /// Refuse to work on a game left half-changed by a failed step.
    fn usable(&self) -> Result<()> {
        match &self.broken {
            None => Ok(()),
            Some(why) => Err(CoreError::Rule(format!(
                "this game could not be restored after a failed step ({why}); its log is \
                 intact: save it and load it again"
            ))),
        }
    }

    /// Whether a failed step left this game unusable (see
    /// [`CoreError::Restore`]); its config and log can still be saved.
    pub fn is_broken(&self) -> bool {
        self.broken.is_some()
    }

    /// The definition this game was started from.
    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    /// The resolved options (defaults filled in).
    pub fn options(&self) -> &BTreeMap<String, Json> {
        &self.options
    }

    /// What the rules declare (title, players, options, bots).
    pub fn rules_info(&self) -> &crate::rules::RulesInfo {
        &self.rules.info
    }

    /// Where the rules' script bot `name` is defined (`FILE:LINE`), for
    /// messages about a bot that failed.
    pub(crate) fn script_bot_position(&self, name: &str) -> Option<String> {
        self.rules.bot_position(name)
    }

    /// Who must choose now and among how many options; `None` once the game is over.
    pub fn pending(&self) -> Option<(Seat, usize)> {
        self.pending
    }

    /// Whether an option of the pending decision asks for a set of cards
    /// (see [`Game::subset`]).
    pub fn has_subsets(&self) -> bool {
        self.shape.subsets
    }

    /// In a reaction window, the option that passes.
    pub fn window_pass(&self) -> Option<usize> {
        self.shape.pass
    }

    /// In a reaction window, its kind (the decision's `window` field).
    pub fn window(&self) -> Result<Option<String>> {
        if self.shape.pass.is_none() {
            return Ok(None);
        }
        let Some(d) = self.decision_table()? else {
            return Ok(None);
        };
        Ok(d.get::<Option<String>>("window")?)
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.pending.is_none()
    }

    /// The actions applied so far.
    pub fn history(&self) -> &[ActionRecord] {
        &self.history
    }

    /// Whether `redo` has anything to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Run `f` with the Rust table borrowed.
    pub fn with_table<R>(&self, f: impl FnOnce(&Table) -> R) -> Result<R> {
        Ok(f(&*self.table_ref()?))
    }

    fn table_ref(&self) -> Result<Ref<'_, Table>> {
        self.table
            .try_borrow()
            .map_err(|_| CoreError::Rule("the game's table is in use".into()))
    }

    fn table_mut(&self) -> Result<std::cell::RefMut<'_, Table>> {
        self.table
            .try_borrow_mut()
            .map_err(|_| CoreError::Rule("the game's table is in use".into()))
    }

    /// Ready a call into this game's Lua code: a fresh instruction budget,
    /// and this game's table in play for the primitives until the guard drops.
    fn enter(&self) -> Entered<'_> {
        let in_play = self.host.enter(self.token, &self.table);
        self.host.arm();
        in_play
    }

    /// A card's definition.
    pub fn card(&self, id: u32) -> Result<CardDef> {
        self.ensure_cards()?;
        self.with_table(|t| t.card(id).cloned())?
    }

    /// All card definitions.
    pub fn cards(&self) -> Result<Vec<CardDef>> {
        self.ensure_cards()?;
        self.with_table(|t| t.cards.clone())
    }

    /// Fetch from the script the definitions of the cards it made since the
    /// last call. Bulk simulation never needs them, so they are read only on
    /// demand (traces, views, front ends, checks).
    pub(crate) fn ensure_cards(&self) -> Result<()> {
        // The script numbers the cards: learn how many it has made, placed or not.
        let defined: u32 = self.state.raw_get("_ncards").map_err(|e| {
            CoreError::Script(format!(
                "game._ncards (the count of cards made) is not a count: {e}"
            ))
        })?;
        self.table_mut()?.define_cards(defined)?;
        let from = self.with_table(|t| t.missing_definitions().then(|| t.cards.len() + 1))?;
        let Some(from) = from else {
            return Ok(());
        };
        let f = &self.host.entry.card_defs;
        let _in_play = self.enter();
        // Every game of a run usually defines the same deck: the prelude
        // says so (`same`) when the core keeps the last one it converted.
        let whole = from == 1;
        let kept = whole && self.host.has_card_defs();
        let (same, v): (bool, Value) = f.call((self.state.clone(), from, kept))?;
        if same {
            if let Some(defs) = self.host.kept_card_defs() {
                self.table_mut()?.add_definitions(defs);
                return Ok(());
            }
            return Err(CoreError::Script(
                "card_defs: the same cards as before, but none are kept".into(),
            ));
        }
        if whole {
            self.host.keep_card_defs(None);
        }
        let not_data = |e: String| {
            CoreError::Script(format!(
                "card properties must be plain data (numbers, strings, booleans, tables): {e}"
            ))
        };
        // Converted directly (a trace asks for every game's cards).
        let json = crate::lua::json_text::to_value(&v).map_err(|e| not_data(e.to_string()))?;
        let defs: Vec<serde_json::Map<String, Json>> = match json {
            // No new card with properties: an empty list.
            Json::Array(a) => a
                .into_iter()
                .map(|d| match d {
                    Json::Object(m) => Ok(m),
                    Json::Array(a) if a.is_empty() => Ok(serde_json::Map::new()),
                    other => Err(not_data(format!("a card is {other}"))),
                })
                .collect::<Result<_>>()?,
            other => return Err(not_data(format!("the cards are {other}"))),
        };
        if whole {
            self.host.keep_card_defs(Some(&defs));
        }
        self.table_mut()?.add_definitions(defs);
        Ok(())
    }

    /// The events recorded since the last call.
    pub fn take_events(&mut self) -> Vec<Event> {
        match self.table.try_borrow_mut() {
            Ok(mut t) => t.take_events(),
            Err(_) => Vec::new(),
        }
    }

    /// Whether the history keeps the value of each chosen option, besides
    /// its index (on by default when logging: saves and replay by value
    /// need it). A game that will never be saved or replayed by value, and
    /// whose observers read the options themselves (a full trace), turns
    /// it off to save converting each chosen option.
    pub(crate) fn keep_action_values(&mut self, on: bool) {
        self.action_values = on && self.logging;
    }

    /// Apply option `index` (1-based) of the pending decision (an ordinary
    /// option; see [`Game::apply_choice`] for one that asks for cards).
    pub fn apply(&mut self, index: usize) -> Result<()> {
        self.apply_choice(&Choice::option(index))
    }

    /// Apply `choice` to the pending decision, once the rules accept it
    /// ([`Game::check_choice`]: a refused set changes nothing).
    pub fn apply_choice(&mut self, choice: &Choice) -> Result<()> {
        if choice.picks.is_some() || self.shape.subsets {
            self.check_choice(choice)?;
        }
        self.apply_inner(choice)?;
        self.redo.clear();
        Ok(())
    }

    /// Apply a step; on a script error, put the game back exactly as it was
    /// before the step (see [`Game::restore`]).
    fn apply_inner(&mut self, choice: &Choice) -> Result<()> {
        self.usable()?;
        let Err(err) = self.step_raw(choice) else {
            return Ok(());
        };
        self.collect_after(&err);
        match self.restore(err) {
            Err(CoreError::Script(msg))
                if !self.is_broken() && crate::lua::lacks_position(&msg) =>
            {
                self.locate(choice, msg)
            }
            other => other,
        }
    }

    /// After an out-of-memory error, free the failed call's garbage.
    fn collect_after(&self, err: &CoreError) {
        if matches!(err, CoreError::Script(m) if m.contains("out of memory")) {
            let _ = self.host.lua().gc_collect();
        }
    }

    /// Step `index` failed with `msg`, which names no exact position (an
    /// out-of-memory error has none): run it again noting the script's
    /// position finely, to say where it failed, then put the game back as
    /// it was (the step is deterministic: it fails the same way again).
    fn locate(&mut self, choice: &Choice, msg: String) -> Result<()> {
        let host = self.host.clone();
        let steps = self.history.len();
        let again = host.with_fine_positions(|| self.step_raw(choice));
        self.history.truncate(steps);
        let msg = match (&again, crate::lua::last_position()) {
            (Err(_), Some(at)) => crate::lua::with_position(&msg, &at),
            _ => msg,
        };
        if let Err(e) = &again {
            self.collect_after(e);
        }
        self.restore(CoreError::Script(msg))
    }

    /// The pending decision's seat and option count, when `choice` names
    /// one of its options.
    fn pending_option(&self, choice: &Choice) -> Result<(Seat, usize)> {
        let (seat, n) = self
            .pending
            .ok_or_else(|| CoreError::Rule("the game is over".into()))?;
        let index = choice.index;
        if index == 0 || index > n {
            return Err(CoreError::Invalid(format!(
                "there is no option {index}: choose 1 to {n}"
            )));
        }
        Ok((seat, n))
    }

    /// Run one step of the rules, with no rollback: on an error the Lua
    /// state may be half-changed.
    fn step_raw(&mut self, choice: &Choice) -> Result<()> {
        let (seat, _) = self.pending_option(choice)?;
        let index = choice.index;
        let action = if self.logging && self.action_values {
            self.chosen_value(choice)?
        } else {
            Json::Null
        };
        self.table_mut()?.step = self.history.len() + 1;
        let stepped = {
            let _in_play = self.enter();
            let (entry, state) = (&self.host.entry, &self.state);
            if self.host.steps_report_directly() {
                match &choice.picks {
                    None => entry.step.call::<()>((state, index)),
                    Some(picks) => entry
                        .step_subset
                        .call::<()>((state, index, picks.as_slice())),
                }
                .map(|()| reported(self.host.decided()))
            } else {
                match &choice.picks {
                    None => entry.step.call::<Stepped>((state, index)),
                    Some(picks) => {
                        entry
                            .step_subset
                            .call::<Stepped>((state, index, picks.as_slice()))
                    }
                }
            }
        };
        let (pending, kind, shape) = shape_of(&stepped?);
        self.pending = pending;
        self.describe_runaway.replace(None);
        self.pending_kind = kind;
        self.shape = shape;
        self.history.push(ActionRecord {
            seat,
            index,
            picks: choice.picks.clone(),
            action,
        });
        Ok(())
    }

    /// After step `err` failed: rebuild the game from its config and log
    /// (the truth of a game), in this VM, or, when that fails too (the VM
    /// out of memory, rules that do not replay the same), in a fresh VM
    /// with the rules loaded again. Returns `err` when the game is as it
    /// was before the step; when both fail, the game is marked broken and
    /// only its log can be used.
    fn restore(&mut self, err: CoreError) -> Result<()> {
        let history = self.history.clone();
        let in_place = match self.rebuild(history.clone()) {
            Ok(()) => return Err(err),
            Err(e) => e,
        };
        let fresh = (self.fresh_replay)(
            self.host.library(),
            self.host.limits(),
            self.config.clone(),
            &history,
        );
        match fresh {
            Ok(game) => {
                let redo = std::mem::take(&mut self.redo);
                let action_values = self.action_values;
                *self = game;
                self.redo = redo;
                self.action_values = action_values && self.logging;
                if !self.logging {
                    self.table_mut()?.logging = false;
                }
                Err(err)
            }
            Err(again) => {
                let why = format!("in this VM: {in_place}; in a new VM: {again}");
                self.broken = Some(why.clone());
                Err(CoreError::Restore {
                    step_error: err.to_string(),
                    restore_error: why,
                })
            }
        }
    }

    /// Rebuild from the config by replaying `history` (by index: same rules).
    fn rebuild(&mut self, history: Vec<ActionRecord>) -> Result<()> {
        let mut fresh = Game::start(
            self.host.clone(),
            self.rules.clone(),
            self.config.clone(),
            self.logging,
            self.words,
            self.fresh_replay,
        )?;
        for rec in &history {
            fresh.step_raw(&rec.choice())?;
        }
        fresh.take_events();
        self.state = fresh.state;
        self.table = fresh.table;
        self.token = fresh.token;
        self.pending = fresh.pending;
        self.describe_runaway.replace(None);
        self.shape = fresh.shape;
        self.pending_kind = fresh.pending_kind;
        self.history = fresh.history;
        Ok(())
    }

    /// Undo the last action. Returns false when there is nothing to undo.
    pub fn undo(&mut self) -> Result<bool> {
        self.usable()?;
        let Some(last) = self.history.last().cloned() else {
            return Ok(false);
        };
        let mut h = self.history.clone();
        h.pop();
        self.rebuild(h)?;
        self.redo.push(last);
        Ok(true)
    }

    /// Redo the last undone action. Returns false when there is nothing to redo.
    pub fn redo(&mut self) -> Result<bool> {
        let Some(rec) = self.redo.pop() else {
            return Ok(false);
        };
        self.apply_inner(&rec.choice())?;
        self.take_events();
        Ok(true)
    }
}
