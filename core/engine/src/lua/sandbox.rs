//! The sandboxed Lua VM: only safe libraries, scripts loaded as text only,
//! `require` limited to the scripts search path, `print` captured, an
//! instruction budget per call that no script can catch, a bounded depth of
//! C calls back into Lua, and memory limits (per call and for the whole VM).
//!
//! Every script gets its environment from [`new_env`]: a fresh table with
//! its own copies of the globals and of the library tables, so nothing a
//! script changes there reaches another set of rules. The VM's own globals
//! and the library behind every string are out of reach.

use crate::library::ScriptLibrary;
use mlua::{
    chunk::ChunkMode, Function, HookTriggers, Lua, LuaOptions, StdLib, Table, Value, VmState,
};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;

/// The words every error of a call that runs past its budget (instructions
/// or processor time) holds.
pub const RUNAWAY: &str = "budget exceeded";

/// How often (in VM instructions) the budget hook runs.
const HOOK_PERIOD: u32 = 10_000;

/// How deep library calls back into Lua (a `gsub` replacement function, a
/// `sort` comparator, `print` of a table with `__tostring`, a coroutine)
/// may nest. Each level costs C stack; this keeps the deepest nesting well
/// within a 2 MiB thread stack in a debug build.
const MAX_CALL_DEPTH: u32 = 64;

/// The most steps a pattern match may take in the worst case before it is
/// refused (see guards.lua): about a second of matching (measured: some
/// 5e8 steps a second).
const MAX_MATCH_STEPS: f64 = 5e8;

/// The guards installed in every VM (see the file's own comments).
const GUARDS: &str = include_str!("guards.lua");

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
    /// holds when it starts, counting what the core stores for the script
    /// (events) as well as the VM's own memory.
    pub step_memory: usize,
    /// Seconds of processor time one call may take when instructions are
    /// counted: a backstop for loops whose instructions are each slow (a
    /// library call building a long string), which the count alone would
    /// let run for seconds. Checked by the count hook, so only with the
    /// budget on.
    pub cpu_seconds: f64,
}

/// The instruction budget of one call. The heaviest calls of the games
/// shipped (a search's playout of a whole 6-player game with the game's
/// own bot in every seat) take about 3 million; this is some 16 times that,
/// and runs in about half a second in the interpreter.
pub const INSTRUCTIONS: u64 = 50_000_000;

/// The processor time one call may take (see [`Limits::cpu_seconds`]):
/// the heaviest calls of the games shipped take a few hundredths of this.
pub const CPU_SECONDS: f64 = 0.5;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            instructions: Some(INSTRUCTIONS),
            memory: 512 * 1024 * 1024,
            step_memory: 128 * 1024 * 1024,
            cpu_seconds: CPU_SECONDS,
        }
    }
}

/// Processor time this thread has used, in seconds (wall-clock time where
/// the system has no per-thread clock).
fn thread_cpu_seconds() -> f64 {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: a plain call that writes into `ts`.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0 {
            return ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9;
        }
    }
    thread_local! {
        static START: std::time::Instant = std::time::Instant::now();
    }
    START.with(|s| s.elapsed().as_secs_f64())
}

