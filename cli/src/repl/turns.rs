//! Playing: a move by number or by text, the bots' moves after it, whose
//! turn it is, the end of the game (the commands `undo` and `redo` use it).

use super::args::ParseError;
use super::cards;
use super::choose::{self, NoPick};
use super::session::{label, option_text, plural, say_events, Output, Session};
use super::thinking::Thinking;
use crate::render::Painter;
use crate::seats::SeatSpec;
use deckhand_engine::{
    Choice, Chooser, Choosing, CoreError, Event, Game, Observer, Runner, Seat, StepError, Stop,
};
use std::cell::Cell;
use std::rc::Rc;

/// Shows each move as the runner applies it (a person's or a bot's): who
/// made it and what the people at this terminal may see of it and of its
/// events.
struct Printer<'a> {
    out: &'a mut Output,
    seats: &'a [SeatSpec],
    painter: &'a Painter,
    /// The text of the move being applied (for the message if it fails).
    text: String,
    /// Set while the REPL passes a window for a person (auto-pass).
    auto: Rc<Cell<bool>>,
}

impl<'a> Printer<'a> {
    fn new(out: &'a mut Output, seats: &'a [SeatSpec], painter: &'a Painter) -> Self {
        Printer {
            out,
            seats,
            painter,
            text: String::new(),
            auto: Rc::new(Cell::new(false)),
        }
    }
}

impl Observer for Printer<'_> {
    fn decision(&mut self, game: &Game, _: Seat, choice: &Choice) -> deckhand_engine::Result<()> {
        self.text = option_text(game, self.seats, choice);
        Ok(())
    }

    fn step(
        &mut self,
        game: &Game,
        seat: Seat,
        _: &Choice,
        events: &[Event],
    ) -> deckhand_engine::Result<()> {
        let auto = if self.auto.get() { " (auto-pass)" } else { "" };
        self.out.say(format!(
            "{}: {}{auto}",
            label(self.seats, seat),
            self.painter.paint_names(&self.text)
        ));
        say_events(game, self.seats, self.painter, events, self.out);
        // The move is shown before the next seat (a bot) starts thinking.
        self.out.flush_live();
        Ok(())
    }
}

impl Session {
    /// Check that a person can move now; the error message otherwise.
    pub(super) fn can_move(&self) -> Result<(), String> {
        let Some(c) = &self.current else {
            return Err(
                "no game in progress: type `new GAME` to start one (`games` lists them)".into(),
            );
        };
        match c.game.pending() {
            None => Err("the game is over: type `new` to play again, or `undo` to take your last move back".into()),
            Some((s, _)) if !c.is_human(s) => Err(format!(
                "it is {}'s turn and the bot could not move: change the seat with `seats {s}=human`, \
                 `undo`, or fix the script and `reload`",
                c.label(s)
            )),
            Some(_) => Ok(()),
        }
    }

    pub(super) fn play_index(&mut self, index: usize) {
        if let Err(e) = self.can_move() {
            return self.out.error(e);
        }
        let Some(c) = self.current.as_ref() else {
            return;
        };
        if c.game.has_subsets() {
            if let Ok(Some(d)) = c.game.decision() {
                if let Some((o, min, max)) = c
                    .card_options(&d)
                    .into_iter()
                    .find(|(o, _, _)| o.index == index)
                {
                    return self.out.error(format!(
                        "move {index} ({}) asks for cards: {}",
                        o.text,
                        cards::listing(&o, min, max)
                    ));
                }
            }
        }
        self.play_choice(Choice::option(index));
    }

    /// Play `choice` for the person to move.
    pub(super) fn play_choice(&mut self, choice: Choice) {
        if let Err(e) = self.can_move() {
            return self.out.error(e);
        }
        let Some(c) = self.current.as_mut() else {
            return;
        };
        let Some((seat, n)) = c.game.pending() else {
            return;
        };
        let index = choice.index;
        if index > n {
            return self.out.error(format!(
                "there is no move {index}: choose 1 to {n} (type `moves` to list them)"
            ));
        }
        if choice.picks.is_some() {
            // The rules' own words when they refuse the set.
            if let Err(e) = c.game.check_choice(&choice) {
                return self.out.error(format!("not these cards: {e}"));
            }
        }
        let before = c.game.history().len();
        let mut printer = Printer::new(&mut self.out, &c.seats, &c.painter);
        // A person's move goes through the runner too, so that it is shown
        // as a bot's is.
        let applied = Runner::new(Vec::new())
            .observe(&mut printer)
            .apply(&mut c.game, choice);
        if let Err(e) = applied {
            // Applied, but the rules could not report the result of the game
            // it ended: `announce` says so.
            if c.game.history().len() == before {
                return self
                    .out
                    .error(format!("that move failed, nothing changed: {e}"));
            }
        }
        c.last_human = Some(seat);
        self.advance();
    }

