//! deckhand-bots: the search bots of deckhand, over any game of the engine.
//!
//! - [`bot`]: [`Bot`], [`BotKind`]: the bots users name (`random`, a script
//!   bot, `mc:500`, `ismcts:1s:greedy`), each a chooser for the engine's
//!   runner;
//! - [`budget`]: [`Budget`], a search's allowance per decision (playouts or
//!   time);
//! - [`search`]: `mc`, determinised Monte Carlo search;
//! - `halving`: the root both searches share, sequential halving over
//!   shared deals;
//! - [`infer`]: inference for `mc`, guesses weighed by the other seats'
//!   moves;
//! - [`ismcts`]: information-set Monte Carlo tree search;
//! - [`hint`]: two `ismcts` searches side by side, for a person's `hint`;
//! - [`recipe`]: a game rebuilt in a VM of its own, for another thread.
//!
//! The random and script bots themselves are the engine's
//! ([`deckhand_engine::policy`]); this crate adds the searches.

pub mod bot;
pub mod budget;
mod halving;
pub mod hint;
pub mod infer;
pub mod ismcts;
pub mod recipe;
pub mod search;

pub use bot::{Bot, BotKind, SearchMethod};
pub use budget::Budget;