thread_local! {
    /// Where the budget hook last saw a script running on this thread: the
    /// position given for errors that carry none of their own (out of
    /// memory, error in error handling).
    static LAST_POSITION: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Where the budget hook last saw script code running on this thread
/// during the current call, if it ran.
pub fn last_position() -> Option<String> {
    LAST_POSITION.with(|p| p.borrow().clone())
}

/// The state of the budget, shared by the hook and the host.
pub struct Budget {
    /// Instructions spent by the current call (counted by the hook).
    spent: Cell<u64>,
    /// Instructions a call may spend.
    max: Cell<u64>,
    /// The thread's processor time when the current call started, and how
    /// much more the call may take (see [`Limits::cpu_seconds`]).
    cpu_start: Cell<f64>,
    max_cpu: Cell<f64>,
    /// The guards' table: `depth`, `aborted`, `message`.
    guard: Table,
    /// With the compiler on: LuaJIT's `jit.off`, `jit.flush` and `jit.on`,
    /// to run a failed call again in the interpreter, where the hook sees
    /// where it fails (see [`with_fine_positions`]).
    jit: Option<[Function; 3]>,
}

impl Budget {
    /// Start a new call's budget: no instruction spent. (The guards' own
    /// state is reset by Lua at each entry point: see [`EnvBase::reset`].)
    pub fn arm(&self) {
        self.spent.set(0);
        if self.max.get() != u64::MAX {
            self.cpu_start.set(thread_cpu_seconds());
        }
        LAST_POSITION.with(|p| p.borrow_mut().take());
    }
}

/// Where `print` output is collected.
pub type PrintBuffer = Rc<RefCell<Vec<String>>>;

/// Load a chunk of Lua source as text, never as bytecode (LuaJIT does not
/// verify bytecode: a crafted chunk can make the VM read and write memory
/// of its choosing). Every chunk the host runs is loaded here.
#[allow(clippy::disallowed_methods)]
pub fn load_text(lua: &Lua, text: &str, name: &str, env: Option<&Table>) -> mlua::Result<Function> {
    let chunk = lua.load(text).set_name(name).set_mode(ChunkMode::Text);
    match env {
        Some(env) => chunk.set_environment(env.clone()).into_function(),
        None => chunk.into_function(),
    }
}

/// What a new environment is made from (see [`new_env`]).
pub struct EnvBase {
    /// The sandboxed globals as they were before the prelude ran.
    globals: Table,
    /// The metatable of every environment: unknown names are errors, and
    /// the metatable itself cannot be read or replaced.
    strict: Table,
    /// Wraps a function so that its calls count against the call depth.
    counted: Function,
    /// Starts a new call for the guards (no nesting, not aborted): the
    /// prelude runs it at each of its entry points, the host before a
    /// chunk. (From Lua it costs a few instructions; a table write from
    /// the host costs a protected call, about a fifth of a simulated game
    /// when done for every call.)
    pub reset: Function,
    library: Arc<ScriptLibrary>,
}

/// A sandboxed VM and what goes with it.
pub struct Vm {
    pub lua: Lua,
    pub budget: Rc<Budget>,
    /// What scripts print.
    pub output: PrintBuffer,
    /// What script environments are made from.
    pub env_base: EnvBase,
    /// LuaJIT's `ffi` library, for the prelude alone, when the compiler
    /// runs (see `super::declare`).
    pub ffi: Option<Table>,
    /// LuaJIT's `table.clear` (empties a table and keeps its room), for
    /// the prelude's copying of a game alone.
    pub table_clear: Function,
    /// LuaJIT's `debug.getinfo`, for the prelude alone: `Game:count` asks
    /// it which function counts (a fast function of the VM, where a
    /// primitive of the core is a call through the boundary).
    pub getinfo: Function,
}

/// Build the sandboxed VM.
pub fn new_vm(library: Arc<ScriptLibrary>, limits: Limits) -> mlua::Result<Vm> {
    // `coroutine` is part of LuaJIT's base library. The `jit` library is
    // opened only to start the compiler (LuaJIT starts it there) or, when
    // instructions are counted, to turn it off: compiled code never runs
    // the count hook, so a budget holds only in the interpreter. Scripts
    // cannot reach it afterwards.
    // With the compiler on, the `ffi` library too, for the prelude's direct
    // calls into the core (see `super::declare`); it is taken out of the
    // globals below, before any script runs, and handed to the prelude
    // alone. The `debug` library is opened for its `getinfo`, which the
    // prelude alone keeps (below); the library is taken out of the globals
    // with the other escape hatches.
    let counting = limits.instructions.is_some();
    let libs = StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::JIT | StdLib::DEBUG;
    let libs = if counting { libs } else { libs | StdLib::FFI };
    // SAFETY: `debug` and `ffi` are unsafe only in a script's hands; no
    // script reaches them (`the_sandbox_has_no_escape_hatches` on both
    // kinds of VM, `no_script_reaches_the_ffi`).
    let lua = unsafe { Lua::unsafe_new_with(libs, LuaOptions::default()) };
    let globals = lua.globals();
    let ffi: Option<Table> = if counting { None } else { globals.get("ffi")? };
    let jit: Table = globals.get("jit")?;
    let jit_switch = if counting {
        None
    } else {
        Some([jit.get("off")?, jit.get("flush")?, jit.get("on")?])
    };
    if counting {
        jit.get::<Function>("off")?.call::<()>(())?;
    } else {
        // Room for the traces of a large game script: with LuaJIT's
        // defaults (1000 traces, 512 KiB of machine code) the compiler
        // fills up, flushes everything and compiles the same code again.
        let opt: Table = jit.get("opt")?;
        opt.get::<Function>("start")?.call::<()>((
            "maxtrace=8000",
            "maxmcode=16384",
            "maxsnap=1000",
        ))?;
    }
    globals.raw_set("jit", Value::Nil)?;
    // `table.clear` is not opened with the table library: its opener sits
    // in the registry (for `require`, which scripts do not have) and also
    // puts it into `table`, where it is taken out again.
    let preload: Table = lua.named_registry_value("_PRELOAD")?;
    let table_clear: Function = preload.get::<Function>("table.clear")?.call(())?;
    globals
        .get::<Table>("table")?
        .raw_set("clear", Value::Nil)?;

    let getinfo: Function = globals.get::<Table>("debug")?.get("getinfo")?;

    // Escape hatches: code loading, environments, the GC switch and
    // unseeded randomness. `require` is given to each environment.
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
        "module",
        "package",
        "debug",
        "io",
        "os",
        "ffi",
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
        // An error in a `__tostring` goes on up, like Lua's own print.
        let parts = args
            .iter()
            .map(Value::to_string)
            .collect::<mlua::Result<Vec<String>>>()?;
        out.borrow_mut().push(parts.join("\t"));
        Ok(())
    })?;
    globals.raw_set("print", print)?;

    // The guards: the budget cannot be caught, C calls nest only so deep,
    // pattern matches cannot run away, messages keep their NUL bytes.
    let guard = lua.create_table()?;
    guard.raw_set("depth", 0)?;
    guard.raw_set("aborted", false)?;
    guard.raw_set("max_depth", MAX_CALL_DEPTH)?;
    guard.raw_set("max_match_steps", MAX_MATCH_STEPS)?;
    guard.raw_set(
        "note",
        lua.create_function(|_, at: String| {
            LAST_POSITION.with(|p| *p.borrow_mut() = Some(at));
            Ok(())
        })?,
    )?;
    let guards: Table = load_text(&lua, GUARDS, "@deckhand/guards.lua", None)?.call(&guard)?;
    let counted: Function = guards.get("guarded")?;
    let reset: Function = guards.get("reset")?;

    let budget = Rc::new(Budget {
        spent: Cell::new(0),
        max: Cell::new(u64::MAX),
        cpu_start: Cell::new(0.0),
        max_cpu: Cell::new(limits.cpu_seconds),
        guard: guard.clone(),
        jit: jit_switch,
    });

    // What every script environment starts from: the globals as they are
    // now (before the prelude), and the strict metatable.
    let base = lua.create_table()?;
    for pair in globals.pairs::<Value, Value>() {
        let (k, v) = pair?;
        if !matches!(&k, Value::String(s) if s.as_bytes().as_ref() == b"_G") {
            base.raw_set(k, v)?;
        }
    }
    let strict: Table = load_text(&lua, STRICT, "=sandbox", None)?.call(())?;
    let env_base = EnvBase {
        globals: base,
        strict,
        counted,
        reset,
        library,
    };

    // Budget: a global hook (so coroutines are covered too) counting
    // instructions. Once a call is over budget the hook keeps raising, and
    // the guards raise the error again wherever a script catches it.
    if let Some(instructions) = limits.instructions {
        budget.max.set(instructions);
        install_hook(&lua, &budget, HOOK_PERIOD)?;
    }
    lua.set_memory_limit(limits.memory)?;
    Ok(Vm {
        lua,
        budget,
        output,
        env_base,
        ffi,
        table_clear,
        getinfo,
    })
}

