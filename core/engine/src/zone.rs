//! Zones: ordered lists of cards with an owner and a visibility.

use crate::card::CardId;
use serde::{Deserialize, Serialize};

/// A zone's index within one game: 1-based, dense.
pub type ZoneId = u32;
/// A seat number, 1-based.
pub type Seat = u32;

/// Who may see the cards of a zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Visibility {
    /// Everybody sees every card.
    Public,
    /// The owner sees the cards; the others see how many.
    Owner,
    /// Nobody sees the cards, only how many.
    Hidden,
    /// Everybody sees the top card only.
    Top,
}

impl Visibility {
    /// Parse the name scripts use.
    pub fn parse(s: &str) -> Option<Visibility> {
        match s {
            "public" => Some(Visibility::Public),
            "owner" => Some(Visibility::Owner),
            "hidden" => Some(Visibility::Hidden),
            "top" => Some(Visibility::Top),
            _ => None,
        }
    }

    /// The name scripts use.
    pub fn name(self) -> &'static str {
        match self {
            Visibility::Public => "public",
            Visibility::Owner => "owner",
            Visibility::Hidden => "hidden",
            Visibility::Top => "top",
        }
    }
}

/// An ordered list of cards, bottom first (the last card is the top).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Zone {
    pub id: ZoneId,
    pub name: String,
    pub owner: Option<Seat>,
    pub visibility: Visibility,
    pub cards: Vec<CardId>,
}

/// What a viewer may know of a zone's cards.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sight {
    /// Every card, bottom first.
    All,
    /// Only the top card.
    Top,
    /// Only the count.
    Count,
}

impl Zone {
    /// What `viewer` may see of this zone (`None` = an omniscient observer).
    pub fn sight(&self, viewer: Option<Seat>) -> Sight {
        match (self.visibility, viewer) {
            (_, None) | (Visibility::Public, _) => Sight::All,
            (Visibility::Owner, Some(s)) if self.owner == Some(s) => Sight::All,
            (Visibility::Top, _) => Sight::Top,
            _ => Sight::Count,
        }
    }

    /// A label for people and traces: `hand#2` for seat 2's hand, `deck` for a shared zone.
    pub fn label(&self) -> String {
        match self.owner {
            Some(s) => format!("{}#{}", self.name, s),
            None => self.name.clone(),
        }
    }
}
