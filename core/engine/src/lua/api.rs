//! The plain bindings whose arguments cannot cross the FFI (a zone's name,
//! event data, teams), and what a direct call needs of mlua (`raise`,
//! `spilled`, `settle`). The busiest primitives are declared in
//! [`super::primitives`]. Each takes the game's token first (see
//! [`InPlay`]).

use super::declare::{whole_list, whole_of, MAX_LIST};
use super::in_play::{InPlay, Token};
use crate::error::CoreError;
use crate::table::Table;
use crate::zone::Visibility;
use mlua::{FromLua, Lua, Table as LuaTable, Value, Variadic};
use serde_json::Value as Json;
use std::rc::Rc;

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