/// Install the budget hook, run every `period` instructions: it counts
/// them against the call's budget and notes where the script is (the
/// position given to errors that carry none). Once a call is over budget
/// the hook keeps raising, and the guards raise the error again wherever a
/// script catches it.
pub fn install_hook(lua: &Lua, budget: &Rc<Budget>, period: u32) -> mlua::Result<()> {
    let b = budget.clone();
    lua.set_global_hook(
        HookTriggers::new().every_nth_instruction(period),
        move |_lua, debug| {
            let spent = b.spent.get() + u64::from(period);
            b.spent.set(spent);
            let src = debug.source();
            let at = format!(
                "{}:{}",
                src.short_src.as_deref().unwrap_or("?"),
                debug.current_line().unwrap_or(0)
            );
            let over = if spent > b.max.get() {
                Some(format!(
                    "{at}: instruction {RUNAWAY} ({} instructions): a loop that never ends?",
                    b.max.get()
                ))
            } else if b.max.get() == u64::MAX {
                // No budget: the hook only notes positions (see
                // `with_fine_positions`).
                None
            } else {
                let took = thread_cpu_seconds() - b.cpu_start.get();
                (took > b.max_cpu.get()).then(|| {
                    format!(
                        "{at}: time {RUNAWAY} ({} s of processor time): a loop that never ends?",
                        b.max_cpu.get()
                    )
                })
            };
            if let Some(msg) = over {
                b.guard.raw_set("aborted", true)?;
                b.guard.raw_set("message", msg.as_str())?;
                return Err(mlua::Error::runtime(msg));
            }
            // The core's own Lua is never the position a script error names.
            if !at.starts_with("deckhand/") {
                LAST_POSITION.with(|p| *p.borrow_mut() = Some(at));
            }
            Ok(VmState::Continue)
        },
    )
}

