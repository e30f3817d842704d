//! The trace: a compact JSON Lines record of whole games that other tools
//! can check without deckhand. Format documented in docs/trace.md.
//!
//! One `start` line per game (its configuration, every card definition and
//! zone, what setup did), one line per decision (who chose, what kind of
//! decision, the options, the choice, and what applying it did), one `end`
//! line. Cards and zones are written by number; a [`TraceLevel`] says how
//! much of each step is written.

use crate::card::CardDef;
use crate::choice::Choice;
use crate::error::{CoreError, Result};
use crate::event::{Event, EventKind, MoveHow};
use crate::game::{Game, GameResult};
use crate::lua::json_text::{self, JsonTextError};
use crate::runner::Observer;
use crate::table::Table;
use crate::zone::{Seat, ZoneId};
use serde_json::{json, Value};
use std::io::Write;

/// Version of the trace format (the `format` field of start records).
/// Version 4 is the compact format: cards and zones by number, one line per
/// decision (versions 1 to 3 wrote one line per card move).
pub const TRACE_FORMAT: u32 = 4;

/// How much of each game a trace holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum TraceLevel {
    /// The rules' events (tricks won, scores ...) and each game's result.
    Events,
    /// The events and every decision: who chose, its kind, the option
    /// chosen.
    Decisions,
    /// Everything: every option offered, every card placed, moved, drawn,
    /// dealt, every shuffle with the new order, every sort. Enough to check
    /// every rule from the trace alone.
    #[default]
    Full,
}

impl TraceLevel {
    /// Every level, least first.
    pub const ALL: [TraceLevel; 3] = [TraceLevel::Events, TraceLevel::Decisions, TraceLevel::Full];

    /// The level's name, as given to `--trace-level` and written in traces.
    pub fn name(self) -> &'static str {
        match self {
            TraceLevel::Events => "events",
            TraceLevel::Decisions => "decisions",
            TraceLevel::Full => "full",
        }
    }

    /// The level named `s`.
    pub fn parse(s: &str) -> Option<TraceLevel> {
        Self::ALL.into_iter().find(|l| l.name() == s)
    }
}

/// The decision being applied, held until its effects are known.
struct Pending {
    step: usize,
    seat: Seat,
    kind: String,
    chosen: usize,
    /// For a choice of cards, the positions of the cards chosen (`"pk"`).
    picks: Option<Vec<usize>>,
    /// In a reaction window, its kind (`"w"`).
    window: Option<String>,
    /// Every option's value, written (full level): `,"oc":[...]` or
    /// `,"o":[...]`; the value of the one chosen (decisions level):
    /// `,"a":...`.
    options: Option<Vec<u8>>,
}

/// Writes trace records to any writer, one JSON object per line.
pub struct TraceWriter<W: Write> {
    out: W,
    level: TraceLevel,
    /// How many cards and zones of the game being written its records
    /// have defined so far (a game may make more after setup).
    cards: usize,
    zones: usize,
    pending: Option<Pending>,
    /// The kind of the game's last decision written (a line leaves its
    /// kind out when it is the same).
    last_kind: Option<String>,
    /// The seat whose trace this is (`None`: the observer's, everything).
    viewer: Option<Seat>,
}

/// Whether `seat` sees every card of zone `z` (its visibility does not
/// change during a game, so it may be asked after the step).
fn sees_all(t: &Table, z: ZoneId, seat: Seat) -> bool {
    t.zone(z)
        .is_ok_and(|z| z.sight(Some(seat)) == crate::zone::Sight::All)
}

/// Card definitions as a table: the names of their properties (`name`
/// among them), sorted, and one row of values per card, in id order
/// (`null`: the card has no such property).
fn cards_table(defs: &[CardDef]) -> (Vec<&str>, Vec<Vec<&Value>>) {
    let mut props: Vec<&str> = defs
        .iter()
        .flat_map(|c| c.props.keys().map(String::as_str))
        .chain(std::iter::once("name"))
        .collect();
    props.sort_unstable();
    props.dedup();
    let rows = defs
        .iter()
        .map(|c| {
            props
                .iter()
                .map(|&p| c.props.get(p).unwrap_or(&Value::Null))
                .collect()
        })
        .collect();
    (props, rows)
}

