//! An experiment: arms (a set of rules, options and seats each) playing
//! the same seeds. Game `i` of every arm starts from seed `first + i`, so
//! differences between arms come from the rules, not from the deal.

use deckhand_bots::bot::{Bot, BotKind};
use deckhand_engine::config::GameConfig;
use serde::{Deserialize, Serialize};

/// One arm: a configuration of the game and the bot at each seat.
#[derive(Debug, Clone)]
pub struct Arm {
    pub name: String,
    /// The game, variants, options and player count (the seed is set per
    /// game).
    pub config: GameConfig,
    /// The bot of each seat, seat 1 first (before rotation).
    pub seats: Vec<BotKind>,
    /// Mixed into the seed of the arm's bots (0: none): an arm that plays
    /// the same deals as another with its bots' own random numbers drawn
    /// afresh (a skill report's replayed table).
    pub bot_salt: u64,
}

/// Arms, seeds and seating.
#[derive(Debug, Clone)]
pub struct Experiment {
    pub arms: Vec<Arm>,
    /// The seed of game 0.
    pub first_seed: u64,
    /// Rotate the seats: in game `i` seat `s` is taken by the arm's bot
    /// `(s + i) mod players`, so that over any run of `players` games every
    /// bot sits once in every seat, and game `i` rotates the same way in
    /// every arm (the rotation is paired too).
    pub rotate: bool,
}

impl Experiment {
    /// The seed of game `i` (in every arm).
    pub fn seed(&self, i: u64) -> u64 {
        self.first_seed.wrapping_add(i)
    }

    /// The configuration of game `i` of arm `arm`.
    pub fn config(&self, arm: usize, i: u64) -> GameConfig {
        let mut c = self.arms[arm].config.clone();
        c.seed = self.seed(i);
        c
    }

    /// The bot at each seat in game `i` of arm `arm`.
    pub fn seating(&self, arm: usize, i: u64) -> Vec<BotKind> {
        let seats = &self.arms[arm].seats;
        self.players_at(arm, i)
            .into_iter()
            .map(|k| seats[k].clone())
            .collect()
    }

    /// The player (0-based place in the arm's seat list) at each seat of
    /// game `i` of arm `arm`.
    pub fn players_at(&self, arm: usize, i: u64) -> Vec<usize> {
        let p = self.arms[arm].seats.len();
        if !self.rotate {
            return (0..p).collect();
        }
        rotation(p, i)
    }

    /// The seed of the bots of game `i` of arm `arm`: the game's, mixed
    /// with the arm's salt when it has one.
    pub fn bot_seed(&self, arm: usize, i: u64) -> u64 {
        let salt = self.arms[arm].bot_salt;
        if salt == 0 {
            self.seed(i)
        } else {
            self.seed(i) ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        }
    }

    /// The bots of game `i` of arm `arm`, seeded by the game's seed and
    /// their seat.
    pub fn bots(&self, arm: usize, i: u64) -> Vec<Bot> {
        let seed = self.bot_seed(arm, i);
        self.seating(arm, i)
            .into_iter()
            .enumerate()
            .map(|(s, k)| Bot::new(k, seed, s as u32 + 1))
            .collect()
    }

    /// Whether some arm seats different bots (bot comparisons, where the
    /// seats should rotate).
    pub fn mixed_seats(&self) -> bool {
        self.arms
            .iter()
            .any(|a| a.seats.windows(2).any(|w| w[0].name() != w[1].name()))
    }
}

/// The player (0-based place in a seat list of `p`) at each seat of game
/// `i` when seats rotate: seat `s` is taken by player `(s + i) mod p`.
pub fn rotation(p: usize, i: u64) -> Vec<usize> {
    if p == 0 {
        return Vec::new();
    }
    let r = (i % p as u64) as usize;
    (0..p).map(|s| (s + r) % p).collect()
}

/// When a run stops.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum StopRule {
    /// After this many games.
    Games(u64),
    /// When the 95 % half-width of `on` is at most `target`, looked at
    /// every `every` games (in seed order), else after `max` games. With
    /// one arm `on` is the arm's statistic; with several, every difference
    /// of it against the first arm.
    Precision {
        target: f64,
        on: crate::Key,
        every: u64,
        max: u64,
    },
    /// Until the result on `on` is decisive: with several arms, until every
    /// difference of `on` against the first arm lies wholly above or below
    /// 0; with one arm, until the arm's `on` lies wholly above or below
    /// `against`. Looked at every `every` games (in seed order), else
    /// after `max` games. Each look uses an interval at the level
    /// 1 - 0.05/L, L the most looks the run may make (Bonferroni over the
    /// looks), so that the chance of stopping on a difference that is not
    /// there stays at most 5 % however many looks are made.
    Decisive {
        on: crate::Key,
        against: f64,
        every: u64,
        max: u64,
    },
}

impl StopRule {
    /// The most games the rule may play.
    pub fn max_games(&self) -> u64 {
        match self {
            StopRule::Games(n) => *n,
            StopRule::Precision { max, .. } | StopRule::Decisive { max, .. } => *max,
        }
    }

    /// Whether the rule looks at the results as they come (and so needs
    /// every game in seed order, which a shard or a trace cannot give).
    pub fn sequential(&self) -> bool {
        !matches!(self, StopRule::Games(_))
    }

    /// The most looks the rule makes.
    pub fn looks(&self) -> u64 {
        self.max_games().div_ceil(self.window())
    }

    /// The two-sided level each look of a [`StopRule::Decisive`] uses:
    /// 0.05 shared equally among the looks.
    pub fn alpha_per_look(&self) -> f64 {
        crate::stats::ALPHA / self.looks().max(1) as f64
    }

    /// How many games lie between two looks at the results.
    pub fn window(&self) -> u64 {
        match self {
            StopRule::Games(n) => (*n).max(1),
            StopRule::Precision { every, .. } | StopRule::Decisive { every, .. } => (*every).max(1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_puts_every_bot_in_every_seat_equally() {
        let e = Experiment {
            arms: vec![Arm {
                name: "a".into(),
                config: GameConfig::new("g", 3, 0),
                seats: vec![
                    BotKind::Random,
                    BotKind::Script("greedy".into()),
                    BotKind::Random,
                ],
                bot_salt: 0,
            }],
            first_seed: 7,
            rotate: true,
        };
        let mut greedy_at = [0; 3];
        for i in 0..30 {
            let s = e.seating(0, i);
            let at = s.iter().position(|k| k.name() == "greedy");
            greedy_at[at.unwrap_or(9)] += 1;
        }
        assert_eq!(greedy_at, [10, 10, 10]);
        assert_eq!(e.config(0, 5).seed, 12);
        assert!(e.mixed_seats());
    }
}
