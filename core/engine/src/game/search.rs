//! What the searches need: copies of the game (`fork`), playouts, how a
//! seat tells options apart, and guesses of the hidden cards consistent
//! with what a seat knows (`determinized`).

use super::*;
use crate::table::Viewpoint;

impl Game {
    /// A copy of this game for search or simulation: no log, no history.
    pub fn fork(&self) -> Result<Game> {
        self.usable()?;
        let mut t = self.table_ref()?.clone();
        t.logging = false;
        t.take_events();
        let table = Rc::new(RefCell::new(t));
        let token = self.host.new_token();
        let state: LuaTable = {
            // The copy is made by this game's code, for the new token.
            let _in_play = self.enter();
            self.host.entry.clone.call((self.state.clone(), token))?
        };
        Ok(Game {
            host: self.host.clone(),
            rules: self.rules.clone(),
            config: self.config.clone(),
            options: self.options.clone(),
            state,
            table,
            token,
            pending: self.pending,
            shape: self.shape,
            pending_kind: self.pending_kind,
            history: Vec::new(),
            redo: Vec::new(),
            replayed: None,
            logging: false,
            words: false,
            action_values: false,
            broken: None,
            describe_runaway: RefCell::new(None),
            fresh_replay: self.fresh_replay,
        })
    }

    /// What `viewer` can tell the pending decision's options apart by, one
    /// text per option (empty once the game is over): each option's text,
    /// except that a secret option of another seat shows only what that
    /// seat's rivals are told (see [`secret_text`]). A search keys other
    /// seats' moves by these, so that it never tells apart what its seat
    /// could not.
    pub fn option_keys(&self, viewer: Seat) -> Result<Vec<String>> {
        self.usable()?;
        let f = &self.host.entry.option_keys;
        let _in_play = self.enter();
        Ok(f.call((self.state.clone(), viewer))?)
    }

    /// The key of option `index` (1-based) alone, as [`Game::option_keys`]
    /// gives it: for a search that needs only the move it plays.
    pub fn option_key(&self, viewer: Seat, index: usize) -> Result<String> {
        self.usable()?;
        let f = &self.host.entry.option_key;
        let key: Option<String> = {
            let _in_play = self.enter();
            f.call((self.state.clone(), viewer, index))?
        };
        key.ok_or_else(|| CoreError::Invalid(format!("there is no option {index}")))
    }

    /// Play this copy on inside one call into the rules (the hot path of
    /// the search bots): every choice made by the script bot `policy`, or at
    /// random with the copy's own generator. Stops at the game's end, or
    /// once the round count passes `horizon`, or after `cut` steps when
    /// given (a search that cuts its playouts short), or after `max_steps`
    /// steps. Returns what the position reached is worth to each seat
    /// (seat 1 first): the rules' evaluation (0..1) when stopped at the
    /// horizon or the cut, else 1 for a win, 1/k for a win shared by k
    /// seats, 0 otherwise; `None` after `max_steps`. A cut needs the
    /// rules' `evaluate`. The steps are not logged: use on forks only. The
    /// playout runs under the limits of one step.
    pub fn playout(
        &mut self,
        horizon: Option<u32>,
        policy: Option<&str>,
        max_steps: usize,
        cut: Option<usize>,
    ) -> Result<Option<Vec<f64>>> {
        self.usable()?;
        let f = self.host.entry.playout.clone();
        // A script bot playing the copy on draws its `view:random` from a
        // stream of the copy's own generator (reseeded with each guess).
        if policy.is_some() {
            let stream = self.own_stream(2000)?;
            self.host.set_bot_rng(Some(stream));
        }
        // The bot's name as a Lua string made once (see Host::bot_name).
        let policy_name = policy.map(|p| self.host.bot_name(p)).transpose()?;
        let mut left = max_steps;
        let mut cut_left = cut;
        let values = loop {
            type Answer = (
                Option<Vec<f64>>,
                bool,
                usize,
                Option<Seat>,
                usize,
                i64,
                bool,
                usize,
            );
            let answer: mlua::Result<Answer> = {
                let _in_play = self.enter();
                f.call((
                    self.state.clone(),
                    horizon,
                    policy_name.clone(),
                    left,
                    cut_left,
                ))
            };
            let (values, core_chooses, steps, seat, n, kind, subsets, pass) = match answer {
                Ok(a) => a,
                Err(e) => {
                    self.host.set_bot_rng(None);
                    return Err(e.into());
                }
            };
            if steps > 0 {
                // What the last step left pending (its seat is none at the end).
                (self.pending, self.pending_kind, self.shape) =
                    shape_of(&(seat, n, kind, subsets, pass));
            }
            left = left.saturating_sub(steps);
            cut_left = cut_left.map(|c| c.saturating_sub(steps));
            if !core_chooses {
                break values;
            }
            if left == 0 {
                break None;
            }
            // A choice of cards or a reaction window: chosen here as
            // everywhere else, from the copy's own generator.
            let choice = {
                let mut rng = self.own_stream(2001)?;
                match policy {
                    Some(bot) => self.script_bot_choice(bot, rng),
                    None => random::random_choice(self, &mut rng),
                }
            };
            let applied = choice.and_then(|c| self.apply_choice(&c));
            if let Err(e) = applied {
                self.host.set_bot_rng(None);
                return Err(e);
            }
            left -= 1;
            cut_left = cut_left.map(|c| c.saturating_sub(1));
            if policy.is_some() {
                // script_bot_choice ended the bot's stream: give it another.
                let stream = self.own_stream(2000)?;
                self.host.set_bot_rng(Some(stream));
            }
        };
        self.host.set_bot_rng(None);
        Ok(values.map(|v| v.into_iter().map(|x| x.clamp(0.0, 1.0)).collect()))
    }

