//! What one finished game contributes to the statistics: its values, each
//! named by a [`Key`].

use deckhand_engine::error::Result;
use deckhand_engine::game::{Game, GameResult};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// The name of a statistic. The order of the variants is the order of the
/// rows in a report.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Key {
    /// Share of the games a seat won (1/k on a win shared by k teams).
    SeatWin(u32),
    /// A team's share of wins, when the rules set teams.
    TeamWin(u32),
    /// Player `k`'s share of wins when seats rotate: the `k`-th bot of
    /// the arm's seat list, wherever it sits in this game.
    PlayerWin(u32),
    /// Player 1's share of wins minus player `k`'s in the same game, when
    /// seats rotate: a head-to-head of two bots at one table, paired game
    /// by game (each game deals both of them the same luck).
    PlayerLead(u32),
    /// The first seat's edge: its share of wins minus 1 / the number of
    /// teams (or seats).
    Edge,
    /// Final score of a seat.
    SeatScore(u32),
    /// Player `k`'s final score, when seats rotate.
    PlayerScore(u32),
    /// Rounds per game (the result's `rounds`).
    Rounds,
    /// Decisions per game.
    Decisions,
    /// The winner's distance to the nearest other team's score, on the
    /// side the game counts (most or fewest points win; see
    /// [`Outcome::rows`]).
    Margin,
    /// Share of games won by several teams together.
    Shared,
    /// Share of games nobody won.
    NoWinner,
    /// A metric of the rules (`rules.metrics`).
    Metric(String),
    /// Final scores of every seat together (a distribution only).
    Score,
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::SeatWin(s) => write!(f, "win.seat{s}"),
            Key::TeamWin(t) => write!(f, "win.team{t}"),
            Key::PlayerWin(k) => write!(f, "win.player{k}"),
            Key::PlayerLead(k) => write!(f, "lead.player{k}"),
            Key::Edge => write!(f, "edge"),
            Key::SeatScore(s) => write!(f, "score.seat{s}"),
            Key::PlayerScore(k) => write!(f, "score.player{k}"),
            Key::Rounds => write!(f, "rounds"),
            Key::Decisions => write!(f, "decisions"),
            Key::Margin => write!(f, "margin"),
            Key::Shared => write!(f, "shared"),
            Key::NoWinner => write!(f, "no_winner"),
            Key::Metric(m) => write!(f, "metric:{m}"),
            Key::Score => write!(f, "score"),
        }
    }
}

impl Key {
    /// The statistic in words, as reports print it.
    pub fn label(&self) -> String {
        match self {
            Key::SeatWin(s) => format!("seat {s} wins"),
            Key::TeamWin(t) => format!("team {t} wins"),
            Key::PlayerWin(k) => format!("player {k} wins"),
            Key::PlayerLead(k) => format!("player 1 wins minus player {k} wins"),
            Key::Edge => "first-seat edge".into(),
            Key::SeatScore(s) => format!("seat {s} score"),
            Key::PlayerScore(k) => format!("player {k} score"),
            Key::Rounds => "rounds per game".into(),
            Key::Decisions => "decisions per game".into(),
            Key::Margin => "winning margin".into(),
            Key::Shared => "shared wins".into(),
            Key::NoWinner => "no winner".into(),
            Key::Metric(m) => m.clone(),
            Key::Score => "final score (every seat)".into(),
        }
    }
}

impl std::str::FromStr for Key {
    type Err = String;

    /// The name [`Key`]'s `Display` writes.
    fn from_str(s: &str) -> std::result::Result<Key, String> {
        let number = |t: &str| t.parse::<u32>().ok().filter(|n| *n > 0);
        let key = if let Some(m) = s.strip_prefix("metric:") {
            Some(Key::Metric(m.to_string()))
        } else if let Some(n) = s.strip_prefix("win.player") {
            number(n).map(Key::PlayerWin)
        } else if let Some(n) = s.strip_prefix("lead.player") {
            number(n).filter(|n| *n >= 2).map(Key::PlayerLead)
        } else if let Some(n) = s.strip_prefix("score.player") {
            number(n).map(Key::PlayerScore)
        } else if let Some(n) = s.strip_prefix("win.seat") {
            number(n).map(Key::SeatWin)
        } else if let Some(n) = s.strip_prefix("win.team") {
            number(n).map(Key::TeamWin)
        } else if let Some(n) = s.strip_prefix("score.seat") {
            number(n).map(Key::SeatScore)
        } else {
            match s {
                "edge" => Some(Key::Edge),
                "rounds" => Some(Key::Rounds),
                "decisions" => Some(Key::Decisions),
                "margin" => Some(Key::Margin),
                "shared" => Some(Key::Shared),
                "no_winner" => Some(Key::NoWinner),
                "score" => Some(Key::Score),
                _ => None,
            }
        };
        key.ok_or_else(|| {
            format!(
                "'{s}' names no statistic (win.seatN, win.teamN, win.playerN, lead.playerN, edge, \
                 score.seatN, score.playerN, rounds, decisions, margin, shared, no_winner, \
                 metric:NAME)"
            )
        })
    }
}

