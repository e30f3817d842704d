//! deckhand-engine: the game-agnostic engine of deckhand, the lowest layer.
//!
//! The engine owns the state of a game (cards, zones, seats and teams, the
//! seeded RNG, the pending decision and the logs); the rules of every game
//! are Lua scripts run in a sandboxed VM ([`lua::Host`]). It knows no
//! particular game, no search bot and no statistics, and does no terminal
//! I/O. The bots (deckhand-bots) and the lab (deckhand-lab) build on it.
//!
//! Start from [`Engine`]: it loads rules from a [`ScriptLibrary`] and starts
//! [`Game`]s, which advance one decision at a time through [`Game::apply`].

pub mod cancel;
pub mod card;
pub mod choice;
pub mod chooser;
pub mod config;
pub mod conformance;
pub mod digest;
pub mod engine;
pub mod error;
pub mod event;
pub mod files;
pub mod game;
pub mod house_rule;
pub mod knowledge;
pub mod library;
pub mod lua;
pub mod meta;
pub mod policy;
pub mod rng;
pub mod rules;
pub mod runner;
pub mod save;
pub mod table;
pub mod trace;
pub mod variant_effect;
pub mod zone;

pub use cancel::Cancel;
pub use card::{CardDef, CardId};
pub use choice::{Choice, SubsetSpec};
pub use config::GameConfig;
pub use conformance::{Checks, Failure, Report, Suite};
pub use engine::{Engine, ReplayStop};
pub use error::{CoreError, Result};
pub use event::{Event, EventKind, MoveHow};
pub use game::{
    secret_text, ActionRecord, DecisionView, Game, GameResult, Guessing, OptionView, SeatView,
    ZoneView,
};
pub use library::{DirSource, MemorySource, ScriptLibrary, ScriptSource};
pub use meta::{EventMeta, OptionMeta};
pub use policy::{PlainBot, PlainChooser};
pub use rules::{GameEntry, MetricInfo, OptionSpec, PlayerRange, RulesInfo, VariantInfo};
pub use runner::{Chooser, Choosing, Observer, Runner, StepError, Stop};
pub use save::{HouseRuleNote, SaveFile};
pub use trace::{GameTrace, TraceLevel, TraceWriter};
pub use zone::{Seat, Visibility};
