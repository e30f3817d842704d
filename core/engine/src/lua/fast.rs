//! Direct calls from compiled Lua into the core, for the primitives a game
//! calls most (moving a card, moving a zone, a random number).
//!
//! A Lua call into a Rust function made with mlua ends the trace LuaJIT is
//! compiling, goes through the interpreter and mlua's conversions, and
//! costs about a thousand machine instructions. A call through LuaJIT's
//! FFI to a plain `extern "C"` function is compiled into the trace as a
//! direct call. The prelude (and only the prelude: the `ffi` library is
//! handed to it alone, never to scripts) binds these functions when the
//! compiler runs; with the compiler off (an instruction budget) it keeps
//! the mlua primitives, which the interpreter calls faster.
//!
//! Each function takes its numbers as doubles and checks them here, and
//! answers with a status: [`DONE`], or [`ASK_AGAIN`] when it did nothing
//! (an argument that is not a whole number in range, a game not in play, a
//! rule broken ...): the prelude then makes the same call through the
//! mlua primitive, which fails with its usual message. So every error
//! reads the same on both paths, and none is raised from inside an FFI call
//! (which LuaJIT does not allow). [`SETTLE`]: done, and the call added
//! events whose memory must be charged to the step (the prelude calls
//! `core.settle`).

use super::api::InPlay;
use crate::event::MoveHow;
use crate::table::Table;

/// The call did what it was asked.
pub const DONE: i32 = 0;
/// The call did nothing: make it again through the mlua primitive.
pub const ASK_AGAIN: i32 = 1;
/// The call was done and added events: charge them (`core.settle`).
pub const SETTLE: i32 = 2;

/// A double that is a whole number in `u32`'s range.
fn whole_u32(x: f64) -> Option<u32> {
    (x >= 0.0 && x <= f64::from(u32::MAX) && x.fract() == 0.0).then_some(x as u32)
}

/// A double that is a whole number exactly representable as an `i64`.
fn whole_i64(x: f64) -> Option<i64> {
    const LIMIT: f64 = 9_007_199_254_740_992.0; // 2^53
    (x.abs() <= LIMIT && x.fract() == 0.0).then_some(x as i64)
}

/// Run `f` on the table of the game in play (see [`InPlay::with_direct`]),
/// catching a panic (which must not cross into LuaJIT) as [`ASK_AGAIN`].
fn run(in_play: *const InPlay, token: f64, f: impl FnOnce(&mut Table) -> Option<()>) -> i32 {
    let Some(token) = whole_i64(token) else {
        return ASK_AGAIN;
    };
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        // SAFETY: the pointer is the host's `Rc<InPlay>`, which outlives
        // the VM whose prelude holds it (see `Host`).
        let in_play = unsafe { &*in_play };
        match in_play.with_direct(token, f) {
            None => ASK_AGAIN,
            Some(false) => DONE,
            Some(true) => SETTLE,
        }
    }))
    .unwrap_or(ASK_AGAIN)
}

/// `core.move`: a card from one zone to another.
extern "C" fn direct_move(
    in_play: *const InPlay,
    token: f64,
    card: f64,
    from: f64,
    to: f64,
    bottom: bool,
    draw: bool,
) -> i32 {
    let (Some(card), Some(from), Some(to)) = (whole_u32(card), whole_u32(from), whole_u32(to))
    else {
        return ASK_AGAIN;
    };
    let how = if draw { MoveHow::Draw } else { MoveHow::Move };
    run(in_play, token, |t| {
        t.move_card_as(card, from, to, bottom, how).ok()
    })
}

/// `core.move_all`: every card of a zone onto another.
extern "C" fn direct_move_all(in_play: *const InPlay, token: f64, from: f64, to: f64) -> i32 {
    let (Some(from), Some(to)) = (whole_u32(from), whole_u32(to)) else {
        return ASK_AGAIN;
    };
    run(in_play, token, |t| t.move_all(from, to).ok())
}

/// `core.random`: a whole number in `lo..=hi`, written to `out`.
extern "C" fn direct_random(
    in_play: *const InPlay,
    token: f64,
    lo: f64,
    hi: f64,
    out: *mut f64,
) -> i32 {
    let (Some(lo), Some(hi)) = (whole_i64(lo), whole_i64(hi)) else {
        return ASK_AGAIN;
    };
    if hi < lo || out.is_null() {
        return ASK_AGAIN;
    }
    let mut value = 0;
    let status = run(in_play, token, |t| {
        value = t.rng.range(lo, hi);
        Some(())
    });
    if status != ASK_AGAIN {
        // SAFETY: `out` is the prelude's one-double buffer.
        unsafe { *out = value as f64 };
    }
    status
}

