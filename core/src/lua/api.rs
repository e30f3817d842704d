//! The Rust primitives the prelude calls: every card move, shuffle, random
//! number and event goes through these, onto the game's [`Table`].

use crate::table::Table;
use crate::zone::Visibility;
use mlua::{AnyUserData, Lua, LuaSerdeExt, Table as LuaTable, UserData, Value};
use serde_json::Value as Json;

impl UserData for Table {}

fn rule_err(e: crate::error::CoreError) -> mlua::Error {
    mlua::Error::runtime(e.to_string())
}

/// How script data becomes JSON: an empty Lua table is an empty list (a
/// script's `winners = {}` reads as `[]`, which is what it means far more
/// often than an empty map).
fn data_options() -> mlua::serde::DeserializeOptions {
    mlua::serde::DeserializeOptions::new().encode_empty_tables_as_array(true)
}

/// Convert a Lua value to plain JSON data, with a message naming what was bad.
/// An empty table at the top is an empty object (event data, variables).
pub fn to_json(lua: &Lua, v: Value, what: &str) -> mlua::Result<Json> {
    let json = lua
        .from_value_with::<Json>(v, data_options())
        .map_err(|e| {
            mlua::Error::runtime(format!(
                "{what} must be plain data (numbers, strings, booleans, tables): {e}"
            ))
        })?;
    Ok(match json {
        Json::Array(a) if a.is_empty() => Json::Object(Default::default()),
        other => other,
    })
}

/// The table of primitives handed to the prelude.
pub fn primitives(lua: &Lua) -> mlua::Result<LuaTable> {
    let t = lua.create_table()?;

    // Only the id is made here: the properties stay in the script's
    // `game.cards` until the core needs them (Game::ensure_cards).
    t.set(
        "new_card",
        lua.create_function(|_, ud: AnyUserData| Ok(ud.borrow_mut::<Table>()?.new_card()))?,
    )?;

    t.set(
        "new_zone",
        lua.create_function(
            |_, (ud, name, owner, vis): (AnyUserData, String, Option<u32>, String)| {
                let v = Visibility::parse(&vis).ok_or_else(|| {
                    mlua::Error::runtime(format!(
                        "new_zone '{name}': visibility must be public, owner, hidden or top, not '{vis}'"
                    ))
                })?;
                if v == Visibility::Owner && owner.is_none() {
                    return Err(mlua::Error::runtime(format!(
                        "new_zone '{name}': an owner-only zone needs an owner"
                    )));
                }
                ud.borrow_mut::<Table>()?
                    .new_zone(name, owner, v)
                    .map_err(rule_err)
            },
        )?,
    )?;

    t.set(
        "place",
        lua.create_function(|_, (ud, card, zone): (AnyUserData, u32, u32)| {
            ud.borrow_mut::<Table>()?
                .place_new(card, zone)
                .map_err(rule_err)
        })?,
    )?;

    t.set(
        "move",
        lua.create_function(
            |_, (ud, card, from, to, bottom): (AnyUserData, u32, u32, u32, bool)| {
                ud.borrow_mut::<Table>()?
                    .move_card(card, from, to, bottom)
                    .map_err(rule_err)
            },
        )?,
    )?;

    t.set(
        "move_all",
        lua.create_function(|_, (ud, from, to): (AnyUserData, u32, u32)| {
            ud.borrow_mut::<Table>()?
                .move_all(from, to)
                .map_err(rule_err)
        })?,
    )?;

    t.set(
        "deal",
        lua.create_function(
            |_, (ud, from, to, n): (AnyUserData, u32, Vec<u32>, usize)| {
                ud.borrow_mut::<Table>()?
                    .deal(from, &to, n)
                    .map_err(rule_err)
            },
        )?,
    )?;

    t.set(
        "shuffle",
        lua.create_function(|_, (ud, zone): (AnyUserData, u32)| {
            ud.borrow_mut::<Table>()?.shuffle(zone).map_err(rule_err)
        })?,
    )?;

    t.set(
        "random",
        lua.create_function(|_, (ud, lo, hi): (AnyUserData, i64, i64)| {
            if hi < lo {
                return Err(mlua::Error::runtime(format!(
                    "random: empty range [{lo}, {hi}]"
                )));
            }
            Ok(ud.borrow_mut::<Table>()?.rng.range(lo, hi))
        })?,
    )?;

    t.set(
        "event",
        lua.create_function(|lua, (ud, name, data): (AnyUserData, String, Value)| {
            let data = to_json(lua, data, "event data")?;
            let to = data.get("to").and_then(Json::as_u64).map(|s| s as u32);
            ud.borrow_mut::<Table>()?.script_event(name, data, to);
            Ok(())
        })?,
    )?;

    t.set(
        "set_teams",
        lua.create_function(|lua, (ud, teams): (AnyUserData, Value)| {
            let teams: Vec<Vec<u32>> = lua.from_value(teams).map_err(|e| {
                mlua::Error::runtime(format!("set_teams: expects a list of lists of seats: {e}"))
            })?;
            let mut t = ud.borrow_mut::<Table>()?;
            let mut all: Vec<u32> = teams.iter().flatten().copied().collect();
            all.sort_unstable();
            if all != (1..=t.seats).collect::<Vec<_>>() {
                return Err(mlua::Error::runtime(
                    "set_teams: every seat must be in exactly one team",
                ));
            }
            t.teams = Some(teams);
            Ok(())
        })?,
    )?;

    Ok(t)
}
