//! How a primitive of the core is declared: once, as a Rust function of
//! the game's [`Table`] with typed arguments, from which [`primitives!`]
//! makes everything else:
//!
//! - the **plain binding**, an mlua function the interpreter calls
//!   (`core.move(token, card, from, to, bottom, draw)`);
//! - the **direct call**, an `extern "C"` function that compiled Lua calls
//!   through LuaJIT's FFI without leaving the trace it is compiling (a call
//!   through mlua ends the trace and costs about a thousand machine
//!   instructions), with its C type string, which is made from the Rust
//!   types of its parameters ([`CType`]) and so cannot drift from them;
//! - the **Lua wrapper** ([`Declaration::lua_wrapper`]) that the host
//!   installs in place of the plain binding when the compiler runs: it
//!   sends numbers to the direct call and anything else to the plain
//!   binding (LuaJIT cannot pass a string as a double).
//!
//! Both paths check their arguments with the same [`Arg`] conversion and
//! run the same function, so an error reads the same with and without the
//! compiler. A direct call cannot raise a Lua error (LuaJIT does not allow
//! one from inside an FFI call): it answers a status ([`FAILED`]) and
//! keeps the message, which the wrapper then raises through `core.raise`.
//! Nothing is tried twice, so a primitive that fails half-way needs no
//! promise to have changed nothing.
//!
//! Only the prelude sees the direct calls: the `ffi` library is handed to
//! it alone, never to scripts (`no_script_reaches_the_ffi`).

use super::in_play::{InPlay, Token};
use crate::error::CoreError;
use crate::table::Table;
use mlua::Table as LuaTable;
use mlua::{IntoLuaMulti, Lua, MultiValue, Value, Variadic};
use std::cell::RefCell;
use std::fmt::Write as _;
use std::rc::Rc;

/// A direct call's answer: done.
pub const DONE: i32 = 0;
/// A direct call's answer: it failed; `core.raise` raises its message.
pub const FAILED: i32 = 1;
/// A flag of a direct call's answer: done, and the call added events whose
/// memory must be charged to the step (`core.settle`).
pub const SETTLE: i32 = 2;
/// A flag of a direct call's answer: done, but the cards it returns did not
/// fit the prelude's buffer; `core.spilled` hands them over.
pub const SPILLED: i32 = 4;

/// How many zone ids the prelude's buffer for a list argument holds (a
/// longer list goes through the plain binding).
pub const LIST_ROOM: usize = 64;

/// How many cards the prelude's buffer for a returned order holds (a
/// longer order is spilled, see [`SPILLED`]).
pub const ORDER_ROOM: usize = 1024;

/// A Rust type that crosses the FFI, with its name in C. A direct call's C
/// type string is made of these names, so it always matches the Rust
/// signature.
pub trait CType {
    const NAME: &'static str;
}

impl CType for f64 {
    const NAME: &'static str = "double";
}
impl CType for bool {
    const NAME: &'static str = "bool";
}
impl CType for *const f64 {
    const NAME: &'static str = "const double *";
}
impl CType for *mut f64 {
    const NAME: &'static str = "double *";
}
impl CType for *mut u32 {
    const NAME: &'static str = "uint32_t *";
}
impl CType for *mut u8 {
    const NAME: &'static str = "void *";
}

/// How the Lua wrapper hands an argument to the direct call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgKind {
    /// A number (anything else goes to the plain binding).
    Number,
    /// A truth value (Lua's: anything but `nil` and `false` is true).
    Flag,
    /// A list of numbers, copied into a buffer of [`LIST_ROOM`] (count
    /// first).
    List,
}

/// An argument of a primitive: how it is read from a Lua value (the plain
/// binding) and from its C form (the direct call). The two agree: a value
/// refused by one is refused by the other with the same message.
pub trait Arg: Sized {
    /// Its form in a direct call.
    type C: CType + Copy;
    /// How the wrapper passes it.
    const KIND: ArgKind;
    fn from_lua(value: &Value) -> Result<Self, String>;
    fn from_c(c: Self::C) -> Result<Self, String>;
}

/// 2^53: past it a double no longer holds every whole number.
const EXACT: f64 = 9_007_199_254_740_992.0;

/// The whole number `x` as a `T`: a number with a fraction (card 2.5) is
/// refused, never cut to its whole part, and so is one out of `T`'s range.
#[inline]
pub fn whole<T: TryFrom<i64>>(x: f64) -> Option<T> {
    // `as` saturates (and reads NaN as 0): a number that does not come
    // back the same is not a whole number in range. (No call to `trunc`:
    // this runs at every card moved.)
    let i = x as i64;
    if i as f64 == x && x.abs() <= EXACT {
        T::try_from(i).ok()
    } else {
        None
    }
}

