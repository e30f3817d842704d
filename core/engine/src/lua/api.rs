//! The Rust primitives the prelude calls: every card move, shuffle, random
//! number and event goes through these, onto the game's [`Table`].
//!
//! The primitives take the game's token (an integer, `game._core` in Lua)
//! rather than the table itself: mlua converts a userdata argument at a cost
//! of several times the work of a move, on every call. The table of the game
//! whose Lua code is running sits in the host's [`InPlay`] slot, filled by
//! [`crate::game::Game`] around each call into Lua; the token only checks
//! that the game object a script uses is that game.

use super::declare::whole_of;
use crate::error::CoreError;
use crate::rng::GameRng;
use crate::table::Table;
use crate::zone::Visibility;
use mlua::{FromLua, Lua, Table as LuaTable, Value, Variadic};
use serde_json::Value as Json;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// The token of a game object: which game a script's `game` stands for.
pub type Token = i64;

/// The game whose Lua code is running: its token and its table.
#[derive(Default)]
pub struct InPlay {
    slot: RefCell<Option<(Token, Rc<RefCell<Table>>)>>,
    next_token: Cell<Token>,
    /// The memory the call under way may still use, shared between the VM
    /// and what the core stores for the script (events).
    allowance: Allowance,
    /// Set while a line typed at the Lua prompt runs: the primitives
    /// refuse to act (see [`crate::lua::Host::eval_prompt`]).
    read_only: Cell<bool>,
    /// The random stream of the script bot deciding now (`view:random`),
    /// none outside a bot's decision.
    bot_rng: RefCell<Option<GameRng>>,
    /// Event memory added by direct calls ([`super::declare`]) and not yet
    /// charged to the call's allowance (`core.settle` charges it).
    unsettled: Cell<usize>,
    /// The message of the direct call that failed last, which `core.raise`
    /// raises.
    failure: RefCell<Option<String>>,
    /// The cards a direct call returned that did not fit the prelude's
    /// buffer (`core.spilled` hands them over).
    spill: RefCell<Vec<u32>>,
    /// How many direct calls were made (see [`super::Host::direct_calls`]).
    direct_calls: Cell<u64>,
    /// What the last step decided, written by the prelude when the direct
    /// calls are on (see [`super::declare`]): seat (0: none), option count,
    /// kind, whether an option asks for cards (0 or 1), the pass option.
    decided: [Cell<f64>; 5],
}

/// What a primitive called from the Lua prompt says.
pub const READ_ONLY: &str = "the Lua prompt sees the game read-only: \
     it cannot move cards, shuffle, draw random numbers or raise events \
     (play with the REPL's commands: `moves`, then a move's number)";

/// A call's memory allowance: what the VM and the core's copies of script
/// data (events) may hold together, and how much of it the core holds.
#[derive(Default)]
struct Allowance {
    cap: Cell<usize>,
    charged: Cell<usize>,
}

impl InPlay {
    /// A token no other game of this host has.
    pub fn new_token(&self) -> Token {
        let t = self.next_token.get() + 1;
        self.next_token.set(t);
        t
    }

    /// A new call starts: the VM and the core together may hold `cap` bytes.
    pub fn allow(&self, cap: usize) {
        self.allowance.cap.set(cap);
        self.allowance.charged.set(0);
        self.unsettled.set(0);
    }

    /// Charge `bytes` the core now holds for the script to the call's
    /// allowance, and lower the VM's limit by as much.
    fn charge(&self, lua: &Lua, bytes: usize) -> mlua::Result<()> {
        let a = &self.allowance;
        let charged = a.charged.get().saturating_add(bytes);
        a.charged.set(charged);
        let cap = a.cap.get();
        if lua.used_memory().saturating_add(charged) > cap {
            return Err(mlua::Error::runtime(format!(
                "out of memory: the events of this step hold {} MB, which with the \
                 script's own memory is over the step's limit",
                charged / (1024 * 1024)
            )));
        }
        let _ = lua.set_memory_limit(cap - charged);
        Ok(())
    }

