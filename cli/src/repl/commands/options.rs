//! `options [GAME]`: the options of the current game with their values, or
//! those a game declares.

use super::{Command, Run};
use crate::repl::args::Refused;
use crate::repl::registry::CommandInfo;
use crate::repl::session::{Flow, Session};
use crate::repl::vocabulary::{matching, Completion, Typed, Vocabulary};
use deckhand_engine::RulesInfo;
use serde_json::Value;
use std::collections::BTreeMap;

/// `options` as users see it, how it reads and completes its arguments.
pub const COMMAND: Command = Command {
    info: CommandInfo {
        name: "options",
        aliases: &["opts"],
        args: "[GAME]",
        summary: "show the options of the current game (or of GAME)",
        help: "Show the options of the current game with their values, defaults and what
they do; with a game id, the options that game declares. Set them with `new`.
Examples:
  options
  options sea_change",
    },
    parse,
    complete,
};

/// `options` (`None`: of the current game) or `options GAME`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options(pub Option<String>);

fn parse(rest: &str) -> Result<Box<dyn Run>, Refused> {
    Ok(Box::new(Options(
        match rest.split_whitespace().collect::<Vec<_>>().as_slice() {
            [] => None,
            [game] => Some(game.to_string()),
            _ => return Err(Refused::Args("give at most one game id".into())),
        },
    )))
}

/// The game ids.
fn complete(v: &Vocabulary, typed: &Typed) -> Completion {
    Some((
        typed.word_start,
        matching(v.games.iter().map(|g| g.id.clone()), typed.word()),
    ))
}

impl Run for Options {
    fn run(self: Box<Self>, session: &mut Session) -> Flow {
        session.options(self.0.as_deref());
        Flow::Continue
    }
}

fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

impl Session {
    pub(super) fn options(&mut self, game: Option<&str>) {
        let current_id = self.current.as_ref().map(|c| c.game.config().game.clone());
        let (info, values): (RulesInfo, Option<BTreeMap<String, Value>>) =
            match (game, &self.current) {
                (Some(id), _) if current_id.as_deref() != Some(id) => {
                    match self.engine.rules(id, &[]) {
                        Ok(r) => (r.info.clone(), None),
                        Err(e) => {
                            let msg = self.explain_rules_error(id, e);
                            return self.out.error(msg);
                        }
                    }
                }
                (_, Some(c)) => (c.game.rules_info().clone(), Some(c.game.options().clone())),
                (_, None) => {
                    return self
                        .out
                        .error("no game in progress: `options GAME` shows the options of a game");
                }
            };
        if info.options.is_empty() {
            return self.out.say(format!("{} has no options.", info.title));
        }
        let mut lines = vec![match values {
            Some(_) => format!(
                "Options of this game of {} (set them with `new ... NAME=VALUE`):",
                info.title
            ),
            None => format!(
                "Options of {} (set them with `new {} NAME=VALUE`):",
                info.title, info.id
            ),
        }];
        for (name, spec) in &info.options {
            let now = match values.as_ref().and_then(|v| v.get(name)) {
                Some(v) if *v != spec.default => {
                    format!("{} (default {})", value_text(v), value_text(&spec.default))
                }
                Some(v) => value_text(v),
                None => format!("default {}", value_text(&spec.default)),
            };
            let choices = spec
                .choices
                .as_ref()
                .map(|c| {
                    format!(
                        " [{}]",
                        c.iter().map(value_text).collect::<Vec<_>>().join(", ")
                    )
                })
                .unwrap_or_default();
            lines.push(format!("  {name} = {now}{choices}"));
            if !spec.doc.is_empty() {
                lines.push(format!("      {}", spec.doc));
            }
        }
        self.out.say(lines.join("\n"));
    }
}