/// Write card definitions as `"card_props":[...],"cards":[[...],...]`.
fn write_cards(out: &mut impl Write, defs: &[CardDef]) -> Result<()> {
    let (props, rows) = cards_table(defs);
    out.write_all(b"\"card_props\":")?;
    serde_json::to_writer(&mut *out, &props)?;
    out.write_all(b",\"cards\":")?;
    serde_json::to_writer(&mut *out, &rows)?;
    Ok(())
}

/// One run of events written as one effect: consecutive events of the same
/// kind between the same zones.
#[derive(PartialEq)]
enum Run {
    Place(ZoneId),
    Move(&'static str, ZoneId, ZoneId),
    Deal(ZoneId),
}

fn run_of(kind: &EventKind) -> Option<Run> {
    match kind {
        EventKind::Place { to, .. } => Some(Run::Place(*to)),
        EventKind::Move {
            from, how, bottom, ..
        } if *how == MoveHow::Deal && !*bottom => Some(Run::Deal(*from)),
        EventKind::Move {
            from,
            to,
            how,
            bottom,
            ..
        } => {
            let code = if *bottom { "under" } else { how.name() };
            Some(Run::Move(code, *from, *to))
        }
        _ => None,
    }
}

/// The shortest prefix `p` of `to` with `to[i] == p[i % p.len()]` for all
/// i: `to`'s length less its longest border (a prefix that is also a
/// suffix), found in linear time (the prefix function of Knuth, Morris and
/// Pratt), whatever a script deals.
fn period(to: &[ZoneId]) -> &[ZoneId] {
    let n = to.len();
    if n == 0 {
        return to;
    }
    // border[i]: the length of the longest border of to[..=i].
    let mut border = vec![0usize; n];
    for i in 1..n {
        let mut k = border[i - 1];
        while k > 0 && to[i] != to[k] {
            k = border[k - 1];
        }
        if to[i] == to[k] {
            k += 1;
        }
        border[i] = k;
    }
    &to[..n - border[n - 1]]
}

/// Write the whole number `n` (a trace writes many: without the
/// formatting machinery of `write!`).
fn num(out: &mut impl Write, n: impl itoa::Integer) -> std::io::Result<()> {
    out.write_all(itoa::Buffer::new().format(n).as_bytes())
}

/// Write `text`, then the whole number `n`.
fn text_num(out: &mut impl Write, text: &[u8], n: impl itoa::Integer) -> std::io::Result<()> {
    out.write_all(text)?;
    num(out, n)
}

/// Write `ids` as a JSON array of numbers.
fn write_ids(out: &mut impl Write, ids: impl IntoIterator<Item = u32>) -> std::io::Result<()> {
    out.write_all(b"[")?;
    for (i, id) in ids.into_iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        num(out, id)?;
    }
    out.write_all(b"]")
}

/// Write an event's data without its words (`text`): a trace records facts.
fn write_data(out: &mut impl Write, data: &Value) -> Result<()> {
    let Value::Object(map) = data else {
        serde_json::to_writer(&mut *out, data)?;
        return Ok(());
    };
    out.write_all(b"{")?;
    let mut first = true;
    for (k, v) in map.iter().filter(|(k, _)| k.as_str() != "text") {
        if !first {
            out.write_all(b",")?;
        }
        first = false;
        serde_json::to_writer(&mut *out, k)?;
        out.write_all(b":")?;
        serde_json::to_writer(&mut *out, v)?;
    }
    out.write_all(b"}")?;
    Ok(())
}

impl<W: Write> TraceWriter<W> {
    /// A writer of full traces.
    pub fn new(out: W) -> Self {
        Self::with_level(out, TraceLevel::Full)
    }

    /// A writer of traces at `level`.
    pub fn with_level(out: W, level: TraceLevel) -> Self {
        TraceWriter {
            out,
            level,
            cards: 0,
            zones: 0,
            pending: None,
            last_kind: None,
            viewer: None,
        }
    }

    /// Make `game` ready to be traced (call before it is played): the
    /// trace writes the options itself, so the game need not keep the value
    /// of each one chosen in its log (it keeps their indexes).
    pub fn prepare(&self, game: &mut Game) {
        game.keep_action_values(false);
    }

