//! Text rendering of tables, cards, options and events for the terminal:
//! coloured by each card's `color` property when colour is on.

use deckhand_core::{CardDef, DecisionView, Game, SeatView, Visibility, ZoneView};
use std::io::IsTerminal;

/// Whether to colour output: a terminal, and NO_COLOR unset.
pub fn colour_enabled() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stdout().is_terminal()
}

/// Formats cards and tables, with or without colour.
#[derive(Debug, Clone)]
pub struct Painter {
    pub colour: bool,
    cards: Vec<CardDef>,
}

fn ansi(color: &str) -> Option<&'static str> {
    Some(match color {
        "blue" => "\x1b[1;34m",
        "green" => "\x1b[1;32m",
        "red" => "\x1b[1;31m",
        "purple" => "\x1b[1;35m",
        "yellow" => "\x1b[1;33m",
        "orange" => "\x1b[38;5;208m",
        "gray" | "grey" => "\x1b[37m",
        "white" => "\x1b[1;97m",
        "black" => "\x1b[90m",
        "pink" => "\x1b[38;5;213m",
        "teal" => "\x1b[36m",
        "darkred" => "\x1b[38;5;88m",
        "darkblue" => "\x1b[38;5;27m",
        "lightblue" => "\x1b[38;5;117m",
        "lightgreen" => "\x1b[38;5;120m",
        "lightgray" | "lightgrey" => "\x1b[38;5;250m",
        "lightorange" => "\x1b[38;5;215m",
        _ => return None,
    })
}

impl Painter {
    pub fn new(game: &Game, colour: bool) -> Painter {
        Painter {
            colour,
            cards: game.cards().unwrap_or_default(),
        }
    }

    /// A card's name, coloured.
    pub fn card(&self, id: u32) -> String {
        let Some(c) = id.checked_sub(1).and_then(|i| self.cards.get(i as usize)) else {
            return format!("#{id}");
        };
        self.paint(&c.name, c.color())
    }

    /// Text coloured like a card of `color`.
    pub fn paint(&self, text: &str, color: Option<&str>) -> String {
        match (self.colour, color.and_then(ansi)) {
            (true, Some(code)) => format!("{code}{text}\x1b[0m"),
            _ => text.to_string(),
        }
    }