impl Serialize for Key {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Key, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// One finished game, as the statistics see it.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// Final score of each seat, seat 1 first (may be empty).
    pub scores: Vec<f64>,
    /// The winning seats.
    pub winners: Vec<u32>,
    /// The team (0-based) of each seat when the rules set teams.
    pub teams: Option<Vec<usize>>,
    pub players: u32,
    pub rounds: u32,
    pub decisions: usize,
    /// The metrics by name, sorted (`None`: does not apply to this game).
    pub metrics: Vec<(String, Option<f64>)>,
    /// When seats rotate: the player (0-based place in the arm's seat
    /// list) at each seat, seat 1 first (per-player rows).
    pub players_at: Option<Vec<usize>>,
}

impl Outcome {
    /// Read a finished game: its result, teams and metrics.
    pub fn of(game: &Game, result: &GameResult) -> Result<Outcome> {
        Ok(Outcome {
            scores: result.scores.clone(),
            winners: result.winners.clone(),
            teams: game.seat_teams()?,
            players: game.config().players,
            rounds: result.rounds,
            decisions: game.history().len(),
            metrics: game.metrics()?,
            players_at: None,
        })
    }

    /// The team of a seat (each seat its own team without teams).
    fn team(&self, seat: u32) -> usize {
        match &self.teams {
            Some(t) => t.get(seat as usize - 1).copied().unwrap_or(usize::MAX),
            None => seat as usize - 1,
        }
    }

    /// The winning margin: with one winning team, its best score's distance
    /// to the nearest score of the other teams, on the side the game counts
    /// (the winner highest: most points win; lowest: fewest win). `None`
    /// without scores, with no or several winning teams, or when the
    /// winner's score is neither the highest nor the lowest (a win not
    /// decided by the score).
    fn margin(&self, won_teams: &[usize]) -> Option<f64> {
        let p = self.players;
        if won_teams.len() != 1 || p < 2 || self.scores.len() < p as usize {
            return None;
        }
        let (mut winning, mut others) = (Vec::new(), Vec::new());
        for s in 1..=p {
            let x = self.scores[s as usize - 1];
            if won_teams.contains(&self.team(s)) {
                winning.push(x);
            } else {
                others.push(x);
            }
        }
        let max = |v: &[f64]| v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let min = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
        if others.is_empty() || winning.is_empty() {
            return None;
        }
        let (w_hi, w_lo, o_hi, o_lo) = (max(&winning), min(&winning), max(&others), min(&others));
        if w_hi >= o_hi {
            Some(w_hi - o_hi)
        } else if w_lo <= o_lo {
            Some(o_lo - w_lo)
        } else {
            None
        }
    }

