//! `seats`: who sits at each seat, shown or changed for the game in
//! progress (the bots move if it becomes a bot's turn).

use super::{Command, Run};
use crate::repl::args::{self, Refused};
use crate::repl::registry::CommandInfo;
use crate::repl::session::{Flow, Session};
use crate::repl::vocabulary::{matching, Completion, Typed, Vocabulary};
use crate::seats::{self, SeatSpec};
use deckhand_bots::Bot;
use deckhand_engine::{RulesInfo, Seat};

/// `seats` as users see it, how it reads and completes its arguments.
pub const COMMAND: Command = Command {
    info: CommandInfo {
        name: "seats",
        aliases: &["seat"],
        args: "[WHO,WHO,... | SEAT=WHO...]",
        summary: "show or change who sits at each seat",
        help: "Show who sits at each seat, or change it for the current game: WHO is human,
random, or a bot of the game. Give the whole list in seat order, or change
single seats with SEAT=WHO. If it becomes a bot's turn, the bots move.
Examples:
  seats
  seats human,greedy,random,greedy
  seats 3=human
  seats 1=greedy",
    },
    parse,
    complete,
};

/// The arguments of `seats`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeatsChange {
    /// Just show them.
    Show,
    /// Every seat in order (missing ones keep what they have).
    All(Vec<String>),
    /// Single seats: `(seat, kind)`.
    Some(Vec<(u32, String)>),
}

fn parse(rest: &str) -> Result<Box<dyn Run>, Refused> {
    Ok(Box::new(seats_change(rest)?))
}

fn seats_change(rest: &str) -> Result<SeatsChange, String> {
    if rest.is_empty() {
        return Ok(SeatsChange::Show);
    }
    if rest.contains('=') {
        let mut changes = Vec::new();
        for word in rest.split_whitespace() {
            let (seat, kind) = word
                .split_once('=')
                .ok_or_else(|| format!("'{word}' should be SEAT=WHO"))?;
            let seat = seat
                .parse::<u32>()
                .ok()
                .filter(|s| *s >= 1)
                .ok_or_else(|| format!("'{seat}' is not a seat number"))?;
            if kind.is_empty() {
                return Err(format!("who sits at seat {seat}?"));
            }
            changes.push((seat, kind.to_string()));
        }
        return Ok(SeatsChange::Some(changes));
    }
    let joined: String = rest.split_whitespace().collect::<Vec<_>>().join(",");
    args::list(&joined.replace(",,", ",")).map(SeatsChange::All)
}

/// Who may sit at a seat of the current game, after a comma or `SEAT=`.
fn complete(v: &Vocabulary, typed: &Typed) -> Completion {
    let start = typed
        .after(',')
        .or_else(|| typed.after('='))
        .unwrap_or(typed.word_start);
    let game = v.current.clone();
    Some((
        start,
        matching(v.seat_kinds(game.as_deref()), &typed.before[start..]),
    ))
}

impl Run for SeatsChange {
    fn run(self: Box<Self>, session: &mut Session) -> Flow {
        session.seats(*self);
        Flow::Continue
    }
}

impl Session {
    fn seats(&mut self, change: SeatsChange) {
        let Some(c) = self.current.as_mut() else {
            return self
                .out
                .error("no game in progress: give seats when you start one, e.g. `new GAME seats=human,random`");
        };
        let players = c.seats.len();
        let mut specs = c.seats.clone();
        match &change {
            SeatsChange::Show => {}
            SeatsChange::All(list) => {
                if list.len() > players {
                    return self
                        .out
                        .error(format!("{} seats given for {players} players", list.len()));
                }
                for (i, w) in list.iter().enumerate() {
                    specs[i] = SeatSpec::parse(w);
                }
            }
            SeatsChange::Some(list) => {
                for (seat, w) in list {
                    if *seat as usize > players {
                        return self.out.error(format!(
                            "there is no seat {seat}: this game has {players} seats"
                        ));
                    }
                    specs[*seat as usize - 1] = SeatSpec::parse(w);
                }
            }
        }
        if change != SeatsChange::Show {
            let info: RulesInfo = c.game.rules_info().clone();
            if let Err(e) = seats::complete(
                &specs,
                players as u32,
                &SeatSpec::Human,
                &info,
                seats::Table::People,
            ) {
                return self.out.error(e.to_string());
            }
            for (i, (old, new)) in c.seats.iter().zip(specs.iter()).enumerate() {
                if old != new {
                    c.bots[i] = match new {
                        SeatSpec::Human => None,
                        SeatSpec::Bot(k) => {
                            Some(Bot::new(k.clone(), c.game.config().seed, i as Seat + 1))
                        }
                    };
                }
            }
            c.seats = specs;
        }
        let to_move = c.game.pending().map(|p| p.0);
        let lines: Vec<String> = (1..=players as Seat)
            .map(|s| {
                let mark = if to_move == Some(s) {
                    "  <- to play"
                } else {
                    ""
                };
                format!("  {}{mark}", c.label(s))
            })
            .collect();
        self.out.say(lines.join("\n"));
        if change != SeatsChange::Show && to_move.is_some_and(|s| !c.is_human(s)) {
            self.advance();
        }
    }
}
