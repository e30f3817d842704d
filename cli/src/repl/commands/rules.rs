//! `rules`: the current game's rules summary, its variants and house rules,
//! and its options (as `options` shows them).

use super::{Command, Run};
use crate::repl::args::{self, Refused};
use crate::repl::registry::CommandInfo;
use crate::repl::session::{Flow, Session};
use crate::repl::vocabulary::no_completion;
use std::collections::BTreeMap;

/// `rules` as users see it, how it reads and completes its arguments.
pub const COMMAND: Command = Command {
    info: CommandInfo {
        name: "rules",
        aliases: &[],
        args: "",
        summary: "the rules of the current game, its options and the variants in force",
        help: "Show the rules of the current game: the summary its script gives (or its
title), the variants and house rules in force, and its options with their
current values.
Example:
  rules",
    },
    parse,
    complete: no_completion,
};

/// `rules`, which takes no arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rules;

fn parse(rest: &str) -> Result<Box<dyn Run>, Refused> {
    args::nothing(rest)?;
    Ok(Box::new(Rules))
}

impl Run for Rules {
    fn run(self: Box<Self>, session: &mut Session) -> Flow {
        session.rules();
        Flow::Continue
    }
}

impl Session {
    /// `rules`: the rules' summary, the variants and house rules in
    /// force, and the options with their values.
    fn rules(&mut self) {
        let Some(c) = &self.current else {
            return self
                .out
                .error("no game in progress: `new GAME` starts one, `games` lists them");
        };
        let info = c.game.rules_info().clone();
        let config = c.game.config().clone();
        let mut lines = vec![format!(
            "{} ({}-{} players; this game: {} player{}, seed {})",
            info.title,
            info.players.min,
            info.players.max,
            config.players,
            crate::repl::session::plural(config.players as usize),
            config.seed
        )];
        match info.summary.as_deref().map(str::trim) {
            Some(text) if !text.is_empty() => {
                lines.extend(text.lines().map(|l| format!("  {}", l.trim_end())))
            }
            _ => lines.push(format!(
                "  ({} gives no summary of its rules: its script or its page in the docs has them.)",
                info.id
            )),
        }
        let titles: BTreeMap<String, String> = self
            .engine
            .catalog()
            .ok()
            .and_then(|games| games.into_iter().find(|g| g.info.id == info.id))
            .map(|g| g.variants.into_iter().map(|v| (v.id, v.title)).collect())
            .unwrap_or_default();
        if config.variants.is_empty() {
            lines.push("Variants and house rules: none.".into());
        } else {
            lines.push("Variants and house rules in force, in the order they apply:".into());
            for v in &config.variants {
                let what = match titles.get(v) {
                    Some(t) if !t.is_empty() => format!("variant: {t}"),
                    Some(_) => "variant".to_string(),
                    None => "house rule".to_string(),
                };
                lines.push(format!("  {v} ({what})"));
            }
        }
        self.out.say(lines.join("\n"));
        self.options(None);
    }
}
