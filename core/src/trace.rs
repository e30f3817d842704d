//! The trace: a JSON Lines record of whole games that other tools can check
//! without deckhand. Format documented in docs/trace.md.

use crate::card::CardDef;
use crate::error::Result;
use crate::event::{Event, EventKind};
use crate::game::Game;
use crate::table::Table;
use crate::zone::ZoneId;
use serde_json::{json, Value};
use std::io::Write;

/// Version of the trace format (the `format` field of start records).
pub const TRACE_FORMAT: u32 = 1;

/// Writes trace records to any writer, one JSON object per line.
pub struct TraceWriter<W: Write> {
    out: W,
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
        TraceWriter { out }
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
        self.line(&json!({
            "type": "start", "format": TRACE_FORMAT, "game": index,
            "id": c.game, "variants": c.variants, "options": game.options(),
            "players": c.players, "seed": c.seed, "teams": teams,
        }))
    }

    /// Events (moves, shuffles, script events) drained from the game.
    pub fn events(&mut self, game: &Game, index: u64, events: &[Event]) -> Result<()> {
        for e in events {
            let v = game.with_table(|t| match &e.kind {
                EventKind::Move { card, from, to } => json!({
                    "type": "move", "game": index, "step": e.step,
                    "card": t.card(*card).map(card_json).unwrap_or(Value::Null),
                    "from": zone_json(t, *from), "to": zone_json(t, *to),
                }),
                EventKind::Shuffle { zone } => json!({
                    "type": "shuffle", "game": index, "step": e.step, "zone": zone_json(t, *zone),
                }),
                EventKind::Script { name, data, to } => json!({
                    "type": "event", "game": index, "step": e.step, "name": name,
                    "data": data, "to": to,
                }),
            })?;
            self.line(&v)?;
        }
        Ok(())
    }

    /// The pending decision and the option about to be applied (call before applying).
    pub fn decision(&mut self, game: &Game, index: u64, chosen: usize) -> Result<()> {
        let Some(d) = game.decision()? else {
            return Ok(());
        };
        let mut options = Vec::with_capacity(d.options.len());
        for o in &d.options {
            let mut v = json!({"index": o.index, "action": o.action, "text": o.text});
            if let Some(id) = o.action.get("card").and_then(Value::as_u64) {
                v["card"] = card_json(&game.card(id as u32)?);
            }
            if let Some(ids) = o.action.get("cards").and_then(Value::as_array) {
                let mut cards = Vec::new();
                for id in ids.iter().filter_map(Value::as_u64) {
                    cards.push(card_json(&game.card(id as u32)?));
                }
                v["cards"] = Value::Array(cards);
            }
            options.push(v);
        }
        self.line(&json!({
            "type": "decision", "game": index, "step": game.history().len() + 1,
            "seat": d.seat, "prompt": d.prompt, "options": options, "chosen": chosen,
        }))
    }

    /// The end record with the rules' result.
    pub fn end(&mut self, game: &Game, index: u64) -> Result<()> {
        let r = game.result()?;
        self.line(&json!({
            "type": "end", "game": index, "steps": game.history().len(),
            "scores": r.scores, "winners": r.winners, "rounds": r.rounds,
        }))
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