    /// The trace of what `seat` may know, instead of everything: a card
    /// that moves where the seat sees neither zone whole is written as 0,
    /// a shuffle of a zone it does not see whole has no order, an event
    /// told to another seat is left out, and the decisions of the other
    /// seats have neither options nor choice (their kind and seat only).
    /// The start record says `"seat"`.
    pub fn for_seat(mut self, seat: Seat) -> Self {
        self.viewer = Some(seat);
        self
    }

    /// The level written.
    pub fn level(&self) -> TraceLevel {
        self.level
    }

    fn line(&mut self, v: &Value) -> Result<()> {
        serde_json::to_writer(&mut self.out, v)?;
        self.out.write_all(b"\n")?;
        Ok(())
    }

    /// The start record of game number `index` (call right after setup),
    /// with what setup did (`events`).
    pub fn start(&mut self, game: &Game, index: u64, events: &[Event]) -> Result<()> {
        game.ensure_cards()?;
        self.pending = None;
        self.last_kind = None;
        let c = game.config();
        let (teams, zones) = game.with_table(|t| {
            let zones: Vec<Value> = t
                .zones
                .iter()
                .map(|z| json!([z.name, z.owner, z.visibility.name()]))
                .collect();
            (t.teams.clone(), zones)
        })?;
        self.zones = zones.len();
        let mut start = json!({
            "type": "start", "format": TRACE_FORMAT, "level": self.level.name(), "game": index,
            "id": c.game, "variants": c.variants, "options": game.options(),
            "players": c.players, "seed": c.seed, "teams": teams, "zones": zones,
        });
        // The text of the house-rule files played, when there are any.
        if !c.sources.is_empty() {
            start["sources"] = json!(c.sources);
        }
        if let Some(seat) = self.viewer {
            start["seat"] = json!(seat);
        }
        // Written by hand up to the effects, which follow the other keys.
        let head = serde_json::to_string(&start)?;
        let head = head.strip_suffix('}').unwrap_or(&head);
        self.out.write_all(head.as_bytes())?;
        self.out.write_all(b",")?;
        self.cards = game.with_table(|t| -> Result<usize> {
            write_cards(&mut self.out, &t.cards)?;
            Ok(t.cards.len())
        })??;
        self.out.write_all(b",\"e\":")?;
        game.with_table(|t| self.write_effects(t, events))??;
        self.out.write_all(b"}\n")?;
        Ok(())
    }

    /// Note the decision about to be applied: `chosen` (1-based) of the
    /// pending decision (call before applying it; the line is written by
    /// [`TraceWriter::step`]).
    /// A choice of cards adds its picks (`"pk"`), a reaction window its
    /// kind (`"w"`).
    pub fn decision(&mut self, game: &Game, choice: &Choice) -> Result<()> {
        let chosen = choice.index;
        let Some((seat, _)) = game.pending() else {
            return Ok(());
        };
        let kind = game.decision_kind()?.unwrap_or_default();
        // Another seat's options and choice are its own (they show its hand).
        let hidden = self.viewer.is_some_and(|v| v != seat);
        let options = match self.level {
            _ if hidden => None,
            TraceLevel::Full => {
                let mut text = Vec::with_capacity(64);
                match game.option_cards()? {
                    Some(cards) => write_cards_options(&mut text, &cards)?,
                    None => write_options(&mut text, &game.option_lua_values()?)?,
                }
                Some(text)
            }
            TraceLevel::Decisions => {
                let mut text = b",\"a\":".to_vec();
                write_value(&mut text, &game.chosen_lua_value(choice)?)?;
                Some(text)
            }
            TraceLevel::Events => None,
        };
        self.pending = Some(Pending {
            step: game.history().len() + 1,
            seat,
            kind,
            chosen: if hidden { 0 } else { chosen },
            picks: if hidden { None } else { choice.picks.clone() },
            window: game.window()?,
            options,
        });
        Ok(())
    }

