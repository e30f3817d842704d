//! Bots: controllers that pick an option for a seat. `random`, `mc`
//! (determinised Monte Carlo search) and `ismcts` (information-set tree
//! search) are built in and play any game; a search bot takes a budget
//! (`mc:500` playouts a decision, `ismcts:1s` or `ismcts:200ms` of time)
//! and a script bot to play out with (`mc:500:greedy`). Any other name is a
//! bot of the game's script
//! (`rules.bots[name]`), which decides from the seat's view only.
//!
//! For an option that asks for a set of cards the random bot builds one
//! card by card, and in a reaction window it passes 9 times in 10 (see
//! [`deckhand_engine::policy`]); the `mc` search tries a few sets of each such option
//! ([`crate::search`]).

use crate::budget::Budget;
use deckhand_engine::cancel::Cancel;
use deckhand_engine::choice::Choice;
use deckhand_engine::error::{CoreError, Result};
use deckhand_engine::game::Game;
use deckhand_engine::policy::{self, PlainBot};
use deckhand_engine::rng::GameRng;
use deckhand_engine::zone::Seat;

/// Which search a search bot runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchMethod {
    /// `mc`: determinised Monte Carlo over the options ([`crate::search`]).
    Mc,
    /// `ismcts`: information-set tree search ([`crate::ismcts`]).
    Ismcts,
    /// `seeall`: `mc` whose playouts start from every hand as it is
    /// ([`crate::search::Guesses::EveryHand`]). It sees what its seat
    /// cannot: a measuring bot (how much better guesses of the hidden
    /// cards could gain at most), refused at a table with people.
    SeeAll,
}

impl SearchMethod {
    /// The name users type.
    pub fn name(self) -> &'static str {
        match self {
            SearchMethod::Mc => "mc",
            SearchMethod::Ismcts => "ismcts",
            SearchMethod::SeeAll => "seeall",
        }
    }

    /// Whether the search sees what its seat cannot (every hand): a bot
    /// for measurement only.
    pub fn sees_every_hand(self) -> bool {
        self == SearchMethod::SeeAll
    }

    /// Playouts a decision when the bot's name gives no budget.
    pub fn default_budget(self) -> Budget {
        Budget::Iterations(match self {
            SearchMethod::Mc | SearchMethod::SeeAll => crate::search::DEFAULT_ITERATIONS,
            SearchMethod::Ismcts => crate::ismcts::DEFAULT_ITERATIONS,
        })
    }
}

/// The longest cut of a playout (`mc:N:cut=K`), in moves.
pub const MAX_CUT: u32 = 100_000;

/// Which kind of bot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BotKind {
    /// Uniformly random legal option.
    Random,
    /// A search bot, as typed (`mc`, `mc:500`, `ismcts:1s`,
    /// `ismcts:200ms:greedy`): the search, its budget per decision, and the
    /// script bot that plays its playouts (random moves when none).
    Search {
        name: String,
        method: SearchMethod,
        budget: Budget,
        playout: Option<String>,
        /// `cut=K` (`mc` and `seeall`): each playout stops after K moves
        /// and is worth the rules' `evaluate`.
        cut: Option<u32>,
        /// `infer` or `infer=S` (`mc` only): guesses weighed by the other
        /// seats' moves ([`crate::infer`]), with slack S in percent.
        infer: Option<u32>,
    },
    /// A bot defined by the game's script.
    Script(String),
    /// A bot barred from some options by a restriction the rules define
    /// (`mc:200/never_stop`: `rules.restrictions.never_stop`), for
    /// measuring what a mechanic is worth: it plays as `bot` among the
    /// options the restriction allows at each of its decisions (all of
    /// them when it allows none). `random`, `mc` and `ismcts` take a bar
    /// (the searches at the decision they make, not in their playouts or
    /// tree below it); a bot of the script sees every option.
    Barred {
        name: String,
        bot: Box<BotKind>,
        restriction: String,
    },
}

