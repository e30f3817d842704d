//! The Lua host: a sandboxed VM with the core's prelude loaded and the
//! functions of the step protocol cached (one Lua call per decision).

mod api;
pub(crate) mod declare;
pub(crate) mod in_play;
pub mod json_text;
mod primitives;
mod sandbox;

pub(crate) use api::defined_at;
pub use api::to_json;
pub use in_play::READ_ONLY;
pub(crate) use in_play::{Entered, Token};
pub use sandbox::{last_position, load_text, Limits, RUNAWAY};

use crate::error::{CoreError, Result};
use crate::library::{ScriptLibrary, ScriptText};
use crate::table::Table as CoreTable;
use in_play::InPlay;
use mlua::{Function, Lua, Table, Value};
use sandbox::{Budget, EnvBase};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock};

/// The count of calls into scripts of every host of the process (see
/// [`Host::all_activity`]).
static ALL_CALLS: LazyLock<Arc<AtomicU64>> = LazyLock::new(Arc::default);

/// The Lua half of the core, in the order its parts run (one chunk, so
/// that the parts share their local functions): the binding of the
/// primitives, `Game`, `View`, rules composition, the step protocol,
/// choices of several cards, the questions front ends ask, search support,
/// scenarios, and the entry points the host calls.
pub(crate) const PRELUDE: &str = concat!(
    include_str!("prelude/01_binding.lua"),
    include_str!("prelude/02_game.lua"),
    include_str!("prelude/03_view.lua"),
    include_str!("prelude/04_composition.lua"),
    include_str!("prelude/05_step.lua"),
    include_str!("prelude/06_choices.lua"),
    include_str!("prelude/07_questions.lua"),
    include_str!("prelude/08_search.lua"),
    include_str!("prelude/09_scenarios.lua"),
    include_str!("prelude/10_entries.lua"),
);

/// The functions of the prelude the core calls, each looked up once. Each
/// is one of the prelude's entry points (the list at its end), which start
/// a new call for the guards.
pub(crate) struct Entries {
    pub new_game: Function,
    pub refresh: Function,
    pub step: Function,
    pub subset: Function,
    pub check: Function,
    pub chosen: Function,
    pub step_subset: Function,
    pub build: Function,
    pub kind_name: Function,
    pub option_cards: Function,
    pub compose: Function,
    pub info: Function,
    pub describe: Function,
    pub bot: Function,
    pub allowed: Function,
    pub clone: Function,
    pub card_defs: Function,
    pub ruled_out: Function,
    pub card_backs: Function,
    pub set_zones: Function,
    pub load_zones: Function,
    pub status: Function,
    pub why_not: Function,
    pub result: Function,
    pub rounds: Function,
    pub evaluate: Function,
    pub mirrors: Function,
    pub option_keys: Function,
    pub option_key: Function,
    pub playout: Function,
    pub tape: Function,
    pub copy_tape: Function,
    pub metric_functions: Function,
    pub metric: Function,
}

impl Entries {
    fn of(prelude: &Table) -> Result<Entries> {
        let f = |name: &str| -> Result<Function> {
            prelude
                .get::<Function>(name)
                .map_err(|e| CoreError::Script(format!("prelude: {name}: {e}")))
        };
        Ok(Entries {
            new_game: f("new_game")?,
            refresh: f("refresh")?,
            step: f("step")?,
            subset: f("subset")?,
            check: f("check")?,
            chosen: f("chosen")?,
            step_subset: f("step_subset")?,
            build: f("build")?,
            kind_name: f("kind_name")?,
            option_cards: f("option_cards")?,
            compose: f("compose")?,
            info: f("info")?,
            describe: f("describe")?,
            bot: f("bot")?,
            allowed: f("allowed")?,
            clone: f("clone")?,
            card_defs: f("card_defs")?,
            ruled_out: f("ruled_out")?,
            card_backs: f("card_backs")?,
            set_zones: f("set_zones")?,
            load_zones: f("load_zones")?,
            status: f("status")?,
            why_not: f("why_not")?,
            result: f("result")?,
            rounds: f("rounds")?,
            evaluate: f("evaluate")?,
            mirrors: f("mirrors")?,
            option_keys: f("option_keys")?,
            option_key: f("option_key")?,
            playout: f("playout")?,
            tape: f("tape")?,
            copy_tape: f("copy_tape")?,
            metric_functions: f("metric_functions")?,
            metric: f("metric")?,
        })
    }
}