    /// The line of the decision just applied, with what it did (`events`).
    /// At the events level, a line only when the rules recorded events.
    pub fn step(&mut self, game: &Game, events: &[Event]) -> Result<()> {
        let Some(p) = self.pending.take() else {
            return Err(CoreError::Invalid(
                "trace: a step without its decision".into(),
            ));
        };
        let out = &mut self.out;
        if self.level == TraceLevel::Events {
            if !events
                .iter()
                .any(|e| matches!(e.kind, EventKind::Script { .. }))
            {
                return Ok(());
            }
            text_num(out, b"{\"s\":", p.step)?;
            text_num(out, b",\"p\":", p.seat)?;
        } else {
            text_num(out, b"{\"s\":", p.step)?;
            text_num(out, b",\"p\":", p.seat)?;
            if self.last_kind.as_deref() != Some(p.kind.as_str()) {
                out.write_all(b",\"k\":")?;
                serde_json::to_writer(&mut *out, &p.kind)?;
                self.last_kind = Some(p.kind.clone());
            }
            if p.chosen > 0 {
                text_num(out, b",\"c\":", p.chosen)?;
            }
            write_choice_extras(out, &p)?;
            if let Some(options) = &p.options {
                out.write_all(options)?;
            }
        }
        self.out.write_all(b",\"e\":")?;
        game.with_table(|t| self.write_effects(t, events))??;
        self.out.write_all(b"}\n")?;
        Ok(())
    }

    /// The line of a decision whose step failed (noted by
    /// [`TraceWriter::decision`], never applied): `"failed":true` and no
    /// effects. Nothing when no decision is pending.
    pub fn failed(&mut self) -> Result<()> {
        let Some(p) = self.pending.take() else {
            return Ok(());
        };
        let out = &mut self.out;
        text_num(out, b"{\"s\":", p.step)?;
        text_num(out, b",\"p\":", p.seat)?;
        out.write_all(b",\"k\":")?;
        serde_json::to_writer(&mut *out, &p.kind)?;
        if p.chosen > 0 {
            text_num(out, b",\"c\":", p.chosen)?;
        }
        write_choice_extras(out, &p)?;
        if let Some(options) = &p.options {
            out.write_all(options)?;
        }
        out.write_all(b",\"failed\":true}\n")?;
        Ok(())
    }