/// The message for a value that is not a whole number in range.
pub fn not_whole(shown: &str) -> String {
    format!("expected a whole number in range (a card, a zone or a count), got {shown}")
}

/// A Lua value as a message shows it.
fn shown(value: &Value) -> String {
    match value {
        Value::Number(x) => x.to_string(),
        Value::Integer(i) => i.to_string(),
        Value::String(s) => format!("the string \"{}\"", s.to_string_lossy()),
        other => format!("a {}", other.type_name()),
    }
}

/// A whole number of a Lua value (see [`whole`]).
pub fn whole_of<T: TryFrom<i64>>(value: &Value) -> Result<T, String> {
    let n = match value {
        Value::Integer(i) => T::try_from(*i).ok(),
        Value::Number(x) => whole(*x),
        _ => None,
    };
    n.ok_or_else(|| not_whole(&shown(value)))
}

macro_rules! whole_arg {
    ($($t:ty),*) => {$(
        impl Arg for $t {
            type C = f64;
            const KIND: ArgKind = ArgKind::Number;
            fn from_lua(value: &Value) -> Result<Self, String> {
                whole_of(value)
            }
            #[inline]
            fn from_c(x: f64) -> Result<Self, String> {
                whole(x).ok_or_else(|| not_whole(&x.to_string()))
            }
        }
    )*};
}
whole_arg!(u32, i64, usize);

impl Arg for bool {
    type C = bool;
    const KIND: ArgKind = ArgKind::Flag;
    fn from_lua(value: &Value) -> Result<Self, String> {
        Ok(!matches!(value, Value::Nil | Value::Boolean(false)))
    }
    fn from_c(c: bool) -> Result<Self, String> {
        Ok(c)
    }
}

/// A list of zone ids (a deal's zones), read by its raw length and raw
/// items (a `__len` or `__index` of the script's is not run), at most
/// [`MAX_LIST`] of them.
pub struct Zones(pub Vec<u32>);

impl Arg for Zones {
    type C = *const f64;
    const KIND: ArgKind = ArgKind::List;
    fn from_lua(value: &Value) -> Result<Self, String> {
        let Value::Table(list) = value else {
            return Err(format!("expected a list of zones, got {}", shown(value)));
        };
        whole_list(list).map(Zones)
    }
    fn from_c(p: *const f64) -> Result<Self, String> {
        if p.is_null() {
            return Err("no list".into());
        }
        // SAFETY: the prelude's list buffer: its count, then room for
        // LIST_ROOM numbers (the count is checked against that room).
        let count = unsafe { *p };
        let n = whole::<usize>(count)
            .filter(|n| *n <= LIST_ROOM)
            .ok_or_else(|| format!("a list of {count} items does not fit the buffer"))?;
        // SAFETY: as above, `n` numbers follow the count.
        let items = unsafe { std::slice::from_raw_parts(p.add(1), n) };
        items
            .iter()
            .enumerate()
            .map(|(i, &x)| {
                whole(x).ok_or_else(|| format!("item {}: {}", i + 1, not_whole(&x.to_string())))
            })
            .collect::<Result<_, _>>()
            .map(Zones)
    }
}

/// The most items the core reads from one list a script hands it (the
/// zones of a deal, the seats of the teams): as many as a game may have
/// zones.
pub const MAX_LIST: usize = crate::table::MAX_ZONES;

/// The whole numbers of a list a script passed, read with its raw length
/// and raw items (a `__len` or `__index` of the script's is not run), at
/// most [`MAX_LIST`] of them.
pub fn whole_list<T: TryFrom<i64>>(list: &LuaTable) -> Result<Vec<T>, String> {
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

/// How the Lua wrapper receives a primitive's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetKind {
    /// Nothing.
    Nothing,
    /// One number, written to a one-double buffer.
    Number,
    /// The cards of a zone in order, written into the zone's mirror (the
    /// Lua wrapper takes the mirror as one more argument).
    Order,
}

/// A primitive's answer: how it goes back to Lua on each path.
pub trait Ret: Sized {
    /// Where the direct call writes it.
    type Out: CType + Copy;
    const KIND: RetKind;
    /// Write it for the direct call: [`DONE`], or [`SPILLED`] when it was
    /// kept in `spill` instead.
    fn deliver(self, out: Self::Out, spill: &RefCell<Vec<u32>>) -> i32;
    fn into_lua(self, lua: &Lua) -> mlua::Result<MultiValue>;
}