    /// A random stream drawn from this game's own generator (a search's
    /// copy: its generator is reseeded with each guess), for `stream`.
    pub(super) fn own_stream(&self, stream: u64) -> Result<crate::rng::GameRng> {
        let seed = self
            .table
            .try_borrow_mut()
            .map_err(|_| CoreError::Rule("the game's table is in use".into()))?
            .rng
            .next_u64();
        Ok(crate::rng::GameRng::derived(seed, stream))
    }

    /// Seed this copy's own generator afresh (the stream its playout draws
    /// from): two playouts from the same guess then go their own ways.
    pub fn reseed(&self, seed: u64) -> Result<()> {
        self.table_mut()?.rng = crate::rng::GameRng::from_seed(seed);
        Ok(())
    }

    /// What the rules rule out for the guesses of `view` (a seat, or
    /// every seat: [`Viewpoint`]): pairs (owner, card) such that
    /// `rules.may_hold(game, owner, card)` is false, among the cards `view`
    /// cannot place and the seats whose zones hold them. Empty when the
    /// rules define no `may_hold`.
    pub fn ruled_out(&self, view: impl Into<Viewpoint>) -> Result<BTreeSet<(Seat, u32)>> {
        let view = view.into();
        let (cards, owners) = self.with_table(|t| t.unknown_to(view))?;
        if cards.is_empty() || owners.is_empty() {
            return Ok(BTreeSet::new());
        }
        let f = &self.host.entry.ruled_out;
        let _in_play = self.enter();
        let v: Value = f.call((self.state.clone(), owners, cards))?;
        let pairs: Vec<(Seat, u32)> = self
            .host
            .lua()
            .from_value(v)
            .map_err(|e| CoreError::Script(format!("may_hold: unexpected answer ({e})")))?;
        Ok(pairs.into_iter().collect())
    }

    /// The back of every card, as a class number by card id (index 0
    /// unused): cards whose `back` property is equal (or unset) share one.
    /// A face-down card shows its back, so a guess at the hidden cards
    /// swaps a card only with cards of the same back.
    pub(crate) fn card_backs(&self) -> Result<Vec<u32>> {
        let f = &self.host.entry.card_backs;
        let names: Vec<String> = f.call(self.state.clone())?;
        let mut classes: BTreeMap<String, u32> = BTreeMap::new();
        let mut backs = vec![0];
        for name in names {
            let next = classes.len() as u32;
            backs.push(*classes.entry(name).or_insert(next));
        }
        Ok(backs)
    }