impl BotKind {
    /// `random`, a search bot (`mc` or `ismcts`, then optionally `:BUDGET`
    /// and `:BOT`), or the name of a script bot. A search bot's name that
    /// does not read (`mc:abc`) is taken as a script bot's; see
    /// [`BotKind::parse_search`] for why it does not read.
    pub fn parse(name: &str) -> BotKind {
        if name == "random" {
            return BotKind::Random;
        }
        if let Some((bot, restriction)) = name.rsplit_once('/') {
            let bot = BotKind::parse(bot);
            if bot.takes_a_bar() && !restriction.is_empty() {
                return BotKind::Barred {
                    name: name.to_string(),
                    bot: Box::new(bot),
                    restriction: restriction.to_string(),
                };
            }
        }
        match BotKind::parse_search(name) {
            Some(Ok(kind)) => kind,
            _ => BotKind::Script(name.to_string()),
        }
    }

    /// A search bot's name read: `None` when `name` does not start with a
    /// search's name (`mc`, `ismcts`), else the bot or what is wrong with
    /// its name (a budget that does not read, too many parts).
    pub fn parse_search(name: &str) -> Option<std::result::Result<BotKind, String>> {
        let mut parts = name.split(':');
        let method = match parts.next() {
            Some("mc") => SearchMethod::Mc,
            Some("ismcts") => SearchMethod::Ismcts,
            Some("seeall") => SearchMethod::SeeAll,
            _ => return None,
        };
        let m = method.name();
        let cuts = method != SearchMethod::Ismcts;
        let infers = method == SearchMethod::Mc;
        let usage = format!(
            "a search bot is {m}, {m}:BUDGET or {m}:BUDGET:BOT{}, where BUDGET is playouts a \
             decision (1 to {}) or a time (1s, 200ms) and BOT a bot of the game that plays \
             the playouts{}{}",
            match (cuts, infers) {
                (true, true) => " (then optionally :cut=K and :infer)",
                (true, false) => " (then optionally :cut=K)",
                _ => "",
            },
            crate::budget::MAX_ITERATIONS,
            if cuts {
                ", cut=K cuts each playout after K moves and takes the rules' evaluate"
            } else {
                ""
            },
            if infers {
                ", infer (or infer=S, a slack from 0.01 to 1) weighs the guesses by the \
                 other seats' moves"
            } else {
                ""
            }
        );
        let budget = match parts.next() {
            None => method.default_budget(),
            Some(b) => match Budget::parse(b) {
                Ok(b) => b,
                Err(why) => return Some(Err(format!("'{name}': {why} ({usage})"))),
            },
        };
        let (mut playout, mut cut, mut infer) = (None, None, None);
        for part in parts {
            if part == "infer" || part.starts_with("infer=") {
                if !infers {
                    return Some(Err(format!(
                        "'{name}': {m} does not weigh its guesses (only mc does: {usage})"
                    )));
                }
                if infer.is_some() {
                    return Some(Err(format!("'{name}': infer given twice ({usage})")));
                }
                let slack = match part.strip_prefix("infer=") {
                    None => Some(crate::infer::DEFAULT_SLACK_PERCENT),
                    Some(s) => s
                        .parse::<f64>()
                        .ok()
                        .filter(|s| (0.01..=1.0).contains(s))
                        .map(|s| (s * 100.0).round() as u32),
                };
                match slack {
                    Some(s) => infer = Some(s),
                    None => {
                        return Some(Err(format!(
                            "'{name}': {part}: the slack is a number from 0.01 to 1 ({usage})"
                        )))
                    }
                }
            } else if let Some(k) = part.strip_prefix("cut=") {
                if !cuts {
                    return Some(Err(format!(
                        "'{name}': {m} does not cut its playouts ({usage})"
                    )));
                }
                if cut.is_some() {
                    return Some(Err(format!("'{name}': cut= given twice ({usage})")));
                }
                match k.parse::<u32>() {
                    Ok(k) if (1..=MAX_CUT).contains(&k) => cut = Some(k),
                    _ => {
                        return Some(Err(format!(
                            "'{name}': cut={k}: a playout is cut after 1 to {MAX_CUT} moves \
                             ({usage})"
                        )))
                    }
                }
            } else if part.is_empty() {
                return Some(Err(format!(
                    "'{name}': the playout bot is missing ({usage})"
                )));
            } else if playout.is_some() || cut.is_some() || infer.is_some() {
                return Some(Err(format!("'{name}': too many parts ({usage})")));
            } else {
                playout = Some(part.to_string());
            }
        }
        Some(Ok(BotKind::Search {
            name: name.to_string(),
            method,
            budget,
            playout,
            cut,
            infer,
        }))
    }

