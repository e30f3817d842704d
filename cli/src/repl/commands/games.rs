//! `games`: the games on the scripts search path, with their variants and bots.

use super::{Command, Run};
use crate::repl::args::{self, Refused};
use crate::repl::registry::CommandInfo;
use crate::repl::session::{Flow, Session};
use crate::repl::vocabulary::no_completion;

/// `games` as users see it, how it reads and completes its arguments.
pub const COMMAND: Command = Command {
    info: CommandInfo {
        name: "games",
        aliases: &["list"],
        args: "",
        summary: "list the games and their variants",
        help: "List every game on the scripts search path with its title, player range and
variants.
Example:
  games",
    },
    parse,
    complete: no_completion,
};

/// `games`, which takes no arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Games;

fn parse(rest: &str) -> Result<Box<dyn Run>, Refused> {
    args::nothing(rest)?;
    Ok(Box::new(Games))
}

impl Run for Games {
    fn run(self: Box<Self>, session: &mut Session) -> Flow {
        session.games();
        Flow::Continue
    }
}

impl Session {
    fn games(&mut self) {
        let games = match self.engine.catalog() {
            Ok(g) => g,
            Err(e) => return self.out.error(format!("cannot list the games: {e}")),
        };
        if games.is_empty() {
            return self.out.say("No games on the scripts search path.");
        }
        let current = self.current.as_ref().map(|c| c.game.config().game.clone());
        let mut lines = Vec::new();
        for g in games {
            let i = &g.info;
            let mark = if current.as_deref() == Some(i.id.as_str()) {
                "*"
            } else {
                " "
            };
            lines.push(format!(
                "{mark} {:<14} {} ({}-{} players)",
                i.id, i.title, i.players.min, i.players.max
            ));
            if !g.variants.is_empty() {
                let v: Vec<String> = g
                    .variants
                    .iter()
                    .map(|v| {
                        if v.title.is_empty() {
                            v.id.clone()
                        } else {
                            format!("{} ({})", v.id, v.title)
                        }
                    })
                    .collect();
                lines.push(format!("    variants: {}", v.join(", ")));
            }
            lines.push(format!(
                "    bots: random{}",
                i.bots.iter().map(|b| format!(", {b}")).collect::<String>()
            ));
        }
        lines.push("Start one with `new GAME [players=N] [variant=V] ...`; `options GAME` shows its options.".into());
        self.out.say(lines.join("\n"));
    }
}