/// A sandboxed VM with the prelude and the scripts search path.
pub struct Host {
    pub(crate) lua: Lua,
    pub(crate) library: Arc<ScriptLibrary>,
    budget: Rc<Budget>,
    limits: Limits,
    activity: Arc<AtomicU64>,
    output: Rc<RefCell<Vec<String>>>,
    /// What script environments are made from.
    env_base: EnvBase,
    /// The game whose Lua code is running (what the primitives act on).
    in_play: Rc<InPlay>,
    pub(crate) prelude: Table,
    /// The prelude's entry points, looked up once per VM.
    pub(crate) entry: Entries,
    /// The names of decision kinds by number, as the prelude numbered them
    /// (fetched once each).
    kind_names: RefCell<Vec<Option<String>>>,
    /// The definitions of cards 1.. the prelude last handed over whole (see
    /// its `card_defs`): the next game that defines the same cards gets a
    /// copy instead of converting them again.
    card_defs: RefCell<Option<Vec<CardProps>>>,
    /// Script bots' names as Lua strings, made once: mlua makes a string
    /// from Rust in a protected call that allocates, at every decision.
    bot_names: RefCell<BTreeMap<String, mlua::LuaString>>,
    /// The resolved options of the last game started, and their Lua table
    /// (each game gets a copy: see `new_game` in the prelude).
    options: RefCell<Option<(BTreeMap<String, serde_json::Value>, Value)>>,
    /// Whether the prelude makes direct calls (see [`declare`]); a step then
    /// reports what it decided in [`Host::decided`] instead of returning it.
    direct: bool,
}

/// A card's properties, as the core keeps them.
pub(crate) type CardProps = serde_json::Map<String, serde_json::Value>;

impl Host {
    /// The name of decision kind number `id` (as numbered by the prelude).
    pub(crate) fn kind_name(&self, id: usize) -> Result<Option<String>> {
        if let Some(Some(name)) = self.kind_names.borrow().get(id) {
            return Ok(Some(name.clone()));
        }
        let name: Option<String> = self.entry.kind_name.call(id)?;
        let mut names = self.kind_names.borrow_mut();
        if names.len() <= id {
            names.resize(id + 1, None);
        }
        names[id] = name.clone();
        Ok(name)
    }