    /// The effects of one step, as a JSON array (no newline): what the
    /// level keeps of `events`, and the cards and zones made since the
    /// last line.
    pub fn write_effects(&mut self, t: &Table, events: &[Event]) -> Result<()> {
        let out = &mut self.out;
        out.write_all(b"[")?;
        let mut first = true;
        let mut sep = |out: &mut W| -> std::io::Result<()> {
            if !first {
                out.write_all(b",")?;
            }
            first = false;
            Ok(())
        };
        if t.cards.len() > self.cards {
            sep(out)?;
            // ["cards", props, rows]: the cards made since, ids following on.
            let (props, rows) = cards_table(&t.cards[self.cards..]);
            out.write_all(b"[\"cards\",")?;
            serde_json::to_writer(&mut *out, &props)?;
            out.write_all(b",")?;
            serde_json::to_writer(&mut *out, &rows)?;
            out.write_all(b"]")?;
            self.cards = t.cards.len();
        }
        if t.zones.len() > self.zones {
            sep(out)?;
            out.write_all(b"[\"zones\",")?;
            let new: Vec<Value> = t.zones[self.zones..]
                .iter()
                .map(|z| json!([z.name, z.owner, z.visibility.name()]))
                .collect();
            serde_json::to_writer(&mut *out, &new)?;
            out.write_all(b"]")?;
            self.zones = t.zones.len();
        }
        let full = self.level == TraceLevel::Full;
        let viewer = self.viewer;
        let mut i = 0;
        while i < events.len() {
            let kind = &events[i].kind;
            if let EventKind::Script { name, data, to } = kind {
                if viewer.is_some() && to.is_some() && *to != viewer {
                    i += 1;
                    continue;
                }
                sep(out)?;
                out.write_all(b"[\"event\",")?;
                serde_json::to_writer(&mut *out, name)?;
                out.write_all(b",")?;
                write_data(out, data)?;
                if let Some(to) = to {
                    text_num(out, b",", *to)?;
                }
                out.write_all(b"]")?;
                i += 1;
                continue;
            }
            if !full {
                i += 1;
                continue;
            }
            match kind {
                EventKind::Shuffle { zone, order } => {
                    sep(out)?;
                    if viewer.is_some_and(|v| !sees_all(t, *zone, v)) {
                        text_num(out, b"[\"shuffle\",", *zone)?;
                        out.write_all(b"]")?;
                    } else {
                        text_num(out, b"[\"shuffle\",", *zone)?;
                        out.write_all(b",")?;
                        write_ids(out, order.iter().copied())?;
                        out.write_all(b"]")?;
                    }
                    i += 1;
                }
                EventKind::Sort { zone } => {
                    sep(out)?;
                    text_num(out, b"[\"sort\",", *zone)?;
                    out.write_all(b"]")?;
                    i += 1;
                }
                _ => {
                    // A run of places or moves of the same kind between
                    // the same zones: one effect listing their cards.
                    let Some(run) = run_of(kind) else {
                        i += 1;
                        continue;
                    };
                    let len = events[i..]
                        .iter()
                        .take_while(|e| run_of(&e.kind).as_ref() == Some(&run))
                        .count()
                        .max(1);
                    let group = &events[i..i + len];
                    // For a seat: 0 for a card it sees neither leave nor land.
                    let shown = |from: Option<ZoneId>, to: ZoneId, card: u32| match viewer {
                        Some(v)
                            if !from.is_some_and(|f| sees_all(t, f, v)) && !sees_all(t, to, v) =>
                        {
                            0
                        }
                        _ => card,
                    };
                    let cards = group.iter().filter_map(|e| match e.kind {
                        EventKind::Place { card, to } => Some(shown(None, to, card)),
                        EventKind::Move { card, from, to, .. } => Some(shown(Some(from), to, card)),
                        _ => None,
                    });
                    sep(out)?;
                    match run {
                        Run::Place(to) => {
                            text_num(out, b"[\"place\",", to)?;
                            out.write_all(b",")?;
                        }
                        // A whole zone moved: its cards follow from the
                        // zone, they are not listed.
                        Run::Move("all", from, to) => {
                            text_num(out, b"[\"all\",", from)?;
                            text_num(out, b",", to)?;
                            out.write_all(b"]")?;
                            i += len;
                            continue;
                        }
                        Run::Move(code, from, to) => {
                            out.write_all(b"[\"")?;
                            out.write_all(code.as_bytes())?;
                            text_num(out, b"\",", from)?;
                            text_num(out, b",", to)?;
                            out.write_all(b",")?;
                        }
                        Run::Deal(from) => {
                            let to: Vec<ZoneId> = group
                                .iter()
                                .filter_map(|e| match e.kind {
                                    EventKind::Move { to, .. } => Some(to),
                                    _ => None,
                                })
                                .collect();
                            text_num(out, b"[\"deal\",", from)?;
                            out.write_all(b",")?;
                            write_ids(out, period(&to).iter().copied())?;
                            out.write_all(b",")?;
                        }
                    }
                    write_ids(out, cards)?;
                    out.write_all(b"]")?;
                    i += len;
                }
            }
        }
        out.write_all(b"]")?;
        Ok(())
    }

    /// The effects [`TraceWriter::step`] writes for `events`, as JSON
    /// (without the cards and zones made before).
    pub fn effects(&mut self, t: &Table, events: &[Event]) -> Result<Value>
    where
        W: AsRef<[u8]>,
    {
        self.cards = t.cards.len();
        self.zones = t.zones.len();
        let from = self.out.as_ref().len();
        self.write_effects(t, events)?;
        Ok(serde_json::from_slice(&self.out.as_ref()[from..])?)
    }

    /// The end record with the rules' result.
    pub fn end(&mut self, game: &Game, index: u64) -> Result<()> {
        let r = game.result()?;
        self.end_with(game, index, &r)
    }

    /// The end record of a game whose result is already known.
    fn end_with(&mut self, game: &Game, index: u64, r: &GameResult) -> Result<()> {
        self.line(&json!({
            "type": "end", "game": index, "steps": game.history().len(),
            "scores": r.scores, "winners": r.winners, "rounds": r.rounds,
        }))
    }

    /// The trace of game number `index` as an [`Observer`] of a
    /// [`Runner`](crate::Runner): its start record with the setup, then a
    /// line for each decision, then its end record.
    pub fn game(&mut self, index: u64) -> GameTrace<'_, W> {
        GameTrace {
            writer: self,
            index,
        }
    }

    /// The underlying writer.
    pub fn into_inner(self) -> W {
        self.out
    }

    /// The underlying writer, to hand over what has been written.
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.out
    }

    /// Flush the writer.
    pub fn flush(&mut self) -> Result<()> {
        self.out.flush()?;
        Ok(())
    }
}