    /// Give the script bot about to decide its random stream (`None` when
    /// its decision is over).
    pub fn set_bot_rng(&self, rng: Option<GameRng>) {
        *self.bot_rng.borrow_mut() = rng;
    }

    /// Make the primitives refuse to act (or act again).
    pub fn set_read_only(&self, on: bool) {
        self.read_only.set(on);
    }

    /// Put a game in play until the guard drops (then the game that was in
    /// play before is again: calls may nest).
    pub fn enter(&self, token: Token, table: &Rc<RefCell<Table>>) -> Entered<'_> {
        let previous = self.slot.replace(Some((token, table.clone())));
        Entered {
            in_play: self,
            previous,
        }
    }

    /// Run `f` on the table of the game in play, which must be `token`'s:
    /// its answer and the bytes it added to the event log, or the message
    /// of what went wrong. The one way in to the table for both paths of
    /// every primitive.
    pub(super) fn act<R>(
        &self,
        token: Token,
        f: impl FnOnce(&mut Table) -> Result<R, CoreError>,
    ) -> Result<(R, usize), String> {
        if self.read_only.get() {
            return Err(READ_ONLY.to_string());
        }
        let slot = self
            .slot
            .try_borrow()
            .map_err(|_| "the game in play is changing".to_string())?;
        let table = match &*slot {
            Some((t, table)) if *t == token => table,
            _ => {
                return Err("this game object is not the game being played \
                     (a game kept from another game or an earlier call?)"
                    .to_string())
            }
        };
        let mut table = table
            .try_borrow_mut()
            .map_err(|_| "the game's table is in use".to_string())?;
        let before = table.event_bytes;
        let out = f(&mut table).map_err(|e| e.to_string())?;
        let added = table.event_bytes.saturating_sub(before);
        Ok((out, added))
    }

    /// [`InPlay::act`] for a plain binding: what `f` adds to the event log
    /// is charged to the call's allowance at once.
    pub(super) fn with<R>(
        &self,
        lua: &Lua,
        token: Token,
        f: impl FnOnce(&mut Table) -> Result<R, CoreError>,
    ) -> mlua::Result<R> {
        let (out, added) = self.act(token, f).map_err(mlua::Error::runtime)?;
        if added > 0 {
            self.charge(lua, added)?;
        }
        Ok(out)
    }

    /// Count a direct call.
    pub(super) fn count_direct(&self) {
        self.direct_calls
            .set(self.direct_calls.get().wrapping_add(1));
    }

    /// How many direct calls were made.
    pub(super) fn direct_calls(&self) -> u64 {
        self.direct_calls.get()
    }

    /// A direct call failed with `message`: keep it for `core.raise`.
    pub(super) fn fail(&self, message: String) -> i32 {
        *self.failure.borrow_mut() = Some(message);
        super::declare::FAILED
    }

    /// A direct call added `bytes` of events, owed until `core.settle`.
    pub(super) fn owe(&self, bytes: usize) {
        self.unsettled
            .set(self.unsettled.get().saturating_add(bytes));
    }

    /// Where a direct call keeps cards that did not fit the prelude's
    /// buffer.
    pub(super) fn spill(&self) -> &RefCell<Vec<u32>> {
        &self.spill
    }

    /// Where the prelude writes what a step decided.
    pub(super) fn decided_ptr(&self) -> *mut f64 {
        self.decided.as_ptr() as *mut f64
    }

    /// What the last step decided, as the prelude wrote it.
    pub(super) fn decided(&self) -> [f64; 5] {
        std::array::from_fn(|i| self.decided[i].get())
    }
}

/// While alive, a game is in play (see [`InPlay::enter`]).
pub struct Entered<'a> {
    in_play: &'a InPlay,
    previous: Option<(Token, Rc<RefCell<Table>>)>,
}

impl Drop for Entered<'_> {
    fn drop(&mut self) {
        *self.in_play.slot.borrow_mut() = self.previous.take();
    }
}

