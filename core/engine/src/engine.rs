//! The engine: one sandboxed VM and the rules loaded into it. Games are
//! started, replayed and listed from here. An engine is single-threaded; run
//! one per thread for parallel simulation.

use crate::config::GameConfig;
use crate::error::{CoreError, Result};
use crate::game::{ActionRecord, Game};
use crate::house_rule;
use crate::library::ScriptLibrary;
use crate::lua::{Host, Limits};
use crate::rules::{self, GameEntry, Rules};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;

/// Composed rules by game id, variant list and, for each variant, the
/// text of the house-rule file it names when the config holds it (two
/// texts under one path are two different rules).
type RulesCache = BTreeMap<(String, Vec<String>, Vec<Option<String>>), Rc<Rules>>;

/// A VM with its loaded rules.
pub struct Engine {
    host: Rc<Host>,
    cache: RefCell<RulesCache>,
}

/// A replay that stopped: the game as far as it went (none when even the
/// setup failed), and why it stopped.
pub struct ReplayStop {
    pub game: Option<Game>,
    pub error: CoreError,
}

impl Engine {
    /// An engine over `library` with the default limits.
    pub fn new(library: Arc<ScriptLibrary>) -> Result<Engine> {
        Self::with_limits(library, Limits::default())
    }

    /// An engine with explicit instruction and memory limits.
    pub fn with_limits(library: Arc<ScriptLibrary>, limits: Limits) -> Result<Engine> {
        Ok(Engine {
            host: Rc::new(Host::new(library, limits)?),
            cache: RefCell::new(BTreeMap::new()),
        })
    }

    /// The count of calls into scripts (see [`Host::activity`]).
    pub fn activity(&self) -> Arc<std::sync::atomic::AtomicU64> {
        self.host.activity()
    }

    /// The Lua host.
    pub fn host(&self) -> &Rc<Host> {
        &self.host
    }

    /// Forget the rules loaded so far: the next game loads its rules
    /// afresh, in a new environment, so nothing an earlier game's scripts
    /// changed in their own world (module tables, globals) carries over.
    /// Front ends where a person starts one game at a time do this for
    /// every game; batch runs keep the rules for speed.
    pub fn forget_rules(&self) {
        self.cache.borrow_mut().clear();
    }

    /// The rules for a game with variants, composed once per engine
    /// (house-rule files are read from disk the first time).
    pub fn rules(&self, game: &str, variants: &[String]) -> Result<Rc<Rules>> {
        self.rules_with(game, variants, &BTreeMap::new())
    }

    /// The rules of a game config: its game and variants, with the text of
    /// its house-rule files taken from the config when it holds them.
    pub fn rules_of(&self, config: &GameConfig) -> Result<Rc<Rules>> {
        self.rules_with(&config.game, &config.variants, &config.sources)
    }

    fn rules_with(
        &self,
        game: &str,
        variants: &[String],
        sources: &BTreeMap<String, String>,
    ) -> Result<Rc<Rules>> {
        let texts = variants
            .iter()
            .map(|v| {
                house_rule::is_file(v)
                    .then(|| sources.get(v).cloned())
                    .flatten()
            })
            .collect();
        let key = (game.to_string(), variants.to_vec(), texts);
        if let Some(r) = self.cache.borrow().get(&key) {
            return Ok(r.clone());
        }
        let compose = || rules::compose(&self.host, game, variants, sources);
        let r = Rc::new(self.located(compose(), compose)?);
        self.cache.borrow_mut().insert(key, r.clone());
        Ok(r)
    }

    /// Every script file that ran for the rules of `config` (composing
    /// them if this engine has not yet), with the hash of its text: the
    /// host's own scripts, then the game file, its variants and house
    /// rules and the modules they required, in the order they were loaded
    /// (see [`crate::digest`]).
    pub fn scripts_of(&self, config: &GameConfig) -> Result<Vec<crate::digest::ScriptHash>> {
        let rules = self.rules_of(config)?;
        let mut all = crate::digest::builtin_scripts();
        all.extend(rules.scripts.iter().cloned());
        Ok(all)
    }

    /// The scripts search path this engine loads from.
    pub fn library(&self) -> &Arc<ScriptLibrary> {
        self.host.library()
    }

    /// Every game on the search path with its variants.
    pub fn catalog(&self) -> Result<Vec<GameEntry>> {
        let lib = self.host.library().clone();
        let mut out = Vec::new();
        for dir in lib.list("") {
            if lib.read(&rules::game_path(&dir)).is_none() {
                continue;
            }
            let info = self.rules(&dir, &[])?.info.clone();
            let mut variants = Vec::new();
            for file in lib.list(&format!("{dir}/variants")) {
                if let Some(stem) = file.strip_suffix(".lua") {
                    let text = rules::variant_text(&lib, &dir, stem, None)?;
                    let mut v = rules::variant_info(&self.host, &text)?;
                    // What the variant adds or changes, from the game composed with it
                    // (after the variants it requires).
                    let mut list = v.requires.clone();
                    list.push(stem.to_string());
                    let with = self.rules(&dir, &list)?;
                    v.options = with
                        .info
                        .options
                        .iter()
                        .filter(|(name, spec)| info.options.get(*name) != Some(spec))
                        .map(|(name, spec)| (name.clone(), spec.clone()))
                        .collect();
                    v.players = (with.info.players != info.players).then_some(with.info.players);
                    variants.push(v);
                }
            }
            out.push(GameEntry { info, variants });
        }
        Ok(out)
    }