    /// A new VM over `library`.
    pub fn new(library: Arc<ScriptLibrary>, limits: Limits) -> Result<Host> {
        let sandbox::Vm {
            lua,
            budget,
            output,
            env_base,
            ffi,
            table_clear,
            getinfo,
        } = sandbox::new_vm(library.clone(), limits)?;
        let direct = ffi.is_some();
        let in_play = Rc::new(InPlay::default());
        let prims = api::primitives(&lua, &in_play)?;
        // The declared primitives' plain bindings (see `primitives`).
        let declared = primitives::declarations();
        for d in &declared {
            prims.raw_set(d.name, (d.plain)(&lua, &in_play)?)?;
        }
        let direct_calls = match ffi {
            Some(ffi) => {
                // The direct calls (see `declare`), for the prelude alone.
                let direct = lua.create_table()?;
                direct.raw_set("ffi", ffi)?;
                direct.raw_set(
                    "in_play",
                    mlua::LightUserData(Rc::as_ptr(&in_play) as *mut std::ffi::c_void),
                )?;
                direct.raw_set(
                    "decided",
                    mlua::LightUserData(in_play.decided_ptr() as *mut std::ffi::c_void),
                )?;
                for d in &declared {
                    let f = lua.create_table()?;
                    f.raw_set(
                        "address",
                        mlua::LightUserData(d.address as *mut std::ffi::c_void),
                    )?;
                    f.raw_set("ctype", d.ctype())?;
                    direct.raw_set(d.name, f)?;
                }
                prims.raw_set("direct", direct.clone())?;
                Some(direct)
            }
            None => None,
        };
        // Each declared primitive's Lua wrapper, in place of its plain
        // binding.
        sandbox::load_text(
            &lua,
            &declare::wrappers_chunk(&declared, direct_calls.is_some()),
            "@deckhand/primitives.lua",
            None,
        )?
        .call::<()>((&prims, direct_calls))?;
        prims.raw_set("reset", env_base.reset.clone())?;
        prims.raw_set("table_clear", table_clear)?;
        prims.raw_set("getinfo", getinfo)?;
        let prelude: Table =
            sandbox::load_text(&lua, PRELUDE, "@deckhand/prelude.lua", None)?.call(prims)?;
        sandbox::lock_globals(&lua, &env_base)?;
        Ok(Host {
            direct,
            options: RefCell::default(),
            entry: Entries::of(&prelude)?,
            prelude,
            lua,
            library,
            budget,
            limits,
            activity: Arc::default(),
            output,
            env_base,
            in_play,
            kind_names: RefCell::default(),
            card_defs: RefCell::default(),
            bot_names: RefCell::default(),
        })
    }

    /// How many direct calls from compiled Lua into the core this host has
    /// made (0 when instructions are counted: the interpreter calls the
    /// plain bindings).
    pub fn direct_calls(&self) -> u64 {
        self.in_play.direct_calls()
    }

    /// `name` as a Lua string, made once per host.
    pub(crate) fn bot_name(&self, name: &str) -> mlua::Result<mlua::LuaString> {
        if let Some(s) = self.bot_names.borrow().get(name) {
            return Ok(s.clone());
        }
        let s = self.lua.create_string(name)?;
        self.bot_names
            .borrow_mut()
            .insert(name.to_string(), s.clone());
        Ok(s)
    }

    /// The definitions of cards 1.. kept from the last conversion, if any.
    pub(crate) fn kept_card_defs(&self) -> Option<Vec<CardProps>> {
        self.card_defs.borrow().clone()
    }

    /// Keep (or, `None`, forget) the definitions of cards 1.. just converted.
    pub(crate) fn keep_card_defs(&self, defs: Option<&[CardProps]>) {
        *self.card_defs.borrow_mut() = defs.map(<[CardProps]>::to_vec);
    }

    /// Whether definitions of cards 1.. are kept.
    pub(crate) fn has_card_defs(&self) -> bool {
        self.card_defs.borrow().is_some()
    }

    /// The Lua table of `options`, made by `convert` unless it is the one
    /// the last game was started with (a simulation starts every game
    /// with the same options).
    pub(crate) fn options_table(
        &self,
        options: &BTreeMap<String, serde_json::Value>,
        convert: impl FnOnce() -> mlua::Result<Value>,
    ) -> Result<Value> {
        if let Some((kept, table)) = &*self.options.borrow() {
            if kept == options {
                return Ok(table.clone());
            }
        }
        let table = convert()?;
        *self.options.borrow_mut() = Some((options.clone(), table.clone()));
        Ok(table)
    }

    /// Whether a step reports what it decided through [`Host::decided`].
    pub(crate) fn steps_report_directly(&self) -> bool {
        self.direct
    }

    /// What the last step decided (when [`Host::steps_report_directly`]):
    /// seat (0: none), option count, kind, asks for cards (0 or 1), pass.
    pub(crate) fn decided(&self) -> [f64; 5] {
        self.in_play.decided()
    }

    /// A token for a new game object of this host (see [`in_play::InPlay`]).
    pub(crate) fn new_token(&self) -> Token {
        self.in_play.new_token()
    }