/// Convert a Lua value to plain JSON data, with a message naming what was bad.
/// An empty Lua table is an empty list (a script's `winners = {}` reads as
/// `[]`, which is what it means far more often than an empty map), except
/// at the top, where it is an empty object (event data, variables).
pub fn to_json(_lua: &Lua, v: Value, what: &str) -> mlua::Result<Json> {
    let json = super::json_text::to_value(&v).map_err(|e| {
        mlua::Error::runtime(format!(
            "{what} must be plain data (numbers, strings, booleans, tables): {e}"
        ))
    })?;
    Ok(match json {
        Json::Array(a) if a.is_empty() => Json::Object(Default::default()),
        other => other,
    })
}

/// Where a script function is defined, as `file:line` (`?` for a function
/// of C).
pub fn defined_at(f: &mlua::Function) -> String {
    let info = f.info();
    match (info.short_src, info.line_defined) {
        (Some(src), Some(line)) if info.what != "C" => format!("{src}:{line}"),
        _ => "?".to_string(),
    }
}

/// A whole number a script passed (a zone's owner, a bound of a bot's
/// random range), checked as the declared primitives check theirs
/// ([`super::declare::whole_of`]).
struct Whole<T>(T);

impl<T: TryFrom<i64>> FromLua for Whole<T> {
    fn from_lua(value: Value, _: &Lua) -> mlua::Result<Self> {
        whole_of(&value).map(Whole).map_err(mlua::Error::runtime)
    }
}

/// The most items the core reads from one list a script hands it (the
/// zones of a deal, the seats of the teams): as many as a game may have
/// zones.
pub const MAX_LIST: usize = crate::table::MAX_ZONES;

/// The whole numbers of a list a script passed, read with its raw length
/// and raw items (a `__len` or `__index` of the script's is not run), at
/// most [`MAX_LIST`] of them.
pub(super) fn whole_list<T: TryFrom<i64>>(list: &LuaTable) -> Result<Vec<T>, String> {
    let n = list.raw_len();
    if n > MAX_LIST {
        return Err(format!(
            "{n} items, more than the {MAX_LIST} a list may hold"
        ));
    }
    (1..=n)
        .map(|i| {
            let item: Value = list.raw_get(i).map_err(|e| e.to_string())?;
            whole_of(&item).map_err(|e| format!("item {i}: {e}"))
        })
        .collect()
}