    /// The name users type.
    pub fn name(&self) -> &str {
        match self {
            BotKind::Random => "random",
            BotKind::Search { name, .. } | BotKind::Barred { name, .. } => name,
            BotKind::Script(n) => n,
        }
    }

    /// Whether this bot can play barred from options ([`BotKind::Barred`]).
    pub fn takes_a_bar(&self) -> bool {
        matches!(
            self,
            BotKind::Random
                | BotKind::Search {
                    method: SearchMethod::Mc | SearchMethod::Ismcts,
                    ..
                }
        )
    }

    /// This bot barred by the rules' restriction `restriction`, or why it
    /// cannot be.
    pub fn barred(&self, restriction: &str) -> std::result::Result<BotKind, String> {
        if !self.takes_a_bar() {
            return Err(format!(
                "'{}' cannot be barred from options: only random, mc and ismcts bots take \
                 a restriction (a script's bot chooses among every option)",
                self.name()
            ));
        }
        Ok(BotKind::Barred {
            name: format!("{}/{restriction}", self.name()),
            bot: Box::new(self.clone()),
            restriction: restriction.to_string(),
        })
    }

    /// Whether the bot sees what its seat cannot (`seeall`): a measuring
    /// bot, never a player at a table with people.
    pub fn sees_every_hand(&self) -> bool {
        matches!(self, BotKind::Search { method, .. } if method.sees_every_hand())
    }
}

/// What reports say of a measuring bot (one that sees every hand) after
/// its name.
pub const SEES_EVERY_HAND: &str = "sees every hand: for measurement only";

/// A bot's name as reports list it: a measuring bot's with
/// [`SEES_EVERY_HAND`] after it (`seeall:200 (sees every hand: for
/// measurement only)`), any other as typed.
pub fn listed_name(name: &str) -> String {
    if BotKind::parse(name).sees_every_hand() {
        format!("{name} ({SEES_EVERY_HAND})")
    } else {
        name.to_string()
    }
}

/// A bot sitting at one seat. Its random numbers come from a stream of its
/// own (so bots never change the game's shuffles), drawn afresh for each
/// decision from the game's seed, the seat and the step: the same position
/// gets the same choice, after `undo`, `load` or a replay too.
#[derive(Debug, Clone)]
pub struct Bot {
    pub kind: BotKind,
    seed: u64,
    seat: Seat,
    /// Checked by the search between playouts (a person's Ctrl-C).
    cancel: Option<Cancel>,
}

impl Bot {
    /// A bot for `seat` in a game seeded with `seed`.
    pub fn new(kind: BotKind, seed: u64, seat: Seat) -> Bot {
        Bot {
            kind,
            seed,
            seat,
            cancel: None,
        }
    }

    /// The seed of the game it was made for.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Its seat.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// Let `cancel` stop this bot's search (with
    /// [`CoreError::Cancelled`], between two playouts); `None`: nothing
    /// stops it.
    pub fn set_cancel(&mut self, cancel: Option<Cancel>) {
        self.cancel = cancel;
    }

    /// What the seat to move chooses: an option and, for one that asks
    /// for cards, the set (see [`deckhand_engine::policy`] for how the random bot
    /// builds one and how often it passes in a reaction window).
    pub fn choose(&mut self, game: &Game) -> Result<Choice> {
        if game.pending().is_none() {
            return Err(CoreError::Rule("the game is over".into()));
        }
        let rng = policy::decision_rng(self.seed, self.seat, game.history().len() + 1);
        self.choose_as(&self.kind, game, rng, None)
    }

    /// What `kind` chooses among `allowed` (1-based; every option when
    /// `None`).
    fn choose_as(
        &self,
        kind: &BotKind,
        game: &Game,
        mut rng: GameRng,
        allowed: Option<&[usize]>,
    ) -> Result<Choice> {
        match kind {
            BotKind::Barred {
                bot, restriction, ..
            } => {
                let allowed = game.allowed(restriction)?;
                self.choose_as(bot, game, rng, allowed.as_deref())
            }
            BotKind::Random => match allowed {
                None => PlainBot::Random.choose(game, rng),
                Some(allowed) => policy::random_choice_among(game, &mut rng, allowed),
            },
            BotKind::Search {
                method: method @ (SearchMethod::Mc | SearchMethod::SeeAll),
                budget,
                playout,
                cut,
                infer,
                ..
            } => crate::search::choose_from(
                game,
                &mut rng,
                *budget,
                playout.as_deref(),
                self.cancel.as_ref(),
                crate::search::Settings {
                    guesses: if method.sees_every_hand() {
                        crate::search::Guesses::EveryHand
                    } else {
                        crate::search::Guesses::OwnView
                    },
                    cut: *cut,
                    allowed,
                    infer: *infer,
                },
            ),
            BotKind::Search {
                method: SearchMethod::Ismcts,
                budget,
                playout,
                ..
            } => crate::ismcts::choose_among(
                game,
                &mut rng,
                *budget,
                playout.as_deref(),
                self.cancel.as_ref(),
                allowed,
            ),
            BotKind::Script(name) => PlainBot::Script(name.clone()).choose(game, rng),
        }
    }
}

