//! The primitives compiled Lua calls most (moving cards, shuffling, random
//! numbers), each declared once (see [`super::declare`]): its plain
//! binding, its direct call and its Lua wrapper are made from the function
//! below. Each takes the token of the game object first (`game._core`, see
//! [`super::api::InPlay`]); the prelude's `Game` methods call them.
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
