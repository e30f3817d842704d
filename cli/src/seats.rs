//! Who sits at each seat: a person at this terminal, or a bot.

use anyhow::{bail, Result};
use deckhand_core::{Bot, BotKind, Game, RulesInfo};

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

/// Check bot names against the rules and fill missing seats with `fill`.
pub fn complete(
    specs: &[SeatSpec],
    players: u32,
    fill: &SeatSpec,
    info: &RulesInfo,
) -> Result<Vec<SeatSpec>> {
    if specs.len() > players as usize {
        bail!("{} seats given for {players} players", specs.len());
    }
    let mut out = specs.to_vec();
    out.resize(players as usize, fill.clone());
    for s in &out {
        let script_bot = match s {
            SeatSpec::Bot(BotKind::Script(name)) => Some(name),
            SeatSpec::Bot(BotKind::Search {
                playout: Some(name),
                ..
            }) if name != "random" => Some(name),
            _ => None,
        };
        if let Some(name) = script_bot {
            if !info.bots.iter().any(|b| b == name) {
                bail!(
                    "'{}' has no bot named '{name}' (bots: random, mc{})",
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

/// Let bots move until a human must choose or the game ends; returns the
/// number of bot moves made. `each` sees the game after every move.
pub fn run_bots(
    game: &mut Game,
    bots: &mut [Option<Bot>],
    mut each: impl FnMut(&mut Game, u32, usize) -> Result<()>,
) -> Result<usize> {
    let mut moves = 0;
    while let Some((seat, _)) = game.pending() {
        let Some(Some(bot)) = bots.get_mut(seat as usize - 1) else {
            break;
        };
        let choice = bot.choose(game)?;
        each(game, seat, choice)?;
        game.apply(choice)?;
        moves += 1;
    }
    Ok(moves)
}