    /// Make `table` the one the primitives act on, for calls made by the
    /// game object `token`, until the guard drops.
    pub(crate) fn enter(&self, token: Token, table: &Rc<RefCell<CoreTable>>) -> Entered<'_> {
        self.in_play.enter(token, table)
    }

    /// Give the script bot about to decide its random stream, or take it
    /// back (`None`).
    pub(crate) fn set_bot_rng(&self, rng: Option<crate::rng::GameRng>) {
        self.in_play.set_bot_rng(rng);
    }

    /// The VM.
    pub fn lua(&self) -> &Lua {
        &self.lua
    }

    /// Run `f` (calls into scripts) noting the script's position finely, to
    /// locate an error that carries no position of its own (see
    /// [`sandbox::with_fine_positions`]).
    pub(crate) fn with_fine_positions<R>(&self, f: impl FnOnce() -> R) -> R {
        sandbox::with_fine_positions(&self.lua, &self.budget, f)
    }

    /// The limits this host runs scripts under.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The search path this host loads scripts from.
    pub fn library(&self) -> &Arc<ScriptLibrary> {
        &self.library
    }

    /// How many calls into scripts this host has made, readable from other
    /// threads: a watchdog sees from it whether a step is still running.
    pub fn activity(&self) -> Arc<AtomicU64> {
        self.activity.clone()
    }

    /// How many calls into scripts every host of this process has made: a
    /// watchdog of a process whose work spreads over several engines (a
    /// hint's searches on two threads) sees from it whether any goes on.
    pub fn all_activity() -> Arc<AtomicU64> {
        ALL_CALLS.clone()
    }

    /// Start a fresh instruction budget for the next call into scripts.
    pub fn arm(&self) {
        self.activity.fetch_add(1, Ordering::Relaxed);
        ALL_CALLS.fetch_add(1, Ordering::Relaxed);
        self.budget.arm();
        // The memory a call may use: what the VM holds now plus the step
        // allowance, within the VM's own limit.
        let cap = self
            .lua
            .used_memory()
            .saturating_add(self.limits.step_memory)
            .min(self.limits.memory);
        let _ = self.lua.set_memory_limit(cap);
        self.in_play.allow(cap);
    }

    /// Take what scripts printed since the last call.
    pub fn take_output(&self) -> Vec<String> {
        std::mem::take(&mut *self.output.borrow_mut())
    }

    /// A fresh environment for scripts: one per set of rules, so that
    /// nothing one set of rules changes in its globals, its library tables
    /// or its modules reaches another (see [`sandbox::new_env`]).
    pub fn new_env(&self) -> Result<Table> {
        Ok(sandbox::new_env(&self.lua, &self.env_base)?)
    }

    /// A view of `table` that can be read but not changed (its fields can
    /// still be tables that can).
    fn read_only(&self, table: &Table) -> Result<Table> {
        let proxy = self.lua.create_table()?;
        let meta = self.lua.create_table()?;
        meta.raw_set("__index", table)?;
        meta.raw_set(
            "__newindex",
            self.lua
                .create_function(|_, (_, k): (Value, Value)| -> mlua::Result<()> {
                    Err(mlua::Error::runtime(format!(
                        "'{}' cannot be changed from here: this table is read-only",
                        k.to_string().unwrap_or_default()
                    )))
                })?,
        )?;
        meta.raw_set("__metatable", false)?;
        proxy.set_metatable(Some(meta))?;
        Ok(proxy)
    }

    /// Run a script text in `env` and return its value (each call loads it
    /// afresh).
    pub fn run_script(&self, script: &ScriptText, env: &Table) -> Result<Value> {
        let name = format!("@{}", script.chunk_name);
        self.arm();
        self.env_base.reset.call::<()>(())?;
        let chunk = sandbox::load_text(&self.lua, &script.text, &name, Some(env))?;
        Ok(chunk.call::<Value>(())?)
    }

    /// Evaluate Lua with `game` bound, with full access to the game (what
    /// [`crate::Game::arrange`] runs), in a fresh environment; returns what
    /// it printed or returned.
    pub fn eval(&self, code: &str, game: Option<&Table>) -> Result<String> {
        self.arm();
        let env = self.new_env()?;
        self.eval_in(code, &env, game)
    }

    /// Run a scenario file's text (`chunk_name` names it in error
    /// messages) with full access to `game`, the scenario helpers of the
    /// prelude as `scenario`, and `data` (read-only: the text of each data
    /// file the user named) as `data`. What it prints is kept as output.
    pub fn run_scenario(
        &self,
        text: &str,
        chunk_name: &str,
        game: &Table,
        data: &std::collections::BTreeMap<String, String>,
    ) -> Result<()> {
        self.arm();
        self.env_base.reset.call::<()>(())?;
        let env = self.new_env()?;
        env.raw_set("game", game.clone())?;
        env.raw_set("deckhand", self.read_only(&self.prelude)?)?;
        let helpers: Table = self
            .prelude
            .get::<Function>("scenario")?
            .call(game.clone())?;
        env.raw_set("scenario", helpers)?;
        let files = self.lua.create_table()?;
        for (name, text) in data {
            files.raw_set(name.as_str(), text.as_str())?;
        }
        env.raw_set("data", self.read_only(&files)?)?;
        let chunk = sandbox::load_text(&self.lua, text, &format!("@{chunk_name}"), Some(&env))?;
        self.arm();
        chunk.call::<()>(())?;
        Ok(())
    }

    /// A new environment for a Lua prompt: the globals its lines define
    /// persist from one line to the next (reading an undefined one is
    /// still an error).
    pub fn prompt_env(&self) -> Result<PromptEnv> {
        self.arm();
        let env = self.new_env()?;
        let meta: Table = sandbox::load_text(&self.lua, PROMPT_META, "=prompt", None)?.call(())?;
        env.set_metatable(Some(meta))?;
        Ok(PromptEnv(env))
    }

    /// Evaluate a line typed at the Lua prompt in `env`, with `game` bound
    /// read-only: the primitives refuse to act while it runs, and a line
    /// that changes the game's tables (`game.vars`, a zone, ...) is undone
    /// and reported as an error naming what it changed.
    pub fn eval_prompt(&self, code: &str, env: &PromptEnv, game: Option<&Table>) -> Result<String> {
        let Some(game) = game else {
            return self.eval_in(code, &env.0, None);
        };
        self.arm();
        let guard: Table = sandbox::load_text(&self.lua, GUARD, "=guard", None)?.call((
            self.lua.create_function(|_, t: Table| Ok(t.metatable()))?,
            self.lua
                .create_function(|_, (t, m): (Table, Option<Table>)| t.set_metatable(m))?,
        ))?;
        self.arm();
        let saved: Value = guard.get::<Function>("snapshot")?.call(game)?;
        self.in_play.set_read_only(true);
        let result = self.eval_in(code, &env.0, Some(game));
        self.in_play.set_read_only(false);
        self.arm();
        let changed: Option<String> = guard.get::<Function>("restore")?.call(saved)?;
        match changed {
            Some(what) => Err(CoreError::Script(format!(
                "{}: `{what}` was changed, and the change is undone \
                 (play with the REPL's commands: `moves`, then a move's number)",
                "the Lua prompt sees the game read-only"
            ))),
            None => result,
        }
    }

    /// Whether `code` is the start of a Lua chunk that is not finished
    /// (Lua stops at "<eof>"): the prompt reads another line for it.
    pub fn is_incomplete(&self, code: &str) -> bool {
        let as_expr = sandbox::load_text(&self.lua, &format!("return {code}"), "=lua", None);
        if as_expr.is_ok() {
            return false;
        }
        matches!(
            sandbox::load_text(&self.lua, code, "=lua", None),
            Err(mlua::Error::SyntaxError {
                incomplete_input: true,
                ..
            })
        )
    }

    fn eval_in(&self, code: &str, env: &Table, game: Option<&Table>) -> Result<String> {
        self.arm();
        self.env_base.reset.call::<()>(())?;
        match game {
            Some(g) => env.raw_set("game", g.clone())?,
            None => env.raw_set("game", Value::Nil)?,
        }
        env.raw_set("deckhand", self.read_only(&self.prelude)?)?;
        // Try as an expression first, then as a statement.
        let as_expr = sandbox::load_text(&self.lua, &format!("return {code}"), "=lua", Some(env));
        let func = match as_expr {
            Ok(f) => f,
            Err(_) => sandbox::load_text(&self.lua, code, "=lua", Some(env))?,
        };
        self.arm();
        let values: mlua::MultiValue = func.call(())?;
        let mut out = self.take_output();
        let dump: Function = sandbox::load_text(&self.lua, DUMP, "=dump", None)?.call(())?;
        for v in values {
            out.push(dump.call::<String>(v)?);
        }
        Ok(out.join("\n"))
    }
}

