//! A live game: the Rust table, the Lua game object, the pending decision
//! and the action log. Every step goes through [`Game::apply`], which checks
//! the choice, runs the rules in one Lua call, and on a script error restores
//! the game exactly as it was before the step.

pub mod random;

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
    pub fn script_bot_position(&self, name: &str) -> Option<String> {
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
    pub fn ensure_cards(&self) -> Result<()> {
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

    fn decision_table(&self) -> Result<Option<LuaTable>> {
        Ok(self.state.raw_get::<Option<LuaTable>>("_decision")?)
    }

    /// The value of option `index` (1-based) of the pending decision, as
    /// the Lua value the rules gave (for a writer that converts it itself).
    /// The value the rules apply for `choice`, as Lua holds it (see
    /// [`Game::chosen_value`]).
    pub fn chosen_lua_value(&self, choice: &Choice) -> Result<Value> {
        match &choice.picks {
            None => self.option_lua_value(choice.index),
            Some(picks) => {
                self.usable()?;
                let _in_play = self.enter();
                Ok(self.host.entry.chosen.call((
                    self.state.clone(),
                    choice.index,
                    picks.clone(),
                ))?)
            }
        }
    }

    pub fn option_lua_value(&self, index: usize) -> Result<Value> {
        self.usable()?;
        self.option_value(index)
    }

    fn option_value(&self, index: usize) -> Result<Value> {
        let d = self
            .decision_table()?
            .ok_or_else(|| CoreError::Rule("the game is over".into()))?;
        let opts: LuaTable = d.raw_get("options")?;
        Ok(opts.raw_get(index)?)
    }

    /// The values of the pending decision's options, as the rules gave
    /// them (without their words: see [`Game::decision`]); empty once the
    /// game is over.
    pub fn option_values(&self) -> Result<Vec<Json>> {
        self.usable()?;
        let Some((_, n)) = self.pending else {
            return Ok(Vec::new());
        };
        (1..=n)
            .map(|i| self.option_json(i, self.option_value(i)?))
            .collect()
    }

    /// The options of the pending decision as the Lua values the rules
    /// gave (one lookup for all; empty once the game is over). For a
    /// writer that converts them itself ([`crate::lua::json_text`]).
    pub fn option_lua_values(&self) -> Result<Vec<Value>> {
        self.usable()?;
        let Some((_, n)) = self.pending else {
            return Ok(Vec::new());
        };
        let d = self
            .decision_table()?
            .ok_or_else(|| CoreError::Rule("no pending decision".into()))?;
        let opts: LuaTable = d.raw_get("options")?;
        (1..=n).map(|i| Ok(opts.raw_get(i)?)).collect()
    }

    /// The cards of the pending decision's options when every option is
    /// exactly `{card = N}` (a card to play), in option order; `None`
    /// otherwise, or once the game is over. One call into the scripts.
    pub fn option_cards(&self) -> Result<Option<Vec<i64>>> {
        self.usable()?;
        if self.pending.is_none() {
            return Ok(None);
        }
        let cards: mlua::Variadic<i64> = self.host.entry.option_cards.call(self.state.clone())?;
        Ok((!cards.is_empty()).then(|| cards.to_vec()))
    }

    /// The kind of the pending decision, as the rules name it (its `kind`
    /// field: `"play"`, `"pass"`, `"choose_leader"` ...; the games shipped
    /// name each by its phase), else `"choose"`; `None` once the game is
    /// over.
    pub fn decision_kind(&self) -> Result<Option<String>> {
        self.usable()?;
        if self.pending.is_none() {
            return Ok(None);
        }
        let named = match usize::try_from(self.pending_kind) {
            Ok(0) => {
                // One kind too many to number: read from the decision.
                let kind: Option<Value> = self
                    .decision_table()?
                    .map(|d| d.raw_get("kind"))
                    .transpose()?;
                match kind {
                    Some(Value::String(s)) => Some(s.to_string_lossy()),
                    _ => None,
                }
            }
            Ok(id) => self.host.kind_name(id)?,
            Err(_) => None,
        };
        Ok(Some(named.unwrap_or_else(|| DEFAULT_KIND.to_string())))
    }

    /// The pending decision with every option in words.
    pub fn decision(&self) -> Result<Option<DecisionView>> {
        self.usable()?;
        let Some((seat, n)) = self.pending else {
            return Ok(None);
        };
        let d = self
            .decision_table()?
            .ok_or_else(|| CoreError::Rule("no pending decision".into()))?;
        let prompt: Option<String> = d.raw_get("prompt")?;
        let opts: LuaTable = d.raw_get("options")?;
        let mut options = Vec::with_capacity(n);
        for index in 1..=n {
            let v: Value = opts.raw_get(index)?;
            let text = self.describe_value(v.clone())?;
            let action: Json = self.option_json(index, v)?;
            options.push(OptionView {
                index,
                action,
                text,
            });
        }
        Ok(Some(DecisionView {
            seat,
            prompt: prompt.unwrap_or_else(|| "Choose".into()),
            options,
            window: self.window()?,
        }))
    }

    /// What option `index` of the pending decision offers when it asks for
    /// a set of cards (its `choose` field); `None` for an ordinary option.
    pub fn subset(&self, index: usize) -> Result<Option<SubsetSpec>> {
        self.usable()?;
        if !self.shape.subsets {
            return Ok(None);
        }
        let _in_play = self.enter();
        let (from, min, max, scored): (Option<Vec<u32>>, usize, usize, bool) =
            self.host.entry.subset.call((self.state.clone(), index))?;
        Ok(from.map(|from| SubsetSpec {
            from,
            min,
            max,
            scored,
        }))
    }

    /// Whether `choice` may be applied now: the option exists, it asks for
    /// cards exactly when the choice gives some, and the rules accept the
    /// set (its bounds and `rules.choices[check].valid`). The error says
    /// why not, in the rules' words.
    pub fn check_choice(&self, choice: &Choice) -> Result<()> {
        self.usable()?;
        let (_, n) = self
            .pending
            .ok_or_else(|| CoreError::Rule("the game is over".into()))?;
        let index = choice.index;
        if index == 0 || index > n {
            return Err(CoreError::Invalid(format!(
                "there is no option {index}: choose 1 to {n}"
            )));
        }
        let asks = self.subset(index)?.is_some();
        match (&choice.picks, asks) {
            (None, false) => Ok(()),
            (None, true) => Err(CoreError::Invalid(format!(
                "option {index} asks for a set of cards: give them too"
            ))),
            (Some(_), false) => Err(CoreError::Invalid(format!(
                "option {index} does not ask for cards"
            ))),
            (Some(picks), true) => {
                if picks.windows(2).any(|w| w[0] >= w[1]) {
                    return Err(CoreError::Invalid(
                        "each card may be chosen once (positions in ascending order)".into(),
                    ));
                }
                let why: Option<String> = {
                    let _in_play = self.enter();
                    self.host
                        .entry
                        .check
                        .call((self.state.clone(), index, picks.clone()))?
                };
                match why {
                    None => Ok(()),
                    Some(why) => Err(CoreError::Rule(why)),
                }
            }
        }
    }

    /// The value the rules apply for `choice`: the option's value, or for
    /// a set of cards, the option without `choose` and with the chosen
    /// `cards`.
    pub fn chosen_value(&self, choice: &Choice) -> Result<Json> {
        let v = match &choice.picks {
            None => self.option_value(choice.index)?,
            Some(picks) => {
                let _in_play = self.enter();
                self.host.entry.chosen.call::<Value>((
                    self.state.clone(),
                    choice.index,
                    picks.clone(),
                ))?
            }
        };
        self.option_json(choice.index, v)
    }

    /// Option `index`'s value `v` as JSON; when it holds a value that is
    /// not plain data (a function, a coroutine, a userdata), an error that
    /// names where the decision function is defined and what the value is.
    fn option_json(&self, index: usize, v: Value) -> Result<Json> {
        self.host.lua().from_value(v.clone()).map_err(|_| {
            let what = match crate::lua::json_text::to_value(&v) {
                Err(e) => e.to_string(),
                Ok(_) => format!("a {} value", v.type_name()),
            };
            let at = self
                .rules
                .table
                .raw_get::<mlua::Function>("decision")
                .map_or_else(|_| "?".to_string(), |f| crate::lua::api::defined_at(&f));
            CoreError::Script(format!(
                "{at}: option {index} of the decision is not plain data \
                 (numbers, strings, booleans, tables of those): {what}"
            ))
        })
    }

    /// The value the rules apply for `choice` and its text
    /// (`rules.describe`), for front ends that show a move.
    pub fn choice_text(&self, choice: &Choice) -> Result<(Json, String)> {
        let action = self.chosen_value(choice)?;
        let text = self.describe(&action)?;
        Ok((action, text))
    }

    /// Build a set for option `index` card by card in the rules (see
    /// [`crate::choice`]): the positions of `order` in turn, up to `target`
    /// cards (`greedy`: by the rules' score). `None` when the set built is
    /// not a valid choice.
    pub fn build_subset(
        &self,
        index: usize,
        order: &[usize],
        target: usize,
        greedy: bool,
    ) -> Result<Option<Vec<usize>>> {
        self.usable()?;
        let _in_play = self.enter();
        Ok(self.host.entry.build.call((
            self.state.clone(),
            index,
            order.to_vec(),
            target,
            greedy,
        ))?)
    }

    /// Whether the history keeps the value of each chosen option, besides
    /// its index (on by default when logging: saves and replay by value
    /// need it). A game that will never be saved or replayed by value, and
    /// whose observers read the options themselves (a full trace), turns
    /// it off to save converting each chosen option.
    pub fn keep_action_values(&mut self, on: bool) {
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

    /// Run one step of the rules, with no rollback: on an error the Lua
    /// state may be half-changed.
    fn step_raw(&mut self, choice: &Choice) -> Result<()> {
        let (seat, n) = self
            .pending
            .ok_or_else(|| CoreError::Rule("the game is over".into()))?;
        let index = choice.index;
        if index == 0 || index > n {
            return Err(CoreError::Invalid(format!(
                "there is no option {index}: choose 1 to {n}"
            )));
        }
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

    /// Apply the option whose value equals `action`.
    pub fn apply_action(&mut self, action: &Json) -> Result<()> {
        let rec = ActionRecord {
            seat: self.pending.map(|p| p.0).unwrap_or(0),
            index: 0,
            picks: None,
            action: action.clone(),
        };
        let choice = self.match_action(&rec).map_err(CoreError::Invalid)?;
        self.apply_choice(&choice)
    }

    /// The choice that a recorded action stands for now.
    pub fn match_action(&self, rec: &ActionRecord) -> std::result::Result<Choice, String> {
        let (seat, n) = self.pending.ok_or("the game is already over")?;
        if rec.seat != 0 && rec.seat != seat {
            return Err(format!(
                "the log has seat {} choosing, but the rules now ask seat {seat}",
                rec.seat
            ));
        }
        if rec.action.is_null() {
            return if rec.index >= 1 && rec.index <= n {
                Ok(rec.choice())
            } else {
                Err(format!("option {} does not exist (1..{n})", rec.index))
            };
        }
        let d = self.decision().map_err(|e| e.to_string())?;
        let d = d.ok_or("no pending decision")?;
        if let Some(o) = d.options.iter().find(|o| o.action == rec.action) {
            return Ok(Choice::option(o.index));
        }
        if let Some(choice) = self.match_subset(&d, &rec.action) {
            return Ok(choice);
        }
        // Named by its text (the public one for a secret choice), and
        // without the legal options: they may be a hidden hand.
        let text = secret_text(&rec.action)
            .or_else(|| self.describe(&rec.action).ok())
            .unwrap_or_else(|| rec.action.to_string());
        Err(format!("seat {seat} chose {text}, which is not legal now"))
    }

    /// A recorded set of cards (an option's value without `choose`, with
    /// `cards`) matched against the options that ask for cards: the option
    /// equal to it but for `choose` and `cards`, with each recorded card
    /// among its candidates.
    fn match_subset(&self, d: &DecisionView, action: &Json) -> Option<Choice> {
        let strip = |v: &Json| -> Option<serde_json::Map<String, Json>> {
            let mut m = v.as_object()?.clone();
            m.remove("choose");
            m.remove("cards");
            Some(m)
        };
        let wanted = strip(action)?;
        let cards: Vec<u32> = action
            .get("cards")?
            .as_array()?
            .iter()
            .map(|c| c.as_u64().and_then(|c| u32::try_from(c).ok()))
            .collect::<Option<_>>()?;
        d.options.iter().find_map(|o| {
            o.action.get("choose")?;
            if strip(&o.action)? != wanted {
                return None;
            }
            let spec = crate::meta::OptionMeta::of(&o.action).choose?;
            let picks: Option<Vec<usize>> = cards
                .iter()
                .map(|c| spec.from.iter().position(|f| f == c).map(|p| p + 1))
                .collect();
            Some(Choice::subset(o.index, picks?))
        })
    }

    /// Ask a script bot of these rules what the seat to move chooses;
    /// `rng` is the bot's random stream for this decision (`view:random`).
    pub fn script_bot_choice(&self, bot: &str, rng: crate::rng::GameRng) -> Result<Choice> {
        self.usable()?;
        if self.pending.is_none() {
            return Err(CoreError::Rule("the game is over".into()));
        }
        let _in_play = self.enter();
        self.host.set_bot_rng(Some(rng));
        let answer: mlua::Result<(usize, Option<Vec<usize>>)> =
            self.host.entry.bot.call((self.state.clone(), bot));
        self.host.set_bot_rng(None);
        let (index, picks) = answer?;
        Ok(Choice { index, picks })
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

    /// A copy of this game for search or simulation: no log, no history.
    pub fn fork(&self) -> Result<Game> {
        self.usable()?;
        let mut t = self.table_ref()?.clone();
        t.logging = false;
        t.take_events();
        let table = Rc::new(RefCell::new(t));
        let token = self.host.new_token();
        let state: LuaTable = {
            // The copy is made by this game's code, for the new token.
            let _in_play = self.enter();
            self.host.entry.clone.call((self.state.clone(), token))?
        };
        Ok(Game {
            host: self.host.clone(),
            rules: self.rules.clone(),
            config: self.config.clone(),
            options: self.options.clone(),
            state,
            table,
            token,
            pending: self.pending,
            shape: self.shape,
            pending_kind: self.pending_kind,
            history: Vec::new(),
            redo: Vec::new(),
            replayed: None,
            logging: false,
            words: false,
            action_values: false,
            broken: None,
            describe_runaway: RefCell::new(None),
            fresh_replay: self.fresh_replay,
        })
    }

    /// What `viewer` can tell the pending decision's options apart by, one
    /// text per option (empty once the game is over): each option's text,
    /// except that a secret option of another seat shows only what that
    /// seat's rivals are told (see [`secret_text`]). A search keys other
    /// seats' moves by these, so that it never tells apart what its seat
    /// could not.
    pub fn option_keys(&self, viewer: Seat) -> Result<Vec<String>> {
        self.usable()?;
        let f = &self.host.entry.option_keys;
        let _in_play = self.enter();
        Ok(f.call((self.state.clone(), viewer))?)
    }

    /// The key of option `index` (1-based) alone, as [`Game::option_keys`]
    /// gives it: for a search that needs only the move it plays.
    pub fn option_key(&self, viewer: Seat, index: usize) -> Result<String> {
        self.usable()?;
        let f = &self.host.entry.option_key;
        let key: Option<String> = {
            let _in_play = self.enter();
            f.call((self.state.clone(), viewer, index))?
        };
        key.ok_or_else(|| CoreError::Invalid(format!("there is no option {index}")))
    }

    /// Play this copy on inside one call into the rules (the hot path of
    /// the search bots): every choice made by the script bot `policy`, or at
    /// random with the copy's own generator. Stops at the game's end, or
    /// once the round count passes `horizon`, or after `max_steps` steps.
    /// Returns what the position reached is worth to each seat (seat 1
    /// first): the rules' evaluation (0..1) when stopped at the horizon,
    /// else 1 for a win, 1/k for a win shared by k seats, 0 otherwise;
    /// `None` after `max_steps`. The steps are not logged: use on forks
    /// only. The playout runs under the limits of one step.
    pub fn playout(
        &mut self,
        horizon: Option<u32>,
        policy: Option<&str>,
        max_steps: usize,
    ) -> Result<Option<Vec<f64>>> {
        self.usable()?;
        let f = self.host.entry.playout.clone();
        // A script bot playing the copy on draws its `view:random` from a
        // stream of the copy's own generator (reseeded with each guess).
        if policy.is_some() {
            let stream = self.own_stream(2000)?;
            self.host.set_bot_rng(Some(stream));
        }
        let mut left = max_steps;
        let values = loop {
            type Answer = (
                Option<Vec<f64>>,
                bool,
                usize,
                Option<Seat>,
                usize,
                i64,
                bool,
                usize,
            );
            let answer: mlua::Result<Answer> = {
                let _in_play = self.enter();
                f.call((self.state.clone(), horizon, policy, left))
            };
            let (values, core_chooses, steps, seat, n, kind, subsets, pass) = match answer {
                Ok(a) => a,
                Err(e) => {
                    self.host.set_bot_rng(None);
                    return Err(e.into());
                }
            };
            if steps > 0 {
                // What the last step left pending (its seat is none at the end).
                (self.pending, self.pending_kind, self.shape) =
                    shape_of(&(seat, n, kind, subsets, pass));
            }
            left = left.saturating_sub(steps);
            if !core_chooses {
                break values;
            }
            if left == 0 {
                break None;
            }
            // A choice of cards or a reaction window: chosen here as
            // everywhere else, from the copy's own generator.
            let choice = {
                let mut rng = self.own_stream(2001)?;
                match policy {
                    Some(bot) => self.script_bot_choice(bot, rng),
                    None => random::random_choice(self, &mut rng),
                }
            };
            let applied = choice.and_then(|c| self.apply_choice(&c));
            if let Err(e) = applied {
                self.host.set_bot_rng(None);
                return Err(e);
            }
            left -= 1;
            if policy.is_some() {
                // script_bot_choice ended the bot's stream: give it another.
                let stream = self.own_stream(2000)?;
                self.host.set_bot_rng(Some(stream));
            }
        };
        self.host.set_bot_rng(None);
        Ok(values.map(|v| v.into_iter().map(|x| x.clamp(0.0, 1.0)).collect()))
    }

    /// A random stream drawn from this game's own generator (a search's
    /// copy: its generator is reseeded with each guess), for `stream`.
    fn own_stream(&self, stream: u64) -> Result<crate::rng::GameRng> {
        let seed = self
            .table
            .try_borrow_mut()
            .map_err(|_| CoreError::Rule("the game's table is in use".into()))?
            .rng
            .next_u64();
        Ok(crate::rng::GameRng::derived(seed, stream))
    }

    /// What the rules rule out for `seat`'s guesses: pairs (owner, card)
    /// such that `rules.may_hold(game, owner, card)` is false, among the
    /// cards `seat` cannot place and the seats whose zones hold them. Empty
    /// when the rules define no `may_hold`.
    pub fn ruled_out(&self, seat: Seat) -> Result<BTreeSet<(Seat, u32)>> {
        let (cards, owners) = self.with_table(|t| t.unknown_to(seat))?;
        if cards.is_empty() || owners.is_empty() {
            return Ok(BTreeSet::new());
        }
        let f = &self.host.entry.ruled_out;
        let _in_play = self.enter();
        let v: Value = f.call((self.state.clone(), owners, cards))?;
        let pairs: Vec<(Seat, u32)> = self
            .host
            .lua()
            .from_value(v)
            .map_err(|e| CoreError::Script(format!("may_hold: unexpected answer ({e})")))?;
        Ok(pairs.into_iter().collect())
    }

    /// The back of every card, as a class number by card id (index 0
    /// unused): cards whose `back` property is equal (or unset) share one.
    /// A face-down card shows its back, so a guess at the hidden cards
    /// swaps a card only with cards of the same back.
    pub fn card_backs(&self) -> Result<Vec<u32>> {
        let f = &self.host.entry.card_backs;
        let names: Vec<String> = f.call(self.state.clone())?;
        let mut classes: BTreeMap<String, u32> = BTreeMap::new();
        let mut backs = vec![0];
        for name in names {
            let next = classes.len() as u32;
            backs.push(*classes.entry(name).or_insert(next));
        }
        Ok(backs)
    }

    /// What `seat`'s guesses at the hidden cards must respect: the rules'
    /// exclusions ([`Game::ruled_out`]) and the cards' backs
    /// ([`Game::card_backs`]). A search asks once per decision, not once
    /// per guess.
    pub fn guessing(&self, seat: Seat) -> Result<Guessing<'_>> {
        Ok(Guessing {
            ruled_out: self.ruled_out(seat)?,
            backs: self.card_backs()?,
            game: self,
            tape: std::cell::OnceCell::new(),
        })
    }

    /// A fork in which the cards `seat` does not know the place of are dealt
    /// again at random (see [`Table::determinize`]) among the places of
    /// cards with the same back, never into a seat's zone that
    /// `rules.may_hold` rules out: one guess at the hidden state, consistent
    /// with what the seat has seen, for search bots.
    pub fn determinized(&self, seat: Seat, rng: &mut crate::rng::GameRng) -> Result<Game> {
        let guessing = self.guessing(seat)?;
        self.determinized_with(seat, rng, &guessing)
    }

    /// [`Game::determinized`] with what the guesses must respect already
    /// asked for ([`Game::guessing`]).
    pub fn determinized_with(
        &self,
        seat: Seat,
        rng: &mut crate::rng::GameRng,
        guessing: &Guessing,
    ) -> Result<Game> {
        let game = self.fork()?;
        self.guess_in(game, seat, rng, guessing)
    }

    /// [`Game::determinized_with`] made in `scratch`: the copy a search
    /// made for its previous guess is made a copy of this game again
    /// ([`Game::refork`]), reusing its tables, instead of a new fork each
    /// time; `scratch` holds the new guess afterwards. `guessing` must be
    /// this game's (else every guess is a new fork).
    pub fn determinized_into<'s>(
        &self,
        seat: Seat,
        rng: &mut crate::rng::GameRng,
        guessing: &Guessing,
        scratch: &'s mut Option<Game>,
    ) -> Result<&'s mut Game> {
        let copy = match scratch.take() {
            Some(mut copy) if std::ptr::eq(guessing.game, self) => {
                let tape = match guessing.tape.get() {
                    Some(tape) => tape,
                    None => {
                        let tape = self.tape()?;
                        guessing.tape.get_or_init(|| tape)
                    }
                };
                match self.refork(&mut copy, tape) {
                    Ok(()) => copy,
                    Err(_) => self.fork()?,
                }
            }
            _ => self.fork()?,
        };
        Ok(scratch.insert(self.guess_in(copy, seat, rng, guessing)?))
    }

    /// This game's Lua state written down for [`Game::refork`] (the
    /// prelude's `tape`).
    fn tape(&self) -> Result<LuaTable> {
        let _in_play = self.enter();
        Ok(self.host.entry.tape.call(self.state.clone())?)
    }

    /// Make `copy` (an earlier fork of a game of the same rules, in the
    /// same VM) a fork of this game again, whose Lua state `tape` wrote
    /// down ([`Game::tape`]): the same state, no log, no history, reusing
    /// the tables the copy's last replay of the same tape made rather
    /// than making new ones (most of the cost of a fork is making and
    /// collecting them).
    fn refork(&self, copy: &mut Game, tape: &LuaTable) -> Result<()> {
        self.usable()?;
        if !Rc::ptr_eq(&self.host, &copy.host) || !Rc::ptr_eq(&self.rules, &copy.rules) {
            return Err(CoreError::Invalid(
                "a copy is made again only from a game of the same rules and VM".into(),
            ));
        }
        {
            let mut t = copy.table_mut()?;
            t.clone_from(&*self.table_ref()?);
            t.logging = false;
            t.take_events();
        }
        {
            let _in_play = self.enter();
            let replayed = match &copy.replayed {
                Some(t) => t.clone(),
                None => self.host.lua().create_table()?,
            };
            self.host
                .entry
                .copy_tape
                .call::<()>((copy.state.clone(), tape, &replayed))?;
            copy.replayed = Some(replayed);
        }
        copy.config.clone_from(&self.config);
        copy.pending = self.pending;
        copy.pending_kind = self.pending_kind;
        copy.shape = self.shape;
        copy.history.clear();
        copy.redo.clear();
        copy.logging = false;
        copy.broken = None;
        Ok(())
    }

    /// Deal the cards `seat` cannot place at random in `game`, a fork of
    /// this game (see [`Game::determinized`]).
    fn guess_in(
        &self,
        game: Game,
        seat: Seat,
        rng: &mut crate::rng::GameRng,
        guessing: &Guessing,
    ) -> Result<Game> {
        let may_hold = |owner: Seat, card: u32| !guessing.ruled_out.contains(&(owner, card));
        let changed = game
            .table_mut()?
            .determinize(seat, rng, &may_hold, &guessing.backs);
        if changed.is_empty() {
            return Ok(game);
        }
        let lua = self.host.lua();
        if self.host.steps_report_directly() {
            // The prelude reads the zones from the core itself.
            let ids = lua.create_sequence_from(changed.iter().copied())?;
            let loaded = {
                let _in_play = game.enter();
                self.host
                    .entry
                    .load_zones
                    .call::<bool>((&game.state, ids))?
            };
            if loaded {
                return Ok(game);
            }
        }
        let zones = lua.create_table()?;
        game.with_table(|t| -> mlua::Result<()> {
            for id in changed {
                if let Ok(z) = t.zone(id) {
                    zones.raw_set(id, lua.create_sequence_from(z.cards.iter().copied())?)?;
                }
            }
            Ok(())
        })??;
        let f = &self.host.entry.set_zones;
        {
            let _in_play = game.enter();
            f.call::<()>((game.state.clone(), zones))?;
        }
        Ok(game)
    }

    /// The script variables, as JSON.
    pub fn vars(&self) -> Result<Json> {
        let v: Value = self.state.raw_get("vars")?;
        Ok(crate::lua::to_json(self.host.lua(), v, "game.vars")?)
    }

    /// What `seat` may see (`None`: everything, for an observer or a trace).
    pub fn view(&self, seat: Option<Seat>) -> Result<SeatView> {
        let zones = self.zone_views(seat)?;
        let t = self.table_ref()?;
        Ok(SeatView {
            seat,
            zones,
            vars: self.vars()?,
            teams: t.teams.clone(),
            to_move: self.pending.map(|p| p.0),
        })
    }

    /// The zones of [`Game::view`]: what `seat` sees of each.
    pub fn zone_views(&self, seat: Option<Seat>) -> Result<Vec<ZoneView>> {
        self.usable()?;
        let t = self.table_ref()?;
        Ok(t.zones
            .iter()
            .map(|z| {
                let sight = z.sight(seat);
                ZoneView {
                    name: z.name.clone(),
                    owner: z.owner,
                    visibility: z.visibility,
                    count: z.cards.len(),
                    cards: (sight == Sight::All).then(|| z.cards.clone()),
                    top: (sight == Sight::Top)
                        .then(|| z.cards.last().copied())
                        .flatten(),
                }
            })
            .collect())
    }

    /// Whether `seat` may see an event (card moves follow zone visibility).
    pub fn event_visible_to(&self, event: &Event, seat: Seat) -> bool {
        match &event.kind {
            EventKind::Script { to, .. } => to.is_none_or(|s| s == seat),
            EventKind::Move { from, to, .. } => self
                .with_table(|t| t.move_visible_to(*from, *to, seat))
                .unwrap_or(false),
            EventKind::Place { to, .. } => self
                .with_table(|t| t.zone(*to).is_ok_and(|z| z.sight(Some(seat)) == Sight::All))
                .unwrap_or(false),
            EventKind::Shuffle { .. } | EventKind::Sort { .. } => true,
        }
    }

    /// Lines the rules want shown under the table for `seat`.
    pub fn status_lines(&self, seat: Seat) -> Result<Vec<String>> {
        let f = &self.host.entry.status;
        let _in_play = self.enter();
        Ok(f.call((self.state.clone(), seat))?)
    }

    /// Why `seat` may not play `card` now, in the rules' words
    /// (`rules.why_not`); `None` when the rules give no reason. The answer
    /// is meant for that seat only.
    pub fn why_not(&self, seat: Seat, card: u32) -> Result<Option<String>> {
        let f = &self.host.entry.why_not;
        let _in_play = self.enter();
        Ok(f.call((self.state.clone(), seat, card))?)
    }

    /// The option text of an arbitrary recorded action (for logs).
    pub fn describe(&self, action: &Json) -> Result<String> {
        let v = self.host.lua().to_value_with(action, lua_opts())?;
        self.describe_value(v)
    }

    /// An option's value in the rules' words (`rules.describe`). After a
    /// description that ran past its budget, every description at the
    /// same position fails at once with the same error (see
    /// `describe_runaway`).
    fn describe_value(&self, v: Value) -> Result<String> {
        if let Some(msg) = self.describe_runaway.borrow().as_ref() {
            return Err(CoreError::Script(msg.clone()));
        }
        let described = {
            let _in_play = self.enter();
            self.host
                .entry
                .describe
                .call::<String>((self.state.clone(), v))
        };
        described.map_err(|e| {
            let e = CoreError::from(e);
            if let CoreError::Script(msg) = &e {
                if msg.contains(crate::lua::RUNAWAY) {
                    *self.describe_runaway.borrow_mut() = Some(msg.clone());
                }
            }
            e
        })
    }

    /// The outcome reported by the rules (meaningful once the game is over).
    pub fn result(&self) -> Result<GameResult> {
        let f = &self.host.entry.result;
        let _in_play = self.enter();
        let v: Value = f.call(self.state.clone())?;
        // Straight from Lua, so that an empty table reads as an empty list.
        self.host
            .lua()
            .from_value(v)
            .map_err(|e| CoreError::Script(format!("result() returned an unexpected shape: {e}")))
    }

    /// The value of every metric the rules define (`rules.metrics`), sorted
    /// by name, for this game (meant for a finished game): a number, a
    /// boolean as 1 or 0 (a share of games), or `None` when the metric does
    /// not apply to this game (its function returned nil). A metric that
    /// fails, or returns anything else (or, declared a share, a number
    /// outside 0..1), is an error naming its file and line.
    pub fn metrics(&self) -> Result<Vec<(String, Option<f64>)>> {
        let mut out = Vec::with_capacity(self.rules.metrics.len());
        for (name, f) in &self.rules.metrics {
            let v: Value = {
                let _in_play = self.enter();
                self.host
                    .entry
                    .metric
                    .call((self.state.clone(), f.clone()))
                    .map_err(|e| CoreError::Script(format!("metric '{name}': {e}")))?
            };
            let x = match v {
                Value::Nil => None,
                Value::Boolean(b) => Some(if b { 1.0 } else { 0.0 }),
                Value::Integer(i) => Some(i as f64),
                Value::Number(x) if x.is_finite() => Some(x),
                other => {
                    let info = f.info();
                    let at = format!(
                        "{}:{}",
                        info.short_src.as_deref().unwrap_or("?"),
                        info.line_defined.unwrap_or(0)
                    );
                    let what = match other {
                        Value::Number(x) => format!("the number {x}"),
                        o => format!("a {}", o.type_name()),
                    };
                    return Err(CoreError::Script(format!(
                        "metric '{name}' ({at}) returned {what}; a metric returns a finite \
                         number, a boolean or nil"
                    )));
                }
            };
            let share = self.rules.info.metrics.get(name).is_some_and(|m| m.share);
            if let Some(x) = x.filter(|x| share && !(0.0..=1.0).contains(x)) {
                let info = f.info();
                return Err(CoreError::Script(format!(
                    "metric '{name}' ({}:{}) returned {x}; it says it is a share (`share = \
                     true`), a number from 0 to 1",
                    info.short_src.as_deref().unwrap_or("?"),
                    info.line_defined.unwrap_or(0)
                )));
            }
            out.push((name.clone(), x));
        }
        Ok(out)
    }

    /// The team (0-based) of every seat, seat 1 first, when the rules
    /// set teams (`game:set_teams`); `None` when every seat plays alone.
    pub fn seat_teams(&self) -> Result<Option<Vec<usize>>> {
        self.with_table(|t| {
            t.teams.as_ref()?;
            Some(
                (1..=self.config.players)
                    .map(|s| t.team_of(s).unwrap_or(usize::MAX))
                    .collect(),
            )
        })
    }

    /// The number of rounds played or under way (the result's `rounds`).
    pub fn rounds(&self) -> Result<u32> {
        let f = &self.host.entry.rounds;
        let _in_play = self.enter();
        Ok(f.call(self.state.clone())?)
    }

    /// The rules' estimate (`rules.evaluate`) of the position for `seat`,
    /// from 0 (a sure loss) to 1 (a sure win); `None` when the rules give
    /// none. Search bots use it to stop a playout at the end of a round.
    pub fn evaluate(&self, seat: Seat) -> Result<Option<f64>> {
        let f = &self.host.entry.evaluate;
        let _in_play = self.enter();
        let v: Option<f64> = f.call((self.state.clone(), seat))?;
        Ok(v.map(|v| v.clamp(0.0, 1.0)))
    }

    /// Check the invariants: every card in exactly one zone, and the Lua
    /// mirrors equal to the Rust zones.
    pub fn check_invariants(&self) -> Result<()> {
        // Also checks that every card's properties are plain data.
        self.ensure_cards()?;
        let f = &self.host.entry.mirrors;
        let mirrors: Vec<Vec<u32>> = {
            let _in_play = self.enter();
            self.host.lua().from_value(f.call(self.state.clone())?)?
        };
        let t = self.table_ref()?;
        t.check_conservation()?;
        for (z, m) in t.zones.iter().zip(mirrors.iter()) {
            if &z.cards != m {
                return Err(CoreError::Rule(format!(
                    "zone '{}' was changed without the core (script edited the zone table)",
                    z.label()
                )));
            }
        }
        if mirrors.len() != t.zones.len() {
            return Err(CoreError::Rule("zone mirrors out of step".into()));
        }
        Ok(())
    }

    /// Ask the rules' own invariants (`rules.invariants(game)`, optional):
    /// `None` when they hold (the function returned nil or true, or the
    /// rules define none), `Some(why)` when it returned false or a message.
    /// An error the function raised is returned as a script error.
    pub fn script_invariants(&self) -> Result<Option<String>> {
        self.usable()?;
        let f = match self.rules.table.raw_get::<Value>("invariants")? {
            Value::Nil => return Ok(None),
            Value::Function(f) => f,
            other => {
                return Err(CoreError::Script(format!(
                    "rules.invariants must be a function, not a {}",
                    other.type_name()
                )))
            }
        };
        let v: Value = {
            let _in_play = self.enter();
            f.call(self.state.clone())?
        };
        match v {
            Value::Nil | Value::Boolean(true) => Ok(None),
            Value::Boolean(false) => Ok(Some("rules.invariants returned false".into())),
            Value::String(s) => Ok(Some(s.to_string_lossy())),
            other => Err(CoreError::Script(format!(
                "rules.invariants must return nil, true or a message, not a {}",
                other.type_name()
            ))),
        }
    }

    /// Evaluate Lua with `game` bound to this game, read-only (see
    /// [`Game::eval_prompt`]), in a fresh environment.
    pub fn eval_lua(&self, code: &str) -> Result<String> {
        let env = self.host.prompt_env()?;
        self.eval_prompt(code, &env)
    }

    /// Evaluate a line typed at a Lua prompt whose globals are `env` (made
    /// by this game's host, [`Host::prompt_env`]), with `game` bound to
    /// this game read-only: a line that tries to move a card, shuffle,
    /// draw a random number or change the game's tables is refused with an
    /// error, and the game is left as it was. To change a position, use
    /// [`Game::arrange`].
    pub fn eval_prompt(&self, code: &str, env: &PromptEnv) -> Result<String> {
        let _in_play = self.enter();
        self.host.eval_prompt(code, env, Some(&self.state))
    }

    /// The host whose VM runs this game's scripts.
    pub fn host(&self) -> &Rc<Host> {
        &self.host
    }

    /// Run Lua with full access to the game to arrange a position (tests and
    /// scenario set-up), then recompute the pending decision. The game's log
    /// does not record this, so undo and save are not meaningful afterwards.
    pub fn arrange(&mut self, code: &str) -> Result<()> {
        let stepped: Stepped = {
            let _in_play = self.enter();
            self.host.eval(code, Some(&self.state))?;
            self.host.arm();
            self.host.entry.refresh.call(self.state.clone())?
        };
        (self.pending, self.pending_kind, self.shape) = shape_of(&stepped);
        self.history.clear();
        self.redo.clear();
        Ok(())
    }

    /// Run a scenario (`deckhand lua FILE`): Lua with full access to this
    /// game and the scenario helpers (`scenario`: give cards by name, put
    /// a card on top, play moves, read the result; see
    /// [`Host::run_scenario`]), then recompute the pending decision. Like
    /// [`Game::arrange`], the log does not record it. A scenario moves
    /// cards and never makes or removes one: afterwards the card count is
    /// compared with the one before, and every card must be in exactly one
    /// zone with the Lua zone tables matching the core's
    /// ([`Game::check_invariants`]).
    pub fn run_scenario(
        &mut self,
        text: &str,
        chunk_name: &str,
        data: &BTreeMap<String, String>,
    ) -> Result<()> {
        self.usable()?;
        let count = |g: &Game| -> Result<u32> {
            g.state.raw_get::<u32>("_ncards").map_err(|e| {
                CoreError::Script(format!(
                    "game._ncards (the count of cards made) is not a count: {e}"
                ))
            })
        };
        let before = count(self)?;
        let ran = {
            let _in_play = self.enter();
            self.host.run_scenario(text, chunk_name, &self.state, data)
        };
        self.history.clear();
        self.redo.clear();
        ran?;
        let (seat, n): (Option<Seat>, usize) = {
            let _in_play = self.enter();
            self.host.entry.refresh.call(self.state.clone())?
        };
        self.pending = seat.map(|s| (s, n));
        self.describe_runaway.replace(None);
        let after = count(self)?;
        if after != before {
            return Err(CoreError::Rule(format!(
                "{chunk_name}: the scenario made {} card(s); a scenario moves cards and \
                 never makes or removes one",
                after.saturating_sub(before)
            )));
        }
        self.check_invariants()
            .map_err(|e| CoreError::Rule(format!("{chunk_name}: after the scenario: {e}")))?;
        match self.script_invariants()? {
            None => Ok(()),
            Some(why) => Err(CoreError::Rule(format!(
                "{chunk_name}: after the scenario, the rules' invariants fail: {why}"
            ))),
        }
    }

    /// What scripts printed since the last call.
    pub fn take_output(&self) -> Vec<String> {
        self.host.take_output()
    }
}
