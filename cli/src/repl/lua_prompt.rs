//! Lua at the REPL: one chunk evaluated with `game` bound (`lua CODE`),
//! and the Lua prompt a bare `lua` opens, where a chunk may span lines.

use super::session::Session;

impl Session {
    /// Evaluate `code` in the game's prompt globals (or, with no game, in
    /// the engine's VM) and say the result.
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