    /// The game's values, sorted by key.
    pub fn rows(&self) -> Vec<(Key, f64)> {
        let p = self.players;
        let mut won_teams: Vec<usize> = self
            .winners
            .iter()
            .filter(|&&w| w >= 1 && w <= p)
            .map(|&w| self.team(w))
            .collect();
        won_teams.sort_unstable();
        won_teams.dedup();
        let k = won_teams.len();
        let share = |team: usize| {
            if won_teams.contains(&team) {
                1.0 / k as f64
            } else {
                0.0
            }
        };
        let mut rows = Vec::with_capacity(3 * p as usize + 8 + self.metrics.len());
        for s in 1..=p {
            rows.push((Key::SeatWin(s), share(self.team(s))));
            if let Some(x) = self.scores.get(s as usize - 1) {
                rows.push((Key::SeatScore(s), *x));
            }
        }
        let team_count = match &self.teams {
            Some(t) => {
                let mut ids: Vec<usize> = t.clone();
                ids.sort_unstable();
                ids.dedup();
                for (i, &team) in ids.iter().enumerate() {
                    rows.push((Key::TeamWin(i as u32 + 1), share(team)));
                }
                ids.len()
            }
            None => p as usize,
        };
        if p >= 1 {
            rows.push((
                Key::Edge,
                share(self.team(1)) - 1.0 / team_count.max(1) as f64,
            ));
        }
        if let Some(at) = &self.players_at {
            // Each player's share of wins, by its place in the seat list.
            let mut wins = vec![0.0; at.len()];
            for (seat, &k) in at.iter().enumerate() {
                let won = share(self.team(seat as u32 + 1));
                if let Some(w) = wins.get_mut(k) {
                    *w = won;
                }
                rows.push((Key::PlayerWin(k as u32 + 1), won));
                if let Some(x) = self.scores.get(seat) {
                    rows.push((Key::PlayerScore(k as u32 + 1), *x));
                }
            }
            for k in 1..wins.len() {
                rows.push((Key::PlayerLead(k as u32 + 1), wins[0] - wins[k]));
            }
        }
        rows.push((Key::Rounds, self.rounds as f64));
        rows.push((Key::Decisions, self.decisions as f64));
        if let Some(m) = self.margin(&won_teams) {
            rows.push((Key::Margin, m));
        }
        rows.push((Key::Shared, if k >= 2 { 1.0 } else { 0.0 }));
        rows.push((Key::NoWinner, if k == 0 { 1.0 } else { 0.0 }));
        for (name, v) in &self.metrics {
            if let Some(x) = v {
                rows.push((Key::Metric(name.clone()), *x));
            }
        }
        rows.sort_by(|a, b| a.0.cmp(&b.0));
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(winners: Vec<u32>, teams: Option<Vec<usize>>) -> Outcome {
        Outcome {
            scores: vec![3.0, 1.0, 3.0, 0.0],
            winners,
            teams,
            players: 4,
            rounds: 5,
            decisions: 100,
            metrics: vec![("a".into(), Some(2.0)), ("b".into(), None)],
            players_at: None,
        }
    }

    fn get(rows: &[(Key, f64)], k: Key) -> Option<f64> {
        rows.iter().find(|(x, _)| *x == k).map(|r| r.1)
    }

    #[test]
    fn a_team_win_is_one_win_not_a_shared_one() {
        let rows = outcome(vec![1, 3], Some(vec![0, 1, 0, 1])).rows();
        assert_eq!(get(&rows, Key::Shared), Some(0.0));
        assert_eq!(get(&rows, Key::SeatWin(1)), Some(1.0));
        assert_eq!(get(&rows, Key::SeatWin(3)), Some(1.0));
        assert_eq!(get(&rows, Key::TeamWin(1)), Some(1.0));
        assert_eq!(get(&rows, Key::TeamWin(2)), Some(0.0));
        assert_eq!(get(&rows, Key::Edge), Some(0.5));
        assert_eq!(get(&rows, Key::Margin), Some(2.0));
        assert_eq!(get(&rows, Key::Metric("a".into())), Some(2.0));
        assert_eq!(get(&rows, Key::Metric("b".into())), None);
    }

    #[test]
    fn a_shared_win_counts_a_share_for_each() {
        let rows = outcome(vec![1, 3], None).rows();
        assert_eq!(get(&rows, Key::Shared), Some(1.0));
        assert_eq!(get(&rows, Key::SeatWin(1)), Some(0.5));
        assert_eq!(get(&rows, Key::Edge), Some(0.25));
        assert_eq!(get(&rows, Key::Margin), None);
        assert!(rows.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn a_lead_is_player_ones_wins_minus_the_others_in_the_same_game() {
        // Seats rotated by one: player 1 sits at seat 2, player 2 at seat 3.
        let rotated = |winners| Outcome {
            players_at: Some(vec![3, 0, 1, 2]),
            ..outcome(winners, None)
        };
        let rows = rotated(vec![2]).rows();
        assert_eq!(get(&rows, Key::PlayerWin(1)), Some(1.0));
        assert_eq!(get(&rows, Key::PlayerLead(2)), Some(1.0));
        assert_eq!(get(&rows, Key::PlayerLead(4)), Some(1.0));
        let rows = rotated(vec![3]).rows();
        assert_eq!(get(&rows, Key::PlayerLead(2)), Some(-1.0));
        assert_eq!(get(&rows, Key::PlayerLead(3)), Some(0.0));
        // A win shared by players 1 and 2 is no lead of one over the other.
        let rows = rotated(vec![2, 3]).rows();
        assert_eq!(get(&rows, Key::PlayerLead(2)), Some(0.0));
        assert_eq!(get(&rows, Key::PlayerLead(3)), Some(0.5));
        // Without rotation there are no players, so no lead.
        assert_eq!(
            get(&outcome(vec![2], None).rows(), Key::PlayerLead(2)),
            None
        );
        assert_eq!("lead.player3".parse::<Key>(), Ok(Key::PlayerLead(3)));
        assert!("lead.player1".parse::<Key>().is_err());
        assert_eq!(Key::PlayerLead(3).to_string(), "lead.player3");
    }

    #[test]
    fn the_margin_is_measured_on_the_side_the_game_counts() {
        // Fewest points win: seat 4 (0) is 1 below seat 2.
        let rows = outcome(vec![4], None).rows();
        assert_eq!(get(&rows, Key::Margin), Some(1.0));
        // A winner neither highest nor lowest won by other means.
        let rows = outcome(vec![2], None).rows();
        assert_eq!(get(&rows, Key::Margin), None);
    }

    #[test]
    fn key_names_read_back() {
        for k in [
            Key::SeatWin(3),
            Key::TeamWin(2),
            Key::PlayerWin(2),
            Key::Edge,
            Key::Metric("bets lost".into()),
            Key::NoWinner,
        ] {
            assert_eq!(k.to_string().parse::<Key>(), Ok(k));
        }
        assert!("win.seat0".parse::<Key>().is_err());
        assert!("win.player".parse::<Key>().is_err());
    }
}