    /// Bold text (headers).
    pub fn bold(&self, text: &str) -> String {
        if self.colour {
            format!("\x1b[1m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    /// Colour every card name that appears in a line of text (option texts, event texts).
    pub fn paint_names(&self, text: &str) -> String {
        if !self.colour {
            return text.to_string();
        }
        let mut out = text.to_string();
        // Longest names first, so "Blue 12" is not coloured as "Blue 1".
        let mut cards: Vec<&CardDef> = self.cards.iter().collect();
        cards.sort_by_key(|c| std::cmp::Reverse(c.name.len()));
        for c in cards {
            if let Some(code) = c.color().and_then(ansi) {
                if let Some(pos) = find_word(&out, &c.name) {
                    out.replace_range(pos..pos + c.name.len(), &format!("{code}{}\x1b[0m", c.name));
                }
            }
        }
        out
    }

    fn cards_line(&self, ids: &[u32]) -> String {
        if ids.is_empty() {
            return "(empty)".into();
        }
        ids.iter()
            .map(|&c| self.card(c))
            .collect::<Vec<_>>()
            .join("  ")
    }

    /// One zone as a line. The cards of a zone only its owner sees (a hand)
    /// are shown sorted by card id: their order is where the deal put them,
    /// which no rule reads, and games define their cards in the order a
    /// sorted hand reads (suit, then value). Public and top zones (a trick,
    /// a discard pile) keep their order, which the rules may read.
    pub fn zone(&self, z: &ZoneView, viewer: Option<u32>) -> String {
        let label = match (z.owner, viewer) {
            (Some(o), Some(v)) if o == v => format!("your {}", z.name),
            (Some(o), _) => format!("{} (seat {o})", z.name),
            (None, _) => z.name.clone(),
        };
        let body = match (&z.cards, z.top) {
            (Some(cards), _) if z.visibility == Visibility::Owner => {
                let mut sorted = cards.clone();
                sorted.sort_unstable();
                self.cards_line(&sorted)
            }
            (Some(cards), _) => self.cards_line(cards),
            (None, Some(top)) => format!("{}, top {}", count(z.count), self.card(top)),
            (None, None) => count(z.count),
        };
        format!("  {label:<18} {body}")
    }

    /// The whole table from a seat's point of view.
    pub fn table(&self, view: &SeatView, title: &str, status: &[String]) -> String {
        let mut lines = vec![self.bold(&format!("── {title} ──"))];
        // Shared zones first, then other seats' zones, then the viewer's own.
        let mine = |z: &&ZoneView| z.owner.is_some() && z.owner == view.seat;
        for z in view.zones.iter().filter(|z| z.owner.is_none()) {
            lines.push(self.zone(z, view.seat));
        }
        for z in view.zones.iter().filter(|z| z.owner.is_some() && !mine(z)) {
            if z.count > 0 {
                lines.push(self.zone(z, view.seat));
            }
        }
        // The viewer's own zones: the first one (the hand, as scripts
        // usually create it first) always, the others when they hold cards.
        for (i, z) in view.zones.iter().filter(mine).enumerate() {
            if i == 0 || z.count > 0 {
                lines.push(self.zone(z, view.seat));
            }
        }
        for s in status {
            lines.push(format!("  {}", self.paint_names(s)));
        }
        lines.join("\n")
    }

    /// The numbered legal options.
    pub fn options(&self, d: &DecisionView) -> String {
        let mut out = format!("{} (seat {}):\n", d.prompt, d.seat);
        let items: Vec<String> = d
            .options
            .iter()
            .map(|o| format!("{:>3}) {}", o.index, self.paint_names(&o.text)))
            .collect();
        out.push_str(&items.join("\n"));
        out
    }
}

/// "1 card", "5 cards".
fn count(n: usize) -> String {
    if n == 1 {
        "1 card".to_string()
    } else {
        format!("{n} cards")
    }
}

fn find_word(hay: &str, needle: &str) -> Option<usize> {
    let mut start = 0;
    while let Some(i) = hay[start..].find(needle) {
        let pos = start + i;
        let end = pos + needle.len();
        let before_ok = pos == 0
            || !hay.as_bytes()[pos - 1].is_ascii_alphanumeric() && hay.as_bytes()[pos - 1] != b'[';
        let after_ok = end == hay.len() || !hay.as_bytes()[end].is_ascii_alphanumeric();
        if before_ok && after_ok {
            return Some(pos);
        }
        start = end;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_read_well() {
        assert_eq!(count(0), "0 cards");
        assert_eq!(count(1), "1 card");
        assert_eq!(count(7), "7 cards");
    }

    fn zone_view(visibility: Visibility, cards: Vec<u32>) -> ZoneView {
        ZoneView {
            name: "hand".into(),
            owner: Some(1),
            visibility,
            count: cards.len(),
            cards: Some(cards),
            top: None,
        }
    }

    #[test]
    fn an_owner_only_zone_is_shown_sorted_by_card_id_a_public_one_in_its_order() {
        let p = Painter {
            colour: false,
            cards: Vec::new(),
        };
        let hand = zone_view(Visibility::Owner, vec![12, 3, 40, 7]);
        assert_eq!(
            p.zone(&hand, Some(1)),
            format!("  {:<18} #3  #7  #12  #40", "your hand")
        );
        assert_eq!(
            p.zone(&hand, None),
            format!("  {:<18} #3  #7  #12  #40", "hand (seat 1)")
        );
        // The view itself is not reordered.
        assert_eq!(hand.cards, Some(vec![12, 3, 40, 7]));
        let trick = ZoneView {
            owner: None,
            name: "trick".into(),
            ..zone_view(Visibility::Public, vec![12, 3, 40])
        };
        assert_eq!(
            p.zone(&trick, Some(1)),
            format!("  {:<18} #12  #3  #40", "trick")
        );
    }

    #[test]
    fn whole_words_only() {
        assert_eq!(find_word("Blue 12 and Blue 1", "Blue 1"), Some(12));
        assert_eq!(find_word("Blue 12", "Blue 1"), None);
    }
}