impl Ret for () {
    type Out = *mut u8;
    const KIND: RetKind = RetKind::Nothing;
    fn deliver(self, _: *mut u8, _: &RefCell<Vec<u32>>) -> i32 {
        DONE
    }
    fn into_lua(self, _: &Lua) -> mlua::Result<MultiValue> {
        Ok(MultiValue::new())
    }
}

impl Ret for i64 {
    type Out = *mut f64;
    const KIND: RetKind = RetKind::Number;
    fn deliver(self, out: *mut f64, _: &RefCell<Vec<u32>>) -> i32 {
        if !out.is_null() {
            // SAFETY: the wrapper's one-double buffer.
            unsafe { *out = self as f64 };
        }
        DONE
    }
    fn into_lua(self, lua: &Lua) -> mlua::Result<MultiValue> {
        (self as f64).into_lua_multi(lua)
    }
}

/// The order of a zone's cards (see [`RetKind::Order`]). The plain binding
/// returns it as multiple values, not a table: building a table from Rust
/// costs a protected call per element, while values on the stack are free
/// to collect.
pub struct Order(pub Vec<u32>);

impl Ret for Order {
    type Out = *mut u32;
    const KIND: RetKind = RetKind::Order;
    fn deliver(self, out: *mut u32, spill: &RefCell<Vec<u32>>) -> i32 {
        let cards = self.0;
        if out.is_null() || cards.len() > ORDER_ROOM {
            *spill.borrow_mut() = cards;
            return SPILLED;
        }
        // SAFETY: the prelude's order buffer: a count, then room for
        // ORDER_ROOM cards, and `cards` holds no more.
        unsafe {
            *out = cards.len() as u32;
            std::ptr::copy_nonoverlapping(cards.as_ptr(), out.add(1), cards.len());
        }
        DONE
    }
    fn into_lua(self, lua: &Lua) -> mlua::Result<MultiValue> {
        Variadic::from(self.0).into_lua_multi(lua)
    }
}

/// What the host needs of one declared primitive.
pub struct Declaration {
    /// Its name in `core`.
    pub name: &'static str,
    /// Its arguments after the game's token: name and kind.
    pub args: Vec<(&'static str, ArgKind)>,
    /// The C names of the direct call's parameters after the token.
    pub arg_ctypes: Vec<&'static str>,
    pub ret: RetKind,
    /// The C name of the direct call's out parameter.
    pub out_ctype: &'static str,
    /// The direct call's address.
    pub address: usize,
    /// Makes the plain binding.
    pub plain: fn(&Lua, &Rc<InPlay>) -> mlua::Result<mlua::Function>,
}

impl Declaration {
    /// The direct call's C type, for `ffi.cast`.
    pub fn ctype(&self) -> String {
        let mut s = String::from("int32_t (*)(void *, double");
        for c in &self.arg_ctypes {
            let _ = write!(s, ", {c}");
        }
        let _ = write!(s, ", {})", self.out_ctype);
        s
    }

