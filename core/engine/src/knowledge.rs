//! Who knows where each card is. The core follows every card move and keeps,
//! per card, the set of seats that know which zone it is in, from zone
//! visibility alone:
//!
//! - a card that lands in a zone a seat sees (public, its own, or on top of
//!   a top-card pile) is known to that seat;
//! - a seat that knew where a card was still knows after a move it saw
//!   happen: out of a zone it sees (for a top-card pile, only when the card
//!   was the top one), or a whole zone moved at once (`move_all`);
//! - anything else (a card dealt face down from a hidden deck, a card taken
//!   from the middle of a pile) is unknown to the seats that did not see it.
//!
//! Search bots use this to deal the cards a seat does not know at random
//! (determinisation) without ever moving a card the seat knows about.

use crate::zone::{Seat, Visibility, Zone};
use serde::{Deserialize, Serialize};

/// A set of seats as bits (seat 1 = bit 0). Seats above 32 are never marked
/// as knowing anything, which is safe for search: it only guesses more.
pub type SeatSet = u32;

/// The bit of one seat.
pub fn seat_bit(seat: Seat) -> SeatSet {
    if (1..=32).contains(&seat) {
        1 << (seat - 1)
    } else {
        0
    }
}

/// Every seat of a table of `seats`.
pub fn all_seats(seats: u32) -> SeatSet {
    if seats >= 32 {
        u32::MAX
    } else {
        (1u32 << seats) - 1
    }
}

/// Who sees a card that arrives on top of `zone`.
pub fn sees_arrival(zone: &Zone, all: SeatSet) -> SeatSet {
    match zone.visibility {
        Visibility::Public | Visibility::Top => all,
        Visibility::Owner => zone.owner.map_or(0, seat_bit),
        Visibility::Hidden => 0,
    }
}

/// Who sees a card leave `zone` (`was_top`: it was the top card).
pub fn sees_departure(zone: &Zone, was_top: bool, all: SeatSet) -> SeatSet {
    match zone.visibility {
        Visibility::Public => all,
        Visibility::Top if was_top => all,
        Visibility::Top | Visibility::Hidden => 0,
        Visibility::Owner => zone.owner.map_or(0, seat_bit),
    }
}

/// Per card (index = id - 1): the seats that know which zone it is in.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Knowledge {
    known: Vec<SeatSet>,
}

impl Knowledge {
    /// Room for one more card (a new card is known to nobody until placed).
    pub fn add_card(&mut self) {
        self.known.push(0);
    }

    /// The seats that know where `card` is.
    pub fn of(&self, card: u32) -> SeatSet {
        card.checked_sub(1)
            .and_then(|i| self.known.get(i as usize))
            .copied()
            .unwrap_or(0)
    }

    /// Set who knows where `card` is.
    pub fn set(&mut self, card: u32, who: SeatSet) {
        if let Some(k) = card
            .checked_sub(1)
            .and_then(|i| self.known.get_mut(i as usize))
        {
            *k = who;
        }
    }

    /// After `card` moved: the seats in `departure` (who saw it leave) keep
    /// what they knew, and the seats in `arrival` (who see it now) know.
    pub fn moved(&mut self, card: u32, departure: SeatSet, arrival: SeatSet) {
        self.set(card, (self.of(card) & departure) | arrival);
    }

    /// Whether `seat` knows where `card` is.
    pub fn knows(&self, seat: Seat, card: u32) -> bool {
        self.of(card) & seat_bit(seat) != 0
    }
}
