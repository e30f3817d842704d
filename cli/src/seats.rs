//! Who sits at each seat: a person at this terminal, or a bot.

use anyhow::{bail, Result};
use deckhand_bots::{Bot, BotKind};
use deckhand_engine::RulesInfo;

/// The most players of any game, whatever its rules declare: seats are
/// allocated per player before the game starts.
pub const MAX_PLAYERS: u32 = 1_000;

/// Check a player count against the rules' declared range (and
/// [`MAX_PLAYERS`]) before anything is allocated per seat.
pub fn check_players(players: u32, info: &RulesInfo) -> Result<()> {
    let range = info.players;
    if players < range.min || players > range.max {
        bail!(
            "{} is for {}-{} players, not {players}",
            info.title,
            range.min,
            range.max
        );
    }
    if players > MAX_PLAYERS {
        bail!("{players} players: deckhand plays at most {MAX_PLAYERS}");
    }
    Ok(())
}

/// A seat's controller as the user names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeatSpec {
    Human,
    Bot(BotKind),
}

impl SeatSpec {
    /// `human`, `random`, or a bot name of the game.
    pub fn parse(s: &str) -> SeatSpec {
        match s {
            "human" | "you" | "me" => SeatSpec::Human,
            other => SeatSpec::Bot(BotKind::parse(other)),
        }
    }

    /// The name the user typed (saved in save files).
    pub fn name(&self) -> String {
        match self {
            SeatSpec::Human => "human".into(),
            SeatSpec::Bot(k) => k.name().into(),
        }
    }
}

/// Where the seats play: a game people play or watch (`play`, the REPL),
/// or the lab's games of bots (`sim`, `compare`, `tune`, `ladder`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Table {
    People,
    Lab,
}

/// Check the player count and the bot names against the rules and fill
/// missing seats with `fill`. At a table of `people` a measuring bot (one
/// that sees every hand, `seeall`) is refused.
pub fn complete(
    specs: &[SeatSpec],
    players: u32,
    fill: &SeatSpec,
    info: &RulesInfo,
    table: Table,
) -> Result<Vec<SeatSpec>> {
    check_players(players, info)?;
    if specs.len() > players as usize {
        bail!("{} seats given for {players} players", specs.len());
    }
    let mut out = specs.to_vec();
    out.resize(players as usize, fill.clone());
    for s in out.iter_mut() {
        // A strength the rules name (`easy`, `hard` ...) is the bot it names.
        if let SeatSpec::Bot(BotKind::Script(name)) = s {
            if let Some(bot) = info.strengths.get(name.as_str()) {
                *s = SeatSpec::Bot(BotKind::parse(bot));
            }
        }
    }
    for s in &out {
        if let (SeatSpec::Bot(k), Table::People) = (s, table) {
            if k.sees_every_hand() {
                bail!(
                    "'{}' is a measuring bot: it sees every hand, the other seats' too, so it \
                     plays only in sim, compare, tune and ladder, never in a game of play or \
                     the REPL",
                    k.name()
                );
            }
        }
        let kind = match s {
            SeatSpec::Bot(BotKind::Barred {
                bot, restriction, ..
            }) => {
                if !info.restrictions.contains_key(restriction) {
                    bail!(
                        "'{}' has no restriction named '{restriction}' (restrictions: {}; a \
                         house rule may add one as rules.restrictions.NAME = {{ doc = ..., \
                         allows = function(view, option, decision) ... end }})",
                        info.id,
                        names_or_none(info.restrictions.keys())
                    );
                }
                Some(bot.as_ref())
            }
            SeatSpec::Bot(k) => Some(k),
            SeatSpec::Human => None,
        };
        let script_bot = match kind {
            Some(BotKind::Script(name)) => Some(name),
            Some(BotKind::Search {
                playout: Some(name),
                ..
            }) if name != "random" => Some(name),
            _ => None,
        };
        if let Some(name) = script_bot {
            if let Some(Err(why)) = BotKind::parse_search(name) {
                bail!("{why}");
            }
            if BotKind::parse_search(name).is_some() {
                bail!("'{name}': a search bot cannot play the playouts of another");
            }
            if !info.bots.iter().any(|b| b == name) {
                bail!(
                    "'{}' has no bot named '{name}' (bots: random, mc, ismcts{})",
                    info.id,
                    info.bots
                        .iter()
                        .map(|b| format!(", {b}"))
                        .collect::<String>()
                );
            }
        }
    }
    Ok(out)
}

/// Names joined by commas, or "none".
fn names_or_none<'a>(names: impl Iterator<Item = &'a String>) -> String {
    let v: Vec<&str> = names.map(String::as_str).collect();
    if v.is_empty() {
        "none".into()
    } else {
        v.join(", ")
    }
}

/// The bots of a game, one per seat (`None` for human seats).
pub fn bots(specs: &[SeatSpec], seed: u64) -> Vec<Option<Bot>> {
    specs
        .iter()
        .enumerate()
        .map(|(i, s)| match s {
            SeatSpec::Human => None,
            SeatSpec::Bot(k) => Some(Bot::new(k.clone(), seed, i as u32 + 1)),
        })
        .collect()
}