/// The options of a decision whose every option is exactly `{card = N}`:
/// `oc`, their cards.
fn write_cards_options(out: &mut Vec<u8>, cards: &[i64]) -> Result<()> {
    out.extend_from_slice(b",\"oc\":[");
    for (i, c) in cards.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        num(out, *c)?;
    }
    out.push(b']');
    Ok(())
}

/// The options of any other decision: `o`, their values.
fn write_options(out: &mut Vec<u8>, options: &[mlua::Value]) -> Result<()> {
    out.extend_from_slice(b",\"o\":[");
    for (i, o) in options.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_value(out, o)?;
    }
    out.push(b']');
    Ok(())
}

/// An option's value as JSON.
/// The picks of a choice of cards (`,"pk":[...]`) and the kind of a
/// reaction window (`,"w":"..."`), when the decision has them.
fn write_choice_extras(out: &mut impl Write, p: &Pending) -> Result<()> {
    if let Some(picks) = &p.picks {
        write!(out, ",\"pk\":{}", json!(picks))?;
    }
    if let Some(w) = &p.window {
        write!(out, ",\"w\":{}", json!(w))?;
    }
    Ok(())
}

fn write_value(out: &mut Vec<u8>, v: &mlua::Value) -> Result<()> {
    json_text::write_json(out, v).map_err(|e| match e {
        JsonTextError::Io(e) => CoreError::Io(e),
        JsonTextError::Lua(e) => CoreError::from(e),
        JsonTextError::Unsupported(why) => {
            CoreError::Script(format!("an option is not plain data: {why}"))
        }
    })
}

/// One game's trace, written as the game is played (see
/// [`TraceWriter::game`]). Dropped with a decision noted but never applied
/// (its step failed, the game stopped there), it writes that decision's
/// line, marked failed.
pub struct GameTrace<'w, W: Write> {
    writer: &'w mut TraceWriter<W>,
    index: u64,
}

impl<W: Write> Drop for GameTrace<'_, W> {
    fn drop(&mut self) {
        // A failure to write is the writer's next error: nothing to report to here.
        let _ = self.writer.failed();
    }
}

impl<W: Write> Observer for GameTrace<'_, W> {
    fn game_start(&mut self, game: &Game, events: &[Event]) -> Result<()> {
        self.writer.start(game, self.index, events)
    }

    fn decision(&mut self, game: &Game, _: Seat, choice: &Choice) -> Result<()> {
        self.writer.decision(game, choice)
    }

    fn step(&mut self, game: &Game, _: Seat, _: &Choice, events: &[Event]) -> Result<()> {
        self.writer.step(game, events)
    }

    fn game_end(&mut self, game: &Game, result: &GameResult) -> Result<()> {
        self.writer.end_with(game, self.index, result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deal_is_written_with_the_period_of_its_zones() {
        assert_eq!(period(&[3, 4, 5, 3, 4, 5, 3]), &[3, 4, 5]);
        assert_eq!(period(&[2, 2, 2]), &[2]);
        assert_eq!(period(&[1, 2, 1, 3]), &[1, 2, 1, 3]);
        assert_eq!(period(&[]), &[] as &[ZoneId]);
        assert_eq!(period(&[5]), &[5]);
        assert_eq!(period(&[1, 2, 1, 2, 1]), &[1, 2]);
        // Long and without a short period: found at once, not in n² steps.
        let mut long = vec![7; 200_000];
        long.push(8);
        assert_eq!(period(&long).len(), long.len());
    }

    #[test]
    fn levels_are_named_and_ordered() {
        for l in TraceLevel::ALL {
            assert_eq!(TraceLevel::parse(l.name()), Some(l));
        }
        assert_eq!(TraceLevel::parse("everything"), None);
        assert!(TraceLevel::Events < TraceLevel::Decisions);
        assert!(TraceLevel::Decisions < TraceLevel::Full);
    }

    #[test]
    fn event_words_are_left_out() {
        let mut out = Vec::new();
        write_data(
            &mut out,
            &json!({"text": "Trick won", "winner": 2, "cards": [1, 3]}),
        )
        .expect("write");
        let v: Value = serde_json::from_slice(&out).expect("json");
        assert_eq!(v, json!({"winner": 2, "cards": [1, 3]}));
    }
}
