//! The pending decision, for whoever shows or takes it: its options as the
//! rules gave them and in words, the sets of cards an option asks for, the
//! choice checked and matched against a recorded one, a script bot's pick.

use super::*;

impl Game {
    pub(super) fn decision_table(&self) -> Result<Option<LuaTable>> {
        Ok(self.state.raw_get::<Option<LuaTable>>("_decision")?)
    }

    /// The value of option `index` (1-based) of the pending decision, as
    /// the Lua value the rules gave (for a writer that converts it itself).
    /// The value the rules apply for `choice`, as Lua holds it (see
    /// [`Game::chosen_value`]).
    pub(crate) fn chosen_lua_value(&self, choice: &Choice) -> Result<Value> {
        match &choice.picks {
            None => self.option_lua_value(choice.index),
            Some(picks) => {
                self.usable()?;
                let _in_play = self.enter();
                Ok(self.host.entry.chosen.call((
                    self.state.clone(),
                    choice.index,
                    picks.clone(),
                ))?)
            }
        }
    }

    pub(crate) fn option_lua_value(&self, index: usize) -> Result<Value> {
        self.usable()?;
        self.option_value(index)
    }

    pub(super) fn option_value(&self, index: usize) -> Result<Value> {
        let d = self
            .decision_table()?
            .ok_or_else(|| CoreError::Rule("the game is over".into()))?;
        let opts: LuaTable = d.raw_get("options")?;
        Ok(opts.raw_get(index)?)
    }

    /// The values of the pending decision's options, as the rules gave
    /// them (without their words: see [`Game::decision`]); empty once the
    /// game is over.
    pub fn option_values(&self) -> Result<Vec<Json>> {
        self.usable()?;
        let Some((_, n)) = self.pending else {
            return Ok(Vec::new());
        };
        (1..=n)
            .map(|i| self.option_json(i, self.option_value(i)?))
            .collect()
    }

    /// The options of the pending decision as the Lua values the rules
    /// gave (one lookup for all; empty once the game is over). For a
    /// writer that converts them itself ([`crate::lua::json_text`]).
    pub(crate) fn option_lua_values(&self) -> Result<Vec<Value>> {
        self.usable()?;
        let Some((_, n)) = self.pending else {
            return Ok(Vec::new());
        };
        let d = self
            .decision_table()?
            .ok_or_else(|| CoreError::Rule("no pending decision".into()))?;
        let opts: LuaTable = d.raw_get("options")?;
        (1..=n).map(|i| Ok(opts.raw_get(i)?)).collect()
    }

    /// The cards of the pending decision's options when every option is
    /// exactly `{card = N}` (a card to play), in option order; `None`
    /// otherwise, or once the game is over. One call into the scripts.
    pub(crate) fn option_cards(&self) -> Result<Option<Vec<i64>>> {
        self.usable()?;
        if self.pending.is_none() {
            return Ok(None);
        }
        let cards: mlua::Variadic<i64> = self.host.entry.option_cards.call(self.state.clone())?;
        Ok((!cards.is_empty()).then(|| cards.to_vec()))
    }

    /// The kind of the pending decision, as the rules name it (its `kind`
    /// field: `"play"`, `"pass"`, `"choose_leader"` ...; the games shipped
    /// name each by its phase), else `"choose"`; `None` once the game is
    /// over.
    pub fn decision_kind(&self) -> Result<Option<String>> {
        self.usable()?;
        if self.pending.is_none() {
            return Ok(None);
        }
        let named = match usize::try_from(self.pending_kind) {
            Ok(0) => {
                // One kind too many to number: read from the decision.
                let kind: Option<Value> = self
                    .decision_table()?
                    .map(|d| d.raw_get("kind"))
                    .transpose()?;
                match kind {
                    Some(Value::String(s)) => Some(s.to_string_lossy()),
                    _ => None,
                }
            }
            Ok(id) => self.host.kind_name(id)?,
            Err(_) => None,
        };
        Ok(Some(named.unwrap_or_else(|| DEFAULT_KIND.to_string())))
    }

    /// The pending decision with every option in words.
    pub fn decision(&self) -> Result<Option<DecisionView>> {
        self.usable()?;
        let Some((seat, n)) = self.pending else {
            return Ok(None);
        };
        let d = self
            .decision_table()?
            .ok_or_else(|| CoreError::Rule("no pending decision".into()))?;
        let prompt: Option<String> = d.raw_get("prompt")?;
        let opts: LuaTable = d.raw_get("options")?;
        let mut options = Vec::with_capacity(n);
        for index in 1..=n {
            let v: Value = opts.raw_get(index)?;
            let text = self.describe_value(v.clone())?;
            let action: Json = self.option_json(index, v)?;
            options.push(OptionView {
                index,
                action,
                text,
            });
        }
        Ok(Some(DecisionView {
            seat,
            prompt: prompt.unwrap_or_else(|| "Choose".into()),
            options,
            window: self.window()?,
        }))
    }

