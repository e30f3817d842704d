//! The trace: a JSON Lines record of whole games that other tools can check
//! without deckhand. Format documented in docs/trace.md.

use crate::card::CardDef;
use crate::choice::Choice;
use crate::error::Result;
use crate::event::{Event, EventKind};
use crate::game::{Game, GameResult};
use crate::meta::OptionMeta;
use crate::runner::Observer;
use crate::table::Table;
use crate::zone::{Seat, ZoneId};
use serde_json::{json, Value};
use std::io::Write;

/// Version of the trace format (the `format` field of start records).
pub const TRACE_FORMAT: u32 = 3;

/// Writes trace records to any writer, one JSON object per line.
pub struct TraceWriter<W: Write> {
    out: W,
    /// Card and zone records of the game being written, serialised once
    /// (a game moves each card many times).
    cache: RecordCache,
}

/// Serialised card and zone records of one game, by id.
#[derive(Default)]
struct RecordCache {
    game: Option<u64>,
    cards: Vec<Option<String>>,
    zones: Vec<Option<String>>,
}

impl RecordCache {
    fn for_game(&mut self, index: u64) -> &mut Self {
        if self.game != Some(index) {
            *self = RecordCache {
                game: Some(index),
                ..RecordCache::default()
            };
        }
        self
    }

    fn get(slots: &mut Vec<Option<String>>, id: u32, make: impl FnOnce() -> Value) -> &str {
        let i = id as usize;
        if slots.len() <= i {
            slots.resize(i + 1, None);
        }
        slots[i].get_or_insert_with(|| make().to_string())
    }

    fn card(&mut self, t: &Table, id: u32) -> &str {
        Self::get(&mut self.cards, id, || {
            t.card(id).map(card_json).unwrap_or(Value::Null)
        })
    }

    fn zone(&mut self, t: &Table, id: ZoneId) -> &str {
        Self::get(&mut self.zones, id, || zone_json(t, id))
    }
}

fn card_json(c: &CardDef) -> Value {
    let mut v = Value::Object(c.props.clone());
    v["id"] = json!(c.id);
    v["name"] = json!(c.name);
    v
}

fn zone_json(t: &Table, z: ZoneId) -> Value {
    match t.zone(z) {
        Ok(z) => json!({"zone": z.name, "owner": z.owner}),
        Err(_) => json!({"zone": null, "owner": null}),
    }
}

impl<W: Write> TraceWriter<W> {
    pub fn new(out: W) -> Self {
        TraceWriter {
            out,
            cache: RecordCache::default(),
        }
    }

    fn line(&mut self, v: &Value) -> Result<()> {
        serde_json::to_writer(&mut self.out, v)?;
        self.out.write_all(b"\n")?;
        Ok(())
    }

    /// The start record of game number `index` (call right after the game starts).
    pub fn start(&mut self, game: &Game, index: u64) -> Result<()> {
        let c = game.config();
        let teams = game.with_table(|t| t.teams.clone())?;
        let mut start = json!({
            "type": "start", "format": TRACE_FORMAT, "game": index,
            "id": c.game, "variants": c.variants, "options": game.options(),
            "players": c.players, "seed": c.seed, "teams": teams,
        });
        // The text of the house-rule files played, when there are any.
        if !c.sources.is_empty() {
            start["sources"] = json!(c.sources);
        }
        self.line(&start)
    }