/// Run `f` with the budget hook noting the script's position every
/// [`FINE_PERIOD`] instructions instead of every [`HOOK_PERIOD`]: to find
/// where a call that failed without a position (out of memory) was, by
/// running it again; with the compiler on, in the interpreter.
pub fn with_fine_positions<R>(lua: &Lua, budget: &Rc<Budget>, f: impl FnOnce() -> R) -> R {
    if budget.max.get() != u64::MAX {
        if install_hook(lua, budget, FINE_PERIOD).is_err() {
            return f();
        }
        let out = f();
        let _ = install_hook(lua, budget, HOOK_PERIOD);
        return out;
    }
    // The compiler is on and no hook is set: compiled code never runs a
    // hook, so the call runs again in the interpreter (the compiled code
    // flushed), with the hook noting positions only; then the compiler
    // comes back.
    let Some([off, flush, on]) = &budget.jit else {
        return f();
    };
    if off.call::<()>(()).is_err() || flush.call::<()>(()).is_err() {
        let _ = on.call::<()>(());
        return f();
    }
    let out = if install_hook(lua, budget, FINE_PERIOD).is_ok() {
        let out = f();
        lua.remove_global_hook();
        out
    } else {
        f()
    };
    let _ = on.call::<()>(());
    out
}

/// How often the hook notes the position while locating an error.
const FINE_PERIOD: u32 = 50;

/// The metatable of the VM's globals and of every script environment:
/// reading or assigning an undeclared global is an error (catches typos),
/// and `getmetatable` / `setmetatable` cannot reach or replace it.
const STRICT: &str = r#"
local error, tostring = error, tostring
return {
  __newindex = function(_, k) error("assignment to undeclared global '" .. tostring(k) .. "' (declare it local)", 2) end,
  __index = function(_, k) error("undefined global '" .. tostring(k) .. "'", 2) end,
  __metatable = false,
}
"#;

/// A fresh environment for one set of rules (a game with its variants), a
/// listing of a variant or a line typed at the Lua prompt: copies of the
/// sandboxed globals and of the library tables, strict about undeclared
/// globals, with a `require` whose modules are loaded into this
/// environment, once each.
pub fn new_env(lua: &Lua, base: &EnvBase) -> mlua::Result<Table> {
    let env = lua.create_table()?;
    for pair in base.globals.pairs::<Value, Value>() {
        let (k, v) = pair?;
        let v = match v {
            Value::Table(lib) => {
                let copy = lua.create_table()?;
                for pair in lib.pairs::<Value, Value>() {
                    let (k, v) = pair?;
                    copy.raw_set(k, v)?;
                }
                Value::Table(copy)
            }
            other => other,
        };
        env.raw_set(k, v)?;
    }
    env.raw_set("_G", &env)?;
    env.raw_set("require", require_in(lua, base, &env)?)?;
    env.set_metatable(Some(base.strict.clone()))?;
    Ok(env)
}

/// `require` for one environment: modules from the scripts search path
/// only, loaded as text into `env` once each; a module that requires
/// itself, directly or not, is an error rather than an endless recursion.
fn require_in(lua: &Lua, base: &EnvBase, env: &Table) -> mlua::Result<Function> {
    let loaded = lua.create_table()?;
    let loading = lua.create_table()?;
    let lib = base.library.clone();
    let env = env.clone();
    let require = lua.create_function(move |lua, name: String| {
        if let Some(v) = loaded.raw_get::<Option<Value>>(name.as_str())? {
            return Ok(v);
        }
        let path = ScriptLibrary::module_path(&name).ok_or_else(|| {
            mlua::Error::runtime(format!(
                "require: '{name}' is not a module name (use dots: lib.trick)"
            ))
        })?;
        if loading.raw_get::<bool>(name.as_str())? {
            return Err(mlua::Error::runtime(format!(
                "require: module '{name}' requires itself (directly or through other modules)"
            )));
        }
        let script = lib.read(&path).ok_or_else(|| {
            mlua::Error::runtime(format!(
                "require: module '{name}' not found on the scripts search path ({path})"
            ))
        })?;
        crate::digest::note(lua, &path, &script.text);
        let chunk = load_text(
            lua,
            &script.text,
            &format!("@{}", script.chunk_name),
            Some(&env),
        )?;
        loading.raw_set(name.as_str(), true)?;
        let value = chunk.call::<Value>(name.as_str());
        loading.raw_set(name.as_str(), Value::Nil)?;
        let value = match value? {
            Value::Nil => Value::Boolean(true),
            v => v,
        };
        loaded.raw_set(name.as_str(), value.clone())?;
        Ok(value)
    })?;
    base.counted.call(("require", require))
}

/// Lock the VM's own globals (after the prelude has run): strict, and the
/// metatable out of reach.
pub fn lock_globals(lua: &Lua, base: &EnvBase) -> mlua::Result<()> {
    lua.globals().set_metatable(Some(base.strict.clone()))
}
