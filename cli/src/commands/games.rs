//! `deckhand games`: every game on the search path with its variants,
//! player range, options (with defaults, allowed values and ranges) and
//! bots.

use anyhow::Result;
use deckhand_engine::{Engine, OptionSpec, ScriptLibrary};
use std::sync::Arc;

pub fn run(library: &Arc<ScriptLibrary>, json: bool) -> Result<()> {
    let engine = Engine::new(library.clone())?;
    let games = engine.catalog()?;
    if json {
        outln!("{}", serde_json::to_string_pretty(&games)?);
        return Ok(());
    }
    // Lines wrapped to the terminal's width.
    let width = crate::render::terminal_width();
    macro_rules! say {
        ($($arg:tt)*) => {
            outln!("{}", crate::render::wrap(&format!($($arg)*), width))
        };
    }
    let sources: Vec<String> = library.sources().iter().map(|s| s.describe()).collect();
    say!("scripts: {}\n", sources.join(", then "));
    for g in games {
        let i = &g.info;
        let default = i
            .players
            .default
            .map(|d| format!(", default {d}"))
            .unwrap_or_default();
        say!(
            "{} — {} ({}-{} players{default})",
            i.id,
            i.title,
            i.players.min,
            i.players.max
        );
        if !g.variants.is_empty() {
            say!("  variants:");
            for v in &g.variants {
                let players = v
                    .players
                    .map(|p| format!(" ({}-{} players)", p.min, p.max))
                    .unwrap_or_default();
                say!("    {:<22} {}{players}", v.id, v.title);
                for (name, o) in &v.options {
                    say!("      {}", option_line(name, o));
                }
            }
        }
        if !i.options.is_empty() {
            say!("  options:");
            for (name, o) in &i.options {
                say!("    {}", option_line(name, o));
            }
        }
        say!(
            "  bots: random, mc, ismcts{}",
            i.bots.iter().map(|b| format!(", {b}")).collect::<String>()
        );
        if !i.strengths.is_empty() {
            // easy, medium, hard first, then any other name.
            let mut named: Vec<(&String, &String)> = i.strengths.iter().collect();
            named.sort_by_key(|(k, _)| {
                ["easy", "medium", "hard"]
                    .iter()
                    .position(|w| w == k)
                    .unwrap_or(3)
            });
            let named: Vec<String> = named.iter().map(|(k, v)| format!("{k} = {v}")).collect();
            say!("  strengths: {}", named.join(", "));
        }
        if !i.restrictions.is_empty() {
            let named: Vec<&str> = i.restrictions.keys().map(String::as_str).collect();
            say!(
                "  restrictions (deckhand skill --restrict): {}",
                named.join(", ")
            );
        }
        outln!();
    }
    Ok(())
}

/// One option in words: name, default, allowed values, what it does.
fn option_line(name: &str, o: &OptionSpec) -> String {
    let choices = o
        .choices
        .as_ref()
        .map(|c| {
            let c: Vec<String> = c.iter().map(|v| v.to_string()).collect();
            format!(" [{}]", c.join(", "))
        })
        .unwrap_or_default();
    let range = o
        .range_text()
        .map(|r| format!(" (allowed: {r})"))
        .unwrap_or_default();
    format!(
        "{name:<22} default {}{choices}{range}  {}",
        o.default, o.doc
    )
}