    /// Read a variant or house-rule file's declaration (id, title, game).
    /// Only a `.lua` regular file is read (see [`house_rule::read`]).
    pub fn variant_file_info(&self, path: &std::path::Path) -> Result<rules::VariantInfo> {
        rules::variant_info(&self.host, &ScriptLibrary::read_file(path)?)
    }

    /// Start a game. `logging` records events and action values (needed for
    /// the REPL, saves and traces; off for bulk simulation). A house-rule
    /// file whose text the config does not hold is read now, so that the
    /// game's config (its saves, its traces) holds the text it is played with.
    pub fn new_game(&self, mut config: GameConfig, logging: bool) -> Result<Game> {
        config.read_house_rules(false)?;
        let rules = self.rules_of(&config)?;
        let start = || {
            Game::start(
                self.host.clone(),
                rules.clone(),
                config.clone(),
                logging,
                logging,
                replay_fresh,
            )
        };
        self.located(start(), start)
    }

    /// `first`, the outcome of loading rules or of a game's setup; when it
    /// failed with no exact position (out of memory, a stack overflow in
    /// compiled code), the same work done again with the script's position
    /// noted finely (in the interpreter when the compiler runs), to name
    /// where it failed: the work is deterministic, so it fails the same
    /// way.
    fn located<T>(&self, first: Result<T>, again: impl FnOnce() -> Result<T>) -> Result<T> {
        match first {
            Err(CoreError::Script(msg)) if crate::lua::lacks_position(&msg) => {
                let again = self.host.with_fine_positions(again);
                let msg = match (again, crate::lua::last_position()) {
                    (Err(_), Some(at)) => crate::lua::with_position(&msg, &at),
                    _ => msg,
                };
                Err(CoreError::Script(msg))
            }
            other => other,
        }
    }

    /// Start a game whose events are recorded for a trace: as
    /// [`Engine::new_game`] logging, but the events go without their words
    /// (`game.words` is false, so the scripts skip building each event's
    /// `text`), which a trace leaves out. Undo and redo keep it so.
    pub fn new_traced_game(&self, mut config: GameConfig) -> Result<Game> {
        config.read_house_rules(false)?;
        let rules = self.rules_of(&config)?;
        Game::start(self.host.clone(), rules, config, true, false, replay_fresh)
    }

    /// Replay recorded actions on a fresh game. Each action is matched by
    /// value against the legal options (so edited rules are checked), or by
    /// index when no value was recorded. A step that is no longer legal
    /// stops it with [`CoreError::Replay`]; rules that fail at a step (a
    /// script error) with [`CoreError::ReplayFailed`]. Either way the game
    /// is handed back as it stood before that step.
    pub fn replay(
        &self,
        config: GameConfig,
        actions: &[ActionRecord],
    ) -> std::result::Result<Game, Box<ReplayStop>> {
        let mut game = self
            .new_game(config, true)
            .map_err(|error| Box::new(ReplayStop { game: None, error }))?;
        for (i, rec) in actions.iter().enumerate() {
            let step = i + 1;
            let error = match game.match_action(rec) {
                Ok(choice) => match game.apply_choice(&choice) {
                    Ok(()) => continue,
                    Err(e) => replay_error(step, e),
                },
                // Matching asks the rules for the options in words: when
                // that fails, the rules failed.
                Err(reason) => match game.decision() {
                    Err(e) if rules_failed(&e) => replay_error(step, e),
                    _ => CoreError::Replay { step, reason },
                },
            };
            game.take_events();
            return Err(Box::new(ReplayStop {
                game: Some(game),
                error,
            }));
        }
        game.take_events();
        Ok(game)
    }
}

/// A game replayed in a fresh engine (a new VM, the rules loaded again):
/// how a game whose VM failed is put back (see `Game::restore`).
fn replay_fresh(
    library: &Arc<ScriptLibrary>,
    limits: Limits,
    config: GameConfig,
    actions: &[ActionRecord],
) -> Result<Game> {
    Engine::with_limits(library.clone(), limits)?
        .replay(config, actions)
        .map_err(|stop| stop.error)
}

/// Why step `step` of a replayed log could not be applied: the rules
/// failed (a script error, with its file and line), or the step is not
/// legal under them.
fn replay_error(step: usize, error: CoreError) -> CoreError {
    if rules_failed(&error) {
        return CoreError::ReplayFailed {
            step,
            error: Box::new(error),
        };
    }
    CoreError::Replay {
        step,
        reason: error.to_string(),
    }
}

/// Whether `error` is the rules failing (a script error, or one that left
/// the game unusable), not a refusal of what was chosen.
fn rules_failed(error: &CoreError) -> bool {
    matches!(error, CoreError::Script(_) | CoreError::Restore { .. })
}