/// The table of primitives handed to the prelude. Each takes the token of
/// the game object first (see [`InPlay`]).
pub fn primitives(lua: &Lua, in_play: &Rc<InPlay>) -> mlua::Result<LuaTable> {
    let t = lua.create_table()?;

    let p = in_play.clone();
    t.set(
        "new_zone",
        lua.create_function(
            move |lua,
                  (Whole(token), name, owner, vis): (
                Whole<Token>,
                String,
                Option<Whole<u32>>,
                String,
            )| {
                let owner = owner.map(|Whole(o)| o);
                let v = zone_visibility(&name, owner, &vis)?;
                p.with(lua, token, |t| t.new_zone(name, owner, v))
            },
        )?,
    )?;

    // The declared primitives' plain bindings (see `super::primitives`).
    for d in super::primitives::declarations() {
        t.raw_set(d.name, (d.plain)(lua, in_play)?)?;
    }

    // The message of the direct call that failed last (see `super::declare`).
    let p = in_play.clone();
    t.set(
        "raise",
        lua.create_function(move |_, ()| -> mlua::Result<()> {
            let message = p.failure.borrow_mut().take();
            Err(mlua::Error::runtime(message.unwrap_or_else(|| {
                "a direct call failed and left no message".to_string()
            })))
        })?,
    )?;

    // The cards a direct call could not fit in the prelude's buffer.
    let p = in_play.clone();
    t.set(
        "spilled",
        lua.create_function(move |_, ()| Ok(Variadic::from(p.spill.take())))?,
    )?;

    // A script bot's own random numbers (`view:random`): from the stream
    // the core gives the bot for this decision, never the game's generator,
    // so a bot's mixed play changes no shuffle or die.
    let p = in_play.clone();
    t.set(
        "bot_random",
        lua.create_function(move |_, (Whole(lo), Whole(hi)): (Whole<i64>, Whole<i64>)| {
            if hi < lo {
                return Err(mlua::Error::runtime(format!(
                    "random: empty range [{lo}, {hi}]"
                )));
            }
            match p.bot_rng.borrow_mut().as_mut() {
                Some(rng) => Ok(rng.range(lo, hi)),
                None => Err(mlua::Error::runtime(
                    "view:random is for a bot deciding: this view has no random stream",
                )),
            }
        })?,
    )?;

    let p = in_play.clone();
    t.set(
        "event",
        lua.create_function(
            move |lua, (Whole(token), name, data): (Whole<Token>, String, Value)| {
                let data = to_json(lua, data, "event data")?;
                let to = crate::meta::EventMeta::of(&data).to;
                p.with(lua, token, |t| {
                    t.script_event(name, data, to);
                    Ok(())
                })
            },
        )?,
    )?;

    // Charge the event memory direct calls added (see `super::declare`).
    let p = in_play.clone();
    t.set(
        "settle",
        lua.create_function(move |lua, ()| {
            let owed = p.unsettled.replace(0);
            p.charge(lua, owed)
        })?,
    )?;

    // Where a script function is defined (`file:line`), for messages about
    // what it returned: the function has returned by then, so no traceback
    // names it.
    t.set(
        "defined_at",
        lua.create_function(|_, f: mlua::Function| Ok(defined_at(&f)))?,
    )?;

    // The Lua function running `level` calls up from the function that
    // calls this (1: its caller), or nil: for `Game:count`, which asks
    // which script counts.
    t.set(
        "caller",
        lua.create_function(|lua, level: usize| {
            Ok(lua
                .inspect_stack(level.saturating_add(1), |d| d.function())
                .filter(|f| f.info().what != "C"))
        })?,
    )?;

    let p = in_play.clone();
    t.set(
        "set_teams",
        lua.create_function(move |lua, (Whole(token), teams): (Whole<Token>, Value)| {
            let what = "set_teams: expects a list of lists of seats";
            let Value::Table(teams) = teams else {
                return Err(mlua::Error::runtime(what));
            };
            let n = teams.raw_len();
            if n > MAX_LIST {
                return Err(mlua::Error::runtime(format!(
                    "{what}: {n} teams, more than the {MAX_LIST} a list may hold"
                )));
            }
            let teams = (1..=n)
                .map(|i| match teams.raw_get::<Value>(i)? {
                    Value::Table(team) => whole_list(&team)
                        .map_err(|e| mlua::Error::runtime(format!("{what}, team {i}: {e}"))),
                    _ => Err(mlua::Error::runtime(format!(
                        "{what}: team {i} is not a list"
                    ))),
                })
                .collect::<mlua::Result<Vec<Vec<u32>>>>()?;
            p.with(lua, token, |t| set_teams(t, teams))
        })?,
    )?;

    Ok(t)
}

/// A zone's visibility from its name in a script, checked against its owner.
fn zone_visibility(name: &str, owner: Option<u32>, vis: &str) -> mlua::Result<Visibility> {
    let v = Visibility::parse(vis).ok_or_else(|| {
        mlua::Error::runtime(format!(
            "new_zone '{name}': visibility must be public, owner, hidden or top, not '{vis}'"
        ))
    })?;
    if v == Visibility::Owner && owner.is_none() {
        return Err(mlua::Error::runtime(format!(
            "new_zone '{name}': an owner-only zone needs an owner"
        )));
    }
    Ok(v)
}

/// Set the teams, which must hold every seat exactly once.
fn set_teams(t: &mut Table, teams: Vec<Vec<u32>>) -> Result<(), CoreError> {
    let mut all: Vec<u32> = teams.iter().flatten().copied().collect();
    all.sort_unstable();
    if all != (1..=t.seats).collect::<Vec<_>>() {
        return Err(CoreError::Rule(
            "set_teams: every seat must be in exactly one team".into(),
        ));
    }
    t.teams = Some(teams);
    Ok(())
}
