//! Checking and inspecting a game: the invariants of the core and of the
//! rules, Lua at the prompt, arranged positions and scenario scripts.

use super::*;

impl Game {
    /// Check the invariants: every card in exactly one zone, and the Lua
    /// mirrors equal to the Rust zones.
    pub fn check_invariants(&self) -> Result<()> {
        // Also checks that every card's properties are plain data.
        self.ensure_cards()?;
        let f = &self.host.entry.mirrors;
        let mirrors: Vec<Vec<u32>> = {
            let _in_play = self.enter();
            self.host.lua().from_value(f.call(self.state.clone())?)?
        };
        let t = self.table_ref()?;
        t.check_conservation()?;
        for (z, m) in t.zones.iter().zip(mirrors.iter()) {
            if &z.cards != m {
                return Err(CoreError::Rule(format!(
                    "zone '{}' was changed without the core (script edited the zone table)",
                    z.label()
                )));
            }
        }
        if mirrors.len() != t.zones.len() {
            return Err(CoreError::Rule("zone mirrors out of step".into()));
        }
        Ok(())
    }

    /// Ask the rules' own invariants (`rules.invariants(game)`, optional):
    /// `None` when they hold (the function returned nil or true, or the
    /// rules define none), `Some(why)` when it returned false or a message.
    /// An error the function raised is returned as a script error.
    pub fn script_invariants(&self) -> Result<Option<String>> {
        self.usable()?;
        let f = match self.rules.table.raw_get::<Value>("invariants")? {
            Value::Nil => return Ok(None),
            Value::Function(f) => f,
            other => {
                return Err(CoreError::Script(format!(
                    "rules.invariants must be a function, not a {}",
                    other.type_name()
                )))
            }
        };
        let v: Value = {
            let _in_play = self.enter();
            f.call(self.state.clone())?
        };
        match v {
            Value::Nil | Value::Boolean(true) => Ok(None),
            Value::Boolean(false) => Ok(Some("rules.invariants returned false".into())),
            Value::String(s) => Ok(Some(s.to_string_lossy())),
            other => Err(CoreError::Script(format!(
                "rules.invariants must return nil, true or a message, not a {}",
                other.type_name()
            ))),
        }
    }

    /// Evaluate Lua with `game` bound to this game, read-only (see
    /// [`Game::eval_prompt`]), in a fresh environment.
    pub fn eval_lua(&self, code: &str) -> Result<String> {
        let env = self.host.prompt_env()?;
        self.eval_prompt(code, &env)
    }

    /// Evaluate a line typed at a Lua prompt whose globals are `env` (made
    /// by this game's host, [`Host::prompt_env`]), with `game` bound to
    /// this game read-only: a line that tries to move a card, shuffle,
    /// draw a random number or change the game's tables is refused with an
    /// error, and the game is left as it was. To change a position, use
    /// [`Game::arrange`].
    pub fn eval_prompt(&self, code: &str, env: &PromptEnv) -> Result<String> {
        let _in_play = self.enter();
        self.host.eval_prompt(code, env, Some(&self.state))
    }

    /// The host whose VM runs this game's scripts.
    pub fn host(&self) -> &Rc<Host> {
        &self.host
    }

    /// Run Lua with full access to the game to arrange a position (tests and
    /// scenario set-up), then recompute the pending decision. The game's log
    /// does not record this, so undo and save are not meaningful afterwards.
    pub fn arrange(&mut self, code: &str) -> Result<()> {
        let stepped: Stepped = {
            let _in_play = self.enter();
            self.host.eval(code, Some(&self.state))?;
            self.host.arm();
            self.host.entry.refresh.call(self.state.clone())?
        };
        (self.pending, self.pending_kind, self.shape) = shape_of(&stepped);
        self.history.clear();
        self.redo.clear();
        Ok(())
    }

    /// Run a scenario (`deckhand lua FILE`): Lua with full access to this
    /// game and the scenario helpers (`scenario`: give cards by name, put
    /// a card on top, play moves, read the result; see
    /// [`Host::run_scenario`]), then recompute the pending decision. Like
    /// [`Game::arrange`], the log does not record it. A scenario moves
    /// cards and never makes or removes one: afterwards the card count is
    /// compared with the one before, and every card must be in exactly one
    /// zone with the Lua zone tables matching the core's
    /// ([`Game::check_invariants`]).
    pub fn run_scenario(
        &mut self,
        text: &str,
        chunk_name: &str,
        data: &BTreeMap<String, String>,
    ) -> Result<()> {
        self.usable()?;
        let count = |g: &Game| -> Result<u32> {
            g.state.raw_get::<u32>("_ncards").map_err(|e| {
                CoreError::Script(format!(
                    "game._ncards (the count of cards made) is not a count: {e}"
                ))
            })
        };
        let before = count(self)?;
        let ran = {
            let _in_play = self.enter();
            self.host.run_scenario(text, chunk_name, &self.state, data)
        };
        self.history.clear();
        self.redo.clear();
        ran?;
        let (seat, n): (Option<Seat>, usize) = {
            let _in_play = self.enter();
            self.host.entry.refresh.call(self.state.clone())?
        };
        self.pending = seat.map(|s| (s, n));
        self.describe_runaway.replace(None);
        let after = count(self)?;
        if after != before {
            return Err(CoreError::Rule(format!(
                "{chunk_name}: the scenario made {} card(s); a scenario moves cards and \
                 never makes or removes one",
                after.saturating_sub(before)
            )));
        }
        self.check_invariants()
            .map_err(|e| CoreError::Rule(format!("{chunk_name}: after the scenario: {e}")))?;
        match self.script_invariants()? {
            None => Ok(()),
            Some(why) => Err(CoreError::Rule(format!(
                "{chunk_name}: after the scenario, the rules' invariants fail: {why}"
            ))),
        }
    }

    /// What scripts printed since the last call.
    pub fn take_output(&self) -> Vec<String> {
        self.host.take_output()
    }
}
