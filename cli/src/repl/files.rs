//! Saving and loading games, and reloading the scripts from disk: each
//! either succeeds or says why in one line and keeps the current game.

use super::autosave::{ago, Found, State};
use super::session::{plural, Current, Reloaded, Session};
use crate::seats::{self, SeatSpec};
use deckhand_engine::{CoreError, Engine, Game, HouseRuleNote, ReplayStop, SaveFile};
use std::path::Path;
use std::time::SystemTime;

impl Session {
    /// The game in progress as the autosave should keep it.
    pub fn autosave_state(&self) -> State {
        let Some(c) = &self.current else {
            return State::Nothing;
        };
        if c.game.is_over() {
            return State::Over;
        }
        if c.game.history().is_empty() {
            return State::Nothing;
        }
        let names: Vec<String> = c.seats.iter().map(SeatSpec::name).collect();
        match SaveFile::of(&c.game, names) {
            Ok(save) => State::Playing(Box::new(save)),
            Err(_) => State::Nothing,
        }
    }

    /// An autosaved game in words: which game, where it stood, when
    /// ("Sea Change (4 players, seed 7), at step 11, autosaved 3 minutes
    /// ago").
    fn describe_found(&self, found: &Found) -> String {
        let cfg = &found.save.config;
        let title = self
            .engine
            .rules(&cfg.game, &[])
            .map_or_else(|_| cfg.game.clone(), |r| r.info.title.clone());
        let variants = if cfg.variants.is_empty() {
            String::new()
        } else {
            format!(", {}", cfg.variants.join(" + "))
        };
        let steps = found.save.actions.len();
        let when = found
            .when
            .map(|w| format!(", autosaved {}", ago(w, SystemTime::now())))
            .unwrap_or_default();
        format!(
            "{title} ({} players{variants}, seed {}), at step {steps}{when}",
            cfg.players, cfg.seed,
        )
    }

    /// The games left unfinished by deckhands no longer running: one in a
    /// sentence, several numbered (newest first).
    pub fn describe_left(&self, games: &[Found]) -> String {
        match games {
            [] => "No unfinished game was left by a deckhand that no longer runs.".into(),
            [one] => format!(
                "An unfinished game was autosaved: {}.",
                self.describe_found(one)
            ),
            many => {
                let mut lines = vec![format!(
                    "{} unfinished games were autosaved (newest first):",
                    many.len()
                )];
                for (i, found) in many.iter().enumerate() {
                    lines.push(format!("  {}) {}", i + 1, self.describe_found(found)));
                }
                lines.join("\n")
            }
        }
    }

    /// Resume the game autosaved at `path`; whether it was loaded.
    pub fn resume(&mut self, path: &Path) -> bool {
        self.load_named(path, "the autosaved game")
    }

    /// `load`, calling the file `name` in messages; whether a game was
    /// loaded (else the current game is kept).
    pub(super) fn load_named(&mut self, file: &Path, name: &str) -> bool {
        let path = name;
        let read = SaveFile::read(file).and_then(|mut s| {
            let notes = s.resolve_house_rules(file)?;
            Ok((s, notes))
        });
        let (save, notes) = match read {
            Ok(s) => s,
            Err(e) => {
                self.out
                    .error(format!("cannot load {path}: {e:#}; nothing changed"));
                return false;
            }
        };
        // Said first: a file read is named even if the game then cannot start.
        for note in &notes {
            match note {
                HouseRuleNote::Read { file } => self.out.say(format!(
                    "Read the house rule {file} from disk: {path} holds no copy of it \
                     (a save written now keeps one)."
                )),
                HouseRuleNote::Differs { file } => self.out.error(format!(
                    "warning: {file} differs from the copy of it saved in {path}; the game goes on \
                     with the saved copy (`reload` plays it under the file on disk)."
                )),
            }
        }
        self.engine.forget_rules();
        let info = match self.engine.rules_of(&save.config) {
            Ok(r) => r.info.clone(),
            Err(e) => {
                let msg = self.explain_rules_error(&save.config.game, e);
                self.out.error(format!("cannot load {path}: {msg}"));
                return false;
            }
        };
        let mut specs: Vec<SeatSpec> = save.seats.iter().map(|s| SeatSpec::parse(s)).collect();
        if specs.is_empty() {
            specs.push(SeatSpec::Human);
        }
        specs.truncate(save.config.players as usize);
        let fill = crate::commands::play::default_fill(&info);
        let specs = match seats::complete(
            &specs,
            save.config.players,
            &fill,
            &info,
            seats::Table::People,
        ) {
            Ok(s) => s,
            Err(e) => {
                self.out
                    .error(format!("cannot load {path}: {e}; nothing changed"));
                return false;
            }
        };
        let total = save.actions.len();
        match self.engine.replay(save.config.clone(), &save.actions) {
            Ok(game) => {
                self.out.say(format!(
                    "Loaded {path}: {}, {total} move{} replayed.",
                    info.title,
                    plural(total)
                ));
                self.install(game, specs);
                true
            }
            Err(stop) => match *stop {
                ReplayStop { game: None, error } => {
                    self.out
                        .error(format!("cannot load {path}: {error}; nothing changed"));
                    false
                }
                ReplayStop {
                    game: Some(game),
                    error,
                } => {
                    let msg = self.stop_message(&error, &save.actions, game.history().len());
                    self.out.warn(format!("{path}: {msg}"));
                    self.install(game, specs);
                    true
                }
            },
        }
    }

