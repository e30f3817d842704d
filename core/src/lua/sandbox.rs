//! The sandboxed Lua VM: only safe libraries, `require` limited to the
//! scripts search path, `print` captured, an instruction budget per call and
//! memory limits (per call and for the whole VM).

use crate::library::ScriptLibrary;
use mlua::{Function, HookTriggers, Lua, LuaOptions, StdLib, Table, Value, VmState};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;

/// How often (in VM instructions) the budget hook runs.
const HOOK_PERIOD: u32 = 10_000;

/// Limits applied to every call into the rules.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Lua VM instructions one step (or setup, or bot decision) may run;
    /// `None` turns the budget off and the JIT compiler on (batch runs with
    /// a watchdog: a budget holds only with the compiler off, which costs
    /// about a third of the playout speed, see docs/performance.md).
    pub instructions: Option<u64>,
    /// Bytes the whole VM may allocate.
    pub memory: usize,
    /// Bytes one step (or setup, or bot decision) may add to what the VM
    /// holds when it starts.
    pub step_memory: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            instructions: Some(200_000_000),
            memory: 512 * 1024 * 1024,
            step_memory: 128 * 1024 * 1024,
        }
    }
}

/// Shared counters of the budget hook.
#[derive(Debug, Default)]
pub struct Budget {
    ticks: Cell<u64>,
    max_ticks: Cell<u64>,
}

impl Budget {
    /// Start a new call's budget.
    pub fn arm(&self) {
        self.ticks.set(0);
    }
}

/// Where `print` output is collected.
pub type PrintBuffer = Rc<RefCell<Vec<String>>>;

/// Build the sandboxed VM. Returns the VM, its budget and the captured print output.
pub fn new_vm(
    library: Arc<ScriptLibrary>,
    limits: Limits,
) -> mlua::Result<(Lua, Rc<Budget>, PrintBuffer)> {
    // `coroutine` is part of LuaJIT's base library. The `jit` library is
    // opened only to start the compiler (LuaJIT starts it there) or, when
    // instructions are counted, to turn it off: compiled code never runs
    // the count hook, so a budget holds only in the interpreter. Scripts
    // cannot reach it afterwards.
    let libs = StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::JIT;
    let lua = Lua::new_with(libs, LuaOptions::default())?;
    let globals = lua.globals();
    if limits.instructions.is_some() {
        let jit: Table = globals.get("jit")?;
        jit.get::<Function>("off")?.call::<()>(())?;
    }
    globals.raw_set("jit", Value::Nil)?;

    // Escape hatches: code loading, environments, the GC switch and
    // unseeded randomness.
    for name in [
        "load",
        "loadfile",
        "dofile",
        "loadstring",
        "setfenv",
        "getfenv",
        "collectgarbage",
        "gcinfo",
        "newproxy",
        "require",
    ] {
        globals.raw_set(name, Value::Nil)?;
    }
    let string: Table = globals.get("string")?;
    string.raw_set("dump", Value::Nil)?;
    let math: Table = globals.get("math")?;
    math.raw_set("random", Value::Nil)?;
    math.raw_set("randomseed", Value::Nil)?;

    // print: captured, for the REPL to show.
    let output = Rc::new(RefCell::new(Vec::new()));
    let out = output.clone();
    let print = lua.create_function(move |_, args: mlua::Variadic<Value>| {
        let parts: Vec<String> = args
            .iter()
            .map(|v| v.to_string().unwrap_or_else(|_| "?".into()))
            .collect();
        out.borrow_mut().push(parts.join("\t"));
        Ok(())
    })?;
    globals.raw_set("print", print)?;

    // require: modules from the scripts search path only, loaded once per VM.
    let loaded = lua.create_table()?;
    let lib = library.clone();
    let require = lua.create_function(move |lua, name: String| {
        if let Some(v) = loaded.raw_get::<Option<Value>>(name.as_str())? {
            return Ok(v);
        }
        let path = ScriptLibrary::module_path(&name).ok_or_else(|| {
            mlua::Error::runtime(format!(
                "require: '{name}' is not a module name (use dots: lib.trick)"
            ))
        })?;
        let script = lib.read(&path).ok_or_else(|| {
            mlua::Error::runtime(format!(
                "require: module '{name}' not found on the scripts search path ({path})"
            ))
        })?;
        let value: Value = lua
            .load(&script.text)
            .set_name(format!("@{}", script.chunk_name))
            .call(name.as_str())?;
        let value = if value.is_nil() {
            Value::Boolean(true)
        } else {
            value
        };
        loaded.raw_set(name.as_str(), value.clone())?;
        Ok(value)
    })?;
    globals.raw_set("require", require)?;

    // Budget: a global hook (so coroutines are covered too) counting instructions.
    let budget = Rc::new(Budget::default());
    let Some(instructions) = limits.instructions else {
        lua.set_memory_limit(limits.memory)?;
        return Ok((lua, budget, output));
    };
    budget
        .max_ticks
        .set((instructions / HOOK_PERIOD as u64).max(1));
    let b = budget.clone();
    lua.set_global_hook(
        HookTriggers::new().every_nth_instruction(HOOK_PERIOD),
        move |_lua, debug| {
            let t = b.ticks.get() + 1;
            b.ticks.set(t);
            if t > b.max_ticks.get() {
                let src = debug.source();
                let at = format!(
                    "{}:{}",
                    src.short_src.as_deref().unwrap_or("?"),
                    debug.current_line().unwrap_or(0)
                );
                return Err(mlua::Error::runtime(format!(
                    "{at}: instruction budget exceeded ({} instructions): a loop that never ends?",
                    b.max_ticks.get() * HOOK_PERIOD as u64
                )));
            }
            Ok(VmState::Continue)
        },
    )?;
    lua.set_memory_limit(limits.memory)?;
    Ok((lua, budget, output))
}

/// Make undeclared globals errors, to catch typos in scripts. Called after
/// the prelude has set up its own globals.
pub fn lock_globals(lua: &Lua) -> mlua::Result<()> {
    lua.load(
        r#"
        setmetatable(_G, {
          __newindex = function(_, k) error("assignment to undeclared global '" .. tostring(k) .. "' (declare it local)", 2) end,
          __index = function(_, k) error("undefined global '" .. tostring(k) .. "'", 2) end,
        })
        "#,
    )
    .set_name("=sandbox")
    .exec()
}