    /// What `seat`'s guesses at the hidden cards must respect: the rules'
    /// exclusions ([`Game::ruled_out`]) and the cards' backs
    /// ([`Game::card_backs`]). A search asks once per decision, not once
    /// per guess.
    pub fn guessing(&self, seat: Seat) -> Result<Guessing<'_>> {
        self.guessing_from(Viewpoint::Seat(seat))
    }

    /// What guesses that **see every hand** must respect: with it,
    /// [`Game::determinized_into`] keeps every card some seat knows where
    /// it is and deals again only the cards no seat knows (a deck's
    /// order), whatever the seat searching. For measuring bots (how much
    /// knowing the other hands is worth), never for a player.
    pub fn guessing_every_seat(&self) -> Result<Guessing<'_>> {
        self.guessing_from(Viewpoint::EverySeat)
    }

    fn guessing_from(&self, view: Viewpoint) -> Result<Guessing<'_>> {
        Ok(Guessing {
            ruled_out: self.ruled_out(view)?,
            backs: self.card_backs()?,
            every_seat: view == Viewpoint::EverySeat,
            game: self,
            tape: std::cell::OnceCell::new(),
        })
    }

    /// A fork in which the cards `seat` does not know the place of are dealt
    /// again at random (see [`Table::determinize`]) among the places of
    /// cards with the same back, never into a seat's zone that
    /// `rules.may_hold` rules out: one guess at the hidden state, consistent
    /// with what the seat has seen, for search bots.
    pub fn determinized(&self, seat: Seat, rng: &mut crate::rng::GameRng) -> Result<Game> {
        let guessing = self.guessing(seat)?;
        self.determinized_with(seat, rng, &guessing)
    }

    /// [`Game::determinized`] with what the guesses must respect already
    /// asked for ([`Game::guessing`]).
    pub fn determinized_with(
        &self,
        seat: Seat,
        rng: &mut crate::rng::GameRng,
        guessing: &Guessing,
    ) -> Result<Game> {
        let game = self.fork()?;
        self.guess_in(game, seat, rng, guessing)
    }

    /// [`Game::determinized_with`] made in `scratch`: the copy a search
    /// made for its previous guess is made a copy of this game again
    /// ([`Game::refork`]), reusing its tables, instead of a new fork each
    /// time; `scratch` holds the new guess afterwards. `guessing` must be
    /// this game's (else every guess is a new fork).
    pub fn determinized_into<'s>(
        &self,
        seat: Seat,
        rng: &mut crate::rng::GameRng,
        guessing: &Guessing,
        scratch: &'s mut Option<Game>,
    ) -> Result<&'s mut Game> {
        let copy = match scratch.take() {
            Some(mut copy) if std::ptr::eq(guessing.game, self) => {
                let tape = match guessing.tape.get() {
                    Some(tape) => tape,
                    None => {
                        let tape = self.tape()?;
                        guessing.tape.get_or_init(|| tape)
                    }
                };
                match self.refork(&mut copy, tape) {
                    Ok(()) => copy,
                    Err(_) => self.fork()?,
                }
            }
            _ => self.fork()?,
        };
        Ok(scratch.insert(self.guess_in(copy, seat, rng, guessing)?))
    }

    /// This game's Lua state written down for [`Game::refork`] (the
    /// prelude's `tape`).
    pub(super) fn tape(&self) -> Result<LuaTable> {
        let _in_play = self.enter();
        Ok(self.host.entry.tape.call(self.state.clone())?)
    }

    /// Make `copy` (an earlier fork of a game of the same rules, in the
    /// same VM) a fork of this game again, whose Lua state `tape` wrote
    /// down ([`Game::tape`]): the same state, no log, no history, reusing
    /// the tables the copy's last replay of the same tape made rather
    /// than making new ones (most of the cost of a fork is making and
    /// collecting them).
    pub(super) fn refork(&self, copy: &mut Game, tape: &LuaTable) -> Result<()> {
        self.usable()?;
        if !Rc::ptr_eq(&self.host, &copy.host) || !Rc::ptr_eq(&self.rules, &copy.rules) {
            return Err(CoreError::Invalid(
                "a copy is made again only from a game of the same rules and VM".into(),
            ));
        }
        {
            let mut t = copy.table_mut()?;
            t.clone_from(&*self.table_ref()?);
            t.logging = false;
            t.take_events();
        }
        {
            let _in_play = self.enter();
            let replayed = match &copy.replayed {
                Some(t) => t.clone(),
                None => self.host.lua().create_table()?,
            };
            self.host
                .entry
                .copy_tape
                .call::<()>((copy.state.clone(), tape, &replayed))?;
            copy.replayed = Some(replayed);
        }
        copy.config.clone_from(&self.config);
        copy.pending = self.pending;
        copy.pending_kind = self.pending_kind;
        copy.shape = self.shape;
        copy.history.clear();
        copy.redo.clear();
        copy.logging = false;
        copy.broken = None;
        Ok(())
    }

    /// Deal the cards `seat` cannot place at random in `game`, a fork of
    /// this game (see [`Game::determinized`]).
    pub(super) fn guess_in(
        &self,
        game: Game,
        seat: Seat,
        rng: &mut crate::rng::GameRng,
        guessing: &Guessing,
    ) -> Result<Game> {
        let may_hold = |owner: Seat, card: u32| !guessing.ruled_out.contains(&(owner, card));
        let view = if guessing.every_seat {
            Viewpoint::EverySeat
        } else {
            Viewpoint::Seat(seat)
        };
        let changed = game
            .table_mut()?
            .determinize(view, rng, &may_hold, &guessing.backs);
        self.load_zones(&game, changed)?;
        Ok(game)
    }

    /// Tell `game`'s Lua state (a copy of this game's) what the zones
    /// `changed` hold now, after the core changed them behind its back.
    pub(super) fn load_zones(&self, game: &Game, changed: Vec<crate::zone::ZoneId>) -> Result<()> {
        if changed.is_empty() {
            return Ok(());
        }
        let lua = self.host.lua();
        if self.host.steps_report_directly() {
            // The prelude reads the zones from the core itself.
            let ids = lua.create_sequence_from(changed.iter().copied())?;
            let loaded = {
                let _in_play = game.enter();
                self.host
                    .entry
                    .load_zones
                    .call::<bool>((&game.state, ids))?
            };
            if loaded {
                return Ok(());
            }
        }
        let zones = lua.create_table()?;
        game.with_table(|t| -> mlua::Result<()> {
            for id in changed {
                if let Ok(z) = t.zone(id) {
                    zones.raw_set(id, lua.create_sequence_from(z.cards.iter().copied())?)?;
                }
            }
            Ok(())
        })??;
        let f = &self.host.entry.set_zones;
        {
            let _in_play = game.enter();
            f.call::<()>((game.state.clone(), zones))?;
        }
        Ok(())
    }
}
