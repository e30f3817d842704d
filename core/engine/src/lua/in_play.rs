//! The game whose Lua code is running ([`InPlay`]): the one way from a
//! primitive, on either path (a plain binding or a direct call), to the
//! game's [`Table`], and the memory the call under way may still use.
//!
//! The primitives take the game's token (an integer, `game._core` in Lua)
//! rather than the table itself: mlua converts a userdata argument at a cost
//! of several times the work of a move, on every call. The table of the game
//! whose Lua code is running sits in the host's [`InPlay`] slot, filled by
//! [`crate::game::Game`] around each call into Lua; the token only checks
//! that the game object a script uses is that game.

use crate::error::CoreError;
use crate::rng::GameRng;
use crate::table::Table;
use mlua::Lua;
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
    pub(super) bot_rng: RefCell<Option<GameRng>>,
    /// Event memory added by direct calls ([`super::declare`]) and not yet
    /// charged to the call's allowance (`core.settle` charges it).
    pub(super) unsettled: Cell<usize>,
    /// The message of the direct call that failed last, which `core.raise`
    /// raises.
    pub(super) failure: RefCell<Option<String>>,
    /// The cards a direct call returned that did not fit the prelude's
    /// buffer (`core.spilled` hands them over).
    pub(super) spill: RefCell<Vec<u32>>,
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
    pub(super) fn charge(&self, lua: &Lua, bytes: usize) -> mlua::Result<()> {
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
    pub(super) fn fail(&self, message: String) {
        *self.failure.borrow_mut() = Some(message);
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