/// `core.place`: a freshly defined card into a zone (`defined`: how many
/// cards the game has defined so far).
extern "C" fn direct_place(
    in_play: *const InPlay,
    token: f64,
    card: f64,
    zone: f64,
    defined: f64,
) -> i32 {
    let (Some(card), Some(zone), Some(defined)) =
        (whole_u32(card), whole_u32(zone), whole_u32(defined))
    else {
        return ASK_AGAIN;
    };
    run(in_play, token, |t| {
        t.define_cards(defined).ok()?;
        t.place_new(card, zone).ok()
    })
}

/// `core.deal`: `n` cards to each of the `count` zones at `to`.
extern "C" fn direct_deal(
    in_play: *const InPlay,
    token: f64,
    from: f64,
    to: *const f64,
    count: u32,
    n: f64,
) -> i32 {
    let (Some(from), Some(n)) = (whole_u32(from), whole_u32(n)) else {
        return ASK_AGAIN;
    };
    if to.is_null() {
        return ASK_AGAIN;
    }
    // SAFETY: the prelude passes its buffer of `count` zone ids.
    let to = unsafe { std::slice::from_raw_parts(to, count as usize) };
    let Some(to) = to
        .iter()
        .map(|&z| whole_u32(z))
        .collect::<Option<Vec<u32>>>()
    else {
        return ASK_AGAIN;
    };
    run(in_play, token, |t| t.deal(from, &to, n as usize).ok())
}

/// A reordering of a zone (`core.shuffle`, `core.sort`): the new order is
/// written to `out` (room for `room` cards) and its length to `count`;
/// nothing is done to a zone with more cards than `room`.
fn reorder(
    in_play: *const InPlay,
    token: f64,
    zone: f64,
    out: *mut u32,
    room: u32,
    count: *mut u32,
    how: fn(&mut Table, u32) -> crate::error::Result<Vec<u32>>,
) -> i32 {
    let Some(zone) = whole_u32(zone) else {
        return ASK_AGAIN;
    };
    if out.is_null() || count.is_null() {
        return ASK_AGAIN;
    }
    run(in_play, token, |t| {
        if t.zone(zone).ok()?.cards.len() > room as usize {
            return None;
        }
        let order = how(t, zone).ok()?;
        // SAFETY: `out` has room for `room` cards, and the order holds no
        // more cards than the zone did; `count` is one number.
        unsafe {
            std::ptr::copy_nonoverlapping(order.as_ptr(), out, order.len());
            *count = order.len() as u32;
        }
        Some(())
    })
}

/// A zone's cards as the core holds them (the order only, nothing moves).
fn cards_of(t: &mut Table, zone: u32) -> crate::error::Result<Vec<u32>> {
    Ok(t.zone(zone)?.cards.clone())
}

/// A direct call that writes a zone's cards to `out` after `how` (see
/// [`reorder`]).
macro_rules! zone_order_call {
    ($(#[$doc:meta])* $name:ident, $how:expr) => {
        $(#[$doc])*
        extern "C" fn $name(
            in_play: *const InPlay,
            token: f64,
            zone: f64,
            out: *mut u32,
            room: u32,
            count: *mut u32,
        ) -> i32 {
            reorder(in_play, token, zone, out, room, count, $how)
        }
    };
}

zone_order_call!(
    /// `core.shuffle`.
    direct_shuffle,
    Table::shuffle
);
zone_order_call!(
    /// `core.sort`.
    direct_sort,
    Table::sort
);
zone_order_call!(
    /// The cards of a zone, in order (for the mirrors of the zones a guess
    /// dealt again).
    direct_cards,
    cards_of
);

/// What the prelude needs to bind the direct calls: each function's name,
/// address and C type.
pub fn bindings() -> [(&'static str, usize, &'static str); 8] {
    const REORDER: &str = "int32_t (*)(void *, double, double, uint32_t *, uint32_t, uint32_t *)";
    [
        (
            "move",
            direct_move as *const () as usize,
            "int32_t (*)(void *, double, double, double, double, bool, bool)",
        ),
        (
            "move_all",
            direct_move_all as *const () as usize,
            "int32_t (*)(void *, double, double, double)",
        ),
        (
            "random",
            direct_random as *const () as usize,
            "int32_t (*)(void *, double, double, double, double *)",
        ),
        (
            "place",
            direct_place as *const () as usize,
            "int32_t (*)(void *, double, double, double, double)",
        ),
        (
            "deal",
            direct_deal as *const () as usize,
            "int32_t (*)(void *, double, double, const double *, uint32_t, double)",
        ),
        ("shuffle", direct_shuffle as *const () as usize, REORDER),
        ("sort", direct_sort as *const () as usize, REORDER),
        ("cards", direct_cards as *const () as usize, REORDER),
    ]
}