    /// A move that names a set of cards (`sell 1 3 4`, `2 rum, tea`):
    /// `None` when `text` does not start with an option that asks for
    /// cards.
    fn play_cards(&mut self, text: &str) -> Option<()> {
        let c = self.current.as_ref()?;
        if !c.game.has_subsets() || c.human_to_move().is_none() {
            return None;
        }
        let d = c.game.decision().ok()??;
        let options = c.card_options(&d);
        let plain: Vec<cards::CardOption> = options.iter().map(|(o, _, _)| o.clone()).collect();
        let result = cards::split(&plain, text)?.and_then(|(index, rest)| {
            let names = plain
                .iter()
                .find(|o| o.index == index)
                .map_or(&[][..], |o| &o.cards[..]);
            cards::picks(names, rest).map(|p| Choice::subset(index, p))
        });
        match result {
            Ok(choice) => self.play_choice(choice),
            Err(e) => self.out.error(e),
        }
        Some(())
    }

    /// A move by its text or the name of its card. A line that names a
    /// card of the game exactly is a move: when that card is not one of
    /// the moves, the rules say why (`rules.why_not`), else the moves are
    /// listed.
    pub(super) fn play_text(&mut self, text: &str, unknown: Option<ParseError>) {
        if self.play_cards(text).is_some() {
            return;
        }
        let card = self.current.as_ref().and_then(|c| c.card_named(text));
        if let Err(e) = self.can_move() {
            return self.out.error(match unknown {
                Some(u) if card.is_none() => u.to_string(),
                _ => e,
            });
        }
        let Some(c) = &self.current else { return };
        let named = c.named_moves();
        let exact = named
            .iter()
            .any(|o| o.names.iter().any(|n| choose::same_name(text, n)));
        if let (Some(id), false) = (card, exact) {
            let msg = c.why_not(id, &named);
            return self.out.error(msg);
        }
        match choose::pick(&named, text) {
            Ok(i) => self.play_index(i),
            Err(NoPick::None) => {
                let like_a_card = c.looks_like_a_card(text);
                self.out.error(match unknown {
                    Some(u) if !like_a_card => u.to_string(),
                    _ if like_a_card => format!(
                        "no card of this game is called '{text}', and no legal move matches it \
                         (type `moves` to list them)"
                    ),
                    _ => format!("no legal move matches '{text}' (type `moves` to list them)"),
                })
            }
            Err(NoPick::Ambiguous(list)) => {
                let items: Vec<String> = list.iter().map(|(i, t)| format!("{i}) {t}")).collect();
                self.out.error(format!(
                    "'{text}' could be several moves: {} — type more of it, or the number",
                    items.join(", ")
                ))
            }
        }
    }

    /// Let the bots move, then announce the next person's turn (table and
    /// moves) or the end of the game.
    pub(super) fn advance(&mut self) {
        let Some(c) = self.current.as_mut() else {
            return;
        };
        c.events(&mut self.out);
        // The bots are the runner's choosers; a person's seat has none, so
        // play stops there. Ctrl-C stops them between two steps, or a
        // search bot between two playouts.
        let cancel = self.cancel.clone();
        // At a terminal, a bot that takes more than a moment says so.
        let live = self.out.is_live();
        self.out.flush_live();
        let labels: Vec<String> = (1..=c.bots.len() as Seat).map(|s| c.label(s)).collect();
        let choosers = c
            .bots
            .iter_mut()
            .zip(labels)
            .map(|(bot, who)| {
                bot.as_mut().map(|bot| {
                    bot.set_cancel(Some(cancel.clone()));
                    let cancel = cancel.clone();
                    // A search runs compiled in a child process when it
                    // can (crate::offload), else here.
                    Box::new(Choosing(move |g: &Game| {
                        let _thinking = live.then(|| Thinking::start(who.clone()));
                        crate::offload::choose(bot, g, Some(&cancel))
                            .unwrap_or_else(|| bot.choose(g))
                    })) as Box<dyn Chooser>
                })
            })
            .collect();
        let mut printer = Printer::new(&mut self.out, &c.seats, &c.painter);
        let auto = printer.auto.clone();
        let mut runner = Runner::new(choosers)
            .observe(&mut printer)
            .cancel(self.cancel.clone());
        // A person asked in a window they auto-pass passes without a
        // question; their next turn ends an "until my turn".
        let played = loop {
            let played = runner.play(&mut c.game);
            let Ok(Stop::Waiting(seat)) = played else {
                break played;
            };
            let kind = c.game.window().ok().flatten();
            match (kind, c.game.window_pass()) {
                (Some(kind), Some(pass)) if c.autopass.passes(seat, &kind) => {
                    let step = c.game.history().len() + 1;
                    auto.set(true);
                    let applied = runner.apply(&mut c.game, pass);
                    auto.set(false);
                    if let Err(error) = applied {
                        break Err(StepError {
                            step,
                            seat,
                            choosing: false,
                            error,
                        });
                    }
                }
                (None, _) => {
                    c.autopass.turn_reached(seat);
                    break played;
                }
                _ => break played,
            }
        };
        let limit = runner.step_limit(&c.game);
        drop(runner);
        let text = std::mem::take(&mut printer.text);
        if let Err(e) = played {
            let seat = e.seat;
            let msg = if matches!(e.error, CoreError::Cancelled) {
                format!(
                    "interrupted (Ctrl-C) while {} was choosing; the game is as it stood before \
                     that move. Type `continue` to let the bots play on, `undo` to take your \
                     move back, or `seats {seat}=random` for a quicker bot.",
                    c.label(seat)
                )
            } else if e.choosing {
                format!(
                    "the bot at {} could not choose: {} (try `seats {seat}=random`, `undo`, or fix the script and `reload`)",
                    c.label(seat),
                    e.error
                )
            } else if e.step > limit {
                format!(
                    "the game did not end within {limit} decisions; the bots stopped (the rules may never end)"
                )
            } else if c.game.history().len() >= e.step {
                // The move was applied, but the rules could not report the
                // result of the game it ended: `announce` says so.
                return self.announce();
            } else {
                format!(
                    "the move of {} ({text}) failed, nothing changed: {} (try `undo`, or fix the script and `reload`)",
                    c.label(seat),
                    e.error
                )
            };
            return self.out.error(msg);
        }
        self.announce();
    }