    /// The Lua code that replaces `core.<name>` with its wrapper: with
    /// `direct`, one that sends numbers to the direct call; without, only
    /// an order's wrapper (which writes the order into the mirror).
    pub fn lua_wrapper(&self, direct: bool) -> String {
        let name = self.name;
        let mut params: Vec<String> = vec!["token".into()];
        params.extend(self.args.iter().map(|(a, _)| a.to_string()));
        let plain_args = params.join(", ");
        if self.ret == RetKind::Order {
            params.push("mirror".into());
        }
        let all_params = params.join(", ");
        let plain_call = match self.ret {
            RetKind::Order => format!("return fill(mirror, plain({plain_args}))"),
            _ => format!("return plain({plain_args})"),
        };
        let mut out = format!("do\n  local plain = core.{name}\n");
        if !direct {
            if self.ret != RetKind::Order {
                return String::new();
            }
            let _ = write!(
                out,
                "  core.{name} = function({all_params})\n    {plain_call}\n  end\nend\n"
            );
            return out;
        }
        let _ = writeln!(out, "  local direct = bind(\"{name}\")");
        let mut tests = vec!["type(token) == \"number\"".to_string()];
        let mut passed = vec!["in_play".to_string(), "token".to_string()];
        for (arg, kind) in &self.args {
            match kind {
                ArgKind::Number => {
                    tests.push(format!("type({arg}) == \"number\""));
                    passed.push(arg.to_string());
                }
                ArgKind::Flag => passed.push(format!("not not {arg}")),
                ArgKind::List => {
                    let _ = writeln!(out, "  local list_{arg} = new_list()");
                    tests.push(format!("to_list({arg}, list_{arg})"));
                    passed.push(format!("list_{arg}"));
                }
            }
        }
        let answer = match self.ret {
            RetKind::Nothing => {
                passed.push("nil".into());
                "      if status == 0 then return end\n      \
                 if status == 1 then return raise() end\n      \
                 return settle()\n"
            }
            RetKind::Number => {
                let _ = writeln!(out, "  local number = new_number()");
                passed.push("number".into());
                "      if status == 0 then return number[0] end\n      \
                 if status == 1 then return raise() end\n      \
                 settle()\n      return number[0]\n"
            }
            RetKind::Order => {
                passed.push("order".into());
                "      if status == 1 then return raise() end\n      \
                 if status >= 4 then fill(mirror, spilled()) else copy_order(mirror) end\n      \
                 if status % 4 == 2 then settle() end\n      return\n"
            }
        };
        let _ = write!(
            out,
            "  core.{name} = function({all_params})\n    \
             if {} then\n      local status = direct({})\n{answer}    end\n    \
             {plain_call}\n  end\nend\n",
            tests.join(" and "),
            passed.join(", "),
        );
        out
    }
}

/// The Lua chunk that installs the wrappers of `declarations`. It is called
/// with `core` (the table of plain bindings, changed in place) and, when
/// the compiler runs, the table of direct calls (`ffi`, `in_play`, and
/// each call's `address` and `ctype` by name).
pub fn wrappers_chunk(declarations: &[Declaration], direct: bool) -> String {
    let mut text = String::from(
        "-- Made by the core from the declarations of its primitives\n\
         -- (core/engine/src/lua/declare.rs).\n\
         local core, d = ...\n\
         local type, select, rawlen, rawget = type, select, rawlen, rawget\n\
         -- Write an order given as values into a zone's mirror.\n\
         local function fill(mirror, ...)\n  \
           local n, old = select('#', ...), #mirror\n  \
           local order = { ... }\n  \
           for i = 1, n do mirror[i] = order[i] end\n  \
           for i = n + 1, old do mirror[i] = nil end\n\
         end\n",
    );
    if direct {
        let _ = write!(
            text,
            "local ffi, in_play = d.ffi, nil\n\
             in_play = ffi.cast(\"void *\", d.in_play)\n\
             local raise, settle, spilled = core.raise, core.settle, core.spilled\n\
             local function bind(name) return ffi.cast(d[name].ctype, d[name].address) end\n\
             local LIST_ROOM, ORDER_ROOM = {LIST_ROOM}, {ORDER_ROOM}\n\
             local function new_list() return ffi.new(\"double[?]\", LIST_ROOM + 1) end\n\
             local function new_number() return ffi.new(\"double[1]\") end\n\
             -- Copy a list of numbers into a list buffer (count first): false\n\
             -- when it is not a table of at most LIST_ROOM numbers.\n\
             local function to_list(list, buffer)\n  \
               if type(list) ~= \"table\" then return false end\n  \
               local n = rawlen(list)\n  \
               if n > LIST_ROOM then return false end\n  \
               for i = 1, n do\n    \
                 local x = rawget(list, i)\n    \
                 if type(x) ~= \"number\" then return false end\n    \
                 buffer[i] = x\n  \
               end\n  \
               buffer[0] = n\n  \
               return true\n\
             end\n\
             local order = ffi.new(\"uint32_t[?]\", ORDER_ROOM + 1)\n\
             -- Write the order in the buffer into a zone's mirror.\n\
             local function copy_order(mirror)\n  \
               local n, old = order[0], #mirror\n  \
               for i = 1, n do mirror[i] = order[i] end\n  \
               for i = n + 1, old do mirror[i] = nil end\n\
             end\n"
        );
    }
    for d in declarations {
        text.push_str(&d.lua_wrapper(direct));
    }
    text
}

/// Run the direct call of primitive `name`: read its arguments, run `op`
/// on the table of the game in play and deliver its answer. An error (a
/// bad argument, not the game in play, a rule broken, a panic, which must
/// not cross into LuaJIT) is kept for `core.raise` and answered
/// [`FAILED`].
pub fn call_direct<A, R: Ret>(
    in_play: *const InPlay,
    name: &str,
    token: f64,
    out: R::Out,
    args: impl FnOnce() -> Result<A, String>,
    op: impl FnOnce(&mut Table, A) -> Result<R, CoreError>,
) -> i32 {
    // SAFETY: the pointer is the host's `Rc<InPlay>`, which outlives the
    // VM whose prelude holds it (see `Host`).
    let in_play = unsafe { &*in_play };
    in_play.count_direct();
    let run = std::panic::AssertUnwindSafe(|| -> Result<i32, String> {
        let token = <Token as Arg>::from_c(token).map_err(|e| arg_error(name, "game", e))?;
        let args = args()?;
        let (answer, added) = in_play.act(token, |t| op(t, args))?;
        let status = answer.deliver(out, in_play.spill());
        if added == 0 {
            return Ok(status);
        }
        in_play.owe(added);
        Ok(status | SETTLE)
    });
    match std::panic::catch_unwind(run) {
        Ok(Ok(status)) => status,
        Ok(Err(message)) => {
            in_play.fail(message);
            FAILED
        }
        Err(_) => {
            in_play.fail(format!("internal error in core.{name}"));
            FAILED
        }
    }
}

/// The message for a bad argument of a primitive.
pub fn arg_error(primitive: &str, arg: &str, e: String) -> String {
    format!("{primitive} ({arg}): {e}")
}

/// Declare primitives: each is a function of the game's table with typed
/// arguments ([`Arg`]) and answer ([`Ret`]), named as `core` knows it.
/// Makes each function, its direct call (in a module `direct`) and a
/// `declarations()` listing them for the host.
macro_rules! primitives {
    ($(
        $(#[$doc:meta])*
        $lua_name:literal => fn $name:ident($t:ident $(, $arg:ident: $ty:ty)* $(,)?) -> $ret:ty $body:block
    )*) => {
        $(
            $(#[$doc])*
            fn $name($t: &mut $crate::table::Table $(, $arg: $ty)*)
                -> Result<$ret, $crate::error::CoreError> $body
        )*

        /// The direct calls of the primitives (see [`super::declare`]).
        mod direct {
            #[allow(unused_imports)]
            use super::*;
            use $crate::lua::declare::{Arg, Ret, call_direct, arg_error};
            $(
                pub(super) extern "C" fn $name(
                    in_play: *const $crate::lua::in_play::InPlay,
                    token: f64
                    $(, $arg: <$ty as Arg>::C)*,
                    out: <$ret as Ret>::Out,
                ) -> i32 {
                    call_direct(
                        in_play,
                        $lua_name,
                        token,
                        out,
                        || Ok(($(
                            <$ty as Arg>::from_c($arg)
                                .map_err(|e| arg_error($lua_name, stringify!($arg), e))?,
                        )*)),
                        |t, ($($arg,)*)| super::$name(t $(, $arg)*),
                    )
                }
            )*
        }

        /// Every primitive declared here (see [`super::declare`]).
        pub(super) fn declarations() -> Vec<$crate::lua::declare::Declaration> {
            use $crate::lua::declare::{Arg, CType, Declaration, Ret, arg_error};
            vec![$(
                Declaration {
                    name: $lua_name,
                    args: vec![$((stringify!($arg), <$ty as Arg>::KIND)),*],
                    arg_ctypes: vec![$(<<$ty as Arg>::C as CType>::NAME),*],
                    ret: <$ret as Ret>::KIND,
                    out_ctype: <<$ret as Ret>::Out as CType>::NAME,
                    address: direct::$name as *const () as usize,
                    plain: |lua, in_play| {
                        let p = in_play.clone();
                        lua.create_function(
                            move |lua, (token $(, $arg)*): (mlua::Value $(, primitives!(@value $arg))*)| {
                                let token = <$crate::lua::in_play::Token as Arg>::from_lua(&token)
                                    .map_err(|e| mlua::Error::runtime(arg_error($lua_name, "game", e)))?;
                                $(
                                    let $arg = <$ty as Arg>::from_lua(&$arg).map_err(|e| {
                                        mlua::Error::runtime(arg_error($lua_name, stringify!($arg), e))
                                    })?;
                                )*
                                let answer = p.with(lua, token, |$t| $name($t $(, $arg)*))?;
                                answer.into_lua(lua)
                            },
                        )
                    },
                },
            )*]
        }
    };
    (@value $arg:ident) => { mlua::Value };
}
pub(crate) use primitives;
