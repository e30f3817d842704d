//! The primitives compiled Lua calls most (moving cards, shuffling, random
//! numbers), each declared once (see [`super::declare`]): its plain
//! binding, its direct call and its Lua wrapper are made from the function
//! below. Each takes the token of the game object first (`game._core`, see
//! [`super::in_play::InPlay`]); the prelude's `Game` methods call them.
//!
//! Adding one is adding a function here: an argument of a new kind is an
//! [`Arg`](super::declare::Arg), an answer of a new kind a
//! [`Ret`](super::declare::Ret). A primitive whose arguments cannot cross
//! the FFI (a string, event data, a list of lists) is a plain binding in
//! [`super::api::primitives`].

use super::declare::{primitives, Order, Zones};
use crate::error::CoreError;
use crate::event::MoveHow;

primitives! {
    /// A freshly defined card into a zone. The prelude numbers new cards
    /// itself (no call per card); `defined` tells the core how many the
    /// game has defined so far. Their properties stay in the script's
    /// `game.cards` until needed (Game::ensure_cards).
    "place" => fn place(t, card: u32, zone: u32, defined: u32) -> () {
        t.define_cards(defined)?;
        t.place_new(card, zone)
    }

    /// A card from one zone to another (to the bottom with `bottom`;
    /// `draw`: the top card, drawn, which the trace tells from a move of a
    /// card the rules named).
    "move" => fn move_card(t, card: u32, from: u32, to: u32, bottom: bool, draw: bool) -> () {
        let how = if draw { MoveHow::Draw } else { MoveHow::Move };
        t.move_card_as(card, from, to, bottom, how)
    }

    /// Every card of a zone onto another.
    "move_all" => fn move_all(t, from: u32, to: u32) -> () {
        t.move_all(from, to)
    }

    /// `n` cards to each zone of `zones` in turn, one at a time.
    "deal" => fn deal(t, from: u32, zones: Zones, n: usize) -> () {
        t.deal(from, &zones.0, n)
    }

    /// A whole number in `lo..=hi` from the game's generator.
    "random" => fn random(t, lo: i64, hi: i64) -> i64 {
        if hi < lo {
            return Err(CoreError::Rule(format!("random: empty range [{lo}, {hi}]")));
        }
        Ok(t.rng.range(lo, hi))
    }

    /// Shuffle a zone; its new order goes into its mirror.
    "shuffle" => fn shuffle(t, zone: u32) -> Order {
        t.shuffle(zone).map(Order)
    }

    /// Put a zone in card-id order; its new order goes into its mirror.
    "sort" => fn sort(t, zone: u32) -> Order {
        t.sort(zone).map(Order)
    }

    /// A zone's cards as the core holds them, into its mirror (nothing
    /// moves): for the mirrors of the zones a guess dealt again.
    "cards" => fn cards(t, zone: u32) -> Order {
        Ok(Order(t.zone(zone)?.cards.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::super::declare::*;
    use mlua::Value;
    use std::cell::RefCell;

    fn declared(name: &str) -> Declaration {
        super::declarations()
            .into_iter()
            .find(|d| d.name == name)
            .unwrap_or_else(|| panic!("no primitive {name}"))
    }

    #[test]
    fn a_direct_call_type_is_made_from_its_rust_parameters() {
        assert_eq!(
            declared("move").ctype(),
            "int32_t (*)(void *, double, double, double, double, bool, bool, void *)"
        );
        assert_eq!(
            declared("deal").ctype(),
            "int32_t (*)(void *, double, double, const double *, double, void *)"
        );
        assert_eq!(
            declared("random").ctype(),
            "int32_t (*)(void *, double, double, double, double *)"
        );
        assert_eq!(
            declared("shuffle").ctype(),
            "int32_t (*)(void *, double, double, uint32_t *)"
        );
    }

    #[test]
    fn every_primitive_has_a_wrapper_that_sends_other_values_to_the_plain_binding() {
        for d in super::declarations() {
            let text = d.lua_wrapper(true);
            assert!(
                text.contains(&format!("core.{} = function(token", d.name)),
                "{text}"
            );
            assert!(text.contains("return raise()"), "{}: {text}", d.name);
            assert!(text.contains("plain(token"), "{}: {text}", d.name);
            // Without the compiler only an order needs a wrapper (it writes
            // into the mirror).
            assert_eq!(
                d.lua_wrapper(false).is_empty(),
                d.ret != RetKind::Order,
                "{}",
                d.name
            );
        }
    }

    #[test]
    fn both_readings_of_an_argument_refuse_the_same_numbers_alike() {
        for x in [2.5, -1.0, 4_294_967_296.0, f64::NAN, f64::INFINITY, 1e300] {
            let from_c = <u32 as Arg>::from_c(x);
            let from_lua = <u32 as Arg>::from_lua(&Value::Number(x));
            assert!(from_c.is_err(), "{x}");
            assert_eq!(from_c, from_lua, "{x}");
        }
        assert_eq!(<u32 as Arg>::from_c(7.0), Ok(7));
        assert_eq!(<i64 as Arg>::from_c(-7.0), Ok(-7));
        assert_eq!(
            <bool as Arg>::from_lua(&Value::Nil),
            Ok(false),
            "nil is false"
        );
        assert_eq!(<bool as Arg>::from_lua(&Value::Number(0.0)), Ok(true));
    }

    #[test]
    fn a_list_longer_than_its_buffer_or_with_a_fraction_is_refused() {
        let mut buffer = [0.0f64; LIST_ROOM + 1];
        buffer[0] = (LIST_ROOM + 1) as f64;
        assert!(Zones::from_c(buffer.as_ptr()).is_err());
        buffer[0] = 2.0;
        buffer[1] = 3.0;
        buffer[2] = 1.5;
        let e = Zones::from_c(buffer.as_ptr()).err().expect("refused");
        assert!(e.starts_with("item 2:") && e.contains("1.5"), "{e}");
        buffer[2] = 4.0;
        assert_eq!(Zones::from_c(buffer.as_ptr()).map(|z| z.0), Ok(vec![3, 4]));
        assert!(Zones::from_c(std::ptr::null()).is_err());
    }

    #[test]
    fn an_order_too_long_for_the_buffer_is_spilled_whole() {
        let spill = RefCell::new(Vec::new());
        let mut buffer = vec![0u32; ORDER_ROOM + 1];
        assert_eq!(Order(vec![5, 6]).deliver(buffer.as_mut_ptr(), &spill), DONE);
        assert_eq!(&buffer[..3], &[2, 5, 6]);
        let long: Vec<u32> = (1..=ORDER_ROOM as u32 + 1).collect();
        assert_eq!(
            Order(long.clone()).deliver(buffer.as_mut_ptr(), &spill),
            SPILLED
        );
        assert_eq!(*spill.borrow(), long);
    }
}