    /// The table and the moves of the person to move, or the result.
    pub(super) fn announce(&mut self) {
        let Some(c) = self.current.as_ref() else {
            return;
        };
        match c.game.pending() {
            None => {
                self.out.say(c.table());
                self.result();
            }
            Some((seat, _)) if c.is_human(seat) => {
                if c.humans().len() > 1 {
                    // Another person typed the command (a move, `undo`,
                    // `load` ...): they pass the terminal on before this
                    // seat's hand is shown.
                    if self.looking.is_some_and(|looking| looking != seat) {
                        self.out.hand_to(seat);
                    }
                    self.out.say(format!(
                        "── {} to play (hot-seat: only seat {seat} should look) ──",
                        c.label(seat)
                    ));
                }
                self.out.say(c.table());
                match c.moves() {
                    Ok(m) => self.out.say(m),
                    Err(e) => self.out.error(e),
                }
            }
            Some(_) => {}
        }
    }

    pub(super) fn result(&mut self) {
        let Some(c) = self.current.as_ref() else {
            return;
        };
        let r = match c.game.result() {
            Ok(r) => r,
            Err(e) => {
                return self.out.error(format!(
                    "game over, but the rules could not report the result: {e}"
                ))
            }
        };
        let mut lines = vec![format!(
            "Game over after {} moves{}.",
            c.game.history().len(),
            if r.rounds > 0 {
                format!(" and {} round{}", r.rounds, plural(r.rounds as usize))
            } else {
                String::new()
            }
        )];
        for (i, s) in r.scores.iter().enumerate() {
            let seat = i as Seat + 1;
            let mark = if r.winners.contains(&seat) {
                "  winner"
            } else {
                ""
            };
            lines.push(format!("  {:<22} {:>6}{mark}", c.label(seat), number(*s)));
        }
        let winners: Vec<String> = r.winners.iter().map(|&w| c.label(w)).collect();
        lines.push(match winners.as_slice() {
            [] => "No seat wins.".to_string(),
            [one] => format!("Winner: {one}."),
            many => format!("Winners: {}.", many.join(", ")),
        });
        lines.push(
            "Type `new` to play again with a new seed, `new GAME ...` for another game, or `undo` to take your last move back."
                .into(),
        );
        self.out.say(lines.join("\n"));
    }
}

/// Whose moves an `undo` or `redo` took back or played again: "your last
/// move" when one person plays; in a hot-seat game, the seats by number
/// ("seat 1's last move", "the last 3 moves of seats 1 and 2"), so that
/// nobody takes another person's move for their own. `whose`: the seat of
/// each person's move, `last`: "last " for an undo.
pub(super) fn moves_of(hot_seat: bool, whose: &[Seat], last: &str) -> String {
    let n = whose.len();
    if !hot_seat {
        return if n == 1 {
            format!("your {last}move")
        } else {
            format!("your {last}{n} moves")
        };
    }
    let mut seats = whose.to_vec();
    seats.sort_unstable();
    seats.dedup();
    match (n, seats.as_slice()) {
        (0, _) => "no person's move".to_string(),
        (1, [seat]) => format!("seat {seat}'s {last}move"),
        (_, [seat]) => format!("seat {seat}'s {last}{n} moves"),
        (_, many) => {
            let names: Vec<String> = many.iter().map(|s| s.to_string()).collect();
            let (init, tail) = names.split_at(names.len() - 1);
            format!(
                "the {last}{n} moves of seats {} and {}",
                init.join(", "),
                tail.join("")
            )
        }
    }
}

/// A score without a needless `.0`.
fn number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}