    /// Put a loaded or replayed game in place and carry on from it.
    fn install(&mut self, game: Game, specs: Vec<SeatSpec>) {
        self.forget_reloads();
        self.current = Some(Current::new(game, specs, self.colour));
        self.advance();
    }

    /// Where a replayed log stops being legal (or the rules fail), and
    /// what happens next.
    pub(super) fn stop_message(
        &self,
        error: &CoreError,
        actions: &[deckhand_engine::ActionRecord],
        kept: usize,
    ) -> String {
        let (step, reason) = match error {
            CoreError::Replay { step, reason } => (*step, reason.clone()),
            CoreError::ReplayFailed { step, error } => (*step, error.to_string()),
            other => (kept + 1, other.to_string()),
        };
        let seat = seat_of(actions, step);
        let dropped = actions.len().saturating_sub(kept);
        let stops = if matches!(error, CoreError::ReplayFailed { .. }) {
            "the rules fail at step"
        } else {
            "the log stops being legal at step"
        };
        format!(
            "{stops} {step}{seat}: {reason}. Continuing from step {kept} under the new rules \
             ({dropped} later move{} dropped).",
            plural(dropped)
        )
    }

    /// After a reload: the new scripts, and the new game with the same
    /// seats, bots and viewer. The game before is kept for `undo`, which
    /// brings back the `dropped` moves the new rules did not replay.
    pub(super) fn reinstall(
        &mut self,
        engine: Engine,
        game: Game,
        specs: Vec<SeatSpec>,
        dropped: usize,
    ) {
        let old_engine = std::mem::replace(&mut self.engine, engine);
        self.words = self.game_words();
        let old = self.current.take();
        let mut cur = Current::new(game, specs, self.colour);
        if let Some(old) = &old {
            cur.bots = old.bots.clone();
            cur.last_human = old.last_human;
        }
        self.current = Some(cur);
        if old.is_some() {
            self.out.say(if dropped == 0 {
                "(`undo` takes the reload back: the game as it was, under the scripts loaded before.)"
                    .to_string()
            } else {
                format!(
                    "(`undo` takes the reload back and brings the {dropped} dropped move{} back: \
                     the game as it was, under the scripts loaded before. After your next move \
                     they are gone.)",
                    plural(dropped)
                )
            });
        }
        self.advance();
        self.after_reload = None;
        self.before_reload = old.map(|current| Reloaded {
            engine: old_engine,
            current,
            at: self.history_now(),
        });
    }

    /// The log of the game in progress (empty without one).
    fn history_now(&self) -> Vec<deckhand_engine::ActionRecord> {
        self.current
            .as_ref()
            .map(|c| c.game.history().to_vec())
            .unwrap_or_default()
    }

    /// A new game, a load: reloads before it can no longer be undone.
    pub(super) fn forget_reloads(&mut self) {
        self.before_reload = None;
        self.after_reload = None;
    }

    /// `undo` right after a reload (the game still where the reload left
    /// it): put the game and the scripts from before the reload back, and
    /// keep the reloaded ones for `redo`. False when there is no such reload.
    pub(super) fn undo_reload(&mut self) -> bool {
        let now = self.history_now();
        if !self.before_reload.as_ref().is_some_and(|r| r.at == now) {
            return false;
        }
        let Some(before) = self.before_reload.take() else {
            return false;
        };
        self.after_reload = self.swap_in(before);
        let n = self.history_now().len();
        self.out.say(format!(
            "Took back the reload: the game is as it was before it ({n} move{}), \
             under the scripts loaded before (`redo` reloads again).",
            plural(n)
        ));
        self.announce();
        true
    }

    /// `redo` right after `undo` took a reload back: the reloaded game and
    /// scripts again. False when there is no such reload.
    pub(super) fn redo_reload(&mut self) -> bool {
        let now = self.history_now();
        if !self.after_reload.as_ref().is_some_and(|r| r.at == now) {
            return false;
        }
        let Some(after) = self.after_reload.take() else {
            return false;
        };
        self.before_reload = self.swap_in(after);
        let n = self.history_now().len();
        self.out.say(format!(
            "Redid the reload: the game under the scripts reloaded ({n} move{}).",
            plural(n)
        ));
        self.announce();
        true
    }

    /// Put `side` in place; what it replaced, marked with `side`'s log.
    fn swap_in(&mut self, side: Reloaded) -> Option<Reloaded> {
        let at = side.current.game.history().to_vec();
        let engine = std::mem::replace(&mut self.engine, side.engine);
        let current = self.current.replace(side.current);
        self.words = self.game_words();
        current.map(|current| Reloaded {
            engine,
            current,
            at,
        })
    }
}

/// ` (seat N)`: who made move `step` (1-based) of `actions`, when it is there.
pub(super) fn seat_of(actions: &[deckhand_engine::ActionRecord], step: usize) -> String {
    actions
        .get(step.saturating_sub(1))
        .map(|r| format!(" (seat {})", r.seat))
        .unwrap_or_default()
}
