//! Commands that look without playing: `games`, `options`, `log`, `lua` and
//! `hint`.

use super::session::Session;
use deckhand_bots::Budget;
use deckhand_engine::{CoreError, RulesInfo};
use serde_json::Value;
use std::collections::BTreeMap;

fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

impl Session {
    /// `hint`: the search's view of each legal move, best first.
    pub(super) fn hint(&mut self, budget: Budget) {
        let Some(c) = self.current.as_ref() else {
            return self.no_game();
        };
        if let Some((seat, _)) = c.game.pending() {
            if !c.is_human(seat) && !c.humans().is_empty() {
                let msg = c.not_yours(seat);
                return self.out.error(msg);
            }
        }
        let decision = match c.game.decision() {
            Ok(Some(d)) => d,
            Ok(None) => return self.out.error("the game is over: type `new` to play again"),
            Err(e) => return self.out.error(format!("cannot list the moves: {e}")),
        };
        if decision.options.len() == 1 {
            return self.out.say("Only one legal move: nothing to weigh.");
        }
        // Run compiled in a child process when it can (crate::offload).
        let found = crate::offload::hint(&c.game, budget, Some(&self.cancel))
            .unwrap_or_else(|| deckhand_bots::hint::hint(&c.game, budget, Some(&self.cancel)));
        let hint = match found {
            Ok(h) => h,
            Err(CoreError::Cancelled) => {
                return self
                    .out
                    .error("hint interrupted (Ctrl-C): nothing was played, the game is as it was")
            }
            Err(e) => return self.out.error(format!("the search failed: {e}")),
        };
        let lines = super::hint_view::hint_lines(&hint, budget, &c.painter);
        self.out.say(lines.join("\n"));
    }

    pub(super) fn games(&mut self) {
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

    /// `rules`: the rules' summary, the variants and house rules in
    /// force, and the options with their values.
    pub(super) fn rules(&mut self) {
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
            super::session::plural(config.players as usize),
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

    pub(super) fn log(&mut self) {
        let Some(c) = &self.current else {
            return self.no_game();
        };
        let history = c.game.history();
        if history.is_empty() {
            return self.out.say("No moves yet.");
        }
        let lines: Vec<String> = history
            .iter()
            .enumerate()
            .map(|(i, rec)| {
                let text = if rec.action.is_null() {
                    format!("option {}", rec.index)
                } else {
                    let text = c
                        .game
                        .describe(&rec.action)
                        .unwrap_or_else(|_| rec.action.to_string());
                    c.shown_text(Some(rec.seat), &text, &rec.action)
                };
                format!(
                    "{:>4}. {}: {}",
                    i + 1,
                    c.label(rec.seat),
                    c.painter.paint_names(&text)
                )
            })
            .collect();
        self.out.say(lines.join("\n"));
    }

    pub(super) fn lua(&mut self, code: &str) {
        let result = match &mut self.current {
            Some(c) => {
                if c.lua_env.is_none() {
                    match c.game.host().prompt_env() {
                        Ok(env) => c.lua_env = Some(env),
                        Err(e) => return self.out.error(format!("lua: {e}")),
                    }
                }
                match &c.lua_env {
                    Some(env) => c.game.eval_prompt(code, env),
                    None => return,
                }
            }
            None => self.engine.host().eval(code, None),
        };
        match result {
            Ok(text) if text.is_empty() => {}
            Ok(text) => self.out.say(text),
            Err(e) => self.out.error(format!("lua: {e}")),
        }
    }

    /// One line typed at the Lua prompt; false to leave the prompt. A line
    /// that leaves a chunk unfinished (Lua's "<eof>") is kept, and the
    /// next lines are added to it until it is complete.
    pub fn handle_lua_line(&mut self, line: &str) -> bool {
        if self.lua_pending.is_empty() {
            let code = line.trim();
            if code.is_empty() || code == ".exit" {
                self.out.say("Back to the deckhand prompt.");
                return false;
            }
            self.lua_pending = code.to_string();
        } else {
            if line.trim() == ".exit" {
                self.lua_pending.clear();
                self.out
                    .say("Back to the deckhand prompt (the unfinished Lua was dropped).");
                return false;
            }
            self.lua_pending.push('\n');
            self.lua_pending.push_str(line);
        }
        let host = match &self.current {
            Some(c) => c.game.host(),
            None => self.engine.host(),
        };
        if host.is_incomplete(&self.lua_pending) {
            return true;
        }
        let code = std::mem::take(&mut self.lua_pending);
        self.lua(&code);
        true
    }

    /// The prompt of the Lua prompt: `...> ` while a chunk is unfinished.
    pub fn lua_prompt(&self) -> &'static str {
        if self.lua_pending.is_empty() {
            "lua> "
        } else {
            "...> "
        }
    }

    /// Ctrl-C at the Lua prompt: drop an unfinished chunk, or say how to
    /// leave.
    pub fn lua_interrupted(&mut self) {
        if self.lua_pending.is_empty() {
            self.out.say(
                "(Ctrl-C: type `.exit` or an empty line, or press Ctrl-D, \
                 to go back to the deckhand prompt)",
            );
        } else {
            self.lua_pending.clear();
            self.out.say("(Ctrl-C: the unfinished Lua was dropped)");
        }
    }
}