/// The globals of one Lua prompt (see [`Host::prompt_env`]); it belongs to
/// the host that made it.
pub struct PromptEnv(Table);

/// The metatable of a prompt's environment: new globals may be set, an
/// undefined one read is an error.
const PROMPT_META: &str = r#"
local error, tostring = error, tostring
return {
  __index = function(_, k) error("undefined global '" .. tostring(k) .. "'", 2) end,
  __metatable = false,
}
"#;

/// Keeps the game's tables as they were before a prompt line: `snapshot`
/// records the raw contents (and metatable) of every table reachable from
/// the game; `restore` puts back those a line changed and names the first
/// change found (nil when there was none). Called with the raw
/// getmetatable and setmetatable.
const GUARD: &str = r#"
local get_mt, set_mt = ...
local next, type, rawget, rawset, rawequal, tostring, format =
  next, type, rawget, rawset, rawequal, tostring, string.format

local function where(path, k)
  if type(k) == "string" and k:match("^[%a_][%w_]*$") then return path .. "." .. k end
  if type(k) == "string" then return path .. "[" .. format("%q", k) .. "]" end
  return path .. "[" .. tostring(k) .. "]"
end

local function snapshot(root)
  local saved = {}
  local queue, paths, head = { root }, { "game" }, 1
  saved[root] = false
  while queue[head] do
    local t, path = queue[head], paths[head]
    head = head + 1
    local map, n = {}, 0
    for k, v in next, t do
      n = n + 1
      map[k] = v
      if type(v) == "table" and saved[v] == nil then
        saved[v] = false
        queue[#queue + 1] = v
        paths[#paths + 1] = where(path, k)
      end
      if type(k) == "table" and saved[k] == nil then
        saved[k] = false
        queue[#queue + 1] = k
        paths[#paths + 1] = path .. "[<a table>]"
      end
    end
    saved[t] = { map = map, n = n, mt = get_mt(t), path = path }
  end
  return saved
end

-- The first key of `t` that differs from what `s` recorded, or nil.
local function differs(t, s)
  local map, n = s.map, 0
  for k, v in next, t do
    n = n + 1
    local old = map[k]
    if not rawequal(old, v) and not (old ~= old and v ~= v) then return where(s.path, k) end
  end
  if n ~= s.n then
    for k in next, map do
      if rawget(t, k) == nil then return where(s.path, k) end
    end
  end
  if not rawequal(get_mt(t), s.mt) then return s.path .. " (its metatable)" end
  return nil
end

local function restore(saved)
  local first
  for t, s in next, saved do
    local what = differs(t, s)
    if what then
      first = first or what
      local keys = {}
      for k in next, t do keys[#keys + 1] = k end
      for i = 1, #keys do rawset(t, keys[i], nil) end
      for k, v in next, s.map do rawset(t, k, v) end
      set_mt(t, s.mt)
    end
  end
  return first
end

return { snapshot = snapshot, restore = restore }
"#;

/// A printer for values at the Lua prompt: tables print as Lua
/// constructors (sorted keys, strings quoted, `["a b"] =` for keys that
/// are not names), so a printed table can be pasted back as Lua.
const DUMP: &str = r#"
local type, tostring, format, pairs, huge = type, tostring, string.format, pairs, math.huge
local KEYWORDS = {}
for w in ("and break do else elseif end false for function goto if in local nil not or repeat return then true until while"):gmatch("%a+") do
  KEYWORDS[w] = true
end
local function scalar(v)
  if type(v) == "string" then return (format("%q", v):gsub("\\\n", "\\n")) end
  if type(v) == "number" then
    if v ~= v then return "0/0" end
    if v == huge then return "math.huge" end
    if v == -huge then return "-math.huge" end
    if v % 1 == 0 and v > -2^53 and v < 2^53 then return format("%d", v) end
    return format("%.17g", v)
  end
  if type(v) == "boolean" or v == nil then return tostring(v) end
  if type(v) == "function" then return "function() --[[a function]] end" end
  return "nil --[[" .. tostring(v) .. "]]"
end
local function key(k)
  if type(k) == "string" and k:match("^[%a_][%w_]*$") and not KEYWORDS[k] then return k end
  return "[" .. scalar(k) .. "]"
end
local function dump(v, depth, seen)
  depth = depth or 0
  if type(v) ~= "table" then return scalar(v) end
  seen = seen or {}
  if seen[v] then return "{--[[a cycle]]}" end
  if depth > 3 then return "{--[[...]]}" end
  seen[v] = true
  local keys = {}
  for k in pairs(v) do if not (type(k) == "string" and k:sub(1, 1) == "_") then keys[#keys + 1] = k end end
  table.sort(keys, function(a, b)
    if type(a) ~= type(b) then return type(a) < type(b) end
    if type(a) == "number" or type(a) == "string" then return a < b end
    return tostring(a) < tostring(b)
  end)
  local parts = {}
  local n = #v
  for i, k in ipairs(keys) do
    local val = dump(v[k], depth + 1, seen)
    if type(k) == "number" and k >= 1 and k <= n and k % 1 == 0 then
      parts[#parts + 1] = val
    else
      parts[#parts + 1] = key(k) .. " = " .. val
    end
    if #parts >= 40 and i < #keys then
      parts[#parts + 1] = "--[[" .. (#keys - i) .. " more]]"
      break
    end
  end
  seen[v] = nil
  return "{" .. table.concat(parts, ", ") .. "}"
end
return dump
"#;

/// A Lua error as the core's: a script error, in one line
/// ([`describe_error`]).
impl From<mlua::Error> for CoreError {
    fn from(e: mlua::Error) -> Self {
        CoreError::Script(describe_error(&e))
    }
}

/// One line for a Lua error: the innermost message, with the script
/// position when the message itself has none (from the traceback, or else
/// from where the budget hook last saw the script running).
pub fn describe_error(e: &mlua::Error) -> String {
    let msg = describe_inner(e);
    if has_position(&msg) {
        return msg;
    }
    match sandbox::last_position() {
        Some(at) => format!("{at}: {msg}{APPROXIMATE}"),
        None => msg,
    }
}

/// Said of a position taken from where the script was last seen running.
const APPROXIMATE: &str = " (approximate position: where the script was last seen)";

/// Whether a message from [`describe_error`] lacks an exact position.
pub(crate) fn lacks_position(msg: &str) -> bool {
    !has_position(msg) || msg.ends_with(APPROXIMATE)
}

/// A message from [`describe_error`] with the position `at` instead of
/// none or an approximate one.
pub(crate) fn with_position(msg: &str, at: &str) -> String {
    let bare = msg
        .strip_suffix(APPROXIMATE)
        .map_or(msg, |m| m.split_once(": ").map_or(m, |(_, rest)| rest));
    format!("{at}: {bare}")
}

fn describe_inner(e: &mlua::Error) -> String {
    match e {
        mlua::Error::CallbackError { traceback, cause } => {
            let inner = describe_inner(cause);
            if has_position(&inner) {
                inner
            } else if let Some(at) = first_script_frame(traceback) {
                with_callers(&format!("{at}: {inner}"), traceback)
            } else {
                inner
            }
        }
        mlua::Error::SyntaxError { message, .. } => message.clone(),
        mlua::Error::RuntimeError(m) => {
            let first = first_line_without_traceback(m);
            match m.split_once("\nstack traceback:") {
                Some((_, tb)) if !has_position(&first) => match first_script_frame(tb) {
                    Some(at) => with_callers(&format!("{at}: {first}"), tb),
                    None => first,
                },
                Some((_, tb)) => with_callers(&first, tb),
                None => first,
            }
        }
        mlua::Error::MemoryError(_) => {
            "out of memory (the script memory limit was reached)".to_string()
        }
        mlua::Error::WithContext { context, cause } => {
            format!("{context}: {}", describe_inner(cause))
        }
        other => first_line_without_traceback(&other.to_string()),
    }
}

fn first_line_without_traceback(m: &str) -> String {
    let first = m.split("\nstack traceback:").next().unwrap_or(m).trim();
    // LuaJIT's word for an error raised while raising another: in a
    // sandboxed step, most often the memory limit reached again while the
    // error was being built.
    if first == "error in error handling" {
        return "error in error handling (an error while raising an error: out of memory, \
                a stack overflow, or a failing xpcall handler)"
            .to_string();
    }
    first.to_string()
}

/// Whether a message starts with a script position (`file:line: ...`).
fn has_position(m: &str) -> bool {
    let head = m.split(": ").next().unwrap_or("");
    match head.rsplit_once(':') {
        Some((file, line)) => {
            !file.is_empty() && !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit())
        }
        None => false,
    }
}

/// A message that names its position (`file:line: ...`) with the chain of
/// script files that led there put first, when another file than the
/// position's is in it: a house rule's wrapper of `decision` that called
/// the game's own reads `rule.lua:12 → sea_change/game.lua:331: ...`, so
/// the file the user wrote comes first. A run of frames in one file is
/// named by its outermost frame (where that file was entered).
fn with_callers(msg: &str, traceback: &str) -> String {
    let Some((at, rest)) = msg.split_once(": ") else {
        return msg.to_string();
    };
    let file_of = |frame: &str| frame.rsplit_once(':').map_or("", |(f, _)| f).to_string();
    let here = file_of(at);
    // Outermost first; the innermost run, in the position's file, is the
    // position itself.
    let mut frames: Vec<String> = script_frames(traceback).collect();
    frames.reverse();
    while frames.last().is_some_and(|f| file_of(f) == here) {
        frames.pop();
    }
    let mut chain: Vec<String> = Vec::new();
    for f in frames {
        if chain.last().map(|c| file_of(c)) != Some(file_of(&f)) {
            chain.push(f);
        }
    }
    if chain.is_empty() {
        return msg.to_string();
    }
    const MOST: usize = 6;
    if chain.len() > MOST {
        chain.drain(2..chain.len() - (MOST - 3));
        chain.insert(2, "…".to_string());
    }
    format!("{} → {at}: {rest}", chain.join(" → "))
}

/// The script frames of a traceback (not in C, not in the core's own Lua),
/// innermost first, each as `file:line`.
fn script_frames(traceback: &str) -> impl Iterator<Item = String> + '_ {
    traceback.lines().map(str::trim).filter_map(|l| {
        let head = l.split(": ").next()?;
        let (file, line) = head.rsplit_once(':')?;
        let script = !file.is_empty()
            && file != "[C]"
            && !file.starts_with("deckhand/")
            && !line.is_empty()
            && line.bytes().all(|b| b.is_ascii_digit());
        script.then(|| head.to_string())
    })
}

/// The first frame of a traceback in a script (not in C, not in the core's
/// own Lua), as `file:line`.
fn first_script_frame(traceback: &str) -> Option<String> {
    script_frames(traceback).next()
}