impl deckhand_engine::runner::Chooser for Bot {
    fn choose(&mut self, game: &Game) -> Result<Choice> {
        Bot::choose(self, game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_into_kinds() {
        assert_eq!(BotKind::parse("random"), BotKind::Random);
        let search = |name: &str, method, budget, playout: Option<&str>| BotKind::Search {
            name: name.into(),
            method,
            budget,
            playout: playout.map(str::to_string),
            cut: None,
            infer: None,
        };
        use SearchMethod::{Ismcts, Mc};
        assert_eq!(
            BotKind::parse("mc"),
            search("mc", Mc, Mc.default_budget(), None)
        );
        assert_eq!(
            BotKind::parse("mc:50"),
            search("mc:50", Mc, Budget::Iterations(50), None)
        );
        assert_eq!(
            BotKind::parse("mc:50:greedy"),
            search("mc:50:greedy", Mc, Budget::Iterations(50), Some("greedy"))
        );
        assert_eq!(
            BotKind::parse("ismcts"),
            search("ismcts", Ismcts, Ismcts.default_budget(), None)
        );
        let ms = |n| Budget::Time(std::time::Duration::from_millis(n));
        assert_eq!(
            BotKind::parse("ismcts:200ms"),
            search("ismcts:200ms", Ismcts, ms(200), None)
        );
        assert_eq!(
            BotKind::parse("mc:1s:greedy"),
            search("mc:1s:greedy", Mc, ms(1000), Some("greedy"))
        );
        let cut = |name: &str, playout: Option<&str>, k| BotKind::Search {
            name: name.into(),
            method: Mc,
            budget: ms(100),
            playout: playout.map(str::to_string),
            cut: Some(k),
            infer: None,
        };
        assert_eq!(
            BotKind::parse("mc:100ms:cut=8"),
            cut("mc:100ms:cut=8", None, 8)
        );
        assert_eq!(
            BotKind::parse("mc:100ms:greedy:cut=12"),
            cut("mc:100ms:greedy:cut=12", Some("greedy"), 12)
        );
        for other in [
            "mc:0",
            "mc:x",
            "mc:5:a:b",
            "ismcts:abc",
            "greedy",
            "mcx",
            "mc:5:cut=0",
            "mc:5:cut=8:greedy",
            "ismcts:5:cut=8",
        ] {
            assert_eq!(BotKind::parse(other), BotKind::Script(other.into()));
        }
    }

    #[test]
    fn search_names_that_do_not_read_say_why() {
        let why = |name: &str| match BotKind::parse_search(name) {
            Some(Err(e)) => e,
            other => panic!("{name}: {other:?}"),
        };
        assert!(why("mc:abc").starts_with("'mc:abc': 'abc' is not a budget"));
        assert!(why("mc:abc").contains("a time (1s, 200ms)"));
        assert!(why("ismcts:0").contains("1 to 100000 playouts"));
        assert!(why("ismcts:5x").contains("not a budget"));
        assert!(why("ismcts:2h").contains("not a budget"));
        assert!(why("mc:5:a:b").contains("too many parts"));
        assert!(why("mc:5:").contains("playout bot is missing"));
        assert!(why("mc:5:cut=x").contains("cut=x: a playout is cut after 1 to"));
        assert!(why("mc:5:cut=2:cut=3").contains("cut= given twice"));
        assert!(why("mc:5:cut=2:greedy").contains("too many parts"));
        assert!(why("ismcts:5:cut=2").contains("ismcts does not cut its playouts"));
        assert_eq!(BotKind::parse_search("greedy"), None);
    }
}