    /// What option `index` of the pending decision offers when it asks for
    /// a set of cards (its `choose` field); `None` for an ordinary option.
    pub fn subset(&self, index: usize) -> Result<Option<SubsetSpec>> {
        self.usable()?;
        if !self.shape.subsets {
            return Ok(None);
        }
        let _in_play = self.enter();
        let (from, min, max, scored): (Option<Vec<u32>>, usize, usize, bool) =
            self.host.entry.subset.call((self.state.clone(), index))?;
        Ok(from.map(|from| SubsetSpec {
            from,
            min,
            max,
            scored,
        }))
    }

    /// Whether `choice` may be applied now: the option exists, it asks for
    /// cards exactly when the choice gives some, and the rules accept the
    /// set (its bounds and `rules.choices[check].valid`). The error says
    /// why not, in the rules' words.
    pub fn check_choice(&self, choice: &Choice) -> Result<()> {
        self.usable()?;
        self.pending_option(choice)?;
        let index = choice.index;
        let asks = self.subset(index)?.is_some();
        match (&choice.picks, asks) {
            (None, false) => Ok(()),
            (None, true) => Err(CoreError::Invalid(format!(
                "option {index} asks for a set of cards: give them too"
            ))),
            (Some(_), false) => Err(CoreError::Invalid(format!(
                "option {index} does not ask for cards"
            ))),
            (Some(picks), true) => {
                if picks.windows(2).any(|w| w[0] >= w[1]) {
                    return Err(CoreError::Invalid(
                        "each card may be chosen once (positions in ascending order)".into(),
                    ));
                }
                let why: Option<String> = {
                    let _in_play = self.enter();
                    self.host
                        .entry
                        .check
                        .call((self.state.clone(), index, picks.clone()))?
                };
                match why {
                    None => Ok(()),
                    Some(why) => Err(CoreError::Rule(why)),
                }
            }
        }
    }

    /// The value the rules apply for `choice`: the option's value, or for
    /// a set of cards, the option without `choose` and with the chosen
    /// `cards`.
    pub(crate) fn chosen_value(&self, choice: &Choice) -> Result<Json> {
        let v = match &choice.picks {
            None => self.option_value(choice.index)?,
            Some(picks) => {
                let _in_play = self.enter();
                self.host.entry.chosen.call::<Value>((
                    self.state.clone(),
                    choice.index,
                    picks.clone(),
                ))?
            }
        };
        self.option_json(choice.index, v)
    }

    /// Option `index`'s value `v` as JSON; when it holds a value that is
    /// not plain data (a function, a coroutine, a userdata), an error that
    /// names where the decision function is defined and what the value is.
    pub(super) fn option_json(&self, index: usize, v: Value) -> Result<Json> {
        self.host.lua().from_value(v.clone()).map_err(|_| {
            let what = match crate::lua::json_text::to_value(&v) {
                Err(e) => e.to_string(),
                Ok(_) => format!("a {} value", v.type_name()),
            };
            let at = self
                .rules
                .table
                .raw_get::<mlua::Function>("decision")
                .map_or_else(|_| "?".to_string(), |f| crate::lua::defined_at(&f));
            CoreError::Script(format!(
                "{at}: option {index} of the decision is not plain data \
                 (numbers, strings, booleans, tables of those): {what}"
            ))
        })
    }

    /// The value the rules apply for `choice` and its text
    /// (`rules.describe`), for front ends that show a move.
    pub fn choice_text(&self, choice: &Choice) -> Result<(Json, String)> {
        let action = self.chosen_value(choice)?;
        let text = self.describe(&action)?;
        Ok((action, text))
    }

    /// Build a set for option `index` card by card in the rules (see
    /// [`crate::choice`]): the positions of `order` in turn, up to `target`
    /// cards (`greedy`: by the rules' score). `None` when the set built is
    /// not a valid choice.
    pub fn build_subset(
        &self,
        index: usize,
        order: &[usize],
        target: usize,
        greedy: bool,
    ) -> Result<Option<Vec<usize>>> {
        self.usable()?;
        let _in_play = self.enter();
        Ok(self.host.entry.build.call((
            self.state.clone(),
            index,
            order.to_vec(),
            target,
            greedy,
        ))?)
    }