    /// Events (moves, shuffles, script events) drained from the game.
    pub fn events(&mut self, game: &Game, index: u64, events: &[Event]) -> Result<()> {
        game.ensure_cards()?;
        let cache = self.cache.for_game(index);
        let out = &mut self.out;
        game.with_table(|t| -> Result<()> {
            for e in events {
                match &e.kind {
                    EventKind::Move { card, from, to } => {
                        // Written by hand from cached parts: the bulk of a trace.
                        write!(out, "{{\"card\":{},", cache.card(t, *card))?;
                        write!(out, "\"from\":{},", cache.zone(t, *from))?;
                        write!(out, "\"game\":{index},\"step\":{},", e.step)?;
                        writeln!(out, "\"to\":{},\"type\":\"move\"}}", cache.zone(t, *to))?;
                    }
                    EventKind::Place { card, to } => {
                        write!(out, "{{\"card\":{},", cache.card(t, *card))?;
                        write!(out, "\"game\":{index},\"step\":{},", e.step)?;
                        writeln!(out, "\"to\":{},\"type\":\"place\"}}", cache.zone(t, *to))?;
                    }
                    EventKind::Shuffle { zone } | EventKind::Sort { zone } => {
                        let kind = match e.kind {
                            EventKind::Sort { .. } => "sort",
                            _ => "shuffle",
                        };
                        let v = json!({
                            "type": kind, "game": index, "step": e.step, "zone": zone_json(t, *zone),
                        });
                        serde_json::to_writer(&mut *out, &v)?;
                        out.write_all(b"\n")?;
                    }
                    EventKind::Script { name, data, to } => {
                        let v = json!({
                            "type": "event", "game": index, "step": e.step, "name": name,
                            "data": data, "to": to,
                        });
                        serde_json::to_writer(&mut *out, &v)?;
                        out.write_all(b"\n")?;
                    }
                }
            }
            Ok(())
        })?
    }

    /// The pending decision and the option about to be applied (call before applying).
    /// A choice of cards adds `picks` (the positions among the option's
    /// candidates); a reaction window adds its kind, `window`.
    pub fn decision(&mut self, game: &Game, index: u64, choice: &Choice) -> Result<()> {
        let chosen = choice.index;
        let Some(d) = game.decision()? else {
            return Ok(());
        };
        game.ensure_cards()?;
        let step = game.history().len() + 1;
        let cache = self.cache.for_game(index);
        let out = &mut self.out;
        game.with_table(|t| -> Result<()> {
            // Keys in sorted order, as in every other record.
            write!(out, "{{\"chosen\":{chosen},\"game\":{index},\"options\":[")?;
            for (i, o) in d.options.iter().enumerate() {
                if i > 0 {
                    out.write_all(b",")?;
                }
                write!(out, "{{\"action\":{}", o.action)?;
                // An option that plays a card (or several) carries the card.
                let meta = OptionMeta::of(&o.action);
                if let Some(id) = meta.card {
                    write!(out, ",\"card\":{}", cache.card(t, id))?;
                }
                if let Some(ids) = &meta.cards {
                    out.write_all(b",\"cards\":[")?;
                    for (j, &id) in ids.iter().enumerate() {
                        if j > 0 {
                            out.write_all(b",")?;
                        }
                        out.write_all(cache.card(t, id).as_bytes())?;
                    }
                    out.write_all(b"]")?;
                }
                write!(out, ",\"index\":{},\"text\":{}}}", o.index, json!(o.text))?;
            }
            out.write_all(b"]")?;
            if let Some(picks) = &choice.picks {
                write!(out, ",\"picks\":{}", json!(picks))?;
            }
            write!(
                out,
                ",\"prompt\":{},\"seat\":{},\"step\":{step},\"type\":\"decision\"",
                json!(d.prompt),
                d.seat
            )?;
            if let Some(w) = &d.window {
                write!(out, ",\"window\":{}", json!(w))?;
            }
            writeln!(out, "}}")?;
            Ok(())
        })?
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
    /// [`Runner`](crate::Runner): its start record and setup events, then
    /// each decision and the events of its step, then its end record.
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

    /// Flush the writer.
    pub fn flush(&mut self) -> Result<()> {
        self.out.flush()?;
        Ok(())
    }
}

/// One game's trace, written as the game is played (see
/// [`TraceWriter::game`]).
pub struct GameTrace<'w, W: Write> {
    writer: &'w mut TraceWriter<W>,
    index: u64,
}

impl<W: Write> Observer for GameTrace<'_, W> {
    fn game_start(&mut self, game: &Game, events: &[Event]) -> Result<()> {
        self.writer.start(game, self.index)?;
        self.writer.events(game, self.index, events)
    }

    fn decision(&mut self, game: &Game, _: Seat, choice: &Choice) -> Result<()> {
        self.writer.decision(game, self.index, choice)
    }

    fn step(&mut self, game: &Game, _: Seat, _: &Choice, events: &[Event]) -> Result<()> {
        self.writer.events(game, self.index, events)
    }

    fn game_end(&mut self, game: &Game, result: &GameResult) -> Result<()> {
        self.writer.end_with(game, self.index, result)
    }
}
