//! Text rendering of tables, cards, options and events for the terminal:
//! coloured by each card's `color` property when colour is on.

use deckhand_engine::{CardDef, DecisionView, Game, SeatView, Visibility, ZoneView};
use std::io::IsTerminal;

/// Whether to colour output: a terminal, and NO_COLOR unset.
pub fn colour_enabled() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stdout().is_terminal()
}

/// The width to wrap output to: `COLUMNS` when it is a number, else the
/// terminal's width when stdout is a terminal, else 80.
pub fn terminal_width() -> usize {
    if let Some(n) = std::env::var("COLUMNS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
    {
        return n;
    }
    if std::io::stdout().is_terminal() {
        if let Some(n) = tty_columns() {
            return n;
        }
    }
    80
}

#[cfg(unix)]
fn tty_columns() -> Option<usize> {
    use std::os::fd::AsRawFd;
    let mut size: libc::winsize = unsafe { std::mem::zeroed() };
    // SAFETY: TIOCGWINSZ writes a `winsize` into the pointer given, which
    // points at one.
    let rc = unsafe { libc::ioctl(std::io::stdout().as_raw_fd(), libc::TIOCGWINSZ, &mut size) };
    (rc == 0 && size.ws_col > 0).then_some(size.ws_col as usize)
}

#[cfg(not(unix))]
fn tty_columns() -> Option<usize> {
    None
}

/// `text` without its colour escapes (CSI: ESC [ parameters final-byte).
pub fn strip_escapes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// How many columns `text` takes on a terminal: its characters, less
/// colour escapes.
pub fn visible_len(text: &str) -> usize {
    strip_escapes(text).chars().count()
}

/// Wrap text to `width` columns between words; a line that fits is kept as
/// it is. A word is never split, and a number stays with the word before
/// it (`Red 16`, `seat 2`). Continuation lines are indented to where the
/// line's body starts (after a label padded with spaces, as in `your hand
/// ...` or an option's name), else two columns past the line's own
/// indent.
pub fn wrap(text: &str, width: usize) -> String {
    text.split('\n')
        .map(|line| wrap_line(line, width))
        .collect::<Vec<_>>()
        .join("\n")
}

fn wrap_line(line: &str, width: usize) -> String {
    if visible_len(line) <= width {
        return line.to_string();
    }
    let lead = line.len() - line.trim_start_matches(' ').len();
    // Words with the spaces before each.
    let mut words: Vec<(&str, &str)> = Vec::new();
    let mut rest = &line[lead..];
    let mut sep = "";
    while !rest.is_empty() {
        let end = rest.find(' ').unwrap_or(rest.len());
        words.push((sep, &rest[..end]));
        let after = &rest[end..];
        let next = after.len() - after.trim_start_matches(' ').len();
        sep = &after[..next];
        rest = &after[next..];
    }
    // The hanging indent: the end of the first run of two or more spaces
    // (a padded label), when it is in the first half of the line.
    let mut col = lead;
    let mut indent = (lead + 2).min(width / 2);
    for (i, (s, w)) in words.iter().enumerate() {
        col += s.len();
        if i > 0 && s.len() >= 2 {
            if col <= width / 2 {
                indent = col;
            }
            break;
        }
        col += visible_len(w);
    }
    // Join a number to the word before it ("Red 5", "seat 12"); but a
    // number that starts an item of a list (after "," or ":", or first) is
    // the item's own and joins the word after it ("1 Red 5, 2 Red 6").
    let mut units: Vec<(&str, String)> = Vec::new();
    let mut numbered = false;
    for (s, w) in words {
        let number = w.starts_with(|c: char| c.is_ascii_digit());
        let after_item = units
            .last()
            .is_none_or(|(_, last)| last.ends_with([',', ':', ';']));
        let glue = s == " " && !units.is_empty() && ((number && !after_item) || numbered);
        numbered = s == " " && number && after_item && w.chars().all(|c| c.is_ascii_digit());
        match units.last_mut() {
            Some(last) if glue => {
                last.1.push(' ');
                last.1.push_str(w);
            }
            _ => units.push((s, w.to_string())),
        }
    }
    let mut lines = Vec::new();
    let mut cur = " ".repeat(lead);
    let mut cur_len = lead;
    let mut fresh = true;
    for (s, w) in units {
        let wl = visible_len(&w);
        if !fresh && cur_len + s.len() + wl > width {
            lines.push(std::mem::replace(&mut cur, " ".repeat(indent)));
            cur_len = indent;
            fresh = true;
        }
        if !fresh {
            cur.push_str(s);
            cur_len += s.len();
        }
        cur.push_str(&w);
        cur_len += wl;
        fresh = false;
    }
    lines.push(cur);
    lines.join("\n")
}

/// Formats cards and tables, with or without colour.
#[derive(Debug, Clone)]
pub struct Painter {
    pub colour: bool,
    cards: Vec<CardDef>,
    /// The width lines of cards are wrapped to.
    pub width: usize,
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
            width: terminal_width(),
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

    /// Cards separated by two spaces, wrapped between cards to the
    /// painter's width: `indent` is the column the first card starts at,
    /// and continuation lines start there too.
    fn cards_line(&self, ids: &[u32], indent: usize) -> String {
        if ids.is_empty() {
            return "(empty)".into();
        }
        let mut out = String::new();
        let mut col = indent;
        for (i, &c) in ids.iter().enumerate() {
            let name = self.card(c);
            let len = visible_len(&name);
            if i > 0 {
                if col + 2 + len > self.width {
                    out.push('\n');
                    out.push_str(&" ".repeat(indent));
                    col = indent;
                } else {
                    out.push_str("  ");
                    col += 2;
                }
            }
            out.push_str(&name);
            col += len;
        }
        out
    }

    /// One zone as a line, its label padded to 18 columns.
    #[cfg(test)]
    fn zone(&self, z: &ZoneView, viewer: Option<u32>) -> String {
        self.zone_padded(z, viewer, 18)
    }

    /// A zone's label: `your hand`, `hand (seat 2)`, `deck`.
    fn label(z: &ZoneView, viewer: Option<u32>) -> String {
        match (z.owner, viewer) {
            (Some(o), Some(v)) if o == v => format!("your {}", z.name),
            (Some(o), _) => format!("{} (seat {o})", z.name),
            (None, _) => z.name.clone(),
        }
    }

    /// One zone as a line, its label padded to `pad` columns (the longest
    /// label of a table, so that the cards of every zone line up). The
    /// cards of a zone only its owner sees (a hand) are shown sorted by card
    /// id: their order is where the deal put them, which no rule reads, and
    /// games define their cards in the order a sorted hand reads (suit, then
    /// value). Public and top zones (a trick, a discard pile) keep their
    /// order, which the rules may read.
    fn zone_padded(&self, z: &ZoneView, viewer: Option<u32>, pad: usize) -> String {
        let label = Self::label(z, viewer);
        // The body starts after two spaces and the padded label.
        let pad = pad.max(label.chars().count());
        let indent = 2 + pad + 1;
        let body = match (&z.cards, z.top) {
            (Some(cards), _) if z.visibility == Visibility::Owner => {
                let mut sorted = cards.clone();
                sorted.sort_unstable();
                self.cards_line(&sorted, indent)
            }
            (Some(cards), _) => self.cards_line(cards, indent),
            (None, Some(top)) => format!("{}, top {}", count(z.count), self.card(top)),
            (None, None) => count(z.count),
        };
        format!("  {label:<pad$} {body}")
    }

    /// The whole table from a seat's point of view.
    pub fn table(&self, view: &SeatView, title: &str, status: &[String]) -> String {
        let mut lines = vec![self.bold(&format!("── {title} ──"))];
        // Shared zones first, then other seats' zones, then the viewer's own.
        let mine = |z: &&ZoneView| z.owner.is_some() && z.owner == view.seat;
        // A face-down pile with no card in it shows nothing (the deck of a
        // game that deals every card): it is left out.
        let mut shown: Vec<&ZoneView> = view
            .zones
            .iter()
            .filter(|z| z.owner.is_none())
            .filter(|z| !(z.count == 0 && z.visibility == Visibility::Hidden))
            .collect();
        shown.extend(
            view.zones
                .iter()
                .filter(|z| z.owner.is_some() && !mine(z) && z.count > 0),
        );
        // The viewer's own zones: the first one (the hand, as scripts
        // usually create it first) always, the others when they hold cards.
        shown.extend(
            view.zones
                .iter()
                .filter(mine)
                .enumerate()
                .filter(|(i, z)| *i == 0 || z.count > 0)
                .map(|(_, z)| z),
        );
        // Every zone's cards start in the same column.
        let pad = shown
            .iter()
            .map(|z| Self::label(z, view.seat).chars().count())
            .max()
            .unwrap_or(0)
            .max(18);
        for z in shown {
            lines.push(self.zone_padded(z, view.seat, pad));
        }
        for s in status {
            lines.push(format!("  {}", self.paint_names(s)));
        }
        lines.join("\n")
    }

    /// The numbered legal options.
    /// `notes` are lines shown under an option, by option index (the
    /// cards of an option that asks for a set of them).
    pub fn options(&self, d: &DecisionView, notes: &[(usize, String)]) -> String {
        let mut out = format!("{} (seat {}):\n", d.prompt, d.seat);
        let items: Vec<String> = d
            .options
            .iter()
            .map(|o| {
                let mut line = format!("{:>3}) {}", o.index, self.paint_names(&o.text));
                for (_, note) in notes.iter().filter(|(i, _)| *i == o.index) {
                    line.push_str(&format!("\n     {}", self.paint_names(note)));
                }
                line
            })
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
            width: 80,
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

    fn red_cards() -> Painter {
        Painter {
            colour: true,
            cards: (1..=20)
                .map(|v| CardDef {
                    id: v,
                    name: format!("Red {v}"),
                    props: [("color".to_string(), serde_json::json!("red"))]
                        .into_iter()
                        .collect(),
                })
                .collect(),
            width: 60,
        }
    }

    #[test]
    fn a_hand_wraps_between_cards_to_the_width_with_its_cards_aligned() {
        let p = red_cards();
        let hand = zone_view(Visibility::Owner, (5..=20).collect());
        let text = p.zone(&hand, Some(1));
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.len() > 1, "{text}");
        for l in &lines {
            assert!(visible_len(l) <= 60, "{l:?} is wider than 60");
            // No line starts with a bare number: a card is never split.
            let plain = strip_escapes(l);
            assert!(
                !plain.trim_start().starts_with(|c: char| c.is_ascii_digit()),
                "{plain}"
            );
        }
        for l in &lines[1..] {
            assert_eq!(strip_escapes(l).find("Red"), Some(21), "{l:?}");
        }
        let joined: Vec<String> = lines
            .iter()
            .map(|l| strip_escapes(l).trim().to_string())
            .collect();
        assert!(joined.join("  ").ends_with("Red 19  Red 20"));
    }

    #[test]
    fn a_table_lines_up_the_cards_of_zones_with_long_labels() {
        let p = red_cards();
        let mut offer = zone_view(Visibility::Owner, vec![3]);
        offer.name = "captain choice".into();
        offer.owner = Some(2);
        let view = SeatView {
            seat: Some(1),
            zones: vec![offer, zone_view(Visibility::Owner, vec![1, 2])],
            vars: serde_json::json!({}),
            teams: None,
            to_move: None,
        };
        let text = strip_escapes(&p.table(&view, "t", &[]));
        let cols: Vec<usize> = text
            .lines()
            .skip(1)
            .map(|l| l.find("Red").expect(l))
            .collect();
        assert_eq!(cols, vec![26, 26], "{text}");
    }

    #[test]
    fn long_lines_wrap_between_words_and_keep_numbers_with_their_word() {
        let line = format!("  {:<22} default 10  {}", "target_vp", "points ".repeat(20));
        let text = wrap(&line, 60);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.len() > 2, "{text}");
        for l in &lines {
            assert!(l.len() <= 60, "{l:?}");
        }
        // Continuation lines line up with the body after the padded name.
        for l in &lines[1..] {
            assert_eq!(l.len() - l.trim_start().len(), 25, "{l:?}");
        }
        assert_eq!(wrap("short line", 60), "short line");
        let seats = wrap(&format!("{} seat 12 plays", "x".repeat(55)), 60);
        assert!(seats.ends_with("\n  seat 12 plays"), "{seats:?}");
    }

    #[test]
    fn a_numbered_list_wraps_between_items_never_inside_one() {
        let line = "choose 3 of: 1 Orange 2, 2 Orange 5, 3 Blue 7, 4 Dark Red 71, 5 Green 12, \
                    6 Yellow 9, 7 Purple 4, 8 Orange 11";
        for width in 20..60 {
            let text = wrap(line, width);
            for l in text.lines() {
                // No line ends with an item's number, cut from its name.
                let words: Vec<&str> = l.split_whitespace().collect();
                let Some(last) = words.last() else { continue };
                if last.chars().all(|c| c.is_ascii_digit()) {
                    let before = words.len().checked_sub(2).map(|i| words[i]);
                    assert!(
                        before.is_some_and(|b| !b.ends_with([',', ':'])),
                        "{width}: {text}"
                    );
                }
            }
        }
    }

    #[test]
    fn whole_words_only() {
        assert_eq!(find_word("Blue 12 and Blue 1", "Blue 1"), Some(12));
        assert_eq!(find_word("Blue 12", "Blue 1"), None);
    }
}