    /// The choice that a recorded action stands for now.
    pub fn match_action(&self, rec: &ActionRecord) -> std::result::Result<Choice, String> {
        let (seat, n) = self.pending.ok_or("the game is already over")?;
        if rec.seat != 0 && rec.seat != seat {
            return Err(format!(
                "the log has seat {} choosing, but the rules now ask seat {seat}",
                rec.seat
            ));
        }
        if rec.action.is_null() {
            return if rec.index >= 1 && rec.index <= n {
                Ok(rec.choice())
            } else {
                Err(format!("option {} does not exist (1..{n})", rec.index))
            };
        }
        let d = self.decision().map_err(|e| e.to_string())?;
        let d = d.ok_or("no pending decision")?;
        if let Some(o) = d.options.iter().find(|o| o.action == rec.action) {
            return Ok(Choice::option(o.index));
        }
        if let Some(choice) = self.match_subset(&d, &rec.action) {
            return Ok(choice);
        }
        // Named by its text (the public one for a secret choice), and
        // without the legal options: they may be a hidden hand.
        let text = secret_text(&rec.action)
            .or_else(|| self.describe(&rec.action).ok())
            .unwrap_or_else(|| rec.action.to_string());
        Err(format!("seat {seat} chose {text}, which is not legal now"))
    }

    /// A recorded set of cards (an option's value without `choose`, with
    /// `cards`) matched against the options that ask for cards: the option
    /// equal to it but for `choose` and `cards`, with each recorded card
    /// among its candidates.
    pub(super) fn match_subset(&self, d: &DecisionView, action: &Json) -> Option<Choice> {
        let strip = |v: &Json| -> Option<serde_json::Map<String, Json>> {
            let mut m = v.as_object()?.clone();
            m.remove("choose");
            m.remove("cards");
            Some(m)
        };
        let wanted = strip(action)?;
        let cards: Vec<u32> = action
            .get("cards")?
            .as_array()?
            .iter()
            .map(|c| c.as_u64().and_then(|c| u32::try_from(c).ok()))
            .collect::<Option<_>>()?;
        d.options.iter().find_map(|o| {
            o.action.get("choose")?;
            if strip(&o.action)? != wanted {
                return None;
            }
            let spec = crate::meta::OptionMeta::of(&o.action).choose?;
            let picks: Option<Vec<usize>> = cards
                .iter()
                .map(|c| spec.from.iter().position(|f| f == c).map(|p| p + 1))
                .collect();
            Some(Choice::subset(o.index, picks?))
        })
    }

    /// Ask a script bot of these rules what the seat to move chooses;
    /// `rng` is the bot's random stream for this decision (`view:random`).
    pub fn script_bot_choice(&self, bot: &str, rng: crate::rng::GameRng) -> Result<Choice> {
        self.usable()?;
        if self.pending.is_none() {
            return Err(CoreError::Rule("the game is over".into()));
        }
        let name = self.host.bot_name(bot)?;
        let _in_play = self.enter();
        self.host.set_bot_rng(Some(rng));
        let answer: mlua::Result<(usize, Option<Vec<usize>>)> =
            self.host.entry.bot.call((self.state.clone(), name));
        self.host.set_bot_rng(None);
        let (index, picks) = answer?;
        Ok(Choice { index, picks })
    }

    /// The options of the pending decision the rules' restriction `name`
    /// allows (`rules.restrictions[name].allows`, asked from the view of the
    /// seat to move), 1-based; `None` when it allows every option, or none
    /// (a bar that would leave nothing to play is lifted).
    pub fn allowed(&self, name: &str) -> Result<Option<Vec<usize>>> {
        self.usable()?;
        if self.pending.is_none() {
            return Err(CoreError::Rule("the game is over".into()));
        }
        let _in_play = self.enter();
        let allowed: Option<Vec<usize>> =
            self.host.entry.allowed.call((self.state.clone(), name))?;
        Ok(allowed)
    }

    /// The option text of an arbitrary recorded action (for logs).
    pub fn describe(&self, action: &Json) -> Result<String> {
        let v = self.host.lua().to_value_with(action, lua_opts())?;
        self.describe_value(v)
    }

    /// An option's value in the rules' words (`rules.describe`). After a
    /// description that ran past its budget, every description at the
    /// same position fails at once with the same error (see
    /// `describe_runaway`).
    pub(super) fn describe_value(&self, v: Value) -> Result<String> {
        if let Some(msg) = self.describe_runaway.borrow().as_ref() {
            return Err(CoreError::Script(msg.clone()));
        }
        let described = {
            let _in_play = self.enter();
            self.host
                .entry
                .describe
                .call::<String>((self.state.clone(), v))
        };
        described.map_err(|e| {
            let e = CoreError::from(e);
            if let CoreError::Script(msg) = &e {
                if msg.contains(crate::lua::RUNAWAY) {
                    *self.describe_runaway.borrow_mut() = Some(msg.clone());
                }
            }
            e
        })
    }
}
